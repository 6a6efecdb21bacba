import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { type LlmServer, startLlmServer } from "../../tests/support/llm-server.js";
import { createToolHarness, type ToolHarness } from "../../tests/support/tool-harness.js";
import { resolveProviderConfig } from "../providers/config.js";
import { createProvider } from "../providers/create.js";

const servers: LlmServer[] = [];
let harness: ToolHarness | undefined;
let home: string | undefined;
afterEach(async () => {
  await harness?.close();
  for (const server of servers.splice(0)) await server.close();
  if (home) rmSync(home, { recursive: true, force: true });
  harness = home = undefined;
});

it("submitOnce answers one message on another provider, then the session's own provider is back", async () => {
  const own = await startLlmServer([{ text: "own one" }, { text: "own two" }]);
  const other = await startLlmServer([{ text: "from the other provider" }]);
  servers.push(own, other);
  home = mkdtempSync(join(tmpdir(), "marvin-once-"));
  harness = await createToolHarness({ home, llmUrl: own.url });
  const session = harness.session;
  const otherEnv = { OPENAI_COMPAT_URL: other.url, OPENAI_COMPAT_API_KEY: "k", OPENAI_COMPAT_MODEL: "pro-model" };
  const otherFactory = (codingMode: boolean) =>
    createProvider(
      resolveProviderConfig("openai-compat", { env: otherEnv, home: home!, codingMode, nonInteractive: false }),
      otherEnv,
    );

  expect((await session.submit("first")).text).toBe("own one");
  const once = await session.submitOnce("hard question", otherFactory);
  expect(once).toMatchObject({ reason: "done", text: "from the other provider" });
  expect((await session.submit("third")).text).toBe("own two");

  expect(other.requests).toHaveLength(1);
  expect(other.requests[0]!.body.model).toBe("pro-model");
  expect(other.requests[0]!.body.messages.slice(1).map((message) => message.content)).toEqual([
    "first",
    "own one",
    "hard question",
  ]);
  expect(own.requests.map((request) => request.body.messages.at(-1)!.content)).toEqual(["first", "third"]);
  expect(own.requests[1]!.body.messages.slice(1).map((message) => message.content)).toEqual([
    "first",
    "own one",
    "hard question",
    "from the other provider",
    "third",
  ]);
  expect(session.providerInfo).toEqual({ name: "openai-compat", model: "gpt-4o-mini" });
});
