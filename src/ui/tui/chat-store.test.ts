import { stripVTControlCharacters as plain } from "node:util";
import { describe, expect, it } from "vitest";
import { sleep } from "../../shared/sleep.js";
import { ChatStore } from "./chat-store.js";
import { EntryLineRenderer, LIVE_COUNTER_AFTER_MS } from "./entry-lines.js";
import { COLOR_THEME, MONOCHROME_THEME } from "./theme.js";

const fixedTime = () => new Date(2025, 0, 1, 9, 5);

function storeWithCounter(frameMs = 30) {
  const store = new ChatStore({ frameMs, now: fixedTime });
  let notifications = 0;
  store.subscribe(() => (notifications += 1));
  return { store, notifications: () => notifications };
}

const screen = (store: ChatStore, width = 60, now = 0) =>
  new EntryLineRenderer(MONOCHROME_THEME).render(store.entries, width, now).map((line) => plain(line));

describe("ChatStore", () => {
  it("shows reasoning as a dim block above the answer, collapsed to one line once the answer starts", () => {
    const store = new ChatStore({ frameMs: 0, now: fixedTime });
    store.apply({ type: "agent_start", maxRounds: 10 });
    store.apply({ type: "reasoning_delta", turn: 1, text: "The user asks about tea. " });
    store.apply({ type: "reasoning_delta", turn: 1, text: "Green tea steeps at 80 °C for two minutes, which I know." });
    store.flush();
    expect(screen(store, 40)).toEqual([
      "💭 The user asks about tea. Green tea",
      "steeps at 80 °C for two minutes, which I",
      "know.",
    ]);
    const [thought] = new EntryLineRenderer(COLOR_THEME).render(store.entries, 40, 0);
    expect(thought).toContain("\x1b[2m"); // dim
    store.apply({ type: "text_delta", turn: 1, text: "Two minutes at 80 °C." });
    store.flush();
    expect(screen(store, 40)).toEqual([
      "💭 The user asks about tea. Green tea",
      "",
      "Marvin · 09:05",
      "Two minutes at 80 °C.",
    ]);
  });

  it("batches a burst of text deltas into one redraw", async () => {
    const { store, notifications } = storeWithCounter();
    for (let index = 0; index < 200; index += 1) store.apply({ type: "text_delta", turn: 1, text: `t${index} ` });
    expect(notifications()).toBe(0);
    await sleep(60);
    expect(notifications()).toBe(1);
    const answer = store.entries[0]!;
    expect(answer).toMatchObject({ kind: "assistant", streaming: true });
    expect(answer.kind === "assistant" && answer.text.split(" ").length).toBe(201);
  });

  it("redraws a steady stream at most once per frame", async () => {
    const { store, notifications } = storeWithCounter(40);
    const started = performance.now();
    while (performance.now() - started < 400) {
      store.apply({ type: "text_delta", turn: 1, text: "x" });
      await sleep(2);
    }
    await sleep(50);
    expect(notifications()).toBeGreaterThanOrEqual(5);
    expect(notifications()).toBeLessThanOrEqual(12);
  });

  it("turns a run's events into user, answer, tool and system entries", () => {
    const store = new ChatStore({ now: fixedTime });
    store.addUser("weather?");
    store.apply({ type: "agent_start", maxRounds: 10 });
    store.apply({ type: "text_delta", turn: 1, text: "Let me check." });
    store.apply({ type: "tool_calls", turn: 1, names: ["get_weather", "get_location"] });
    store.apply({ type: "tool_start", turn: 1, callId: "a", name: "get_weather", arguments: "{}", input: {} });
    store.apply({
      type: "tool_end",
      turn: 1,
      callId: "a",
      name: "get_weather",
      arguments: "{}",
      input: {},
      result: "Sunny, 21 °C\nWind 5 km/h",
      isError: false,
      elapsedMs: 2500,
    });
    store.apply({ type: "notice", level: "warning", text: "Rate limited, waiting 2 s" });
    store.apply({ type: "text_delta", turn: 2, text: "It is sunny." });
    store.apply({ type: "agent_end", reason: "done", text: "", rounds: 2 });
    expect(screen(store)).toEqual([
      "You · 09:05",
      "weather?",
      "",
      "Marvin · 09:05",
      "Let me check.",
      "🔧 get_weather, get_location",
      "   ↳ get_weather: Sunny, 21 °C (+1 lines) (2.5s)",
      "",
      "[System] Rate limited, waiting 2 s",
      "",
      "It is sunny.",
    ]);
    expect(store.entries.every((entry) => entry.kind !== "assistant" || !entry.streaming)).toBe(true);
  });

  it("keeps the partial answer when a request is aborted and marks it", () => {
    const store = new ChatStore({ now: fixedTime });
    store.apply({ type: "text_delta", turn: 1, text: "Half an ans" });
    store.apply({ type: "agent_end", reason: "aborted", text: "Half an ans", rounds: 1 });
    expect(screen(store)).toEqual(["Marvin · 09:05", "Half an ans", "[interrupted]"]);
  });

  it("echoes commands and collects shell output under them", () => {
    const store = new ChatStore({ now: fixedTime });
    store.addCommand("$ ls");
    store.addOutput("a.txt\nb");
    store.addOutput(".txt\n\x1b[31mred\x1b[0m\rprogress 50%\rprogress 100%\n");
    expect(screen(store)).toEqual(["$ ls", "a.txt", "b.txt", "progress 100%"]);
  });

  it("shows the recent conversation from the chat log", () => {
    const store = new ChatStore({ now: fixedTime });
    store.addChatLogEntries([
      { role: "you", text: "hi", time: "08:00" },
      { role: "assistant", text: "**Hello!**", time: "08:01" },
    ]);
    expect(screen(store)).toEqual(["You · 08:00", "hi", "", "Marvin · 08:01", "Hello!"]);
  });
});

describe("tool lines", () => {
  it("show a live elapsed counter only for tools running longer than 2 s, then a one-line summary", () => {
    let clock = 1000;
    const store = new ChatStore({ clock: () => clock, now: fixedTime });
    const renderer = new EntryLineRenderer(MONOCHROME_THEME);
    const lines = () => renderer.render(store.entries, 60, clock).map((line) => plain(line));
    store.apply({ type: "tool_calls", turn: 1, names: ["web_search"] });
    store.apply({ type: "tool_start", turn: 1, callId: "s", name: "web_search", arguments: "{}", input: {} });
    clock += LIVE_COUNTER_AFTER_MS - 1;
    expect(lines()).toEqual(["🔧 web_search"]);
    clock += 2000;
    expect(lines()).toEqual(["🔧 web_search", "   ⏳ web_search 4s"]);
    clock += 1000;
    expect(lines()).toEqual(["🔧 web_search", "   ⏳ web_search 5s"]);
    store.apply({
      type: "tool_end",
      turn: 1,
      callId: "s",
      name: "web_search",
      arguments: "{}",
      input: {},
      result: "Error: network down",
      isError: true,
      elapsedMs: 5200,
    });
    expect(lines()).toEqual(["🔧 web_search", "   ✗ web_search: Error: network down (5.2s)"]);
  });

  it("show each running call's latest progress (which sub-agent runs what) beside its counter", () => {
    let clock = 1000;
    const store = new ChatStore({ clock: () => clock, now: fixedTime });
    const renderer = new EntryLineRenderer(MONOCHROME_THEME);
    const lines = () => renderer.render(store.entries, 80, clock).map((line) => plain(line));
    const progress = (callId: string, message: string) =>
      store.apply({ type: "tool_progress", turn: 1, callId, name: "launch_agent", message });
    store.apply({ type: "tool_calls", turn: 1, names: ["launch_agent", "launch_agent"] });
    for (const callId of ["a", "b"])
      store.apply({ type: "tool_start", turn: 1, callId, name: "launch_agent", arguments: "{}", input: {} });
    progress("a", "sub-agent on m in src: started");
    expect(lines()).toEqual(["🔧 launch_agent, launch_agent", "   ⏳ launch_agent · sub-agent on m in src: started"]);
    clock += 3000;
    progress("a", "sub-agent on m in src: running code_grep");
    progress("b", "sub-agent on m in docs: running tree");
    expect(lines()).toEqual([
      "🔧 launch_agent, launch_agent",
      "   ⏳ launch_agent 3s · sub-agent on m in src: running code_grep",
      "   ⏳ launch_agent 3s · sub-agent on m in docs: running tree",
    ]);
  });

  it("are magenta, user lines cyan, answers green and system lines yellow", () => {
    const store = new ChatStore({ now: fixedTime });
    store.addUser("q");
    store.apply({ type: "text_delta", turn: 1, text: "a" });
    store.flush();
    store.apply({ type: "tool_calls", turn: 1, names: ["t"] });
    store.addSystem("s");
    const lines = new EntryLineRenderer(COLOR_THEME).render(store.entries, 40, 0);
    expect(lines[1]).toBe("\x1b[36mq\x1b[39m");
    expect(lines[4]).toBe("\x1b[32ma\x1b[39m");
    expect(lines[5]).toBe("\x1b[35m🔧 t\x1b[39m");
    expect(lines[7]).toBe("\x1b[33m[System] s\x1b[39m");
  });
});
