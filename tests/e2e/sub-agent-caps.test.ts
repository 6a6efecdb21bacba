import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { localDay } from "../../src/state/usage.js";
import { describe, expect, test } from "../support/fixtures.js";
import { type RecordedRequest, type ScriptedReply, userWords } from "../support/llm-server.js";
import { waitFor } from "../support/processes.js";
import { costOf, runMarvin, serverEnv } from "../support/run-marvin.js";

/** 100,000 prompt tokens of gpt-4o-mini ($0.15 per million): what every request of these tests costs. */
const REQUEST = { prompt: 100_000, completion: 0 };
const REQUEST_COST = 0.015;
const CAP = 0.3;
const CHILDREN = ["ONE:", "TWO:", "THREE:"];

/**
 * The parent launches three read-only sub-agents in one answer; each sub-agent reads a file again and again,
 * for as long as its cap lets it ask.
 */
function reply(request: RecordedRequest): ScriptedReply {
  const prompt = userWords(request.body.messages.find((message) => message.role === "user")?.content ?? null) ?? "";
  const agent = prompt.split(/\s/)[0]!;
  if (agent !== "PARENT:") return { toolCalls: [{ name: "read_file", arguments: { path: "app.ts" } }], usage: REQUEST };
  if (request.body.messages.some((message) => message.role === "tool"))
    return { text: "All three reported.", usage: REQUEST };
  const launches = CHILDREN.map((child) => ({
    name: "launch_agent",
    arguments: { prompt: `${child} read app.ts until told to stop`, read_only: true },
  }));
  return { toolCalls: launches, usage: REQUEST };
}

/** The parent spends $0.15 on its first request, which starts a review; the reviewer reads until its cap stops it. */
function reviewReply(request: RecordedRequest): ScriptedReply {
  const prompt = userWords(request.body.messages.find((message) => message.role === "user")?.content ?? null) ?? "";
  if (!prompt.startsWith("PARENT:"))
    return { toolCalls: [{ name: "read_file", arguments: { path: "app.ts" } }], usage: REQUEST };
  if (request.body.messages.some((message) => message.role === "tool")) return { text: "Started.", usage: REQUEST };
  return { toolCalls: [{ name: "review_codebase", arguments: {} }], usage: { prompt: 1_000_000, completion: 0 } };
}

async function runParent(
  llm: (script: Array<typeof reply>) => Promise<{ url: string; requests: RecordedRequest[] }>,
  home: string,
  caps: Record<string, string>,
  script = reply,
) {
  const project = join(home, "project");
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "app.ts"), "export const answer = 42;\n");
  const server = await llm(Array.from({ length: 200 }, () => script));
  const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "PARENT: go"], {
    env: serverEnv(server.url, home, caps),
    cwd: home,
    timeoutMs: 90_000,
  });
  const usage = JSON.parse(readFileSync(join(home, ".config", "local-finder", "usage.json"), "utf8"));
  return { run, requests: server.requests, usage };
}

describe("spending caps with sub-agents", () => {
  test("three parallel sub-agents and their parent together spend no more than MARVIN_MAX_COST", async ({
    llm,
    home,
  }) => {
    const { run, requests, usage } = await runParent(llm, home, { MARVIN_MAX_COST: String(CAP) });
    const spent = requests.length * REQUEST_COST;
    // A request's cost is known only once it is answered: each of the four processes may pass its cap by one.
    expect(spent).toBeLessThanOrEqual(CAP + 4 * REQUEST_COST + 1e-9);
    // The parent counted its sub-agents' costs: its own next request was refused.
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Error: This conversation has cost \$0\.\d+, over MARVIN_MAX_COST=\$0\.30/);
    const parentRequests = requests.filter((request) =>
      request.body.messages.some((m) => m.role === "user" && userWords(m.content)?.startsWith("PARENT:")),
    );
    expect(parentRequests).toHaveLength(1);
    expect(costOf(run).session_cost).toBeCloseTo(REQUEST_COST, 6);
    // usage.json holds every process once, the parent included.
    expect(usage.sessions).toBe(4);
    expect(usage.total_cost).toBeCloseTo(spent, 6);
  });

  test("three parallel sub-agents and their parent together spend no more than MARVIN_MAX_DAILY_COST", async ({
    llm,
    home,
  }) => {
    const { run, requests, usage } = await runParent(llm, home, { MARVIN_MAX_DAILY_COST: String(CAP) });
    const spent = requests.length * REQUEST_COST;
    expect(spent).toBeLessThanOrEqual(CAP + 4 * REQUEST_COST + 1e-9);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Error: Today's LLM requests have cost \$0\.\d+, over MARVIN_MAX_DAILY_COST=\$0\.30/);
    expect(usage.sessions).toBe(4);
    expect(usage.daily_cost[localDay(new Date())]).toBeCloseTo(spent, 6);
  });

  test("a reviewer that review_codebase starts gets what is left of MARVIN_MAX_COST, not the whole cap", async ({
    llm,
    home,
  }) => {
    const { run, requests } = await runParent(llm, home, { MARVIN_MAX_COST: String(CAP) }, reviewReply);
    expect(run.code).toBe(0);
    const reviews = join(home, "project", ".marvin", "reviews");
    const log = () => readdirSync(reviews).find((name) => name.endsWith(".log")) ?? "";
    await waitFor(() => log() !== "" && readFileSync(join(reviews, log()), "utf8").includes("MARVIN_COST:"), 60_000);
    // The parent's first request cost $0.15: the reviewer's share is the $0.15 left.
    expect(readFileSync(join(reviews, log()), "utf8")).toMatch(/MARVIN_MAX_COST=\$0\.1[45]\d*; Marvin stopped/);
    const spent = 0.15 + (requests.length - 1) * REQUEST_COST;
    expect(spent).toBeLessThanOrEqual(CAP + 2 * REQUEST_COST + 1e-9);
  });
});
