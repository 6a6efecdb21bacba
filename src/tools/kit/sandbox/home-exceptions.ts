import { basename, delimiter, dirname, join, relative, sep } from "node:path";
import type { Env } from "../../../shared/env.js";

/** Folders of the home that hold many unrelated things: a PATH entry in them is exposed alone, not its top folder. */
const SHARED_TOP_FOLDERS = new Set([".local", ".config", ".cache", ".var"]);

/** What toolchains on PATH need beside their own folder: rustup's toolchains for ~/.cargo/bin, pip's --user packages. */
const TOOLCHAIN_COMPANIONS = [".rustup", ".local/lib"];

/** git's identity and settings, read-only: commits made inside the sandbox carry the user's name. */
const GIT_IDENTITY = [".gitconfig", ".config/git"];

function pathEntries(env: Env): string[] {
  return (env.PATH ?? "").split(delimiter).filter((entry) => entry.startsWith("/"));
}

/**
 * The toolchains on PATH that lie in the emptied folders other than the home (/tmp, /run…): for a `bin` or
 * `.bin` entry the folder holding it (a virtual environment, a node_modules), else the entry itself.
 */
export function emptiedToolchains(folders: string[], env: Env): string[] {
  const inEmptied = pathEntries(env).filter((entry) =>
    folders.some((folder) => {
      const inside = relative(folder, entry);
      return inside !== "" && !inside.startsWith("..");
    }),
  );
  return inEmptied.map((entry) => (["bin", ".bin"].includes(basename(entry)) ? dirname(entry) : entry));
}

/**
 * The folder of the home to expose for a PATH entry in it: its top folder (~/.cargo for ~/.cargo/bin,
 * ~/.nvm for ~/.nvm/versions/node/v22/bin), or the entry itself in a shared one (~/.local/bin); undefined
 * for an entry outside the home, or the home itself.
 */
function toolchainFolder(home: string, entry: string): string | undefined {
  const inside = relative(home, entry);
  if (!inside || inside.startsWith("..") || entry[0] !== "/") return undefined;
  const top = inside.split(sep)[0]!;
  return SHARED_TOP_FOLDERS.has(top) ? entry : join(home, top);
}

/**
 * The paths of `home` a sandboxed command may still read when the home is hidden: the toolchains on
 * PATH (and what they need), git's identity, and where XDG_CONFIG_HOME or GIT_CONFIG_GLOBAL keep git's
 * settings (wherever that is). They may not exist; credential files inside them stay hidden (see secret-paths.ts).
 */
export function homeExceptions(home: string, env: Env): string[] {
  const path = pathEntries(env);
  const toolchains = path.flatMap((entry) => toolchainFolder(home, entry) ?? []);
  const gitSettings = [
    ...(env.XDG_CONFIG_HOME?.startsWith("/") ? [join(env.XDG_CONFIG_HOME, "git")] : []),
    ...(env.GIT_CONFIG_GLOBAL?.startsWith("/") ? [env.GIT_CONFIG_GLOBAL] : []),
  ];
  const fixed = [...TOOLCHAIN_COMPANIONS, ...GIT_IDENTITY].map((name) => join(home, name));
  return [...new Set([...toolchains, ...fixed, ...gitSettings])];
}
