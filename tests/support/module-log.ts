import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MARVIN_BIN } from "./run-marvin.js";

const CHUNKS = join(MARVIN_BIN, "..", "chunks");

/** The bundle files (dist/bin/chunks) whose code matches `pattern`. */
export function chunksMatching(pattern: RegExp): string[] {
  return readdirSync(CHUNKS).filter((name) => pattern.test(readFileSync(join(CHUNKS, name), "utf8")));
}

/** A module hook that writes the URL of every module the process loads to $MARVIN_TEST_MODULE_LOG. */
const LOG_HOOKS =
  'import { appendFileSync } from "node:fs";' +
  "export async function load(url, context, next) {" +
  "  appendFileSync(process.env.MARVIN_TEST_MODULE_LOG, url + '\\n');" +
  "  return next(url, context);" +
  "}";
const REGISTER_HOOKS =
  'import { register } from "node:module";' +
  `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(LOG_HOOKS)}`)});`;

/** Environment that makes a marvin process log every module it loads to `log`. */
export function moduleLogEnv(log: string): Record<string, string> {
  return {
    NODE_OPTIONS: `--import "data:text/javascript,${encodeURIComponent(REGISTER_HOOKS)}"`,
    MARVIN_TEST_MODULE_LOG: log,
  };
}

/** Whether the process that wrote `log` loaded the bundle file `chunk`. */
export function loadedChunk(log: string, chunk: string): boolean {
  return readFileSync(log, "utf8")
    .split("\n")
    .some((url) => url.endsWith(`/chunks/${chunk}`));
}
