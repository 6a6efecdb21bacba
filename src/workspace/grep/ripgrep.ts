import { spawn } from "node:child_process";
import { toolChildEnv } from "../../shared/child-env.js";
import { ToolError } from "../../shared/tool-error.js";
import {
  ALWAYS_SKIPPED,
  byPath,
  displayLine,
  type GrepFile,
  type GrepLine,
  type GrepQuery,
  type GrepSearchResult,
  invalidPattern,
} from "./format.js";

/** Raw JSON lines kept in memory at most; past it, matches are only counted. */
const MAX_BUFFERED_CHARS = 32 * 1024 * 1024;

interface RipgrepText {
  text?: string;
  bytes?: string;
}

interface RawFile {
  path: string;
  events: string[];
}

const decode = (value: RipgrepText | undefined) =>
  value?.text ?? (value?.bytes ? Buffer.from(value.bytes, "base64").toString("utf8") : "");

const stripDotSlash = (path: string) => (path.startsWith("./") ? path.slice(2) : path);

function ripgrepArguments(query: GrepQuery): string[] {
  const args = [
    "--json",
    "--no-config",
    "--no-messages",
    "--hidden",
    "--no-require-git",
    "--context",
    String(query.contextLines),
  ];
  if (query.ignoreCase) args.push("--ignore-case");
  for (const glob of query.globs) args.push("--glob", glob);
  // Later globs win in ripgrep, so these come last and hold whatever the filter says.
  for (const name of ALWAYS_SKIPPED) args.push("--glob", `!${name}`);
  args.push("--regexp", query.pattern, "--", query.searchPath === "." ? "." : `./${query.searchPath}`);
  return args;
}

function parseFile(raw: RawFile): GrepFile {
  const lines: GrepLine[] = [];
  for (const event of raw.events) {
    const parsed = JSON.parse(event) as { type: string; data: { lines: RipgrepText; line_number: number } };
    lines.push({
      number: parsed.data.line_number,
      text: displayLine(decode(parsed.data.lines)),
      match: parsed.type === "match",
    });
  }
  return { path: raw.path, lines };
}

/** Collects ripgrep's JSON events per file; a file's events arrive together. */
class EventCollector {
  readonly files: RawFile[] = [];
  totalMatches = 0;
  totalFiles = 0;
  private current: RawFile | undefined;
  private buffered = 0;
  private pending = "";

  push(chunk: string): void {
    const text = this.pending + chunk;
    const lines = text.split("\n");
    this.pending = lines.pop() ?? "";
    for (const line of lines) this.line(line);
  }

  private line(line: string): void {
    if (line.startsWith('{"type":"match"') || line.startsWith('{"type":"context"')) {
      if (!this.current) return;
      this.buffered += line.length;
      if (this.buffered <= MAX_BUFFERED_CHARS) this.current.events.push(line);
      return;
    }
    if (line === "" || line.startsWith('{"type":"end"')) return;
    // begin and summary: a couple per file, so a full parse costs nothing (key order varies).
    const event = JSON.parse(line) as {
      type: string;
      data: { path?: RipgrepText; stats?: { matched_lines: number; searches_with_match: number } };
    };
    if (event.type === "begin") {
      this.current = { path: stripDotSlash(decode(event.data.path)), events: [] };
      if (this.buffered <= MAX_BUFFERED_CHARS) this.files.push(this.current);
    } else if (event.type === "summary" && event.data.stats) {
      this.totalMatches = event.data.stats.matched_lines;
      this.totalFiles = event.data.stats.searches_with_match;
    }
  }

  result(maxResults: number): GrepSearchResult {
    const files: GrepFile[] = [];
    let matches = 0;
    for (const raw of this.files.sort(byPath)) {
      if (matches >= maxResults) break;
      const file = parseFile(raw);
      if (!file.lines.some((line) => line.match)) continue;
      files.push(file);
      matches += file.lines.filter((line) => line.match).length;
    }
    return { files, totalMatches: this.totalMatches, totalFiles: this.totalFiles };
  }
}

/**
 * Searches with ripgrep (`rg` on the PATH of `env`, run without its credentials) in `root`.
 * Resolves to undefined when rg is not installed, so the caller can fall back to the built-in search.
 */
export function ripgrepSearch(
  root: string,
  query: GrepQuery,
  env: Readonly<Record<string, string | undefined>>,
  signal: AbortSignal,
): Promise<GrepSearchResult | undefined> {
  return new Promise((resolve, reject) => {
    const child = spawn("rg", ripgrepArguments(query), {
      cwd: root,
      env: toolChildEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
      signal,
    });
    const collector = new EventCollector();
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => collector.push(chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") resolve(undefined);
      else if (error.name === "AbortError") reject(new ToolError("The search was cancelled."));
      else reject(new ToolError(`ripgrep could not be started: ${error.message}`));
    });
    child.on("close", (code) => {
      collector.push("\n");
      if (code === null)
        return reject(
          new ToolError(signal.aborted ? "The search was cancelled." : "ripgrep was killed before it finished."),
        );
      if (code === 2 && /regex parse error/i.test(stderr)) return reject(invalidPattern(query.pattern, stderr));
      if (code === 2 && collector.totalMatches === 0 && stderr.trim())
        return reject(new ToolError(`ripgrep failed: ${stderr.trim().slice(0, 500)}`));
      resolve(collector.result(query.maxResults));
    });
  });
}
