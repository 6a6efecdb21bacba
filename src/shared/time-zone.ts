import type { Env } from "./env.js";

/**
 * What to tell the person about a `TZ` that names no time zone Node knows (a typo, a POSIX rule such as
 * `CET-1CEST`): Node then shows every time in UTC, so timers, alarms and the chat log's times would be off.
 */
export function timeZoneWarning(env: Env): string | undefined {
  const zone = env.TZ?.trim();
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return undefined;
  } catch {
    return `TZ=${zone} is not a time zone Marvin knows: times are shown in UTC. Give a name such as Europe/Zurich.`;
  }
}
