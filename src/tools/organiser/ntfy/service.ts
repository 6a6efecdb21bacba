import type { Env } from "../../../shared/env.js";
import { ToolError } from "../../kit/define-tool.js";
import { type ExternalService, serviceBaseUrl } from "../../kit/http/index.js";

export const NTFY: ExternalService = { name: "ntfy", envVar: "MARVIN_NTFY_URL", defaultUrl: "https://ntfy.sh" };

/** `env` with MARVIN_NTFY_URL filled from the older NTFY_URL when only that one is set. */
export function ntfyEnv(env: Env): Env {
  if (env.MARVIN_NTFY_URL?.trim() || !env.NTFY_URL?.trim()) return env;
  return { ...env, MARVIN_NTFY_URL: env.NTFY_URL };
}

/** The ntfy server's base URL: MARVIN_NTFY_URL, else NTFY_URL, else https://ntfy.sh. */
export function ntfyBaseUrl(env: Env): string {
  return serviceBaseUrl(ntfyEnv(env), NTFY);
}

/** ntfy topic names: 1 to 64 letters, digits, "-" and "_". */
export function checkedTopic(topic: string): string {
  const trimmed = topic.trim();
  if (/^[-_A-Za-z0-9]{1,64}$/.test(trimmed)) return trimmed;
  throw new ToolError(`'${topic}' is not an ntfy topic name: use 1 to 64 letters, digits, '-' or '_'.`);
}
