import { describe, expect, it } from "vitest";
import { SECRET_SAMPLES } from "../../tests/support/secrets.js";
import { childEnvWith, isSecretVariable, toolChildEnv } from "../shared/child-env.js";
import { COPILOT_TOKEN_VARIABLES } from "./copilot/credentials.js";
import { providerCredentialVariables } from "./credentials.js";
import type { ProviderName } from "./types.js";

const providerChildEnv = (provider: ProviderName, env: Record<string, string>) =>
  childEnvWith(env, providerCredentialVariables(provider, env));
const KNOWN_SECRET_VARS = [
  ...Object.values(PROVIDER_DEFAULTS).flatMap((defaults) => (defaults.keyEnv ? [defaults.keyEnv] : [])),
  ...COPILOT_TOKEN_VARIABLES,
];

import { PROVIDER_DEFAULTS } from "./config.js";

describe("child environments", () => {
  it("counts every credential variable Marvin knows, and generous patterns, as secret", () => {
    for (const defaults of Object.values(PROVIDER_DEFAULTS))
      if (defaults.keyEnv) expect(KNOWN_SECRET_VARS).toContain(defaults.keyEnv);
    for (const name of [...KNOWN_SECRET_VARS, ...Object.keys(SECRET_SAMPLES)])
      expect(isSecretVariable(name), name).toBe(true);
    for (const name of [
      "PATH",
      "HOME",
      "PWD",
      "OLDPWD",
      "SSH_AUTH_SOCK",
      "LANG",
      "TERM",
      "KEYTIMEOUT",
      "MANPATH",
      "OPENAI_COMPAT_URL",
      "MARVIN_DEPTH",
      "LLM_PROVIDER",
    ]) {
      expect(isSecretVariable(name), name).toBe(false);
    }
  });

  it("gives tool processes no credential and no git repository override", () => {
    const env = toolChildEnv({
      PATH: "/bin",
      HOME: "/home/u",
      GIT_DIR: "/x/.git",
      GIT_CONFIG_KEY_0: "core.pager",
      ...SECRET_SAMPLES,
    });
    expect(env).toEqual({ PATH: "/bin", HOME: "/home/u" });
  });

  it("gives a process that talks to a provider that provider's credential only", () => {
    const parent = { PATH: "/bin", ...SECRET_SAMPLES };
    expect(providerChildEnv("gemini", parent)).toEqual({ PATH: "/bin", GEMINI_API_KEY: SECRET_SAMPLES.GEMINI_API_KEY });
    expect(providerChildEnv("ollama", parent)).toEqual({ PATH: "/bin" });
    // A base URL with a password is the provider's credential too: its own child keeps it, others do not get it.
    const proxied = { ...parent, GEMINI_BASE_URL: "https://me:pw@proxy.example/v1" };
    expect(providerChildEnv("gemini", proxied).GEMINI_BASE_URL).toBe("https://me:pw@proxy.example/v1");
    expect(providerChildEnv("ollama", proxied).GEMINI_BASE_URL).toBeUndefined();
    const copilotOwn = ["GH_TOKEN", "GITHUB_TOKEN", "COPILOT_GITHUB_TOKEN", "COPILOT_CLI_PATH"];
    expect(providerChildEnv("copilot", parent)).toEqual({
      PATH: "/bin",
      ...Object.fromEntries(copilotOwn.map((name) => [name, SECRET_SAMPLES[name]])),
    });
  });
});
