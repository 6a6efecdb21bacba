import type { ToolProgress } from "../../kit/define-tool.js";
import { type ProgramResult, runProgram } from "../../kit/processes/run-program.js";
import { type ChildCost, childCost } from "./child-marvin.js";

/** stderr kept for the cost line and error messages: its end, which has both. */
const STDERR_TAIL_CHARS = 20_000;

interface AgentLaunch {
  entryPoint: string;
  provider: string;
  model: string;
  directory: string;
  prompt: string;
  env: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
  /** Called when the sub-agent starts a tool (its progress as the front ends show it). */
  onProgress(update: ToolProgress): void;
  /** How the progress lines name this sub-agent. */
  label: string;
}

export interface AgentOutcome {
  run: ProgramResult;
  /** The text of the sub-agent's last answer (after its last tool round). */
  answer: string;
  /** How its agent loop ended, if it got that far. */
  ending?: "done" | "error" | "aborted";
  /** Its error events and `Error:` lines on stderr. */
  errors: string[];
  cost?: ChildCost;
}

/** One event line of `--output jsonl`, as far as it is read here. */
interface EventLine {
  type?: string;
  text?: string;
  name?: string;
  message?: string;
  reason?: "done" | "error" | "aborted";
}

function parseEvent(line: string): EventLine | undefined {
  try {
    const event = JSON.parse(line) as unknown;
    return event && typeof event === "object" ? (event as EventLine) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs a sub-agent: `marvin --non-interactive --output jsonl`, the prompt on stdin (kept out of the
 * process list and of argument-length limits). Its events give the answer and its progress; its
 * stderr ends with the MARVIN_COST line.
 */
export async function runSubAgent(launch: AgentLaunch): Promise<AgentOutcome> {
  let pending = "";
  let answer = "";
  let ending: AgentOutcome["ending"];
  const errors: string[] = [];
  let stderr = "";
  const onEvent = (event: EventLine) => {
    switch (event.type) {
      case "turn_start":
        answer = "";
        break;
      case "text_delta":
        answer += event.text ?? "";
        break;
      case "tool_start":
        launch.onProgress({ message: `${launch.label}: running ${event.name}` });
        break;
      case "error":
        if (event.message) errors.push(event.message);
        break;
      case "agent_end":
        ending = event.reason;
        break;
    }
  };
  const onStdout = (text: string) => {
    const lines = (pending + text).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const event = parseEvent(line);
      if (event) onEvent(event);
    }
  };
  launch.onProgress({ message: `${launch.label}: started` });
  const run = await runProgram({
    argv: [
      process.execPath,
      launch.entryPoint,
      "--non-interactive",
      "--output",
      "jsonl",
      "--working-dir",
      launch.directory,
      "--provider",
      launch.provider,
      "--model",
      launch.model,
    ],
    stdin: launch.prompt,
    cwd: launch.directory,
    env: launch.env,
    signal: launch.signal,
    timeoutMs: launch.timeoutMs,
    onStdout,
    onStderr: (text) => (stderr = (stderr + text).slice(-STDERR_TAIL_CHARS)),
  });
  onStdout("\n");
  for (const line of stderr.split("\n")) {
    const error = /^Error: (.*)$/.exec(line)?.[1];
    if (error && !errors.includes(error)) errors.push(error);
  }
  return { run, answer: answer.trim(), ending, errors, cost: childCost(stderr) };
}
