import type { LoadedSession, SessionSummary } from "../../session/saved-sessions/session-store.js";
import type { Session } from "../../session/session.js";
import type { FrontEndOptions } from "../front-end.js";
import { safeLabel } from "../terminal-text.js";
import { type CommandOutput, HANDLED } from "./command-output.js";
import type { CommandResult } from "./command-result.js";
import { conversationRecap, messageCount, sessionList } from "./conversations.js";
import type { ModelCommands } from "./model-commands.js";
import { rewindCommand, undoCommand } from "./rewind.js";
import type { CommandEnvironment, CommandHost } from "./types.js";

/** ` · coding mode in DIR` while coding mode has a working directory. */
export function codingNote(session: Session): string {
  return session.codingMode && session.workingDir ? ` · coding mode in ${safeLabel(session.workingDir)}` : "";
}

/** What the conversation commands act on. */
interface ConversationContext {
  environment: CommandEnvironment;
  host: CommandHost;
  output: CommandOutput;
  /** A resumed conversation brings its provider and model back. */
  models: ModelCommands;
}

/** `sessions`, `resume`, `clear`, `compact`, `rewind`, `undo` and the command line's `--continue`/`--resume`/`--session`. */
export class ConversationCommands {
  constructor(private readonly context: ConversationContext) {}

  private get session(): Session {
    return this.context.environment.session;
  }

  /**
   * What the command line asked for at start: `--continue`, `--resume ID` or `--session ID`.
   * Returns "pick" when `--resume` came without an id: the UI then shows its picker.
   */
  async openRequested(options: FrontEndOptions): Promise<"pick" | undefined> {
    const { session } = this;
    if (options.resume === "") return "pick";
    if (options.resume) {
      await this.resume(options.resume);
    } else if (options.session) {
      const stored = await session.sessions?.load(options.session);
      if (stored) await this.continueStored(stored);
    } else if (options.continueLatest) {
      const latest = await session.sessions?.latestIn(this.context.environment.cwd);
      if (latest) await this.resume(latest.id);
      else this.context.host.system("No earlier conversation was started in this directory; this is a new one.");
    }
    return undefined;
  }

  /** Saved conversations, newest first, for a picker. */
  async savedSessions(): Promise<SessionSummary[]> {
    return (await this.session.sessions?.list()) ?? [];
  }

  listSessions(): Promise<CommandResult> {
    return this.context.output.sayLater(this.sessionsReport());
  }

  async pickOrList(): Promise<CommandResult> {
    const { host, output } = this.context;
    if (!host.pickSession || !this.session.sessions) return output.say(await this.sessionsReport());
    host.pickSession(await this.savedSessions());
    return HANDLED;
  }

  private async sessionsReport(): Promise<string> {
    const { session } = this;
    if (!session.sessions) return "This session keeps no conversations.";
    return sessionList(await session.sessions.list(), session.conversationId);
  }

  /** Continues a saved conversation: messages, mode, working directory, provider and model. */
  async resume(query: string): Promise<CommandResult> {
    const { session } = this;
    const { output } = this.context;
    const store = session.sessions;
    if (!store) return output.say("This session keeps no conversations.");
    if (session.busy) return output.say("Marvin is still answering: resume after the answer, or press Ctrl+C first.");
    const found = await store.find(query);
    if ("problem" in found) return output.say(found.problem);
    const stored = await store.load(found.id);
    if (!stored) return output.say(`Session ${found.id} is gone.`);
    return this.continueStored(stored);
  }

  private async continueStored(stored: LoadedSession): Promise<CommandResult> {
    const { host, output, models } = this.context;
    const notices = await this.session.resume(stored);
    const notice = await models.restore(stored);
    if (notice) notices.push(notice);
    const { provider, model } = models.activeModel;
    const title = safeLabel(stored.start.title);
    const facts = `${stored.id}, ${messageCount(stored.totalMessages)}`;
    const recap = host.showConversation !== undefined ? [] : conversationRecap(stored.messages);
    const result = output.replaced(
      [
        `Resumed "${title}" (${facts}) · ${provider} · ${model}${codingNote(this.session)}`,
        ...notices,
        ...(recap.length ? ["Where it stopped:", ...recap.map((line) => `  ${line}`)] : []),
      ].join("\n"),
    );
    host.showConversation?.(stored.messages, stored.totalMessages);
    return result;
  }

  async clear(): Promise<CommandResult> {
    const { session } = this;
    const { output } = this.context;
    if (session.busy) return output.say("Marvin is still answering: clear after the answer, or press Ctrl+C first.");
    const previous = session.conversationId;
    await session.startNewConversation();
    const kept = previous && session.sessions ? ` The previous one is saved: resume ${previous}` : "";
    return output.replaced(`New conversation.${kept}`);
  }

  async compact(): Promise<CommandResult> {
    const { output } = this.context;
    const result = await this.session.compactNow();
    if (!result) return output.say("Nothing to compact yet: the conversation is short.");
    return output.say(`Compacted the conversation: ${result.tokensBefore} → ${result.tokensAfter} tokens.`);
  }

  /** `rewind [N]`: back to before one of your messages: files, conversation, or both. */
  async rewind(query: string): Promise<CommandResult> {
    return this.context.output.changed(await rewindCommand(this.session, this.context.host, query));
  }

  /** `undo`: the files of the latest turn that changed files, as they were before it. */
  async undo(): Promise<CommandResult> {
    return this.context.output.say(await undoCommand(this.session, this.context.host));
  }
}
