import { describe, expect, it } from "vitest";
import { HELP } from "../cli/args.js";
import { formatStatus, type StatusInfo } from "../ui/tui/status-line.js";
import { resolveProviderConfig } from "./config.js";
import { createProvider } from "./create.js";
import { PROVIDER_NAMES, PROVIDERS, parseProviderName, providerIcon } from "./registry.js";
import { HOW_TO_CONFIGURE } from "./select.js";

const status: StatusInfo = {
  provider: "ollama",
  model: "qwen3-coder:30b",
  profile: "Default",
  messages: 0,
  cost: 0,
  coding: false,
  shell: false,
  readonly: false,
  planning: false,
  busy: false,
  listening: false,
  queued: 0,
  linesBelow: 0,
};

describe("the provider registry", () => {
  it("lists every provider once, in the order Marvin shows them", () => {
    expect(PROVIDER_NAMES).toEqual([
      "copilot",
      "anthropic",
      "gemini",
      "groq",
      "mistral",
      "openai",
      "openrouter",
      "codex",
      "ollama",
      "openai-compat",
    ]);
    expect(new Set(PROVIDERS.map((provider) => provider.icon)).size).toBe(PROVIDERS.length);
  });

  it("feeds the --help line of --provider", () => {
    const names =
      "copilot | anthropic | gemini | groq | mistral | openai | openrouter | codex | ollama | openai-compat";
    expect(HELP).toContain(
      `  --provider NAME          ${names}\n                           (default: $LLM_PROVIDER, else Copilot`,
    );
  });

  it("feeds the 'how to configure' message, one setup line per provider", () => {
    expect(HOW_TO_CONFIGURE).toBe(`No LLM provider is configured. Marvin can use any of these:
  copilot        GitHub Copilot (the default): sign in with 'gh auth login' or set GH_TOKEN
  anthropic      LLM_PROVIDER=anthropic with ANTHROPIC_API_KEY (or a key in ~/.ssh/ANTHROPIC_API_KEY)
  gemini         LLM_PROVIDER=gemini with GEMINI_API_KEY (or a key in ~/.ssh/GEMINI_API_KEY)
  groq           LLM_PROVIDER=groq with GROQ_API_KEY (or a key in ~/.ssh/GROQ_API_KEY)
  mistral        LLM_PROVIDER=mistral with MISTRAL_API_KEY (or a key in ~/.ssh/MISTRAL_API_KEY)
  openai         LLM_PROVIDER=openai with OPENAI_API_KEY (or a key in ~/.ssh/OPENAI_API_KEY)
  openrouter     LLM_PROVIDER=openrouter with OPENROUTER_API_KEY (or a key in ~/.ssh/OPENROUTER_API_KEY)
  codex          LLM_PROVIDER=codex with a ChatGPT plan: sign in with 'marvin login codex' (or 'codex login')
  ollama         LLM_PROVIDER=ollama with Ollama running (OLLAMA_URL, default http://localhost:11434)
  openai-compat  LLM_PROVIDER=openai-compat with OPENAI_COMPAT_URL and OPENAI_COMPAT_API_KEY
Run 'marvin setup' to choose one: it finds the keys, servers and sign-ins you have and saves your choice.
Or pick one with --provider NAME or the LLM_PROVIDER variable, then run marvin again.`);
  });

  it("feeds the status bar icons, with a robot for an unknown name", () => {
    expect(PROVIDER_NAMES.map(providerIcon).join("")).toBe("🐙🔶💎⚡🌀🧠🔀🎫🦙🔌");
    expect(formatStatus(status, 100)).toMatch(/^ 🦙 ollama · qwen3-coder:30b │/);
    expect(formatStatus({ ...status, provider: "someday" }, 100)).toMatch(/^ 🤖 someday · /);
  });

  it("feeds the status bar's cost: a ChatGPT plan's shows as covered by the plan", () => {
    const codex = { ...status, provider: "codex", model: "gpt-5.1-codex" };
    expect(formatStatus(codex, 120)).toContain("│ 0 msgs │ plan covers it │");
    expect(formatStatus({ ...codex, cost: 0.25 }, 120)).toContain("│ $0.2500 │"); // another provider's, before a switch
    expect(formatStatus(status, 120)).toContain("│ $0.0000 │");
  });

  it("reads a typed provider name in any case, and nothing else", () => {
    expect(parseProviderName(" Groq ")).toBe("groq");
    expect(parseProviderName("OPENAI-COMPAT")).toBe("openai-compat");
    expect(parseProviderName("claude")).toBeUndefined();
  });

  it.each(PROVIDER_NAMES)("creates the %s adapter with its default model, without contacting anyone", async (name) => {
    const config = resolveProviderConfig(name, {
      env: {},
      home: "/nonexistent",
      codingMode: false,
      nonInteractive: false,
    });
    const provider = await createProvider(config, {});
    try {
      expect(provider.name).toBe(name);
      expect(provider.model).toBe(PROVIDERS.find((descriptor) => descriptor.name === name)!.defaults.model);
    } finally {
      await provider.destroy();
    }
  });
});
