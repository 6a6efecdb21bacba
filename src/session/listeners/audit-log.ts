import { appendFile } from "node:fs/promises";
import type { AgentEventListener, EventSink } from "../../agent/events.js";
import { errorMessage } from "../../shared/error-message.js";

const MAX_ARGUMENT_CHARS = 200;
const MAX_RESULT_CHARS = 400;

/** `path=src/main.ts, content=import { App…` — the original's compact form of the decoded arguments. */
export function formatArguments(input: unknown): string {
  const text =
    typeof input === "object" && input !== null && !Array.isArray(input)
      ? Object.entries(input)
          .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
          .join(", ")
      : typeof input === "string"
        ? input
        : JSON.stringify(input);
  return text.slice(0, MAX_ARGUMENT_CHARS);
}

/**
 * MARVIN_SUBAGENT_LOG: one JSON line per tool call (ts, tool, args ≤200 chars,
 * result ≤400, elapsed_ms), appended in completion order to a file created owner-only (it
 * quotes the conversation). A failing write is reported once through `warn` and never breaks the run.
 */
export function createAuditLog(path: string, warn: (text: string) => void): EventSink {
  let pending: Promise<void> = Promise.resolve();
  let warned = false;
  const listener: AgentEventListener = (event) => {
    if (event.type !== "tool_end") return;
    const line = JSON.stringify({
      ts: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      tool: event.name,
      args: formatArguments(event.input),
      result: event.result.slice(0, MAX_RESULT_CHARS),
      elapsed_ms: event.elapsedMs,
    });
    pending = pending.then(() =>
      appendFile(path, `${line}\n`, { mode: 0o600 }).catch((error: unknown) => {
        if (!warned) warn(`Cannot write the tool audit log ${path}: ${errorMessage(error)}`);
        warned = true;
      }),
    );
  };
  return { listener, flush: () => pending };
}
