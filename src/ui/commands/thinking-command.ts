import { parseThinkingLevel, THINKING_LEVELS } from "../../providers/thinking-level.js";
import type { Session } from "../../session/session.js";

const USAGE = `Usage: thinking [${THINKING_LEVELS.join("|")}|default].`;

/** `thinking [LEVEL|default]`: shows how hard the model thinks, or sets it from the next message on. */
export function thinkingCommand(session: Session, level: string | undefined): string {
  if (level === undefined) {
    const now = session.thinking ?? "the provider's default";
    const levels = THINKING_LEVELS.join("|");
    return `Thinking: ${now}. Change it with "/thinking ${levels}" ("default" leaves it to the model).`;
  }
  if (level.toLowerCase() === "default") {
    session.setThinking(undefined);
    return "Thinking: the provider's default, from the next message on.";
  }
  const parsed = parseThinkingLevel(level);
  if (!parsed) return `"${level}" is not a thinking level. ${USAGE}`;
  session.setThinking(parsed);
  return `Thinking: ${parsed}, from the next message on.`;
}
