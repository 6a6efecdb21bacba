import { spawn } from "node:child_process";
import { toolChildEnv } from "../shared/child-env.js";
import type { Env } from "../shared/env.js";
import { ALWAYS_SKIPPED } from "./grep/format.js";
import { GlobOverrides } from "./grep/glob.js";
import { listSearchFiles } from "./grep/walk-files.js";

/** A listing older than this is made again, in the background, the next time it is asked for. */
const FRESH_FOR_MS = 30_000;
/** Files kept at most: enough for any repository a person completes paths in. */
const MAX_FILES = 500_000;

const SKIPPED_GLOBS = ALWAYS_SKIPPED.map((name) => `!${name}`);

/** `rg --files`: every file ripgrep would search (ignore files applied, hidden files kept); undefined without rg. */
function ripgrepFiles(root: string, env: Env): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    const args = ["--files", "--hidden", "--no-require-git", "--no-config", "--no-messages"];
    for (const glob of SKIPPED_GLOBS) args.push("--glob", glob);
    const child = spawn("rg", args, { cwd: root, env: toolChildEnv(env), stdio: ["ignore", "pipe", "ignore"] });
    const files: string[] = [];
    let pending = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      if (files.length < MAX_FILES) files.push(...lines.map((line) => line.replace(/^\.\//, "")));
    });
    child.on("error", () => resolve(undefined));
    child.on("close", () => resolve(files.slice(0, MAX_FILES).sort()));
  });
}

/** The same list without rg, by the built-in walker that follows ripgrep's rules. */
async function walkedFiles(root: string): Promise<string[]> {
  const walked = await listSearchFiles(root, ".", new GlobOverrides(SKIPPED_GLOBS), new AbortController().signal);
  return walked.map((file) => file.relative).sort();
}

/**
 * The files of a directory tree for path completion: listed once with `rg --files` (ignore files
 * respected), kept, and listed again in the background once older than 30 s, so asking is
 * instant even in a repository of 50,000 files. `onUpdate` is called when a listing arrives.
 */
export class FileIndex {
  private root: string | undefined;
  private list: readonly string[] | undefined;
  private listedAt = 0;
  private listing: Promise<void> | undefined;

  constructor(
    private readonly env: Env,
    private readonly onUpdate: () => void = () => undefined,
  ) {}

  /** The files of `root` (posix paths relative to it, sorted) as last listed; undefined until the first listing. */
  files(root: string): readonly string[] | undefined {
    if (root !== this.root) {
      this.root = root;
      this.list = undefined;
      this.listing = undefined;
    }
    if (!this.listing && (this.list === undefined || performance.now() - this.listedAt > FRESH_FOR_MS))
      this.listing = this.relist(root);
    return this.list;
  }

  /** Resolves once the listing in progress (if any) is done. */
  async settled(): Promise<void> {
    await this.listing;
  }

  private async relist(root: string): Promise<void> {
    const files = (await ripgrepFiles(root, this.env)) ?? (await walkedFiles(root).catch(() => []));
    if (root !== this.root) return;
    this.list = files;
    this.listedAt = performance.now();
    this.listing = undefined;
    this.onUpdate();
  }
}
