import type { ApprovalAnswer, ApprovalQuestion } from "../../session/approvals.js";
import { INPUT_HISTORY_LIMIT } from "../../state/input-history.js";
import { cacheHitShare } from "../../state/usage.js";
import { approvalAnswer, approvalPrompt } from "../approval-prompt.js";
import { sessionList } from "../commands/conversations.js";
import { type CommandHost, type CommandLayer, EXIT_HINT, InterruptKey } from "../commands/index.js";
import { contextMeterLine } from "../context-meter.js";
import { freshLine } from "../fresh-line.js";
import type { FrontEndEnvironment, FrontEndOptions, SessionStarter } from "../front-end.js";
import { FrontEndStart } from "../opening.js";
import { safeText } from "../terminal-text.js";
import { ThemeChoice } from "../theme/theme-choice.js";
import { LineInput } from "./line-input.js";
import { formatRecentConversation, formatResumedConversation } from "./recent-conversation.js";
import { createPlainRenderer } from "./renderer.js";
import { PlainScreen } from "./screen.js";
import { tabCompleter } from "./tab-completion.js";

interface PlainStreams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/**
 * Hands the terminal to a child program: no raw mode, readline not reading. Its output stays
 * in the scrollback above the next prompt, which starts on a line of its own.
 */
async function withTerminalReleased<T>(streams: PlainStreams, input: LineInput, run: () => Promise<T>): Promise<T> {
  const { stdin, stdout } = streams;
  const wasRaw = Boolean(stdin.isTTY && stdin.isRaw);
  input.pause();
  if (wasRaw) stdin.setRawMode(false);
  try {
    return await run();
  } finally {
    if (stdout.isTTY) freshLine(stdout);
    if (wasRaw) stdin.setRawMode(true);
    input.resume();
  }
}

/** `--resume` without an id: a numbered list, then the number or id typed at a prompt. */
async function pickSession(layer: CommandLayer, lines: LineInput, screen: PlainScreen, themes: ThemeChoice) {
  const sessions = await layer.savedSessions();
  screen.system(sessionList(sessions));
  if (sessions.length === 0) return;
  const answer = await lines.next(themes.theme.you("Resume which one (number or id; Enter for a new conversation)? "));
  if (answer?.trim()) await layer.resume(answer.trim());
}

/**
 * The plain readline UI (seed 000 §2.10): linear output, one prompt loop over the session.
 * Also what runs when stdout is not a terminal, and when scripts pipe lines into stdin
 * (one line = one message; end of input exits after the last answer).
 *
 * Keys on a terminal: Ctrl+C as InterruptKey says (stop the work in progress; clear the typed
 * line; on an empty prompt, a second Ctrl+C in a row exits), and at a confirmation it answers
 * "no" and stops the request. Ctrl+D on an empty line exits. Without a terminal, SIGINT stops
 * the work in progress, or exits when idle.
 */
export async function runPlain(
  options: FrontEndOptions,
  environment: FrontEndEnvironment,
  startSession: SessionStarter,
  streams: PlainStreams = process,
): Promise<number> {
  const { stdin, stdout } = streams;
  // Colours only on a terminal: piped output stays plain text.
  const chosen = await ThemeChoice.start(environment.env, environment.home, stdout.isTTY ? undefined : "plain");
  const { themes } = chosen;
  let asking = false;
  // Replaced by one that knows the prompt once the input is set up; closures use the current one.
  let screen = new PlainScreen(stdout, themes);
  let input: LineInput | undefined;

  const askApproval = async (question: ApprovalQuestion): Promise<ApprovalAnswer> => {
    if (!input) return "no";
    screen.breakLine();
    asking = true;
    try {
      return approvalAnswer(await input.ask(themes.theme.tool(approvalPrompt(question))), question);
    } finally {
      asking = false;
    }
  };
  /** A question answered by the next line; Ctrl+C answers it with undefined. */
  const ask = async (question: string): Promise<string | undefined> => {
    if (!input) return undefined;
    screen.breakLine();
    asking = true;
    try {
      return await input.ask(question);
    } finally {
      asking = false;
    }
  };
  const start = new FrontEndStart(options, environment);
  for (const notice of chosen.notices) start.notices.notice(notice);
  const built = await start.session(startSession, askApproval, streams.stderr, (text) => screen.system(text));
  if (!built) return 1;
  const { session } = built;

  const terminal = Boolean(stdin.isTTY && stdout.isTTY);
  /** Input and output tokens of the latest request: how much of the context the conversation fills. */
  let requestTokens: number | undefined;
  session.subscribe((event) => {
    if (event.type === "usage") requestTokens = event.inputTokens + event.outputTokens;
  });
  /** One dim line after an answer on a terminal: the context meter the TUI shows in its status line. */
  const showContext = () => {
    if (!stdout.isTTY || requestTokens === undefined) return;
    const cacheShare = cacheHitShare(session.usage.getSessionUsage());
    const priceUnknown = session.usage.unpricedModels().length > 0;
    const meter = contextMeterLine(requestTokens, session.budget.thresholds.compact, cacheShare, priceUnknown);
    screen.line(themes.theme.muted(meter));
  };
  const host: CommandHost = {
    system: (text) => screen.system(text),
    terminal,
    shellOutput: (chunk) => screen.write(safeText(chunk)),
    releaseTerminal: (run) => withTerminalReleased(streams, lines, run),
    // Typed lines are on screen already; a voice transcript is shown as what the person said.
    messageSubmitted: (text, via) => {
      if (via === "voice") screen.line(themes.theme.you(`🎤 ${safeText(text)}`));
    },
    ask: (question) => ask(themes.theme.you(question)),
    conversationReplaced: () => {
      requestTokens = undefined;
    },
    showConversation: (messages, total) => {
      const room = { rows: stdout.rows ?? 24, columns: stdout.columns ?? 80 };
      for (const line of formatResumedConversation(messages, total, room, themes.theme)) screen.line(line);
    },
  };
  const layer = start.commandLayer(built, host, themes);
  const lines = new LineInput({
    input: stdin,
    output: stdout,
    terminal,
    history: await layer.loadInputHistoryLines(),
    historySize: INPUT_HISTORY_LIMIT,
    completer: tabCompleter(layer.completer),
  });
  input = lines;
  screen = new PlainScreen(stdout, themes, lines);
  session.subscribe(createPlainRenderer(screen, themes));

  const interruptKey = new InterruptKey(() => layer.interrupt());
  const onInterrupt = () => {
    if (asking) {
      lines.cancelPending();
      layer.interrupt();
      return;
    }
    if (!lines.terminal) {
      if (!layer.interrupt()) lines.close();
      return;
    }
    switch (interruptKey.press(lines.promptShowing ? lines.currentLine : undefined)) {
      case "clear":
        return lines.clearLine();
      case "hint":
        return lines.clearLine(EXIT_HINT);
      case "exit":
        return lines.close();
    }
  };
  lines.onInterrupt(onInterrupt);
  lines.onOtherKey((key) => {
    interruptKey.reset();
    if (key.ctrl && key.name === "q") lines.close();
    else if (key.name === "escape" && !asking && !layer.stopVoice()) layer.interrupt();
  });
  process.on("SIGINT", onInterrupt);
  // A `kill` or a closed terminal: stop and leave as Ctrl+D does, so that usage.json still gets this session.
  const onEnd = () => {
    layer.interrupt();
    lines.cancelPending();
    lines.close();
  };
  process.on("SIGTERM", onEnd);
  process.on("SIGHUP", onEnd);
  // `marvin --plain | head`: once the reader of stdout is gone, stop and leave quietly.
  stdout.on("error", () => {
    layer.interrupt();
    lines.close();
  });

  try {
    const pick = await start.open(layer, built, {
      system: (text) => screen.system(text),
      recentConversation: (entries) => {
        for (const line of formatRecentConversation(entries, themes.theme)) screen.line(line);
      },
    });
    if (pick === "pick") await pickSession(layer, lines, screen, themes);

    let pending = options.prompt;
    while (true) {
      const line = pending ?? (await lines.next(themes.theme.you(layer.prompt)));
      // Lines typed at the prompt are on screen already; the positional prompt and piped lines are echoed once.
      const shown = pending === undefined && lines.terminal;
      pending = undefined;
      if (line === undefined) break;
      if (!shown && line.trim()) screen.line(themes.theme.you(`${layer.prompt}${safeText(line)}`));
      interruptKey.reset();
      const result = await layer.handle(line);
      if (result.type === "exit") break;
      if (result.type === "submitted") {
        await result.done;
        showContext();
      }
      if (session.exitRequested !== undefined) {
        screen.system(session.exitRequested);
        break;
      }
    }
    if (lines.terminal) stdout.write("\n");
  } finally {
    start.notices.release((text) => screen.system(text)); // when the opening failed before they were shown
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onEnd);
    process.off("SIGHUP", onEnd);
    lines.close();
    await layer.close();
    const warning = await session.dispose();
    if (warning) screen.system(warning);
    const farewell = layer.farewell;
    if (farewell) screen.line(themes.theme.system(farewell));
  }
  return 0;
}
