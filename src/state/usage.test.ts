import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TempDirs } from "../../tests/support/test-session.js";
import { UsageTracker } from "./usage.js";

const dirs = new TempDirs();
let dir: string;
let usagePath: string;

beforeEach(async () => {
  dir = await dirs.make("marvin-usage-");
  usagePath = join(dir, "usage.json");
});
afterEach(() => dirs.cleanup());

function trackerWithTwoModels(): UsageTracker {
  const tracker = new UsageTracker();
  tracker.recordLLMCall("openai", "gpt-5.1", 1000, 200, 0.00325);
  tracker.recordLLMCall("openai", "gpt-5.1", 500, 100, 0.001625);
  tracker.recordLLMCall("groq", "llama-3.3-70b-versatile", 300, 50, 0.0002165);
  tracker.recordToolCall("read_file");
  tracker.recordToolCall("read_file");
  tracker.recordToolCall("git_status");
  return tracker;
}

describe("session usage", () => {
  it("counts turns, tokens and cost per model, and calls per tool", () => {
    expect(trackerWithTwoModels().getSessionUsage()).toEqual({
      session_cost: 0.005092,
      llm_turns: 3,
      model_turns: { "gpt-5.1": 2, "llama-3.3-70b-versatile": 1 },
      model_cost: { "gpt-5.1": 0.004875, "llama-3.3-70b-versatile": 0.000217 },
      input_tokens: { "gpt-5.1": 1500, "llama-3.3-70b-versatile": 300 },
      output_tokens: { "gpt-5.1": 300, "llama-3.3-70b-versatile": 50 },
      tool_calls: { read_file: 2, git_status: 1 },
    });
  });

  it("prints the MARVIN_COST line compactly, fields in the contract's order", () => {
    expect(trackerWithTwoModels().costLine()).toBe(
      'MARVIN_COST:{"session_cost":0.005092,"llm_turns":3,"model_turns":{"gpt-5.1":2,"llama-3.3-70b-versatile":1},' +
        '"model_cost":{"gpt-5.1":0.004875,"llama-3.3-70b-versatile":0.000217},"input_tokens":{"gpt-5.1":1500,"llama-3.3-70b-versatile":300},' +
        '"output_tokens":{"gpt-5.1":300,"llama-3.3-70b-versatile":50},"tool_calls":{"read_file":2,"git_status":1}}',
    );
  });

  it("prints an all-zero cost line before any call", () => {
    expect(new UsageTracker().costLine()).toBe(
      'MARVIN_COST:{"session_cost":0,"llm_turns":0,"model_turns":{},"model_cost":{},"input_tokens":{},"output_tokens":{},"tool_calls":{}}',
    );
  });

  it("hands out copies, so callers cannot change the tracker", () => {
    const tracker = trackerWithTwoModels();
    tracker.getSessionUsage().model_turns["gpt-5.1"] = 99;
    expect(tracker.getSessionUsage().model_turns["gpt-5.1"]).toBe(2);
  });
});

describe("lifetime usage.json", () => {
  it("is created on the first persist with totals, provider costs and one session", async () => {
    expect(await trackerWithTwoModels().persistLifetime(usagePath)).toBeUndefined();
    const saved = JSON.parse(await readFile(usagePath, "utf8"));
    expect(saved).toMatchObject({
      total_cost: 0.005092,
      sessions: 1,
      llm_turns: 3,
      model_turns: { "gpt-5.1": 2, "llama-3.3-70b-versatile": 1 },
      input_tokens: { "gpt-5.1": 1500, "llama-3.3-70b-versatile": 300 },
      tool_calls: { read_file: 2, git_status: 1 },
    });
    expect(saved.provider_cost.openai).toBeCloseTo(0.004875, 9);
    expect(saved.provider_cost.groq).toBeCloseTo(0.0002165, 9);
    expect(Date.parse(saved.last_updated)).not.toBeNaN();
  });

  it("merges each session into the existing totals and keeps fields it does not know", async () => {
    await writeFile(usagePath, JSON.stringify({ total_cost: 1.5, sessions: 4, llm_turns: 40, model_turns: { "gpt-5.1": 10 }, provider_cost: { openai: 1.5 }, tool_calls: { read_file: 5 }, note: "from the original" }));
    await trackerWithTwoModels().persistLifetime(usagePath);
    const saved = JSON.parse(await readFile(usagePath, "utf8"));
    expect(saved).toMatchObject({
      sessions: 5,
      llm_turns: 43,
      model_turns: { "gpt-5.1": 12, "llama-3.3-70b-versatile": 1 },
      tool_calls: { read_file: 7, git_status: 1 },
      note: "from the original",
    });
    expect(saved.total_cost).toBeCloseTo(1.5050915, 5);
    expect(saved.provider_cost.openai).toBeCloseTo(1.504875, 9);
  });

  it("shows lifetime totals including this session without writing anything", async () => {
    await writeFile(usagePath, JSON.stringify({ total_cost: 2, sessions: 1, llm_turns: 7 }));
    const lifetime = await trackerWithTwoModels().getLifetimeUsage(usagePath);
    expect(lifetime).toMatchObject({ sessions: 2, llm_turns: 10 });
    expect(lifetime.total_cost).toBeCloseTo(2.0050915, 5);
    expect(JSON.parse(await readFile(usagePath, "utf8"))).toEqual({ total_cost: 2, sessions: 1, llm_turns: 7 });
  });

  it("writes nothing for a session that used nothing", async () => {
    await new UsageTracker().persistLifetime(usagePath);
    expect(await readdir(dir)).toEqual([]);
  });

  it("moves a corrupt usage.json aside, warns, and starts the totals again", async () => {
    await writeFile(usagePath, "{ not json");
    const warning = await trackerWithTwoModels().persistLifetime(usagePath);
    expect(warning).toMatch(/Could not read .*usage\.json: it is not valid JSON/);
    expect(JSON.parse(await readFile(usagePath, "utf8"))).toMatchObject({ sessions: 1, llm_turns: 3 });
    const aside = (await readdir(dir)).find((name) => name.startsWith("usage.json.corrupt-"))!;
    expect(await readFile(join(dir, aside), "utf8")).toBe("{ not json");
  });
});
