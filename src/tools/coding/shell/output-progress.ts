import type { ToolProgress } from "../../kit/define-tool.js";

/** Output is reported at most this often, so a chatty command costs the front ends a few redraws a second. */
const REPORT_EVERY_MS = 200;
/** Longest progress message: the last line of output, for front ends that show one line. */
const MESSAGE_CHARS = 120;
/** Output held between two reports beyond this is cut from the front: front ends show the latest lines. */
const HELD_CHARS = 64_000;

/**
 * Batches a command's output into progress reports (`output` and, as `message`, its last line),
 * at most one per REPORT_EVERY_MS; `flush` reports what is still held (call it before the tool returns).
 */
export function outputProgress(report: (update: ToolProgress) => void) {
  let held = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!held) return;
    const lastLine = held.trimEnd().split("\n").at(-1) ?? "";
    report({ message: lastLine.slice(-MESSAGE_CHARS), output: held });
    held = "";
  };
  const push = (text: string) => {
    held = (held + text).slice(-HELD_CHARS);
    timer ??= setTimeout(flush, REPORT_EVERY_MS);
  };
  return { push, flush };
}
