import { httpErrorFailure } from "../chat-completions/errors.js";
import type { ProviderConfig } from "../descriptor.js";
import { httpFailure } from "../failures.js";
import { ProviderError } from "../provider-error.js";

/*
 * The ChatGPT plan's usage limits. The Codex backend refuses a request beyond them with HTTP 429 and
 * `{"error": {"type": "usage_limit_reached", "message", "plan_type", "resets_at": <epoch seconds>,
 * "resets_in_seconds"}}`, and reports its windows in headers (`x-codex-primary-used-percent`,
 * `x-codex-primary-reset-after-seconds`, the same for `secondary`).
 */

interface LimitAnswer {
  type?: unknown;
  message?: unknown;
  plan_type?: unknown;
  resets_at?: unknown;
  resets_in_seconds?: unknown;
}

/** Seconds until the limit resets, from the body, else from the window the headers say is used up. */
function secondsToReset(error: LimitAnswer, headers: Headers, now: number): number | undefined {
  if (typeof error.resets_at === "number") return Math.max(0, error.resets_at - now / 1000);
  if (typeof error.resets_in_seconds === "number") return error.resets_in_seconds;
  const windows = ["primary", "secondary"].map((name) => ({
    used: Number(headers.get(`x-codex-${name}-used-percent`)),
    reset: Number(headers.get(`x-codex-${name}-reset-after-seconds`)),
  }));
  const full = windows.filter((window) => window.used >= 100 && Number.isFinite(window.reset));
  const resets = (full.length ? full : windows).map((window) => window.reset).filter((reset) => reset > 0);
  return resets.length ? Math.max(...resets) : undefined;
}

function duration(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.round(hours / 24)} days`;
}

/** When the limit resets, in words: `in 2 h 13 min (Mon 14:05)`. */
function resetWords(seconds: number, now: number): string {
  const at = new Date(now + seconds * 1000);
  const when = at.toLocaleString("en-GB", { weekday: "short", hour: "2-digit", minute: "2-digit" });
  return `in ${duration(seconds)} (${when.replace(",", "")})`;
}

/**
 * A refused request of the Codex backend: a usage limit explained with when it resets, anything else as usual. The
 * plan stays unavailable until then, so the request is neither retried nor handed to another provider unasked.
 */
export async function codexHttpFailure(config: ProviderConfig, response: Response): Promise<ProviderError> {
  if (response.status !== 429) return httpErrorFailure(config, response);
  const body = await response.text().catch(() => "");
  let error: LimitAnswer = {};
  try {
    error = ((JSON.parse(body) as { error?: LimitAnswer }).error ?? {}) as LimitAnswer;
  } catch {
    // No JSON body: the headers may still say when the limit resets.
  }
  const now = Date.now();
  const seconds = secondsToReset(error, response.headers, now);
  if (error.type !== "usage_limit_reached" && seconds === undefined) {
    return httpFailure(
      config,
      { status: 429, message: body.trim() || response.statusText, headers: response.headers },
      false,
    );
  }
  const plan = typeof error.plan_type === "string" ? ` (${error.plan_type} plan)` : "";
  const reset = seconds === undefined ? "" : `; it resets ${resetWords(seconds, now)}`;
  const said = typeof error.message === "string" ? ` ${error.message.replace(/\.?$/, ".")}` : "";
  return new ProviderError(
    `codex: your ChatGPT plan's usage limit is reached${plan}${reset}.${said} Until then, switch provider with /model.`,
    { provider: "codex", kind: "unavailable", status: 429, retryAfterSeconds: seconds ?? 3600 },
  );
}
