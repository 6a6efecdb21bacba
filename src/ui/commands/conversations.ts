import type { Message } from "../../providers/types.js";
import type { LoadedSession, SessionSummary } from "../../session/saved-sessions/session-store.js";
import { timeAgo } from "../../shared/duration.js";
import { errorMessage } from "../../shared/error-message.js";
import { truncateText } from "../../shared/truncate.js";
import { safeLabel } from "../terminal-text.js";
import { modelFor, parseProviderName, providerFactory, providerProblem } from "./providers.js";
import { sentence } from "./sentence.js";
import type { ActiveModel, CommandEnvironment } from "./types.js";

const upper = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Sessions shown by `sessions` and the plain UI's `--resume` list. */
const LISTED_SESSIONS = 20;
/** Messages of a resumed conversation shown again, so the person sees where it stopped. */
const RECAP_MESSAGES = 6;
const RECAP_CHARS = 300;

/** "1 message", "12 messages" (see countsAsMessage for what counts). */
export function messageCount(count: number): string {
  return `${count} message${count === 1 ? "" : "s"}`;
}

/** One numbered entry per saved conversation, newest first; `current` is marked. */
export function sessionList(sessions: readonly SessionSummary[], current?: string, now = new Date()): string {
  if (sessions.length === 0) return "No saved sessions yet: every conversation is kept from its first message on.";
  const lines = sessions.slice(0, LISTED_SESSIONS).map((session, index) => {
    const mark = session.id === current ? " (this one)" : "";
    const head = `${String(index + 1).padStart(2)}. ${safeLabel(session.title)}${mark}`;
    const age = timeAgo(session.updatedAt, now);
    const facts = `    ${session.id} · ${age} · ${messageCount(session.messageCount)} · ${safeLabel(session.cwd)}`;
    const last =
      session.lastUserLine && session.lastUserLine !== session.title
        ? `\n    last: ${safeLabel(session.lastUserLine)}`
        : "";
    return `${head}\n${facts}${last}`;
  });
  const more = sessions.length > LISTED_SESSIONS ? `\n(${sessions.length - LISTED_SESSIONS} older not shown)` : "";
  return `Saved sessions (resume N or resume ID):\n${lines.join("\n")}${more}`;
}

const SPEAKERS: Partial<Record<Message["role"], string>> = { user: "You", assistant: "Marvin" };

/** The last exchanges of a resumed conversation, shortened. */
export function conversationRecap(messages: readonly Message[]): string[] {
  const spoken = messages.filter(
    (message): message is Message & { content: string } =>
      (message.role === "user" || message.role === "assistant") && Boolean(message.content?.trim()),
  );
  return spoken
    .slice(-RECAP_MESSAGES)
    .map((message) => `${SPEAKERS[message.role]}: ${truncateText(message.content.trim(), RECAP_CHARS)}`);
}

/**
 * Switches to the provider and model a stored conversation used, when they differ from the
 * active ones. Returns the model now in use, or why the old one could not be restored.
 */
export async function restoreProvider(
  environment: CommandEnvironment,
  stored: LoadedSession,
  active: ActiveModel,
): Promise<{ active: ActiveModel; notice?: string }> {
  const name = stored.state.provider ? parseProviderName(stored.state.provider) : undefined;
  if (!name) return { active };
  const model = stored.state.model ?? modelFor(name, environment);
  if (name === active.provider && model === active.model) return { active };
  const problem = await providerProblem(name, environment);
  const keep = `continuing with ${active.provider} · ${active.model}`;
  if (problem)
    return { active, notice: `That conversation used ${name} · ${model}: ${sentence(problem)} ${upper(keep)}.` };
  try {
    const provider = await environment.session.useProvider(providerFactory(name, environment, model));
    return { active: { provider: name, model: provider.model } };
  } catch (error) {
    return { active, notice: `Could not restore ${name} · ${model}: ${sentence(errorMessage(error))} ${upper(keep)}.` };
  }
}
