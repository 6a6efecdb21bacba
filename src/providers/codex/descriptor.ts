import { homedir } from "node:os";
import { normalizeBaseUrl } from "../base-url.js";
import type { ProviderDescriptor } from "../descriptor.js";

/** The ChatGPT sign-in named where a refused token is reported. */
const SIGN_IN = "the ChatGPT sign-in ('marvin login codex', or the codex CLI's 'codex login')";

/** The user's ChatGPT plan, signed in as the codex CLI does, through the Codex backend (./index.ts). */
export const codex: ProviderDescriptor<"codex"> = {
  name: "codex",
  icon: "🎫",
  defaults: {
    model: "gpt-5.1-codex",
    baseUrl: "https://chatgpt.com/backend-api/codex",
    modelEnv: "CODEX_MODEL",
    urlEnv: "MARVIN_CODEX_URL",
  },
  // The base the requests go under (`<base>/responses`); a full …/responses URL is accepted too.
  baseUrl: (url) => normalizeBaseUrl(url).replace(/\/responses$/, ""),
  coveredByPlan: true,
  setupHint: "LLM_PROVIDER=codex with a ChatGPT plan: sign in with 'marvin login codex' (or 'codex login')",
  // Never picked unasked: a codex sign-in on the machine says nothing about what the user wants Marvin to use.
  autoDetect: { by: "setting", evidence: () => undefined },
  missingConfiguration: () => undefined,
  async probe(_config, facts) {
    const { findSignIn } = await import("./sign-in-file.js");
    const found = await findSignIn(facts.env, facts.home).catch(() => undefined);
    return found ? undefined : "codex needs a ChatGPT sign-in: run 'marvin login codex' (or 'codex login')";
  },
  async create(config, env) {
    const [{ CodexProvider }, { CodexCredentials }] = await Promise.all([
      import("./index.js"),
      import("./credentials.js"),
    ]);
    return new CodexProvider({ ...config, keyHint: SIGN_IN }, new CodexCredentials(env, env.HOME || homedir()));
  },
};
