import { join } from "node:path";
import type { Env } from "../../shared/env.js";
import { readTextIfExists, writeFileAtomic } from "../../state/atomic-file.js";
import { configPaths } from "../../state/paths.js";
import { chatGptAccountId } from "./jwt.js";

/**
 * A ChatGPT sign-in as the codex CLI keeps it in `$CODEX_HOME/auth.json`, and as Marvin keeps its own:
 * `{"OPENAI_API_KEY": null, "tokens": {"id_token", "access_token", "refresh_token", "account_id"},
 * "last_refresh": "<ISO time>"}`. Fields Marvin does not know are kept as they are when it writes the file back.
 */
export interface SignInTokens {
  id_token: string;
  access_token: string;
  refresh_token: string;
  account_id?: string | null;
}

export interface SignIn {
  /** The file it came from, and goes back to when refreshed. */
  path: string;
  tokens: SignInTokens;
  /** The whole file as read, so that a write keeps what Marvin does not know. */
  raw: Record<string, unknown>;
}

/** Where sign-ins are looked for, in order: Marvin's own (`marvin login codex`), then the codex CLI's. */
export function signInPaths(env: Env, home: string): { marvin: string; codex: string } {
  const codexHome = env.CODEX_HOME?.trim() || join(home, ".codex");
  return { marvin: configPaths(home).codexSignIn, codex: join(codexHome, "auth.json") };
}

function isTokens(value: unknown): value is SignInTokens {
  const tokens = value as Partial<SignInTokens> | null;
  return typeof tokens?.access_token === "string" && typeof tokens.refresh_token === "string";
}

/** The sign-in in `path`; undefined when there is no such file; an Error naming the file when it is unusable. */
export async function readSignIn(path: string): Promise<SignIn | undefined> {
  const text = await readTextIfExists(path);
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not valid JSON`);
  }
  const tokens = (raw as { tokens?: unknown } | null)?.tokens;
  if (!isTokens(tokens)) throw new Error(`${path} holds no ChatGPT sign-in (no tokens.access_token)`);
  return { path, tokens, raw: raw as Record<string, unknown> };
}

/** The first sign-in found (Marvin's own, then the codex CLI's), or undefined. */
export async function findSignIn(env: Env, home: string): Promise<SignIn | undefined> {
  const paths = signInPaths(env, home);
  return (await readSignIn(paths.marvin)) ?? (await readSignIn(paths.codex));
}

/** The account header's value: the file's `account_id`, else the one the tokens carry. */
export function accountIdOf(tokens: SignInTokens): string | undefined {
  return tokens.account_id || chatGptAccountId(tokens.id_token) || chatGptAccountId(tokens.access_token);
}

/** Writes `tokens` to the sign-in's own file, atomically and owner-only, keeping the file's other fields. */
export async function writeSignIn(path: string, raw: Record<string, unknown>, tokens: SignInTokens): Promise<SignIn> {
  const updated = {
    ...raw,
    tokens: { ...(raw.tokens as object | undefined), ...tokens },
    last_refresh: new Date().toISOString(),
  };
  await writeFileAtomic(path, `${JSON.stringify(updated, null, 2)}\n`, { mode: 0o600 });
  return { path, tokens: updated.tokens as SignInTokens, raw: updated };
}
