import { expect, test } from "../../tests/support/fixtures.js";
import { userWords } from "../../tests/support/llm-server.js";
import { resolveProviderConfig } from "../providers/config.js";
import { createProvider } from "../providers/create.js";

test("submitOnce answers one message on another provider, then the session's own provider is back", async ({
  llm,
  home,
  harnesses,
}) => {
  const own = await llm([{ text: "own one" }, { text: "own two" }]);
  const other = await llm([{ text: "from the other provider" }]);
  const harness = await harnesses.open({ home, llmUrl: own.url });
  const session = harness.session;
  const otherEnv = { OPENAI_COMPAT_URL: other.url, OPENAI_COMPAT_API_KEY: "k", OPENAI_COMPAT_MODEL: "pro-model" };
  const otherFactory = (codingMode: boolean) =>
    createProvider(
      resolveProviderConfig("openai-compat", { env: otherEnv, home, codingMode, nonInteractive: false }),
      otherEnv,
    );

  expect((await session.submit("first")).text).toBe("own one");
  const once = await session.submitOnce("hard question", otherFactory);
  expect(once).toMatchObject({ reason: "done", text: "from the other provider" });
  expect((await session.submit("third")).text).toBe("own two");

  expect(other.requests).toHaveLength(1);
  expect(other.requests[0]!.body.model).toBe("pro-model");
  expect(other.requests[0]!.body.messages.slice(1).map((message) => userWords(message.content))).toEqual([
    "first",
    "own one",
    "hard question",
  ]);
  expect(own.requests.map((request) => userWords(request.body.messages.at(-1)!.content))).toEqual(["first", "third"]);
  expect(own.requests[1]!.body.messages.slice(1).map((message) => userWords(message.content))).toEqual([
    "first",
    "own one",
    "hard question",
    "from the other provider",
    "third",
  ]);
  expect(session.providerInfo).toEqual({ name: "openai-compat", model: "gpt-4o-mini" });
});
