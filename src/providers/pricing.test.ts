import { describe, expect, it } from "vitest";
import { estimateCost } from "./pricing.js";

const perMillion = (model: string, provider = "openai") => ({
  input: estimateCost(provider, model, 1_000_000, 0),
  output: estimateCost(provider, model, 0, 1_000_000),
});

describe("estimateCost", () => {
  it("prices input and output tokens per million", () => {
    expect(estimateCost("openai", "gpt-4o-mini", 1000, 200)).toBeCloseTo((1000 * 0.15 + 200 * 0.6) / 1e6, 12);
    expect(perMillion("gpt-5.1")).toEqual({ input: 1.25, output: 10 });
  });

  it("matches the more specific model before its family", () => {
    expect(perMillion("gpt-4o-mini")).toEqual({ input: 0.15, output: 0.6 });
    expect(perMillion("gpt-4o")).toEqual({ input: 2.5, output: 10 });
    expect(perMillion("gpt-5-mini")).toEqual({ input: 0.25, output: 2 });
    expect(perMillion("gpt-5.3-codex")).toEqual({ input: 1.25, output: 10 });
    expect(perMillion("gpt-5.2")).toEqual({ input: 1.75, output: 14 });
    expect(perMillion("gpt-4.1-nano")).toEqual({ input: 0.1, output: 0.4 });
  });

  it("prices the seeds' default models of every provider", () => {
    expect(perMillion("claude-haiku-4.5", "copilot").input).toBeGreaterThan(0);
    expect(perMillion("claude-opus-4.6", "copilot").input).toBeGreaterThan(
      perMillion("claude-haiku-4.5", "copilot").input,
    );
    expect(perMillion("gemini-3-pro-preview", "gemini").input).toBeGreaterThan(0);
    expect(perMillion("llama-3.3-70b-versatile", "groq").input).toBeGreaterThan(0);
    expect(perMillion("qwen/qwen3-32b", "openai-compat").input).toBeGreaterThan(0);
  });

  it("charges an opus-tier call several times a standard one", () => {
    const opus = estimateCost("copilot", "claude-opus-4.6", 10_000, 1_000);
    const standard = estimateCost("copilot", "gpt-5.2", 10_000, 1_000);
    expect(opus / standard).toBeGreaterThanOrEqual(2);
  });

  it("costs nothing for local Ollama models and unknown models", () => {
    expect(estimateCost("ollama", "gpt-4o", 1_000_000, 1_000_000)).toBe(0);
    expect(estimateCost("openai-compat", "my-local-finetune", 1_000_000, 1_000_000)).toBe(0);
  });
});
