import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import { cacheHitText, localDay, UsageTracker } from "./usage.js";

const test = base.extend<{ dir: string; usagePath: string }>({
  dir: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-usage-")),
  usagePath: async ({ dir }, use) => use(join(dir, "usage.json")),
});

function trackerWithTwoModels(): UsageTracker {
  const tracker = new UsageTracker();
  tracker.recordLLMCall({
    provider: "openai",
    model: "gpt-5.1",
    inputTokens: 1000,
    outputTokens: 200,
    cachedTokens: 0,
    cost: 0.00325,
  });
  tracker.recordLLMCall({
    provider: "openai",
    model: "gpt-5.1",
    inputTokens: 500,
    outputTokens: 100,
    cachedTokens: 0,
    cost: 0.001625,
  });
  tracker.recordLLMCall({
    provider: "groq",
    model: "llama-3.3-70b-versatile",
    inputTokens: 300,
    outputTokens: 50,
    cachedTokens: 0,
    cost: 0.0002165,
  });
  tracker.recordToolCall("read_file");
  tracker.recordToolCall("read_file");
  tracker.recordToolCall("git_status");
  return tracker;
}

describe("session usage", () => {
  test("counts turns, tokens and cost per model, and calls per tool", () => {
    expect(trackerWithTwoModels().getSessionUsage()).toEqual({
      session_cost: 0.005092,
      llm_turns: 3,
      model_turns: { "gpt-5.1": 2, "llama-3.3-70b-versatile": 1 },
      model_cost: { "gpt-5.1": 0.004875, "llama-3.3-70b-versatile": 0.000217 },
      input_tokens: { "gpt-5.1": 1500, "llama-3.3-70b-versatile": 300 },
      output_tokens: { "gpt-5.1": 300, "llama-3.3-70b-versatile": 50 },
      cached_tokens: {},
      tool_calls: { read_file: 2, git_status: 1 },
    });
  });

  test("prints the MARVIN_COST line compactly, fields in the contract's order", () => {
    expect(trackerWithTwoModels().costLine()).toBe(
      'MARVIN_COST:{"session_cost":0.005092,"llm_turns":3,"model_turns":{"gpt-5.1":2,"llama-3.3-70b-versatile":1},' +
        '"model_cost":{"gpt-5.1":0.004875,"llama-3.3-70b-versatile":0.000217},' +
        '"input_tokens":{"gpt-5.1":1500,"llama-3.3-70b-versatile":300},' +
        '"output_tokens":{"gpt-5.1":300,"llama-3.3-70b-versatile":50},"cached_tokens":{},' +
        '"tool_calls":{"read_file":2,"git_status":1}}',
    );
  });

  test("counts cached input per model and tells its share", () => {
    const tracker = new UsageTracker();
    const call = { provider: "openai", model: "gpt-5.1", outputTokens: 10, cost: 0.001 };
    tracker.recordLLMCall({ ...call, inputTokens: 1000, cachedTokens: 0 });
    tracker.recordLLMCall({ ...call, inputTokens: 3000, cachedTokens: 2900 });
    const usage = tracker.getSessionUsage();
    expect(usage.cached_tokens).toEqual({ "gpt-5.1": 2900 });
    expect(cacheHitText(usage)).toBe("73 % from cache");
    expect(tracker.costLine()).toContain('"output_tokens":{"gpt-5.1":20},"cached_tokens":{"gpt-5.1":2900},');
    expect(cacheHitText(new UsageTracker().getSessionUsage())).toBeUndefined();
  });

  test("prints an all-zero cost line before any call", () => {
    expect(new UsageTracker().costLine()).toBe(
      'MARVIN_COST:{"session_cost":0,"llm_turns":0,"model_turns":{},"model_cost":{},' +
        '"input_tokens":{},"output_tokens":{},"cached_tokens":{},"tool_calls":{}}',
    );
  });

  test("keeps the numbers of a model without a known price and names it in unpriced_models", () => {
    const tracker = trackerWithTwoModels();
    const call = { provider: "openai-compat", inputTokens: 100, outputTokens: 5, cachedTokens: 0, cost: 0 };
    tracker.recordLLMCall({ ...call, model: "house-model-7b", priced: false });
    tracker.recordLLMCall({ ...call, model: "house-model-7b", priced: false });
    const cost = JSON.parse(tracker.costLine().slice("MARVIN_COST:".length));
    expect(cost.session_cost).toBe(0.005092);
    expect(cost.model_turns["house-model-7b"]).toBe(2);
    expect(cost.input_tokens["house-model-7b"]).toBe(200);
    expect(cost.unpriced_models).toEqual(["house-model-7b"]);
    expect(tracker.unpricedModels()).toEqual(["house-model-7b"]);
  });

  test("hands out copies, so callers cannot change the tracker", () => {
    const tracker = trackerWithTwoModels();
    tracker.getSessionUsage().model_turns["gpt-5.1"] = 99;
    expect(tracker.getSessionUsage().model_turns["gpt-5.1"]).toBe(2);
  });
});

describe("lifetime usage.json", () => {
  test("is created on the first persist with totals, provider costs and one session", async ({ usagePath }) => {
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

  test("merges each session into the existing totals and keeps fields it does not know", async ({ usagePath }) => {
    await writeFile(
      usagePath,
      JSON.stringify({
        total_cost: 1.5,
        sessions: 4,
        llm_turns: 40,
        model_turns: { "gpt-5.1": 10 },
        provider_cost: { openai: 1.5 },
        tool_calls: { read_file: 5 },
        note: "from the original",
      }),
    );
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

  test("shows lifetime totals including this session without writing anything", async ({ usagePath }) => {
    await writeFile(usagePath, JSON.stringify({ total_cost: 2, sessions: 1, llm_turns: 7 }));
    const { value: lifetime, warning } = await trackerWithTwoModels().getLifetimeUsage(usagePath);
    expect(warning).toBeUndefined();
    expect(lifetime).toMatchObject({ sessions: 2, llm_turns: 10 });
    expect(lifetime.total_cost).toBeCloseTo(2.0050915, 5);
    expect(JSON.parse(await readFile(usagePath, "utf8"))).toEqual({ total_cost: 2, sessions: 1, llm_turns: 7 });
  });

  test("writes nothing for a session that used nothing", async ({ dir, usagePath }) => {
    await new UsageTracker().persistLifetime(usagePath);
    expect(await readdir(dir)).toEqual([]);
  });

  test("moves a corrupt usage.json aside, warns, and starts the totals again", async ({ dir, usagePath }) => {
    await writeFile(usagePath, "{ not json");
    const warning = await trackerWithTwoModels().persistLifetime(usagePath);
    expect(warning).toMatch(/Could not read .*usage\.json: it is not valid JSON/);
    expect(JSON.parse(await readFile(usagePath, "utf8"))).toMatchObject({ sessions: 1, llm_turns: 3 });
    const aside = (await readdir(dir)).find((name) => name.startsWith("usage.json.corrupt-"))!;
    expect(await readFile(join(dir, aside), "utf8")).toBe("{ not json");
  });
});

describe("daily cost in usage.json", () => {
  const call = { provider: "openai", model: "gpt-5.1", inputTokens: 10, outputTokens: 1, cachedTokens: 0 };

  test("adds each local day's cost to daily_cost, keeping the last 31 days", async ({ usagePath }) => {
    await writeFile(
      usagePath,
      JSON.stringify({
        daily_cost: { "2025-01-15": 1, "2025-02-12": 2, "2025-02-13": 3, "2025-03-14": 0.5, "not a day": 9 },
      }),
    );
    const tracker = new UsageTracker(() => new Date(2025, 2, 15, 9, 30));
    tracker.recordLLMCall({ ...call, cost: 0.25 });
    await tracker.persistLifetime(usagePath);
    const saved = JSON.parse(await readFile(usagePath, "utf8"));
    // 13 February to 15 March: 31 days.
    expect(saved.daily_cost).toEqual({ "2025-02-13": 3, "2025-03-14": 0.5, "2025-03-15": 0.25 });
  });

  test("splits a session that runs past midnight between the two days", async ({ usagePath }) => {
    let now = new Date(2025, 5, 30, 23, 59);
    const tracker = new UsageTracker(() => now);
    tracker.recordLLMCall({ ...call, cost: 0.1 });
    now = new Date(2025, 6, 1, 0, 1);
    tracker.recordLLMCall({ ...call, cost: 0.2 });
    await tracker.persistLifetime(usagePath);
    expect(JSON.parse(await readFile(usagePath, "utf8")).daily_cost).toEqual({ "2025-06-30": 0.1, "2025-07-01": 0.2 });
    expect((await tracker.spentToday(usagePath)).value).toBeCloseTo(0.2 + 0.2, 9); // usage.json's today plus ours
  });

  test("tells today's spending: usage.json's entry for today plus this session's, none in an old file", async ({
    usagePath,
  }) => {
    const now = new Date(2025, 0, 2, 12);
    const tracker = new UsageTracker(() => now);
    await writeFile(usagePath, JSON.stringify({ total_cost: 4, sessions: 2 }));
    expect(await tracker.spentToday(usagePath)).toEqual({ value: 0 });
    tracker.recordLLMCall({ ...call, cost: 0.3 });
    await writeFile(usagePath, JSON.stringify({ daily_cost: { "2025-01-01": 5, [localDay(now)]: 1.2 } }));
    expect(await tracker.spentToday(usagePath)).toEqual({ value: 1.5 });
  });
});

describe("names that are also Object.prototype properties", () => {
  const NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty"];

  function trackerCallingThem(): UsageTracker {
    const tracker = new UsageTracker();
    for (const name of NAMES) tracker.recordToolCall(name);
    tracker.recordToolCall("constructor");
    tracker.recordLLMCall({
      provider: "__proto__",
      model: "toString",
      inputTokens: 10,
      outputTokens: 5,
      cachedTokens: 0,
      cost: 0.5,
    });
    return tracker;
  }

  test("are counted as ordinary tools and models, in the session and in the cost line", () => {
    const usage = trackerCallingThem().getSessionUsage();
    expect(Object.entries(usage.tool_calls)).toEqual([
      ["constructor", 2],
      ["__proto__", 1],
      ["toString", 1],
      ["hasOwnProperty", 1],
    ]);
    expect(Object.entries(usage.model_turns)).toEqual([["toString", 1]]);
    expect(trackerCallingThem().costLine()).toBe(
      'MARVIN_COST:{"session_cost":0.5,"llm_turns":1,"model_turns":{"toString":1},"model_cost":{"toString":0.5},' +
        '"input_tokens":{"toString":10},"output_tokens":{"toString":5},"cached_tokens":{},' +
        '"tool_calls":{"constructor":2,"__proto__":1,"toString":1,"hasOwnProperty":1}}',
    );
  });

  test("are written to and added up in usage.json as ordinary keys", async ({ usagePath }) => {
    await writeFile(
      usagePath,
      '{"sessions":1,"tool_calls":{"__proto__":3,"constructor":4,"valueOf":1},"provider_cost":{"__proto__":1}}',
    );
    await trackerCallingThem().persistLifetime(usagePath);
    const text = await readFile(usagePath, "utf8");
    const saved = JSON.parse(text);
    expect(Object.entries(saved.tool_calls)).toEqual([
      ["__proto__", 4],
      ["constructor", 6],
      ["valueOf", 1],
      ["toString", 1],
      ["hasOwnProperty", 1],
    ]);
    expect(Object.entries(saved.provider_cost)).toEqual([["__proto__", 1.5]]);
    expect(Object.entries(saved.model_turns)).toEqual([["toString", 1]]);
    expect(text).not.toContain("function");
  });
});

describe("usage.json from several processes at once", () => {
  test("adds up every session when they persist at the same time", async ({ dir, usagePath }) => {
    await Promise.all(Array.from({ length: 20 }, () => trackerWithTwoModels().persistLifetime(usagePath)));
    const saved = JSON.parse(await readFile(usagePath, "utf8"));
    expect(saved).toMatchObject({ sessions: 20, llm_turns: 60, tool_calls: { read_file: 40, git_status: 20 } });
    expect(saved.input_tokens).toEqual({ "gpt-5.1": 30_000, "llama-3.3-70b-versatile": 6_000 });
    expect(saved.total_cost).toBeCloseTo(20 * 0.005092, 6);
    expect(await readdir(dir)).toEqual(["usage.json"]);
  });
});

describe("usage.json with values of the wrong type", () => {
  const WRONG: Array<[string, unknown]> = [
    ["a string for a number", { total_cost: "1.5", sessions: 2 }],
    ["an array for a count map", { sessions: 2, tool_calls: ["read_file"] }],
    ["a string inside a count map", { sessions: 2, input_tokens: { "gpt-5.1": "1000" } }],
    ["nested garbage in a count map", { sessions: 2, model_turns: { "gpt-5.1": { nested: [1, 2] } } }],
    ["a garbage __proto__ count", JSON.parse('{"tool_calls":{"__proto__":"x"}}')],
    ["a negative count", { llm_turns: -3 }],
    ["a fractional session count", { sessions: 1.5 }],
    ["a number for last_updated", { last_updated: 5 }],
    ["an array at the top", [1, 2]],
  ];

  test.for(WRONG)(
    "treats %s as corrupt: moved aside, warned about, totals restarted",
    async ([, content], { dir, usagePath }) => {
      const text = JSON.stringify(content);
      await writeFile(usagePath, text);
      const warning = await trackerWithTwoModels().persistLifetime(usagePath);
      expect(warning).toMatch(
        /^Could not read .*usage\.json: it does not have the expected structure\. It was moved to .*usage\.json\.corrupt-/,
      );
      const saved = JSON.parse(await readFile(usagePath, "utf8"));
      expect(saved).toMatchObject({
        sessions: 1,
        llm_turns: 3,
        input_tokens: { "gpt-5.1": 1500, "llama-3.3-70b-versatile": 300 },
      });
      expect(saved.total_cost).toBe(0.005092);
      const aside = (await readdir(dir)).find((name) => name.startsWith("usage.json.corrupt-"))!;
      expect(await readFile(join(dir, aside), "utf8")).toBe(text);
    },
  );

  test("moves a directory in place of usage.json aside", async ({ usagePath }) => {
    await mkdir(join(usagePath, "inside"), { recursive: true });
    const warning = await trackerWithTwoModels().persistLifetime(usagePath);
    expect(warning).toContain("it is a directory, not a file");
    expect(JSON.parse(await readFile(usagePath, "utf8"))).toMatchObject({ sessions: 1 });
  });
});
