import type { AskPerson } from "../session/approvals.js";
import { errorMessage } from "../shared/error-message.js";
import type { ChatLogEntry } from "../state/chat-log.js";
import { type CommandHost, CommandLayer } from "./commands/index.js";
import type { FrontEndEnvironment, FrontEndOptions, SessionStarter, StartedSession } from "./front-end.js";
import { HeldNotices } from "./held-notices.js";
import { safeText } from "./terminal-text.js";

/** How an interactive front end shows its opening. */
interface OpeningView {
  system(text: string): void;
  /** The end of the chat log, shown when no conversation is being resumed. */
  recentConversation(entries: readonly ChatLogEntry[]): void;
}

/** A session being started by an interactive front end, and the notices held back until its opening. */
export class FrontEndStart {
  readonly notices = new HeldNotices();

  constructor(
    private readonly options: FrontEndOptions,
    private readonly environment: FrontEndEnvironment,
  ) {}

  /** The started session, or undefined once the reason it could not start is written to `stderr`. */
  async session(
    startSession: SessionStarter,
    askApproval: AskPerson,
    stderr: NodeJS.WritableStream,
    showHeld: (text: string) => void,
  ): Promise<StartedSession | undefined> {
    try {
      return await startSession({ notice: this.notices.notice, askApproval });
    } catch (error) {
      this.notices.release(showHeld);
      stderr.write(`Error: ${safeText(errorMessage(error))}\n`);
      return undefined;
    }
  }

  /** The command layer of the started session, speaking through `host`. */
  commandLayer(started: StartedSession, host: CommandHost): CommandLayer {
    const { model, provider } = this.options;
    return new CommandLayer({ ...this.environment, ...started, model, providerFlag: provider }, host);
  }

  /**
   * The opening: the welcome, the recent conversation unless one is being resumed, the conversation the command
   * line asked for, then the notices held while starting. "pick" when the person is to choose a conversation.
   */
  async open(layer: CommandLayer, started: StartedSession, view: OpeningView): Promise<"pick" | undefined> {
    view.system(layer.welcome);
    const { resume, continueLatest, session } = this.options;
    if (resume === undefined && !continueLatest && !session) view.recentConversation(started.session.chatEntries);
    const pick = await layer.openRequested(this.options);
    this.notices.release((text) => view.system(text));
    return pick;
  }
}
