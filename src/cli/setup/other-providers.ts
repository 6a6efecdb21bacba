import { spawn } from "node:child_process";
import { join } from "node:path";
import type { ListedModel } from "../../providers/models/listed-model.js";
import { providerDescriptor } from "../../providers/registry.js";
import type { ProviderName } from "../../providers/types.js";
import type { Env } from "../../shared/env.js";
import { programOnPath } from "../../shared/program-on-path.js";
import { writeFileAtomic } from "../../state/atomic-file.js";
import { ensurePrivateDir } from "../../state/private-dir.js";
import { testModels } from "./found-providers.js";
import type { SetupTerminal } from "./terminal.js";

/** A provider set up here: the environment it works with and the models it listed. */
export interface ReadyProvider {
  provider: ProviderName;
  env: Env;
  models: ListedModel[];
}

interface Context {
  env: Env;
  home: string;
  terminal: SetupTerminal;
}

/** What setting up `provider` from nothing asks for, as the menu says it. */
export function offerText(provider: ProviderName): string {
  const { keyFile } = providerDescriptor(provider).defaults;
  if (provider === "copilot") return "sign in to GitHub Copilot (runs 'gh auth login')";
  if (provider === "ollama") return "an Ollama server (its URL)";
  if (provider === "codex") return "sign in to your ChatGPT plan (as 'marvin login codex' does)";
  if (provider === "openai-compat") return `an OpenAI-compatible server: its URL, and a key if it needs one`;
  return `paste an API key (saved in ~/.ssh/${keyFile})`;
}

async function tested(provider: ProviderName, env: Env, context: Context): Promise<ReadyProvider | undefined> {
  const test = await testModels(provider, env, context.home);
  if ("models" in test) return { provider, env, models: test.models };
  context.terminal.say(`That did not work: ${test.problem}`);
  return undefined;
}

/** Asks for the server's URL (its variable's value or the default offered), tested before anything is saved. */
async function withUrl(provider: ProviderName, context: Context): Promise<Env> {
  const { urlEnv, baseUrl } = providerDescriptor(provider).defaults;
  if (!urlEnv) return context.env;
  const offered = context.env[urlEnv]?.trim() || baseUrl || "";
  const url = await context.terminal.ask(`URL of the ${provider} server [${offered}]: `, offered);
  return { ...context.env, [urlEnv]: url };
}

/** A key pasted without being shown, tested, then saved 0600 as ~/.ssh/<KEY NAME> where Marvin reads it. */
async function pastedKey(provider: ProviderName, env: Env, context: Context): Promise<ReadyProvider | undefined> {
  const { keyEnv, keyFile } = providerDescriptor(provider).defaults;
  if (!keyEnv || !keyFile) return tested(provider, env, context);
  const optional = provider === "openai-compat" ? "; Enter if it needs none" : "";
  const key = await context.terminal.askHidden(`${keyEnv} (paste it; it is not shown${optional}): `);
  if (!key && !optional) {
    context.terminal.say("No key given.");
    return undefined;
  }
  const ready = await tested(provider, key ? { ...env, [keyEnv]: key } : env, context);
  if (!ready || !key) return ready;
  const sshDir = join(context.home, ".ssh");
  await ensurePrivateDir(sshDir);
  await writeFileAtomic(join(sshDir, keyFile), `${key}\n`, { mode: 0o600 });
  context.terminal.say(`Saved the key in ~/.ssh/${keyFile} (readable by you only).`);
  if (env[keyEnv]?.trim())
    context.terminal.say(`${keyEnv} is set in your environment and wins over that file: unset it to use the new key.`);
  return { ...ready, env };
}

/** `gh auth login`, when the GitHub CLI is here; then Copilot is tried. */
async function copilotSignIn(context: Context): Promise<ReadyProvider | undefined> {
  const gh = await programOnPath(context.env, "gh");
  if (!gh) {
    context.terminal.say("The GitHub CLI (gh) is not installed: install it and run 'gh auth login', or set GH_TOKEN.");
    return undefined;
  }
  await new Promise<void>((resolve) => {
    const child = spawn(gh, ["auth", "login"], { stdio: "inherit", env: context.env as NodeJS.ProcessEnv });
    child.on("close", () => resolve());
    child.on("error", () => resolve());
  });
  return tested("copilot", context.env, context);
}

/** The ChatGPT plan's sign-in, in the browser, as `marvin login codex` does. */
async function codexSignIn(context: Context): Promise<ReadyProvider | undefined> {
  const { loginCodex } = await import("../../providers/codex/login.js");
  const { stdin, stdout } = context.terminal.streams;
  if ((await loginCodex({ env: context.env, home: context.home, out: stdout, input: stdin })) !== 0) return undefined;
  return tested("codex", context.env, context);
}

/** Sets up `provider` from what the person types: a URL, a key, a sign-in. */
export async function setUpProvider(provider: ProviderName, context: Context): Promise<ReadyProvider | undefined> {
  if (provider === "copilot") return copilotSignIn(context);
  if (provider === "codex") return codexSignIn(context);
  const env = provider === "ollama" || provider === "openai-compat" ? await withUrl(provider, context) : context.env;
  if (provider === "ollama") return tested(provider, env, context);
  return pastedKey(provider, env, context);
}
