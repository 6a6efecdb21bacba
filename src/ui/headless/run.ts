import type { AgentEventListener } from "../../agent/events.js";
import { errorMessage } from "../../shared/error-message.js";
import { UsageTracker } from "../../state/usage.js";
import { expandCustomCommand, matchCustomCommand } from "../commands/custom-commands.js";
import { attachMentions } from "../commands/mentions.js";
import type { FrontEndOptions, SessionStarter, StartedSession } from "../front-end.js";
import { safeEvents, safeText } from "../terminal-text.js";
import { createJsonlRenderer } from "./jsonl-renderer.js";
import { createTextRenderer, type Output } from "./text-renderer.js";

interface HeadlessIO {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Emits "error" (EPIPE) when the reader goes away, as process.stdout does. */
  stdout: Output & Pick<NodeJS.WritableStream, "on"> & { isTTY?: boolean };
  stderr: Output;
  version: string;
  /** Registers a handler for SIGINT/SIGTERM; returns a function that removes it. */
  onInterrupt: (handler: () => void) => () => void;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  stream.setEncoding("utf8");
  for await (const chunk of stream) text += chunk as string;
  return text;
}

/** The text protocol; on a terminal the answer is made safe to print too (escape sequences removed). */
function textOutput(io: HeadlessIO): AgentEventListener {
  const render = createTextRenderer(io.stdout, io.stderr);
  if (!io.stdout.isTTY) return render;
  const clean = safeEvents();
  return (event) => render(clean(event));
}

/**
 * One prompt in, one streamed answer out (seed 002 §2.3). Returns the exit code; the
 * last line written to stderr is always `MARVIN_COST:{json}`, whatever happened.
 */
export async function runNonInteractive(
  options: FrontEndOptions,
  io: HeadlessIO,
  startSession: SessionStarter,
): Promise<number> {
  let built: StartedSession | undefined;
  const fail = (message: string) => {
    io.stderr.write(`Error: ${safeText(message)}\n`);
    return 1;
  };
  let code: number;
  try {
    code = await run();
  } catch (error) {
    code = fail(errorMessage(error));
  }
  const warning = await built?.session.dispose();
  if (warning) io.stderr.write(`Warning: ${safeText(warning)}\n`);
  io.stderr.write(`${(built?.session.usage ?? new UsageTracker()).costLine()}\n`);
  return code;

  /** The prompt with the files it mentions attached, as the UIs attach them; each note goes to stderr. */
  async function submitWithMentions(session: StartedSession["session"], prompt: string) {
    const { notes, attached, ...attachments } = await attachMentions(prompt, session.workingDir ?? process.cwd());
    for (const note of notes) io.stderr.write(`${safeText(note)}\n`);
    const accepted = () => attached && io.stderr.write(`${safeText(attached)}\n`);
    return session.submit(prompt, { ...attachments, accepted });
  }

  async function run(): Promise<number> {
    let prompt = options.prompt;
    if (prompt === undefined && !io.stdin.isTTY) prompt = await readAll(io.stdin);
    if (!prompt?.trim()) return fail("--prompt required (or pipe the prompt on stdin)");
    built = await startSession({ notice: (text) => io.stderr.write(`${safeText(text)}\n`) });
    const { session } = built;
    session.subscribe(options.output === "jsonl" ? createJsonlRenderer(io.stdout, io.version) : textOutput(io));
    let stopped: "interrupted" | "reader gone" | undefined;
    const stop = (why: typeof stopped) => {
      stopped ??= why;
      session.abort();
    };
    const removeHandler = io.onInterrupt(() => stop("interrupted"));
    // `marvin … | head -1`: the reader has what it wanted. Like any Unix tool, stop without a
    // word; the exit code still says whether the answer was complete (the contract knows 0 and 1).
    io.stdout.on("error", () => stop("reader gone"));
    try {
      const custom = matchCustomCommand(prompt, built.customCommands ?? []);
      const result = custom
        ? await session.submit(expandCustomCommand(custom.command, custom.args))
        : await submitWithMentions(session, prompt);
      if (stopped === "reader gone") return result.reason === "done" ? 0 : 1;
      if (result.reason === "done" && !stopped) return 0;
      if (result.reason === "aborted" || stopped) return fail(stopped ?? "the request was cancelled");
      return 1; // the error event was already written
    } finally {
      removeHandler();
    }
  }
}
