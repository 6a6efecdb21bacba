import type { SessionSummary } from "../../session/saved-sessions/session-store.js";
import { timeAgo } from "../../shared/duration.js";
import { preview } from "../../shared/truncate.js";
import { messageCount } from "../commands/conversations.js";
import { safeLabel } from "../terminal-text.js";
import type { InputEvent } from "./key-parser.js";
import type { Theme } from "./theme.js";

/** The `--resume` (or `resume`) picker: saved conversations, narrowed by what is typed. */
export interface PickerState {
  sessions: readonly SessionSummary[];
  /** Opened at start (`--resume`): Esc leaves it for a new conversation; in a chat, Esc goes back to that chat. */
  atStart: boolean;
  filter: string;
  /** Index into the filtered list. */
  selected: number;
}

type PickerOutcome =
  | { state: PickerState }
  | { state: PickerState; chosen: SessionSummary }
  /** Esc or Ctrl+C: no conversation is resumed. */
  | { state: PickerState; cancelled: true };

export function openPicker(sessions: readonly SessionSummary[], atStart: boolean): PickerState {
  return { sessions, atStart, filter: "", selected: 0 };
}

/** Sessions whose title, last message, id or directory contain every typed word (any case). */
function matchingSessions(state: PickerState): SessionSummary[] {
  const words = state.filter.toLowerCase().split(/\s+/).filter(Boolean);
  return state.sessions.filter((session) => {
    const haystack = `${session.title}\n${session.lastUserLine}\n${session.id}\n${session.cwd}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

const withFilter = (state: PickerState, filter: string): PickerState => ({ ...state, filter, selected: 0 });

export function pickerKey(state: PickerState, event: InputEvent): PickerOutcome {
  const matches = matchingSessions(state);
  const move = (by: number) => ({
    state: { ...state, selected: Math.min(Math.max(0, state.selected + by), Math.max(0, matches.length - 1)) },
  });
  if (event.kind === "text" || event.kind === "paste")
    return { state: withFilter(state, state.filter + event.text.replace(/[\r\n]+/g, " ")) };
  if (event.kind === "wheel") return move(event.direction === "up" ? -1 : 1);
  if (event.ctrl && event.name === "c") return { state, cancelled: true };
  if (event.ctrl && event.name === "u") return { state: withFilter(state, "") };
  switch (event.name) {
    case "escape":
      return { state, cancelled: true };
    case "enter": {
      const chosen = matches[state.selected];
      return chosen ? { state, chosen } : { state };
    }
    case "up":
      return move(-1);
    case "down":
      return move(1);
    case "pageup":
      return move(-10);
    case "pagedown":
      return move(10);
    case "backspace":
      return { state: withFilter(state, state.filter.slice(0, -1)) };
    default:
      return { state };
  }
}

/** The picker as screen lines: a heading, the filter, then two lines per conversation around the selection. */
export function renderPicker(state: PickerState, width: number, maxRows: number, theme: Theme): string[] {
  const matches = matchingSessions(state);
  const heading = theme.accent(
    preview(
      `Resume a conversation (${matches.length} of ${state.sessions.length}) · ` +
        `Esc: ${state.atStart ? "new conversation" : "back to this chat"} · type to filter, ↑/↓, Enter`,
      width,
    ),
  );
  const filter = theme.you(preview(`filter: ${state.filter}`, width));
  const room = Math.max(1, Math.floor((maxRows - 2) / 2));
  const first = Math.min(Math.max(0, state.selected - Math.floor(room / 2)), Math.max(0, matches.length - room));
  const now = new Date();
  const entries = matches.slice(first, first + room).flatMap((session, offset) => {
    const selected = first + offset === state.selected;
    const facts = `${timeAgo(session.updatedAt, now)} · ${messageCount(session.messageCount)}`;
    // preview() flattens whitespace: the marker and the indent go in front of what it shortens.
    const title = `${selected ? "▸" : " "} ${preview(`${safeLabel(session.title)} · ${facts}`, width - 2)}`;
    const about = `${safeLabel(session.lastUserLine || session.id)} · ${safeLabel(session.cwd)}`;
    const detail = `    ${preview(about, width - 4)}`;
    return [selected ? theme.inverse(title) : theme.text(title), theme.muted(detail)];
  });
  if (matches.length === 0) entries.push(theme.muted("  (no conversation matches)"));
  return [heading, filter, ...entries].slice(0, Math.max(1, maxRows));
}
