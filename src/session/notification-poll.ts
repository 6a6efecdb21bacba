import { withDeadline } from "../shared/deadline.js";
import { errorMessage } from "../shared/error-message.js";
import type { ProfilePaths } from "../state/paths.js";

/** What one notification poll found: new notifications, and sources that could not be asked. */
interface NotificationPoll {
  notifications: string[];
  problems: string[];
  warning?: string;
}

/** Asks the profile's notification sources (ntfy); `signal` ends it. */
export type NotificationPoller = (profile: ProfilePaths, signal: AbortSignal) => Promise<NotificationPoll>;

/** The longest a submission waits for notifications before going on without them. */
const NOTIFICATION_POLL_MS = 3_000;

/**
 * New notifications before a message (seed 000 invariant 12), each shown once as a notice; a failing source
 * costs a short wait and a warning, never the turn.
 */
export async function pollForNotifications(
  poll: NotificationPoller,
  profile: ProfilePaths,
  signal: AbortSignal,
  notice: (text: string, level: "info" | "warning") => void,
): Promise<string[]> {
  const deadline = withDeadline(signal, NOTIFICATION_POLL_MS);
  try {
    const found = await poll(profile, deadline.signal);
    if (found.warning) notice(found.warning, "warning");
    for (const problem of found.problems) notice(problem, "warning");
    for (const text of found.notifications) notice(`🔔 ${text}`, "info");
    return found.notifications;
  } catch (error) {
    notice(`Could not check notifications: ${errorMessage(error)}`, "warning");
    return [];
  } finally {
    deadline.clear();
  }
}
