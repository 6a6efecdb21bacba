import { RECENT_CHAT_ENTRIES } from "../../session/session.js";
import type { ChatLogEntry } from "../../state/chat-log.js";
import { freshLine } from "../fresh-line.js";
import type { FrontEndEnvironment, FrontEndOptions, SessionStarter } from "../front-end.js";
import { FrontEndStart } from "../opening.js";
import { safeText } from "../terminal-text.js";
import { ThemeChoice } from "../theme/theme-choice.js";
import { ChatStore } from "./chat-store.js";
import { ConfirmBroker } from "./confirm-broker.js";
import { captureConsole } from "./console-capture.js";
import { TuiController } from "./controller.js";
import { type MountedScreen, mountScreen } from "./mount-screen.js";
import { TerminalModes, waitForKey } from "./terminal-modes.js";

/** How long to wait on exit for an aborted answer to be saved to the chat log. */
const EXIT_GRACE_MS = 3000;

function showRecentConversation(chat: ChatStore, entries: readonly ChatLogEntry[]): void {
  const recent = entries.slice(-RECENT_CHAT_ENTRIES);
  if (recent.length === 0) return;
  chat.addSystem(`── Recent conversation (${recent.length} of ${entries.length} messages) ──`);
  chat.addChatLogEntries(recent);
  chat.addSystem("── end of recent conversation ──");
}

/**
 * The full-screen UI (seed 000 §2.9): builds the session, takes over the terminal, and runs
 * until quit / exit / Ctrl+D (or Ctrl+C twice on an empty prompt). The terminal is restored on every way out.
 */
export async function startTui(
  options: FrontEndOptions,
  environment: FrontEndEnvironment,
  startSession: SessionStarter,
): Promise<number> {
  const { stdin, stdout } = process;
  const confirm = new ConfirmBroker();
  const start = new FrontEndStart(options, environment);
  const built = await start.session(startSession, confirm.ask, process.stderr, (text) =>
    process.stderr.write(`${safeText(text)}\n`),
  );
  if (!built) return 1;
  const { session } = built;
  const { themes, notices: themeNotices } = await ThemeChoice.start(environment.env, environment.home);
  for (const notice of themeNotices) start.notices.notice(notice);
  const modes = new TerminalModes(stdin, stdout);
  const chat = new ChatStore();
  let mounted: MountedScreen | undefined;
  let crash: Error | undefined;
  let resolveExit: () => void = () => undefined;
  const exited = new Promise<void>((resolve) => (resolveExit = resolve));

  const mount = () => {
    modes.enter();
    mounted = mountScreen(controller, stdin, stdout, (error) => {
      crash ??= error;
      controller.exit();
    });
  };
  const unmount = () => {
    mounted?.unmount();
    mounted = undefined;
    modes.leave();
  };
  const controller: TuiController = new TuiController({
    session,
    chat,
    confirm,
    themes,
    createLayer: (host) => start.commandLayer(built, host, themes),
    onExit: () => resolveExit(),
    screenSize: () => ({ rows: stdout.rows ?? 24, columns: stdout.columns ?? 80 }),
    terminal: Boolean(stdin.isTTY && stdout.isTTY),
    releaseTerminal: async (run, options) => {
      unmount();
      let typedAhead = "";
      try {
        const result = await run();
        if (options?.keepOutput && !controller.exited) {
          freshLine(stdout);
          stdout.write(controller.theme.system("Press Enter to return to Marvin."));
          typedAhead = await waitForKey(stdin);
          stdout.write("\r\n");
        }
        return result;
      } finally {
        if (!controller.exited) {
          mount();
          controller.replayKeys(typedAhead);
        }
      }
    },
    redraw: () => mounted?.redraw(),
  });

  const unsubscribe = session.subscribe((event) => chat.apply(event));
  const restoreConsole = captureConsole((text) => chat.addSystem(text, "warning"));
  const onSignal = () => controller.exit();
  // The terminal went away (closed window, killed tmux): leave quietly instead of crashing on EIO.
  stdout.on("error", onSignal);
  const onInterrupt = () => controller.interrupt();
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  process.on("SIGINT", onInterrupt);
  try {
    await controller.loadInputHistoryLines();
    const pick = await start.open(controller.layer, built, {
      system: (text) => chat.addSystem(text),
      recentConversation: (entries) => showRecentConversation(chat, entries),
    });
    if (pick === "pick") controller.openSessionPicker(await controller.layer.savedSessions(), true);
    mount();
    if (options.prompt) void controller.submit(options.prompt);
    await exited;
    await Promise.race([controller.idle(), new Promise((resolve) => setTimeout(resolve, EXIT_GRACE_MS).unref())]);
  } finally {
    unmount();
    process.off("SIGTERM", onSignal);
    process.off("SIGHUP", onSignal);
    process.off("SIGINT", onInterrupt);
    restoreConsole();
    unsubscribe();
    chat.dispose();
    await controller.layer.close();
    const warning = await session.dispose();
    if (warning) process.stderr.write(`Warning: ${safeText(warning)}\n`);
    const farewell = controller.layer.farewell;
    if (farewell && !crash) stdout.write(`${farewell}\n`);
  }
  if (crash) {
    process.stderr.write(
      `Error: the full-screen UI failed: ${safeText(crash.message)}\nThe conversation is saved; marvin --plain still ` +
        "works.\n",
    );
    return 1;
  }
  return 0;
}
