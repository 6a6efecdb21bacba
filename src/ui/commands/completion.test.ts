import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "../../../tests/support/command-layer-fixture.js";
import { describe, expect } from "../../../tests/support/fixtures.js";
import type { Completions } from "./completion.js";

const values = (found: Completions | undefined) => found?.items.map((item) => item.value) ?? [];

describe("completion", () => {
  test("offers / commands with their summaries as one types, only at the start of the line", async ({ openLayer }) => {
    const { layer } = await openLayer();
    const found = layer.completer.complete("/mo", 3, false);
    expect(found).toMatchObject({ start: 0, end: 3 });
    expect(found?.items).toEqual([
      {
        value: "/model",
        label: "/model [MODEL|N|PROVIDER [MODEL]]",
        detail: "list the models the endpoint has, or switch model or provider mid-conversation",
        runs: true,
      },
    ]);
    expect(values(layer.completer.complete("/c", 2, false))).toEqual(["/clear", "/compact", "/code", "/cap"]);
    expect(layer.completer.complete("say /mo", 7, true)).toBeUndefined();
  });

  test("completes paths from the ignore-aware index, @paths and @tools, and ~/ to the home directory", async ({
    openLayer,
  }) => {
    const { layer, cwd, home } = await openLayer();
    mkdirSync(join(cwd, "src", "agent"), { recursive: true });
    writeFileSync(join(cwd, "src", "agent", "loop.ts"), "");
    writeFileSync(join(cwd, "src", "agent", "events.ts"), "");
    mkdirSync(join(cwd, "build"));
    writeFileSync(join(cwd, "build", "out.js"), "");
    writeFileSync(join(cwd, ".gitignore"), "build/\n");
    mkdirSync(join(home, "Documents"));
    expect(layer.completer.complete("look at src/ag", 14, false)).toBeUndefined(); // plain paths only on Tab
    const tab = await layer.completer.completeWhenReady("look at src/ag", 14);
    expect(tab).toMatchObject({ start: 8, end: 14 });
    expect(values(tab)).toEqual(["src/agent/"]);
    expect(values(layer.completer.complete("src/agent/", 10, true))).toEqual([
      "src/agent/events.ts",
      "src/agent/loop.ts",
    ]);
    expect(values(layer.completer.complete("b", 1, true))).toEqual([]);
    expect(values(layer.completer.complete("read @src/agent/l", 17, false))).toEqual(["@src/agent/loop.ts"]);
    expect(layer.completer.complete("use @timer_sta", 14, false)?.items).toEqual([
      { value: "@timer_start", label: "@timer_start", detail: "tool" },
    ]);
    expect(layer.completer.complete("open ~/Doc", 10, true)?.items).toEqual([
      { value: `${home}/Documents/`, label: "~/Documents/" },
    ]);
  });

  test("completes ./ and ../ paths on Tab, keeping what was typed", async ({ openLayer }) => {
    const { layer, cwd, home } = await openLayer();
    mkdirSync(join(cwd, "src", "agent"), { recursive: true });
    writeFileSync(join(cwd, "src", "agent", "loop.ts"), "");
    writeFileSync(join(cwd, "notes.md"), "");
    mkdirSync(join(home, "Music"));
    writeFileSync(join(home, ".hidden"), "");
    expect(values(await layer.completer.completeWhenReady("look at ./", 10))).toEqual(["./notes.md", "./src/"]);
    expect(values(layer.completer.complete("./src/agent/l", 13, true))).toEqual(["./src/agent/loop.ts"]);
    expect(values(layer.completer.complete("see ../", 7, true))).toEqual(["../cwd/", "../home/"]);
    expect(values(layer.completer.complete("../home/", 8, true))).toEqual(["../home/Music/"]);
    expect(values(layer.completer.complete("../home/.h", 10, true))).toEqual(["../home/.hidden"]);
    expect(values(layer.completer.complete("./../home/M", 11, true))).toEqual(["./../home/Music/"]);
    expect(layer.completer.complete("../nowhere/", 11, true)).toBeUndefined();
    expect(layer.completer.complete("see ../", 7, false)).toBeUndefined(); // plain paths only on Tab
  });

  test("completes the first argument of a command that declares its choices, on Tab only", async ({ openLayer }) => {
    const { layer } = await openLayer();
    expect(values(layer.completer.complete("/thinking ", 10, true))).toEqual([
      "off",
      "low",
      "medium",
      "high",
      "default",
    ]);
    expect(values(layer.completer.complete("/thinking h", 11, true))).toEqual(["high"]);
    expect(values(layer.completer.complete("!permissions A", 14, true))).toEqual(["ask", "auto"]);
    expect(values(layer.completer.complete("/model anth", 11, true))).toEqual(["anthropic"]);
    expect(values(layer.completer.complete("/plan ", 6, true))).toEqual(["approve", "off"]);
    expect(layer.completer.complete("/thinking ", 10, false)).toBeUndefined(); // not as one types
    expect(layer.completer.complete("/thinking high ", 15, true)).toBeUndefined(); // only the first argument
  });
});
