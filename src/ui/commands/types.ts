import type { Message, ProviderName } from "../../providers/types.js";
import type { Extensions } from "../../session/extensions.js";
import type { SessionSummary } from "../../session/saved-sessions/session-store.js";
import type { Session } from "../../session/session.js";
import type { Env } from "../../shared/env.js";
import type { ThemeChoice, ThemeEntry } from "../theme/theme-choice.js";
import type { CustomCommand } from "./custom-commands.js";

/**
 * What the command layer needs from a front end. Every method must not throw; the layer
 * may call them while a response is streaming.
 */
export interface CommandHost {
  /** Shows one system message (may span lines): `[System] …` in plain, yellow in the TUI. */
  system(text: string): void;
  /**
   * True when stdin and stdout are a terminal the UI can hand over: `!command` and shell-mode
   * lines then run on it (see `releaseTerminal`), so interactive programs work. Otherwise
   * their output is captured and passed to `shellOutput`.
   */
  readonly terminal: boolean;
  /**
   * Raw output of a `!command` / shell-mode command run without the terminal, chunk by chunk
   * as it arrives (stdout and stderr interleaved). The layer sends a final "\n" when the
   * output did not end with one.
   */
  shellOutput(chunk: string): void;
  /**
   * Hands the real terminal to a child process (the `preferences` editor, a `!command`) while
   * `run` runs: stop reading keys and drawing, leave raw mode / the alternate screen, restore
   * after. With `keepOutput` the program's output must stay readable once it ends: a
   * full-screen UI asks for a key before drawing over it.
   */
  releaseTerminal<T>(run: () => Promise<T>, options?: { keepOutput?: boolean }): Promise<T>;
  /**
   * Called synchronously just before a message goes to the model, so the UI can show it; `voice` is a
   * transcript of `!v` / `!voice`, which no one typed.
   */
  messageSubmitted?(text: string, via: "session" | "copilot" | "voice"): void;
  /** Shell mode, coding mode, provider or model changed: refresh the prompt / status bar. */
  stateChanged?(): void;
  /** `clear` or `resume` put another conversation in place of the current one (called before stateChanged). */
  conversationReplaced?(): void;
  /** The file index behind path completion was made again: a completion menu on screen may change. */
  completionsChanged?(): void;
  /**
   * Asks the person a question (`rewind`): the next line typed answers it, kept out of the input
   * history. Undefined when they cancel (Ctrl+C, end of input).
   */
  ask(question: string): Promise<string | undefined>;
  /** `resume` without an id: a UI with a picker shows it (the plain UI lists the sessions instead). */
  pickSession?(sessions: readonly SessionSummary[]): void;
  /** `theme` without a name: a UI with a picker shows these themes (the plain UI lists them instead). */
  pickTheme?(entries: readonly ThemeEntry[]): void;
  /**
   * After `resume`: shows the end of the conversation again as chat (see resumedTurns); `totalMessages` counts
   * the compacted ones too. A UI without it gets a short text recap.
   */
  showConversation?(messages: readonly Message[], totalMessages: number): void;
  /**
   * After `rewind` cut the conversation back: a UI that can redraw its chat shows the conversation as it now is
   * (see resumedTurns) in place of what it showed.
   */
  conversationRewound?(messages: readonly Message[], totalMessages: number): void;
}

/** The session and the process facts the commands act on. */
export interface CommandEnvironment {
  session: Session;
  env: Env;
  home: string;
  /** Where shell commands run when the session has no working directory. */
  cwd: string;
  /** The provider the session was built with (`BuiltSession.providerName`). */
  providerName: ProviderName;
  /** The `--model` flag, if given. */
  model?: string;
  /** The `--provider` flag, if given: a resumed conversation then stays on it. */
  providerFlag?: ProviderName;
  /** MCP servers and hooks, for `mcp` and `!mcp trust`. */
  extensions?: Extensions;
  /** `/name` prompt templates, for `help` and expansion. */
  customCommands?: readonly CustomCommand[];
  /** The colour theme of the screen, for `theme` (absent: the UI shows no colours to choose). */
  themes?: ThemeChoice;
}

/** Provider and model as shown in the status bar / by `!model`. */
export interface ActiveModel {
  provider: ProviderName;
  model: string;
}
