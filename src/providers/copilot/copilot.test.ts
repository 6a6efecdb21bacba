import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixtureImage, JPEG_BASE64, PNG_BASE64 } from "../../../tests/support/images.js";
import { collect, failureOf } from "../../../tests/support/provider-stream.js";
import {
  type ScriptedCopilot,
  type ScriptedCopilotReply,
  scriptedCopilot,
} from "../../../tests/support/scripted-copilot.js";
import { registryOf } from "../../../tests/support/test-session.js";
import { ContextBudget } from "../../agent/context-budget.js";
import type { AgentEvent } from "../../agent/events.js";
import { Session } from "../../session/session.js";
import type { Env } from "../../shared/env.js";
import type { ToolSchema } from "../../shared/tool-schema.js";
import { fileTools } from "../../tools/coding/files/index.js";
import { resolveProviderConfig } from "../config.js";
import { finalAnswer } from "../final-answer.js";
import { ProviderError } from "../provider-error.js";
import type { ChatRequest, Message, ProviderEvent, ProviderFailure } from "../types.js";
import { CopilotProvider, isCopilotUsable } from "./index.js";

const temporaryHomes: string[] = [];

async function emptyHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "marvin-copilot-home-"));
  temporaryHomes.push(home);
  return home;
}

async function writeHomeFile(home: string, relativePath: string, text: string): Promise<void> {
  const path = join(home, relativePath);
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text);
}

afterEach(async () => {
  await Promise.all(temporaryHomes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
});

/** An environment with no GitHub credentials at all, whose HOME is `home`. */
function credentialFreeEnv(home: string): Env {
  return { PATH: process.env.PATH, HOME: home };
}

function providerFor(env: Env, startupTimeoutMs?: number): CopilotProvider {
  const config = resolveProviderConfig("copilot", {
    env,
    home: env.HOME ?? "",
    codingMode: false,
    nonInteractive: false,
  });
  return new CopilotProvider(config, { env, startupTimeoutMs });
}

function helloRequest(signal?: AbortSignal): ChatRequest {
  return {
    messages: [
      { role: "system", content: "You are Marvin." },
      { role: "user", content: "Hello" },
    ],
    tools: [],
    signal,
  };
}

async function rejectionOf(stream: AsyncIterable<ProviderEvent>): Promise<ProviderFailure> {
  const error = await failureOf(stream);
  expect(error).toBeInstanceOf(ProviderError);
  return error;
}

describe("isCopilotUsable", () => {
  it("is false with no token variables and an empty home", async () => {
    const home = await emptyHome();
    expect(await isCopilotUsable({}, home)).toBe(false);
  });

  it("is true when the GitHub CLI's hosts.yml holds an oauth_token", async () => {
    const home = await emptyHome();
    await writeHomeFile(home, ".config/gh/hosts.yml", "github.com:\n    user: octocat\n    oauth_token: gho_example\n");
    expect(await isCopilotUsable({}, home)).toBe(true);
  });

  it("is false when hosts.yml has no token (gh keeps it in the keyring)", async () => {
    const home = await emptyHome();
    await writeHomeFile(home, ".config/gh/hosts.yml", "github.com:\n    user: octocat\n    git_protocol: https\n");
    expect(await isCopilotUsable({}, home)).toBe(false);
  });

  it("is true when a token variable the runtime reads is set", async () => {
    const home = await emptyHome();
    for (const name of ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"]) {
      expect(await isCopilotUsable({ [name]: "gho_example" }, home)).toBe(true);
    }
    expect(await isCopilotUsable({ GH_TOKEN: "  " }, home)).toBe(false);
  });

  it("is true when the Copilot CLI's config lists a logged-in user, false for an empty list", async () => {
    const home = await emptyHome();
    await writeHomeFile(home, ".copilot/config.json", JSON.stringify({ loggedInUsers: [] }));
    expect(await isCopilotUsable({}, home)).toBe(false);
    const user = { host: "https://github.com", login: "octocat" };
    await writeHomeFile(
      home,
      ".copilot/config.json",
      JSON.stringify({ loggedInUsers: [user], lastLoggedInUser: user }),
    );
    expect(await isCopilotUsable({}, home)).toBe(true);
  });

  it("is cheap", async () => {
    const home = await emptyHome();
    await isCopilotUsable({}, home);
    const started = performance.now();
    await isCopilotUsable({}, home);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe("CopilotProvider", () => {
  it("is named copilot and defaults to claude-haiku-4.5", () => {
    const provider = providerFor({ HOME: "/nonexistent" });
    expect(provider.name).toBe("copilot");
    expect(provider.model).toBe("claude-haiku-4.5");
  });

  it("rejects quickly, saying how to sign in, when no credentials exist", async () => {
    const home = await emptyHome();
    const provider = providerFor(credentialFreeEnv(home));
    const started = Date.now();
    try {
      const { error, text } = await collect(provider.stream(helloRequest()));
      expect(text).toEqual([]);
      if (!error) throw new Error("no error");
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(["auth", "unavailable"]).toContain(error.kind);
      expect(error.provider).toBe("copilot");
      expect(error.message).toContain("gh auth login");
      expect(error.message).toMatch(/COPILOT_GITHUB_TOKEN|GH_TOKEN/);
    } finally {
      await provider.destroy();
    }
  }, 40_000);

  it("gives up on a runtime that does not start within the startup limit", async () => {
    const home = await emptyHome();
    const provider = providerFor(credentialFreeEnv(home), 1);
    try {
      const error = await rejectionOf(provider.stream(helloRequest()));
      expect(error.kind).toBe("unavailable");
      expect(error.message).toMatch(/did not start within/);
      expect(error.message).toMatch(/--provider/);
    } finally {
      await provider.destroy();
    }
  }, 40_000);

  it("rejects as aborted when the signal fires while the runtime starts", async () => {
    const home = await emptyHome();
    const provider = providerFor(credentialFreeEnv(home));
    const controller = new AbortController();
    try {
      const pending = rejectionOf(provider.stream(helloRequest(controller.signal)));
      setImmediate(() => controller.abort());
      expect((await pending).kind).toBe("aborted");
    } finally {
      await provider.destroy();
    }
  }, 40_000);

  it("rejects an already-aborted request without starting anything", async () => {
    const provider = providerFor(credentialFreeEnv(await emptyHome()));
    const controller = new AbortController();
    controller.abort();
    expect((await rejectionOf(provider.stream(helloRequest(controller.signal)))).kind).toBe("aborted");
    await provider.destroy();
  });

  it("rejects a request without a user message as a bad request", async () => {
    const provider = providerFor(credentialFreeEnv(await emptyHome()));
    const request: ChatRequest = {
      messages: [{ role: "system", content: "You are Marvin." }],
      tools: [],
    };
    expect((await rejectionOf(provider.stream(request))).kind).toBe("bad_request");
    await provider.destroy();
  });
});

/** System messages as Marvin builds them: a preamble with the time, then `## Title` sections. */
function systemAt(time: string, chatLog: string[]): string {
  return [
    `You are Marvin, a helpful assistant.\nCurrent date and time: ${time}`,
    "## Active profile\nActive profile: main",
    `## Recent conversation (compact)\n${chatLog.join("\n") || "(no earlier conversation)"}`,
  ].join("\n\n");
}

interface RequestOptions {
  tools?: ToolSchema[];
  standalone?: boolean;
  signal?: AbortSignal;
}

function request(messages: Message[], { tools = [], standalone, signal }: RequestOptions = {}): ChatRequest {
  return { messages, tools, signal, ...(standalone ? { standalone } : {}) };
}

const SEARCH_TOOL: ToolSchema = {
  type: "function",
  function: { name: "search_notes", description: "Search notes", parameters: { type: "object", properties: {} } },
};

const ADA_SAID = "[10:00] you: My name is Ada.";
/** A scripted answer that shows which earlier prompts the runtime's session holds. */
const EARLIER_IN_SESSION = "Earlier in this session: {earlier}";

describe("CopilotProvider conversations (scripted Copilot runtime over the SDK's JSON-RPC protocol)", () => {
  async function scripted(replies: ScriptedCopilotReply[]) {
    const copilot = await scriptedCopilot(await emptyHome(), replies);
    const provider = providerFor(copilot.env);
    return { copilot, provider };
  }

  it("keeps one session across a conversation's messages: the second message sees the first", async () => {
    const { copilot, provider } = await scripted([{ text: "Hello Ada." }, { text: "Earlier you said: {earlier}" }]);
    try {
      const first: Message[] = [
        { role: "system", content: systemAt("10:00", []) },
        { role: "user", content: "My name is Ada." },
      ];
      expect((await finalAnswer(provider.stream(request(first)))).content).toBe("Hello Ada.");
      // The next request, as the session builds it: a fresh system message (new time, the
      // first exchange in the compact history) and the whole conversation.
      const second: Message[] = [
        { role: "system", content: systemAt("10:05", [ADA_SAID, "[10:00] assistant: Hello Ada."]) },
        { role: "user", content: "My name is Ada." },
        { role: "assistant", content: "Hello Ada." },
        { role: "user", content: "What is my name?" },
      ];
      expect((await finalAnswer(provider.stream(request(second)))).content).toBe("Earlier you said: My name is Ada.");

      const calls = await copilot.calls();
      expect(calls.filter((call) => call.method === "session.create")).toHaveLength(1);
      const [sent1, sent2] = await copilot.prompts();
      expect(sent2!.sessionId).toBe(sent1!.sessionId);
      expect(sent1!.prompt).toBe("My name is Ada.");
      // Only what is new: the refreshed parts of the system context, then the message.
      expect(sent2!.prompt).toBe(
        "<system-context-update>\nThe system context changed since the last message; new or changed parts:\n" +
          "Current date and time: 10:05\n\n## Recent conversation (compact)\n" +
          `${ADA_SAID}\n[10:00] assistant: Hello Ada.\n` +
          "</system-context-update>\n\nWhat is my name?",
      );
    } finally {
      await provider.destroy();
    }
  }, 40_000);

  it("tells a new session the conversation so far when the old one cannot continue it (other tools)", async () => {
    const { copilot, provider } = await scripted([{ text: "Hello Ada." }, { text: EARLIER_IN_SESSION }]);
    try {
      const system = systemAt("10:00", []);
      await finalAnswer(
        provider.stream(
          request([
            { role: "system", content: system },
            { role: "user", content: "My name is Ada." },
          ]),
        ),
      );
      const second: Message[] = [
        { role: "system", content: system },
        { role: "user", content: "My name is Ada." },
        { role: "assistant", content: "Hello Ada." },
        { role: "user", content: "What is my name?" },
      ];
      const answer = await finalAnswer(provider.stream(request(second, { tools: [SEARCH_TOOL] })));
      expect(answer.content).toBe("Earlier in this session: ");
      const [sent1, sent2] = await copilot.prompts();
      expect(sent2!.sessionId).not.toBe(sent1!.sessionId);
      expect(sent2!.prompt).toContain("<earlier-conversation>");
      expect(sent2!.prompt).toContain("user: My name is Ada.\n\nassistant: Hello Ada.");
      expect(sent2!.prompt.endsWith("</earlier-conversation>\n\nWhat is my name?")).toBe(true);
    } finally {
      await provider.destroy();
    }
  }, 40_000);

  it("shows a new session the images of the earlier conversation (a resumed one) before the new ones", async () => {
    const { copilot, provider } = await scripted([{ text: "Both dark." }]);
    try {
      const png = { mediaType: "image/png" as const, data: PNG_BASE64() };
      const jpeg = { mediaType: "image/jpeg" as const, data: JPEG_BASE64() };
      const resumed: Message[] = [
        { role: "system", content: systemAt("10:00", []) },
        { role: "user", content: "What is in this one?", images: [png] },
        { role: "assistant", content: "A dark picture." },
        { role: "user", content: "And this one?", images: [jpeg] },
      ];
      expect((await finalAnswer(provider.stream(request(resumed)))).content).toBe("Both dark.");
      const [send] = (await copilot.calls()).filter((call) => call.method === "session.send");
      expect(send!.params.attachments).toEqual([
        { type: "blob", data: PNG_BASE64(), mimeType: "image/png" },
        { type: "blob", data: JPEG_BASE64(), mimeType: "image/jpeg" },
      ]);
      expect(send!.params.prompt).toContain("The image shown in it comes first with this message, in order.");
    } finally {
      await provider.destroy();
    }
  }, 40_000);

  it("after a cancelled answer, goes on in a new session that is told the conversation so far", async () => {
    const { copilot, provider } = await scripted([
      { text: "Hello Ada." },
      { text: "never sent", delayMs: 20_000 },
      { text: EARLIER_IN_SESSION },
    ]);
    try {
      const system = systemAt("10:00", []);
      const conversation: Message[] = [
        { role: "system", content: system },
        { role: "user", content: "My name is Ada." },
      ];
      await finalAnswer(provider.stream(request(conversation)));
      conversation.push({ role: "assistant", content: "Hello Ada." });
      conversation.push({ role: "user", content: "Tell me a long story." });
      const controller = new AbortController();
      const cancelled = rejectionOf(provider.stream(request(conversation, { signal: controller.signal })));
      while ((await copilot.prompts()).length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort();
      expect((await cancelled).kind).toBe("aborted");
      conversation.push({ role: "user", content: "What is my name?" });
      expect((await finalAnswer(provider.stream(request(conversation)))).content).toBe("Earlier in this session: ");
      const prompts = await copilot.prompts();
      expect(prompts[2]!.sessionId).not.toBe(prompts[0]!.sessionId);
      const replayed = "user: My name is Ada.\n\nassistant: Hello Ada.\n\nuser: Tell me a long story.\n";
      expect(prompts[2]!.prompt).toContain(replayed);
    } finally {
      await provider.destroy();
    }
  }, 40_000);

  it("answers a standalone request (a summary) in a session of its own, leaving the conversation's alone", async () => {
    const replies = [{ text: "Hi." }, { text: "A summary." }, { text: "Earlier: {earlier}" }];
    const { copilot, provider } = await scripted(replies);
    try {
      const system = systemAt("10:00", []);
      await finalAnswer(
        provider.stream(
          request([
            { role: "system", content: system },
            { role: "user", content: "one" },
          ]),
        ),
      );
      const summaryRequest: Message[] = [
        { role: "system", content: "You compress conversations." },
        { role: "user", content: "transcript" },
      ];
      const summary = await finalAnswer(provider.stream(request(summaryRequest, { standalone: true })));
      expect(summary.content).toBe("A summary.");
      const third = await finalAnswer(
        provider.stream(
          request([
            { role: "system", content: system },
            { role: "user", content: "one" },
            { role: "assistant", content: "Hi." },
            { role: "user", content: "two" },
          ]),
        ),
      );
      expect(third.content).toBe("Earlier: one");
      const [main1, standalone, main2] = await copilot.prompts();
      expect(main2!.sessionId).toBe(main1!.sessionId);
      expect(standalone!.sessionId).not.toBe(main1!.sessionId);
      const creates = (await copilot.calls()).filter((call) => call.method === "session.create");
      const systemMessages = creates.map((call) => (call.params.systemMessage as { content: string }).content);
      expect(systemMessages).toEqual([system, "You compress conversations."]);
      const deletes = (await copilot.calls()).filter((call) => call.method === "session.delete");
      const deleted = deletes.map((call) => call.params.sessionId);
      expect(deleted).toContain(standalone!.sessionId);
    } finally {
      await provider.destroy();
    }
  }, 40_000);
});

describe("budgets inside Copilot's own tool loop", () => {
  async function copilotSession(replies: ScriptedCopilotReply[], budget: ContextBudget) {
    const home = await emptyHome();
    const work = join(home, "proj");
    await mkdir(work);
    const copilot = await scriptedCopilot(home, replies);
    const session = new Session({
      home,
      env: copilot.env,
      nonInteractive: true,
      codingMode: true,
      readonly: false,
      workingDir: work,
      registry: registryOf(fileTools),
      budget,
      createProvider: async () => providerFor(copilot.env),
    });
    await session.start();
    return { copilot, session, work };
  }

  async function toolResults(copilot: ScriptedCopilot): Promise<string[]> {
    const results = (await copilot.calls()).filter((call) => call.method === "session.tools.handlePendingToolCall");
    return results.map((call) => String(call.params.result));
  }

  it("counts the turn's earlier tool results against the context budget, and adds its warning", async () => {
    const read = { name: "read_file", arguments: { path: "notes.md" } };
    const budget = new ContextBudget({ warn: 2_600, compact: 1_000_000, hard: 1_000_000 });
    const { copilot, session, work } = await copilotSession([{ toolCalls: [read, read], text: "Done." }], budget);
    const starts: AgentEvent[] = [];
    session.subscribe((event) => event.type === "tool_start" && starts.push(event));
    try {
      await writeFile(join(work, "notes.md"), Array.from({ length: 600 }, (_, index) => `w${index}`).join(" "));
      const result = await session.submit("Read notes.md twice.");
      expect(result.reason).toBe("done");
      // Marvin's loop ran each call the runtime asked for, one round each, with the arguments the SDK decoded.
      expect(starts).toMatchObject([
        { turn: 1, name: "read_file", input: { path: "notes.md" } },
        { turn: 2, name: "read_file", input: { path: "notes.md" } },
      ]);
      const [first, second] = await toolResults(copilot);
      expect(first).toContain("w599");
      expect(first).not.toContain("Truncated");
      // The first read's result is in Copilot's context: the second read must fit in what is left.
      expect(second).toMatch(/Truncated to fit context budget|context budget is used up/);
      expect(second).toContain("[Context budget warning");
    } finally {
      await session.close();
    }
  }, 40_000);

  it("hands read_file's image to the runtime as a binary result, and a user's image as a blob", async () => {
    const read = { name: "read_file", arguments: { path: "pic.png" } };
    const { copilot, session, work } = await copilotSession(
      [{ toolCalls: [read], text: "Black." }],
      new ContextBudget(),
    );
    try {
      await writeFile(join(work, "pic.png"), fixtureImage("tiny.png"));
      expect((await session.submit("What is in pic.png?")).reason).toBe("done");
      const results = (await copilot.calls()).filter((call) => call.method === "session.tools.handlePendingToolCall");
      expect(results[0]!.params.result).toEqual({
        textResultForLlm: "pic.png is an image (PNG, 2×3, 97 B); here it is.",
        binaryResultsForLlm: [{ type: "image", data: PNG_BASE64(), mimeType: "image/png" }],
        resultType: "success",
      });
      const png = { mediaType: "image/png" as const, data: PNG_BASE64() };
      expect((await session.submit("And this one?", { images: [png] })).reason).toBe("done");
      const sends = (await copilot.calls()).filter((call) => call.method === "session.send");
      expect(sends[1]!.params.attachments).toEqual([{ type: "blob", data: PNG_BASE64(), mimeType: "image/png" }]);
    } finally {
      await session.close();
    }
  }, 40_000);

  it("applies read_file's session read budget", async () => {
    const range = (start: number) => ({
      name: "read_file",
      arguments: { path: "big.txt", start_line: start, end_line: start + 999 },
    });
    const reads = [range(1), range(1001), range(1), range(1)];
    const { copilot, session, work } = await copilotSession([{ toolCalls: reads, text: "Done." }], new ContextBudget());
    try {
      await writeFile(join(work, "big.txt"), `${"x".repeat(99)}\n`.repeat(2000));
      expect((await session.submit("Read big.txt again and again.")).reason).toBe("done");
      const results = await toolResults(copilot);
      expect(results).toHaveLength(4);
      expect(results[1]).toContain("[Read budget: ");
      expect(results[2]).toContain("Cut to fit the session read budget");
      expect(results[3]).toContain("Read budget used up");
      expect(results[3]).toContain(".marvin/memories/dump-big.txt.txt");
    } finally {
      await session.close();
    }
  }, 40_000);
});
