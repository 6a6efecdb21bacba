import { readdir, realpath, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { delimiter, extname, isAbsolute, join } from "node:path";
import { z } from "zod";
import type { Env } from "../../../shared/env.js";
import { errorMessage } from "../../../shared/error-message.js";
import { programOnPath } from "../../../shared/program-on-path.js";
import { readStateText } from "../../../state/atomic-file.js";

/** The languages Marvin knows a server for, by the name `lsp.json` uses. */
const LANGUAGES = ["typescript", "python", "go", "rust", "c"] as const;
export type Language = (typeof LANGUAGES)[number];

/** File extension → language and the LSP language id of such a file. */
const FILE_KINDS: Record<string, { language: Language; languageId: string }> = {
  ".ts": { language: "typescript", languageId: "typescript" },
  ".mts": { language: "typescript", languageId: "typescript" },
  ".cts": { language: "typescript", languageId: "typescript" },
  ".tsx": { language: "typescript", languageId: "typescriptreact" },
  ".js": { language: "typescript", languageId: "javascript" },
  ".mjs": { language: "typescript", languageId: "javascript" },
  ".cjs": { language: "typescript", languageId: "javascript" },
  ".jsx": { language: "typescript", languageId: "javascriptreact" },
  ".py": { language: "python", languageId: "python" },
  ".pyi": { language: "python", languageId: "python" },
  ".go": { language: "go", languageId: "go" },
  ".rs": { language: "rust", languageId: "rust" },
  ".c": { language: "c", languageId: "c" },
  ".h": { language: "c", languageId: "c" },
  ".cc": { language: "c", languageId: "cpp" },
  ".cpp": { language: "c", languageId: "cpp" },
  ".cxx": { language: "c", languageId: "cpp" },
  ".hh": { language: "c", languageId: "cpp" },
  ".hpp": { language: "c", languageId: "cpp" },
};

export function fileKind(path: string): { language: Language; languageId: string } | undefined {
  return FILE_KINDS[extname(path).toLowerCase()];
}

/** Files that make a folder a TypeScript or JavaScript project even before it holds code. */
const TYPESCRIPT_PROJECT_FILES = new Set(["tsconfig.json", "jsconfig.json"]);

/** Files larger than this are not opened to warm a server up. */
const WARM_UP_FILE_LIMIT = 1_000_000;

/**
 * The languages whose code `root` holds at its top or in its `src` folder (by the file kinds above), or that its
 * project files name, each with one of its regular files (when there is one) to open first: the servers worth
 * starting before the first write.
 */
export async function projectCode(root: string): Promise<{ language: Language; file?: string }[]> {
  const found = new Map<Language, string | undefined>();
  for (const dir of [root, join(root, "src")]) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (TYPESCRIPT_PROJECT_FILES.has(entry.name) && !found.has("typescript")) found.set("typescript", undefined);
      const language = fileKind(entry.name)?.language;
      if (!language || !entry.isFile() || found.get(language)) continue;
      const file = join(dir, entry.name);
      const small = await stat(file).then(
        (info) => info.size <= WARM_UP_FILE_LIMIT,
        () => false,
      );
      if (small) found.set(language, file);
    }
  }
  return [...found].map(([language, file]) => (file ? { language, file } : { language }));
}

/** How to start one language's server: a program and its arguments, run in the working directory. */
export interface ServerCommand {
  command: string;
  args: string[];
  initializationOptions?: unknown;
  /** Variables added to the server's (credential-free) environment. */
  env?: Record<string, string>;
}

/** A found server, or why there is none (shown once as a notice). */
type ServerChoice = { found: ServerCommand } | { missing: string };

const entry = z.union([
  z.literal(false),
  z.strictObject({
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    initializationOptions: z.record(z.string(), z.unknown()).optional(),
  }),
]);
const lspFile = z.strictObject({ servers: z.partialRecord(z.enum(LANGUAGES), entry) });
type LspFile = z.output<typeof lspFile>;

/** The user's `lsp.json` (never a project's): which server each language uses, `false` to use none. */
export async function loadLspConfig(path: string): Promise<{ config: LspFile; warning?: string }> {
  const empty: LspFile = { servers: {} };
  const read = await readStateText(path).catch((error: unknown) => ({ problem: errorMessage(error) }));
  if ("problem" in read) return { config: empty, warning: `Could not read ${path}: ${read.problem}.` };
  if (read.value === undefined || read.value.trim() === "") return { config: empty };
  try {
    return { config: lspFile.parse(JSON.parse(read.value)) };
  } catch (error) {
    const reason = error instanceof z.ZodError ? z.prettifyError(error) : errorMessage(error);
    return { config: empty, warning: `${path} is not used: ${reason}` };
  }
}

/**
 * PATH without its relative folders: "." or "node_modules/.bin" on PATH would let the project's own files
 * decide which program Marvin starts.
 */
export function absolutePath(env: Env): string {
  return (env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => isAbsolute(dir))
    .join(delimiter);
}

async function onPath(env: Env, name: string): Promise<string | undefined> {
  return programOnPath({ PATH: absolutePath(env) }, name);
}

function resolveFrom(from: string, specifier: string): string | undefined {
  try {
    return createRequire(from).resolve(specifier);
  } catch {
    return undefined;
  }
}

/**
 * The tsserver typescript-language-server is told to use: Marvin's own TypeScript, or the one installed beside
 * the server (a global install). Never the project's node_modules/typescript, which a file the model can write
 * would then run.
 */
async function trustedTsserver(server: string | undefined): Promise<string | undefined> {
  const own = resolveFrom(import.meta.url, "typescript/lib/tsserver.js");
  if (own) return own;
  if (!server) return undefined;
  return resolveFrom(await realpath(server).catch(() => server), "typescript/lib/tsserver.js");
}

const NO_TYPESCRIPT = "typescript-language-server needs TypeScript (npm install -g typescript)";

/** No automatic download of type packages (it runs npm), and a tsserver the project cannot replace. */
async function typescriptOptions(server: string | undefined): Promise<object | undefined> {
  const tsserver = await trustedTsserver(server);
  return tsserver ? { tsserver: { path: tsserver }, disableAutomaticTypingAcquisition: true } : undefined;
}

async function typescriptServer(env: Env): Promise<ServerChoice> {
  const onPathServer = await onPath(env, "typescript-language-server");
  const ownServer = resolveFrom(import.meta.url, "typescript-language-server/lib/cli.mjs");
  if (!onPathServer && !ownServer)
    return { missing: "typescript-language-server is not installed (npm install -g typescript-language-server)" };
  const initializationOptions = await typescriptOptions(onPathServer);
  if (!initializationOptions) return { missing: NO_TYPESCRIPT };
  return onPathServer
    ? { found: { command: onPathServer, args: ["--stdio"], initializationOptions } }
    : { found: { command: process.execPath, args: [ownServer!, "--stdio"], initializationOptions } };
}

/** Servers found on PATH: the program, its arguments, and what keeps it from running the project's own code. */
const PATH_SERVERS: Partial<Record<Language, { program: string; hint: string } & Omit<ServerCommand, "command">>> = {
  python: { program: "pyright-langserver", args: ["--stdio"], hint: "npm install -g pyright" },
  // The project's go.mod may name another Go toolchain: never download and run one for diagnostics.
  go: { program: "gopls", args: [], env: { GOTOOLCHAIN: "local" }, hint: "go install golang.org/x/tools/gopls@latest" },
  c: { program: "clangd", args: [], hint: "install clangd" },
};

/** rust-analyzer runs cargo, which the project's .cargo/config.toml and rust-toolchain.toml configure. */
const RUST_NEEDS_CONFIG =
  "rust-analyzer is started only when configured in lsp.json: it runs cargo, which the project's own files " +
  "configure";

/** Build scripts, proc macros and `cargo check` run the project's code: off unless the user's lsp.json says more. */
const RUST_DEFAULTS = {
  cargo: { buildScripts: { enable: false } },
  procMacro: { enable: false },
  checkOnSave: false,
};

/** Which server `language` uses: the user's lsp.json first, then what is installed. */
export async function chooseServer(language: Language, config: LspFile, env: Env): Promise<ServerChoice> {
  const configured = config.servers[language];
  if (configured === false) return { missing: `${language} is turned off in lsp.json` };
  if (configured) {
    const command = isAbsolute(configured.command) ? configured.command : await onPath(env, configured.command);
    if (!command) return { missing: `${configured.command} (from lsp.json) is not on PATH` };
    if (language === "typescript") {
      const pinned = await typescriptOptions(command);
      if (!pinned) return { missing: NO_TYPESCRIPT };
      const initializationOptions = { ...pinned, ...configured.initializationOptions };
      return { found: { command, args: configured.args, initializationOptions } };
    }
    const defaults = language === "rust" ? RUST_DEFAULTS : undefined;
    return {
      found: { command, args: configured.args, initializationOptions: configured.initializationOptions ?? defaults },
    };
  }
  if (language === "typescript") return typescriptServer(env);
  if (language === "rust") return { missing: RUST_NEEDS_CONFIG };
  const known = PATH_SERVERS[language]!;
  const command = await onPath(env, known.program);
  if (!command) return { missing: `${known.program} is not installed (${known.hint})` };
  return { found: { command, args: known.args, ...(known.env ? { env: known.env } : {}) } };
}
