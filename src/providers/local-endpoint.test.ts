import { describe, expect, it } from "vitest";
import { isLocalEndpoint } from "./local-endpoint.js";

describe("isLocalEndpoint", () => {
  it.each([
    ["http://localhost:1234/v1", true],
    ["http://127.0.0.1:8080/v1", true],
    ["http://[::1]:8080/v1", true],
    ["http://192.168.1.20:8000/v1", true],
    ["http://10.0.0.5/v1", true],
    ["http://100.101.102.103/v1", true],
    ["http://[fd12::5]/v1", true],
    ["http://gpu-box:8000/v1", true],
    ["http://llm.local/v1", true],
    ["http://llm.home.arpa/v1", true],
    ["http://api.localhost/v1", true],
    ["https://openrouter.ai/api/v1", false],
    ["https://api.groq.com/openai/v1", false],
    ["https://8.8.8.8/v1", false],
    ["https://local.example.com/v1", false],
    ["not a url", false],
  ])("%s → %s", (baseUrl, local) => {
    expect(isLocalEndpoint({ name: "openai-compat", baseUrl })).toBe(local);
  });

  it("counts Ollama as local wherever it runs, and a provider without a URL as remote", () => {
    expect(isLocalEndpoint({ name: "ollama", baseUrl: "https://ollama.example.com/v1" })).toBe(true);
    expect(isLocalEndpoint({ name: "copilot" })).toBe(false);
  });
});
