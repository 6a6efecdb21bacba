import { describe, expect, it } from "vitest";
import { estimateCost } from "./pricing.js";

const perMillion = (model: string, provider = "openai") => ({
  input: estimateCost(provider, model, { input: 1_000_000, output: 0 }),
  output: estimateCost(provider, model, { input: 0, output: 1_000_000 }),
});

describe("estimateCost", () => {
  it("prices input and output tokens per million", () => {
    expect(estimateCost("openai", "gpt-4o-mini", { input: 1000, output: 200 })).toBeCloseTo(
      (1000 * 0.15 + 200 * 0.6) / 1e6,
      12,
    );
    expect(perMillion("gpt-5.1")).toEqual({ input: 1.25, output: 10 });
  });

  it("prices input read from the prompt cache at the cached rate, never more of it than the input", () => {
    const cached = (model: string) => estimateCost("openai", model, { input: 1_000_000, output: 0, cached: 1_000_000 });
    expect(cached("gpt-5.1")).toBeCloseTo(0.125, 12);
    expect(cached("claude-sonnet-4.5")).toBeCloseTo(0.3, 12);
    expect(cached("llama-3.3-70b-versatile")).toBeCloseTo(0.59, 12); // Groq gives no discount for it
    expect(estimateCost("openai", "gpt-5.1", { input: 100, output: 0, cached: 500 })).toBeCloseTo(
      (100 * 0.125) / 1e6,
      12,
    );
  });

  it("prices Claude's cache writes as Anthropic bills them, 1.25 times the input price", () => {
    const tokens = { input: 1_000_000, output: 0, cached: 600_000, cacheWrite: 300_000 };
    // 100,000 fresh at $2, 600,000 read at $0.10, 300,000 written at $2.50 (Sonnet 5.5).
    expect(estimateCost("anthropic", "claude-sonnet-5-5", tokens)).toBeCloseTo(0.2 + 0.06 + 0.75, 12);
    expect(
      estimateCost("anthropic", "claude-haiku-4-5-20251001", { input: 1_000_000, output: 0, cacheWrite: 1_000_000 }),
    ).toBeCloseTo(1.25, 12);
    // Providers that bill no extra for writing their cache: written input costs the input price.
    expect(estimateCost("openai", "gpt-5.1", { input: 1_000_000, output: 0, cacheWrite: 1_000_000 })).toBeCloseTo(
      1.25,
      12,
    );
  });

  it("knows Claude's generations apart, dated, dashed or dotted", () => {
    expect(perMillion("claude-sonnet-5-5", "anthropic")).toEqual({ input: 2, output: 10 });
    expect(perMillion("claude-opus-4-1-20250805", "anthropic")).toEqual({ input: 15, output: 75 });
    expect(perMillion("claude-opus-4-20250514", "anthropic")).toEqual({ input: 15, output: 75 });
    expect(perMillion("claude-opus-4-5-20251101", "anthropic")).toEqual({ input: 5, output: 25 });
    expect(perMillion("claude-opus-4.6", "copilot")).toEqual({ input: 5, output: 25 });
    expect(perMillion("claude-opus-5-5", "anthropic")).toEqual({ input: 4, output: 20 });
    expect(perMillion("claude-sonnet-4-6", "anthropic")).toEqual({ input: 3, output: 15 });
    expect(perMillion("claude-fable-5-1", "anthropic")).toEqual({ input: 10, output: 50 });
    expect(perMillion("claude-haiku-5-5", "anthropic")).toEqual({ input: 0.1, output: 0.5 });
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

  it("prices Gemini's current models, each at its own cached rate (prompts up to 200k tokens)", () => {
    const cached = (model: string) => estimateCost("gemini", model, { input: 1_000_000, output: 0, cached: 1_000_000 });
    expect(perMillion("gemini-3.1-pro-preview", "gemini")).toEqual({ input: 2, output: 12 });
    expect(perMillion("gemini-3-flash-preview", "gemini")).toEqual({ input: 0.5, output: 3 });
    expect(perMillion("gemini-3.1-flash-lite-preview", "gemini")).toEqual({ input: 0.25, output: 1.5 });
    expect(perMillion("gemini-3.5-flash", "gemini")).toEqual({ input: 1.5, output: 9 });
    expect(perMillion("gemini-2.5-flash-lite", "gemini")).toEqual({ input: 0.1, output: 0.4 });
    expect(perMillion("gemini-2.5-flash", "gemini")).toEqual({ input: 0.3, output: 2.5 });
    expect(cached("gemini-3.1-pro-preview")).toBeCloseTo(0.2, 12);
    expect(cached("gemini-3-flash-preview")).toBeCloseTo(0.05, 12);
    expect(cached("gemini-2.5-flash-lite")).toBeCloseTo(0.01, 12);
  });

  it("prices Mistral's models, as Mistral and OpenRouter name them, Large 2 before the price cut of Large 3", () => {
    expect(perMillion("mistral-large-latest", "mistral")).toEqual({ input: 0.5, output: 1.5 });
    expect(perMillion("mistral-large-2411", "mistral")).toEqual({ input: 2, output: 6 });
    expect(perMillion("mistralai/mistral-medium-3.1", "openrouter")).toEqual({ input: 0.4, output: 2 });
    expect(perMillion("devstral-small-latest", "mistral")).toEqual({ input: 0.1, output: 0.3 });
    expect(perMillion("magistral-medium-latest", "mistral")).toEqual({ input: 2, output: 5 });
    expect(perMillion("codestral-latest", "mistral")).toEqual({ input: 0.3, output: 0.9 });
  });

  it("charges an opus-tier call several times a standard one", () => {
    const opus = estimateCost("copilot", "claude-opus-4.6", { input: 10_000, output: 1_000 });
    const standard = estimateCost("copilot", "gpt-5.2", { input: 10_000, output: 1_000 });
    expect(opus / standard).toBeGreaterThanOrEqual(2);
  });

  it("costs nothing for local Ollama models and unknown models", () => {
    expect(estimateCost("ollama", "gpt-4o", { input: 1_000_000, output: 1_000_000 })).toBe(0);
    // The ChatGPT plan covers what codex uses.
    expect(estimateCost("codex", "gpt-5.1-codex", { input: 1_000_000, output: 1_000_000 })).toBe(0);
    expect(estimateCost("openai-compat", "my-local-finetune", { input: 1_000_000, output: 1_000_000 })).toBe(0);
  });
});
