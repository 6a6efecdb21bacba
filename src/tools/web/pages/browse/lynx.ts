import { spawn } from "node:child_process";
import { toolChildEnv } from "../../../../shared/child-env.js";
import { withDeadline } from "../../../../shared/deadline.js";
import type { Env } from "../../../../shared/env.js";
import { withScratchDir } from "../../../../shared/scratch-dir.js";
import { ToolError } from "../../../kit/define-tool.js";

const LYNX_TIMEOUT_MS = 20_000;
const MAX_OUTPUT = 8 * 1024 * 1024;

/**
 * lynx's environment: no credential, no LYNX_CFG or LYNX_LSS (lynx takes its system lynx.cfg), and
 * an empty folder as HOME and working directory, so no .lynxrc or ~/.lynx/ the model could have
 * written changes what it does.
 */
function lynxEnv(env: Env, emptyDir: string): Record<string, string> {
  const inherited = Object.entries(toolChildEnv(env)).filter(([name]) => !name.startsWith("LYNX_"));
  return { ...Object.fromEntries(inherited), HOME: emptyDir, TERM: "dumb" };
}

/**
 * The page as `lynx -dump` renders it, from HTML Marvin already fetched (lynx reads it on stdin and
 * fetches nothing itself, so the address guard stays with Marvin's HTTP client). Resolves to
 * undefined when lynx is not on the PATH of `env`.
 */
export function lynxDump(html: Buffer, charset: string, env: Env, signal: AbortSignal): Promise<string | undefined> {
  return withScratchDir("marvin-lynx-", (emptyDir) => dumpIn(emptyDir, html, charset, env, signal));
}

function dumpIn(
  emptyDir: string,
  html: Buffer,
  charset: string,
  env: Env,
  signal: AbortSignal,
): Promise<string | undefined> {
  const args = [
    "-dump",
    "-stdin",
    "-force_html",
    "-nolist",
    "-nomargins",
    "-width=100",
    `-assume_charset=${charset}`,
    "-display_charset=utf-8",
  ];
  const deadline = withDeadline(signal, LYNX_TIMEOUT_MS);
  return new Promise<string | undefined>((resolve, reject) => {
    const child = spawn("lynx", args, {
      cwd: emptyDir,
      env: lynxEnv(env, emptyDir),
      stdio: ["pipe", "pipe", "pipe"],
      signal: deadline.signal,
    });
    const output: Buffer[] = [];
    let size = 0;
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_OUTPUT) output.push(chunk);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdin.on("error", () => {
      // lynx may exit before reading everything; its exit status says what happened.
    });
    child.stdin.end(html);
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") resolve(undefined);
      else if (error.name === "AbortError") {
        reject(
          new ToolError(signal.aborted ? "Reading the page was cancelled." : "lynx took too long to render the page."),
        );
      } else reject(new ToolError(`lynx could not be started: ${error.message}`));
    });
    child.on("close", (code) => {
      if (code === 0) return resolve(Buffer.concat(output).toString("utf8"));
      if (code !== null) reject(new ToolError(`lynx failed (exit ${code}): ${stderr.trim().slice(0, 300)}`));
    });
  }).finally(deadline.clear);
}
