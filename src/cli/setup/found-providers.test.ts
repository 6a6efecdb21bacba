import { describe, expect, test } from "../../../tests/support/fixtures.js";
import { findProviders, shownUrl } from "./found-providers.js";

describe("what setup finds", () => {
  test("a key and an endpoint, tested with the models list, the endpoint's password never shown", async ({
    home,
    llm,
  }) => {
    const server = await llm([]);
    const url = server.url.replace("http://", "http://proxy-user:s3cret-pw@");
    const env = {
      PATH: process.env.PATH,
      OPENAI_COMPAT_URL: url,
      OPENAI_COMPAT_API_KEY: "k",
      OLLAMA_URL: "http://127.0.0.1:9",
    };
    const found = await findProviders(env, home);
    expect(found).toEqual([
      {
        provider: "openai-compat",
        source: `key in OPENAI_COMPAT_API_KEY at ${server.url}`,
        test: { models: [{ id: "gpt-4o-mini", contextWindow: 128_000 }, { id: "house-model-7b" }] },
      },
    ]);
    expect(JSON.stringify(found)).not.toContain("s3cret-pw");
  });

  test("shows URLs without user name and password", () => {
    expect(shownUrl("https://me:pw@proxy.example/v1/")).toBe("https://proxy.example/v1");
    expect(shownUrl("not a url")).toBe("(an invalid URL)");
  });
});
