import type { AgentEventListener } from "../../agent/events.js";
import type { Output } from "./text-renderer.js";

const JSONL_PROTOCOL_VERSION = 1;

/**
 * `--output jsonl`: every agent event as one JSON object per line (LF only), after a
 * header line `{"type":"header","version":1,"marvin":"x.y.z"}`.
 */
export function createJsonlRenderer(stdout: Output, marvinVersion: string): AgentEventListener {
  stdout.write(`${JSON.stringify({ type: "header", version: JSONL_PROTOCOL_VERSION, marvin: marvinVersion })}\n`);
  return (event) => {
    stdout.write(`${JSON.stringify(event)}\n`);
  };
}
