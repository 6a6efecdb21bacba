import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Env } from "../../src/shared/env.js";
import { REPO_ROOT } from "./run-marvin.js";

/** The stand-in Copilot CLI runtime (see its header for what it does). */
export const SCRIPTED_COPILOT_CLI = join(REPO_ROOT, "tests", "support", "copilot-cli.js");

export interface ScriptedCopilotReply {
  /** The answer; "{earlier}" becomes the session's earlier prompts joined by " | ". */
  text: string;
  /** Tools Marvin must run (one at a time, as the runtime asks) before the answer. */
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
  usage?: { input: number; output: number };
  /** Holds the answer back this long (to cancel a turn while it runs). */
  delayMs?: number;
}

/** One JSON-RPC request the runtime received from the SDK. */
export interface CopilotRpcCall {
  method: string;
  params: Record<string, unknown>;
}

export interface ScriptedCopilot {
  /** Environment for CopilotProvider: COPILOT_CLI_PATH points at the stand-in runtime. */
  env: Env;
  /** Every request received so far, in order. */
  calls(): Promise<CopilotRpcCall[]>;
  /** The `session.send` prompts, with the session each went to. */
  prompts(): Promise<Array<{ sessionId: string; prompt: string }>>;
}

/** A scripted Copilot runtime whose files live in `dir` (an empty temporary directory). */
export async function scriptedCopilot(dir: string, replies: ScriptedCopilotReply[]): Promise<ScriptedCopilot> {
  const scriptPath = join(dir, "copilot-script.json");
  const logPath = join(dir, "copilot-rpc.jsonl");
  await writeFile(scriptPath, JSON.stringify({ replies }));
  await writeFile(logPath, "");
  const calls = async () =>
    (await readFile(logPath, "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as CopilotRpcCall);
  return {
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      COPILOT_CLI_PATH: SCRIPTED_COPILOT_CLI,
      COPILOT_SCRIPT: scriptPath,
      COPILOT_LOG: logPath,
    },
    calls,
    prompts: async () =>
      (await calls())
        .filter((call) => call.method === "session.send")
        .map((call) => ({ sessionId: String(call.params.sessionId), prompt: String(call.params.prompt) })),
  };
}
