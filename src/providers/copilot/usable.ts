import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Env } from "../../shared/env.js";
import { COPILOT_TOKEN_VARIABLES } from "./credentials.js";

const SDK_PACKAGE = "@github/copilot-sdk";

function resolves(specifier: string, from: string): string | undefined {
  try {
    return createRequire(from).resolve(specifier);
  } catch {
    return undefined;
  }
}

/** The SDK itself, plus the per-platform package that carries the runtime binary. */
function sdkAndRuntimeResolvable(env: Env): boolean {
  const sdkEntry = resolves(SDK_PACKAGE, import.meta.url);
  if (!sdkEntry) return false;
  if (env.COPILOT_CLI_PATH?.trim()) return true;
  const platforms = process.platform === "linux" ? ["linux", "linuxmusl"] : [process.platform];
  return platforms.some((platform) => resolves(`${SDK_PACKAGE}-${platform}-${process.arch}/package.json`, sdkEntry));
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return "";
  }
}

/** Copilot CLI login state: `config.json` lists the signed-in users (tokens may sit in the keychain). */
async function copilotCliLoggedIn(env: Env, home: string): Promise<boolean> {
  const copilotHome = env.COPILOT_HOME?.trim() || join(home, ".copilot");
  const config = await readText(join(copilotHome, "config.json"));
  return /"(?:loggedInUsers|logged_in_users)"\s*:\s*\[\s*\{|"(?:lastLoggedInUser|last_logged_in_user)"\s*:\s*\{/.test(
    config,
  );
}

/** GitHub CLI login stored in plain text (`gh auth login` without a keyring). */
async function ghCliLoggedIn(env: Env, home: string): Promise<boolean> {
  const configHome = env.XDG_CONFIG_HOME?.trim() || join(home, ".config");
  const ghDirectory = env.GH_CONFIG_DIR?.trim() || join(configHome, "gh");
  const hosts = await readText(join(ghDirectory, "hosts.yml"));
  return /^\s*oauth_token:\s*\S+/m.test(hosts);
}

/**
 * A cheap guess (no runtime start, a few file reads) whether the copilot provider can work.
 *
 * True only when both hold:
 * 1. `@github/copilot-sdk` resolves from here, and so does its runtime package for this
 *    OS and CPU (`@github/copilot-sdk-<platform>-<arch>`) unless COPILOT_CLI_PATH points
 *    at another runtime.
 * 2. Some credential is plausibly present, checked in this order:
 *    - COPILOT_GITHUB_TOKEN, GH_TOKEN or GITHUB_TOKEN is set (the variables the runtime reads);
 *    - `$COPILOT_HOME/config.json` (default `~/.copilot/config.json`) lists a logged-in user,
 *      which `copilot login` writes;
 *    - the GitHub CLI's `hosts.yml` (`$GH_CONFIG_DIR`, else `$XDG_CONFIG_HOME/gh`, else
 *      `~/.config/gh`) holds an `oauth_token`.
 *
 * It cannot tell whether a token is valid, unexpired or has Copilot access, and it misses
 * `gh` logins kept only in the system keyring: `chat()` reports those cases precisely.
 */
export async function isCopilotUsable(env: Env, home: string): Promise<boolean> {
  if (!sdkAndRuntimeResolvable(env)) return false;
  if (COPILOT_TOKEN_VARIABLES.some((name) => env[name]?.trim())) return true;
  const [copilotLogin, ghLogin] = await Promise.all([copilotCliLoggedIn(env, home), ghCliLoggedIn(env, home)]);
  return copilotLogin || ghLogin;
}
