import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "../../../tests/support/command-layer-fixture.js";
import { describe, expect } from "../../../tests/support/fixtures.js";
import { userWords } from "../../../tests/support/llm-server.js";
import { ollamaDone, ollamaLine, startOllamaServer } from "../../../tests/support/ollama-server.js";
import type { CommandLayer } from "./command-layer.js";

async function ask(layer: CommandLayer, line: string) {
  const result = await layer.handle(line);
  if (result.type !== "submitted") throw new Error(`'${line}' was not submitted`);
  return result.done;
}

describe("!model", () => {
  test("without arguments lists the endpoint's models, numbered, priced, the current one marked", async ({
    openLayer,
  }) => {
    const { layer, host } = await openLayer();
    await layer.handle("!model");
    expect(host.lastSystem).toContain("Current: openai-compat · gpt-4o-mini");
    expect(host.lastSystem).toMatch(
      /Models of openai-compat:\n {2}\* 1\. gpt-4o-mini \(current\) +128k context · \$0\.15 in \/ \$0\.6 out per M tokens\n {4}2\. house-model-7b +price unknown\n/,
    );
    expect(host.lastSystem).toMatch(/groq +not configured: groq needs an API key: set GROQ_API_KEY/);
    expect(host.lastSystem).toMatch(/openai-compat +ready \(default model gpt-4o-mini\)/);
    expect(layer.activeModel).toEqual({ provider: "openai-compat", model: "gpt-4o-mini" });
  });

  test("refuses an unknown or unconfigured provider with a clear message and keeps the current one", async ({
    openLayer,
  }) => {
    const { layer, host, server } = await openLayer([{ text: "still here" }]);
    await layer.handle("!model gpt-5 turbo");
    expect(host.lastSystem).toBe(
      "'gpt-5' is not a provider. Choose one of: copilot, anthropic, gemini, groq, mistral, openai, openrouter, " +
        "codex, ollama, openai-compat (e.g. !model groq, or !model openai gpt-4o).",
    );
    await layer.handle("!model 3");
    expect(host.lastSystem).toBe("List the models first: /model shows them, numbered.");
    await layer.handle("!model gpt-5");
    expect(host.lastSystem).toMatch(/^'gpt-5' is neither a provider nor a model of openai-compat: \/model lists/);
    await layer.handle("!model groq");
    expect(host.lastSystem).toBe(
      "Cannot switch to groq: groq needs an API key: set GROQ_API_KEY (or ~/.ssh/GROQ_API_KEY). Still using " +
        "openai-compat · gpt-4o-mini.",
    );
    await ask(layer, "hello");
    expect(server.requests[0]!.body.model).toBe("gpt-4o-mini");
  });

  test("switches to a listed model by its number or its name, on the same endpoint", async ({ openLayer }) => {
    const { layer, host, server } = await openLayer([{ text: "From the house model." }, { text: "Back." }]);
    await layer.handle("!model");
    await layer.handle("!model 9");
    expect(host.lastSystem).toBe("There is no model 9: the list has 2.");
    await layer.handle("!model 2");
    expect(host.lastSystem).toBe("Now using openai-compat · house-model-7b; the conversation continues.");
    await ask(layer, "hello");
    await layer.handle("/model gpt-4o-mini");
    expect(layer.activeModel).toEqual({ provider: "openai-compat", model: "gpt-4o-mini" });
    await ask(layer, "again");
    expect(server.requests.map((request) => request.body.model)).toEqual(["house-model-7b", "gpt-4o-mini"]);
  });

  test("switches provider and model mid-conversation, keeping the conversation", async ({ openLayer, httpServers }) => {
    const second = await startOllamaServer([{ lines: [ollamaLine({ content: "Hi from Ollama." }), ollamaDone()] }]);
    httpServers.adopt(second);
    const { layer, host, server } = await openLayer([{ text: "First answer." }], { OLLAMA_URL: second.origin });
    await ask(layer, "first question");
    await layer.handle("!model ollama llama-test");
    expect(host.lastSystem).toBe("Now using ollama · llama-test; the conversation continues.");
    expect(layer.activeModel).toEqual({ provider: "ollama", model: "llama-test" });
    expect(host.stateChanges).toBe(1);
    expect(await ask(layer, "second question")).toMatchObject({ text: "Hi from Ollama." });
    expect(server.requests).toHaveLength(1);
    const request = second.chats()[0]!;
    expect(request.model).toBe("llama-test");
    expect(request.messages.slice(1).map((message) => userWords(message.content))).toEqual([
      "first question",
      "First answer.",
      "second question",
    ]);
  });

  test("will not switch while an answer is streaming", async ({ openLayer }) => {
    const { layer, host, harness } = await openLayer([{ hang: true }]);
    const result = await layer.handle("slow question");
    await layer.handle("!model openai-compat other-model");
    expect(host.lastSystem).toContain("Marvin is still answering");
    expect(layer.interrupt()).toBe(true);
    if (result.type === "submitted") expect((await result.done).reason).toBe("aborted");
    expect(harness.session.busy).toBe(false);
  });
});

describe("!pro", () => {
  test("says clearly when Copilot is not usable and does not switch the session", async ({ openLayer }) => {
    const { layer, host, server } = await openLayer([{ text: "normal answer" }]);
    expect(await layer.handle("!pro design a database")).toEqual({ type: "handled" });
    expect(host.lastSystem).toContain("GitHub Copilot is not available");
    expect(host.lastSystem).toContain("The current provider (openai-compat) stays in use.");
    expect(server.requests).toHaveLength(0);
    await ask(layer, "hello");
    expect(server.requests).toHaveLength(1);
  });

  test("without a prompt shows how to use it", async ({ openLayer }) => {
    const { layer, host } = await openLayer();
    await layer.handle("!pro");
    expect(host.lastSystem).toBe("Usage: /pro PROMPT (asks GitHub Copilot once, whatever the current provider).");
  });
});

describe("preferences", () => {
  function editorScript(dir: string, body: string): string {
    const path = join(dir, "editor.sh");
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  }

  test("opens preferences.yaml in $EDITOR with the terminal released", async ({ openLayer }) => {
    const { layer, host, harness, env, cwd } = await openLayer();
    env.EDITOR = editorScript(cwd, 'printf "favorite_color: teal\\n" >> "$1"');
    await layer.handle("preferences");
    const path = harness.session.profiles.paths("main").preferences;
    expect(host.terminalReleases).toBe(1);
    expect(host.lastSystem).toBe(`Preferences saved (${path}); they apply from your next message.`);
    expect(readFileSync(path, "utf8")).toContain("spice_tolerance: medium");
    expect(readFileSync(path, "utf8")).toMatch(/favorite_color: teal\n$/);
  });

  test("prefers $VISUAL to $EDITOR", async ({ openLayer }) => {
    const { layer, host, env, cwd } = await openLayer();
    const visual = join(cwd, "visual");
    mkdirSync(visual);
    env.VISUAL = editorScript(visual, `echo visual > "${join(cwd, "ran")}"`);
    env.EDITOR = editorScript(cwd, `echo editor > "${join(cwd, "ran")}"`);
    await layer.handle("preferences");
    expect(host.lastSystem).toMatch(/^Preferences saved/);
    expect(readFileSync(join(cwd, "ran"), "utf8")).toBe("visual\n");
  });

  test("without $VISUAL or $EDITOR, opens the first of nano, vi and vim found on PATH", async ({ openLayer }) => {
    const { layer, host, env, cwd } = await openLayer();
    const bin = join(cwd, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "vi"), `#!/bin/sh\necho "vi $1" > "${join(cwd, "ran")}"\n`);
    chmodSync(join(bin, "vi"), 0o755);
    env.PATH = bin;
    await layer.handle("preferences");
    expect(host.lastSystem).toMatch(/^Preferences saved/);
    expect(readFileSync(join(cwd, "ran"), "utf8")).toMatch(/^vi .*preferences\.yaml\n$/);

    env.PATH = join(cwd, "empty");
    await layer.handle("preferences");
    expect(host.lastSystem).toMatch(
      /^No editor found: set \$VISUAL or \$EDITOR \(e\.g\. EDITOR=vim\), or install nano/,
    );
    expect(host.lastSystem).toMatch(/or vi\. The file is .*preferences\.yaml\.$/);
  });

  test("says when the editor is missing or leaves invalid YAML", async ({ openLayer }) => {
    const { layer, host, harness, env, cwd } = await openLayer([], { EDITOR: "/nonexistent/editor" });
    await layer.handle("preferences");
    expect(host.lastSystem).toContain("The editor '/nonexistent/editor' was not found. Set $VISUAL or $EDITOR");
    env.EDITOR = editorScript(cwd, 'printf "this: [is not yaml\\n" > "$1"');
    await layer.handle("preferences");
    expect(host.lastSystem).toMatch(
      /preferences\.yaml is not valid YAML now \(.+\)\. Run 'preferences' again to fix it;/,
    );
    expect(readFileSync(harness.session.profiles.paths("main").preferences, "utf8")).toBe("this: [is not yaml\n");
  });
});
