import { describe, expect, it } from "vitest";
import { withSavedChoice } from "./saved-choice.js";

describe("withSavedChoice", () => {
  const saved = { provider: "ollama", model: "llama-test", baseUrl: "http://127.0.0.1:9/" };

  it("fills in the provider, its model and its endpoint where no variable sets them", () => {
    expect(withSavedChoice({ HOME: "/h" }, saved)).toEqual({
      HOME: "/h",
      LLM_PROVIDER: "ollama",
      OLLAMA_MODEL: "llama-test",
      OLLAMA_URL: "http://127.0.0.1:9/",
    });
  });

  it("leaves LLM_PROVIDER and the provider's own variables to win", () => {
    const env = { LLM_PROVIDER: "groq", OLLAMA_MODEL: "qwen3:8b" };
    expect(withSavedChoice(env, saved)).toEqual({ ...env, OLLAMA_URL: "http://127.0.0.1:9/" });
  });

  it("ignores a saved provider Marvin does not know, and no choice at all", () => {
    expect(withSavedChoice({ HOME: "/h" }, { provider: "nonesuch" })).toEqual({ HOME: "/h" });
    expect(withSavedChoice({ HOME: "/h" }, undefined)).toEqual({ HOME: "/h" });
  });
});
