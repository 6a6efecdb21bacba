import { describe, expect, it } from "vitest";
import { plainHttpKeyProblem } from "./key-transport.js";

const config = (baseUrl: string, apiKey = "sk-test") => ({
  name: "openai-compat" as const,
  baseUrl,
  apiKey,
  keyHint: "OPENAI_COMPAT_API_KEY",
});

describe("plainHttpKeyProblem", () => {
  it("refuses a key over plain http to another machine, naming the key, the URL and the way out", () => {
    for (const url of ["http://10.0.0.5:8000/v1", "http://llm.example.com/v1", "http://[fd00::1]/v1", "HTTP://a.b"]) {
      expect(plainHttpKeyProblem(config(url), {})).toMatch(
        /^Not sending OPENAI_COMPAT_API_KEY to .*: it is plain http:\/\/ to another machine.* MARVIN_ALLOW_HTTP_KEYS=1/,
      );
    }
    expect(plainHttpKeyProblem(config("http://me:pw@10.0.0.5/v1"), {})).toContain("http://***@10.0.0.5/v1");
  });

  it("lets a key go over https, to loopback over http, or anywhere with MARVIN_ALLOW_HTTP_KEYS=1", () => {
    for (const url of [
      "https://llm.example.com/v1",
      "http://127.0.0.1:8080/v1",
      "http://127.1.2.3/v1",
      "http://localhost:11434",
      "http://LOCALHOST./v1",
      "http://api.localhost/v1",
      "http://[::1]:8080/v1",
      "http://[::ffff:127.0.0.1]/v1",
    ]) {
      expect(plainHttpKeyProblem(config(url), {})).toBeUndefined();
    }
    expect(plainHttpKeyProblem(config("http://10.0.0.5/v1"), { MARVIN_ALLOW_HTTP_KEYS: "1" })).toBeUndefined();
    expect(plainHttpKeyProblem(config("http://10.0.0.5/v1"), { MARVIN_ALLOW_HTTP_KEYS: "yes" })).toBeDefined();
  });

  it("leaves a server without a key alone (a local endpoint that needs none)", () => {
    expect(plainHttpKeyProblem(config("http://10.0.0.5:11434", ""), {})).toBeUndefined();
  });
});
