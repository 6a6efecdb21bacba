import type { SavedPlace } from "../state/saved-places.js";
import { type BackgroundJobSummary, formatJobs, formatPlaces } from "./system-prompt.js";

/** What the system message told the model about the user's state, as it was written there. */
export interface StateFacts {
  preferences: string;
  places: string;
  jobs: string;
}

export function stateFacts(state: {
  /** As formatPreferences writes them. */
  preferences: string;
  savedPlaces: SavedPlace[];
  backgroundJobs: readonly BackgroundJobSummary[];
}): StateFacts {
  return {
    preferences: state.preferences,
    places: formatPlaces(state.savedPlaces),
    jobs: state.backgroundJobs.length ? formatJobs(state.backgroundJobs) : "(none)",
  };
}

const NOTIFICATIONS_HEADER = "Notifications that arrived since the last message:";

/** The local date and time to the minute: finer would only make every note differ for nothing. */
export function minuteClock(now: Date): string {
  return now.toString().replace(/^(.*\d\d:\d\d):\d\d/, "$1");
}

/** What plan mode asks of the model with every message until the user approves the plan. */
const PLAN_MODE_NOTE =
  "Plan mode is on: only tools that look are available. Explore what you need, then answer with a concise, " +
  "numbered plan of the changes (files, steps, how to check them) and stop: change nothing until the user " +
  "approves the plan.";

interface NoteInput {
  now: Date;
  notifications: readonly string[];
  planning: boolean;
  /** What the system message (or the last note) said of the user's state, and what is true now. */
  told: StateFacts;
  current: StateFacts;
}

/**
 * The short note carried with a new user message: what changes from message to message (seed 000 §2.15's
 * date and time, new ntfy notifications, preferences, saved places and background jobs that changed since the
 * model was last told), so that the system message in front of the conversation can stay byte-identical.
 */
export function contextNote({ now, notifications, planning, told, current }: NoteInput): string {
  const lines = [`Current date and time: ${minuteClock(now)}`];
  if (planning) lines.push(PLAN_MODE_NOTE);
  if (notifications.length) lines.push(NOTIFICATIONS_HEADER, ...notifications);
  if (current.preferences !== told.preferences) lines.push("User preferences now:", current.preferences);
  if (current.places !== told.places) lines.push("Saved places now:", current.places);
  if (current.jobs !== told.jobs) lines.push("Background jobs now:", current.jobs);
  return `<context>\n${lines.join("\n")}\n</context>`;
}
