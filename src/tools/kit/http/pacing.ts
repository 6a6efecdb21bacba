import { sleep } from "../../../shared/sleep.js";

/** When each paced server may next be asked, by its base URL; shared by every caller in this process. */
const nextTurnAt = new Map<string, number>();

/**
 * Waits for the next free turn of a service that allows one request every `intervalMs` (Nominatim's and
 * MusicBrainz's usage policies) and books it, so parallel tool calls queue instead of bursting. Rejects
 * with the signal's reason when aborted while waiting.
 */
export async function waitForTurn(key: string, intervalMs: number, signal: AbortSignal): Promise<void> {
  const now = Date.now();
  const turn = Math.max(now, nextTurnAt.get(key) ?? 0);
  nextTurnAt.set(key, turn + intervalMs);
  if (turn > now) await sleep(turn - now, signal);
}
