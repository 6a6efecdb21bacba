import { describe, expect, it } from "vitest";
import { HookDispatcher } from "./hook-dispatcher.js";

/** A call about to run, its arguments decoded as the agent loop hands them over. */
const call = (name: string, input: unknown) => ({ id: "call-1", name, input });

function dispatcherWithNotices(): { dispatcher: HookDispatcher; notices: string[] } {
  const notices: string[] = [];
  const dispatcher = new HookDispatcher();
  dispatcher.connect({ notice: (text) => notices.push(text), send: () => undefined });
  return { dispatcher, notices };
}

describe("HookDispatcher around a tool call", () => {
  it("a block answers with the reason and the tool never runs; matchers pick the tools", async () => {
    const { dispatcher } = dispatcherWithNotices();
    const seen: unknown[] = [];
    dispatcher.add("tool.execute.before", {
      label: "hook guard.mjs",
      matcher: /run_command/,
      timeoutMs: 1000,
      run: (event) => {
        seen.push(event);
        return { block: true, reason: "not here" };
      },
    });
    let ran = 0;
    const run = async () => {
      ran += 1;
      return { result: "ran", isError: false };
    };
    expect(await dispatcher.aroundTool(call("run_command", { command: "ls" }), run)).toEqual({
      result: "run_command was blocked by a hook (hook guard.mjs): not here",
      isError: true,
    });
    expect(await dispatcher.aroundTool(call("read_file", { path: "a" }), run)).toEqual({
      result: "ran",
      isError: false,
    });
    expect(ran).toBe(1);
    expect(seen).toEqual([
      { type: "tool.execute.before", tool: "run_command", callId: "call-1", arguments: { command: "ls" } },
    ]);
  });

  it("a before-handler that throws or hangs blocks the call (fail closed), naming the hook and why", async () => {
    const { dispatcher, notices } = dispatcherWithNotices();
    dispatcher.add("tool.execute.before", {
      label: "hook policy.mjs",
      matcher: /create_file/,
      timeoutMs: 1000,
      run: () => {
        throw new Error("the policy file is missing");
      },
    });
    dispatcher.add("tool.execute.before", {
      label: "hook slow.mjs",
      matcher: /run_command/,
      timeoutMs: 50,
      run: () => new Promise(() => {}),
    });
    let ran = 0;
    const run = async () => {
      ran += 1;
      return { result: "ran", isError: false };
    };
    const created = await dispatcher.aroundTool(call("create_file", { path: "a.txt" }), run);
    const commanded = await dispatcher.aroundTool(call("run_command", { command: "ls" }), run);
    expect(ran).toBe(0);
    expect(created).toEqual({
      result:
        "create_file was blocked: its check, the hook policy.mjs, failed: the policy file is missing. A failing " +
        "hook blocks the call; tell the user, who must fix the hook (or remove it) before this call can run.",
      isError: true,
    });
    expect(commanded.result).toMatch(
      /^run_command was blocked: its check, the hook slow\.mjs, did not finish within 0\.05 s\./,
    );
    expect(notices).toEqual([
      "The hook policy.mjs on tool.execute.before failed: the policy file is missing; " +
        "the create_file call was blocked.",
      "The hook slow.mjs on tool.execute.before did not finish within 0.05 s; the run_command call was blocked.",
    ]);
  });

  it("after-handlers rewrite the result in turn; one that throws or hangs is reported and skipped", async () => {
    const { dispatcher, notices } = dispatcherWithNotices();
    dispatcher.add("tool.execute.after", {
      label: "hook upper.mjs",
      timeoutMs: 1000,
      run: (event) => (event.type === "tool.execute.after" ? { result: event.result.toUpperCase() } : undefined),
    });
    dispatcher.add("tool.execute.after", {
      label: "hook broken.mjs",
      timeoutMs: 1000,
      run: () => {
        throw new Error("boom");
      },
    });
    dispatcher.add("tool.execute.after", { label: "hook slow.mjs", timeoutMs: 50, run: () => new Promise(() => {}) });
    dispatcher.add("tool.execute.after", {
      label: "hook mark.mjs",
      timeoutMs: 1000,
      run: (event) => (event.type === "tool.execute.after" ? { result: `${event.result}!`, isError: true } : undefined),
    });
    const outcome = await dispatcher.aroundTool(call("tree", {}), async () => ({ result: "a/ b/", isError: false }));
    expect(outcome).toEqual({ result: "A/ B/!", isError: true });
    expect(notices).toEqual([
      "The hook broken.mjs on tool.execute.after failed: boom; skipped.",
      "The hook slow.mjs on tool.execute.after did not finish within 0.05 s; skipped.",
    ]);
  });
});

describe("HookDispatcher lifecycle events", () => {
  it("turns and the end of a run reach the hooks in order, from the session's events", async () => {
    const { dispatcher } = dispatcherWithNotices();
    const heard: string[] = [];
    for (const type of ["turn.start", "turn.end", "agent.end", "session.resume", "session.clear"] as const)
      dispatcher.add(type, { label: "hook log.mjs", timeoutMs: 1000, run: (event) => void heard.push(event.type) });
    dispatcher.listener({ type: "turn_start", turn: 1 });
    dispatcher.listener({ type: "text_delta", turn: 1, text: "hi" });
    dispatcher.listener({ type: "turn_end", turn: 1, finishReason: "stop" });
    dispatcher.listener({ type: "agent_end", reason: "done", text: "hi", rounds: 1 });
    await dispatcher.runStarted("next");
    await dispatcher.sessionResumed();
    await dispatcher.sessionCleared();
    expect(heard).toEqual(["turn.start", "turn.end", "agent.end", "session.resume", "session.clear"]);
  });
});
