import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test as base, describe, expect } from "../support/fixtures.js";
import type { LlmServer, RecordedRequest, ScriptedReply } from "../support/llm-server.js";
import { costOf, type MarvinRun, runMarvin, serverEnv } from "../support/run-marvin.js";

const stateDir = (home: string) => join(home, ".config", "local-finder");
const readUsage = (home: string) => JSON.parse(readFileSync(join(stateDir(home), "usage.json"), "utf8"));

/** Every run: one tool round (`toolNames`), then an answer; each request reports the same usage. */
function toolRoundThenAnswer(toolNames: string[]): (request: RecordedRequest) => ScriptedReply {
  const usage = { prompt: 100, completion: 20 };
  return (request) =>
    request.body.messages.at(-1)!.role === "user"
      ? { toolCalls: toolNames.map((name) => ({ name, arguments: {} })), usage }
      : { text: "done", usage };
}

interface Served {
  server: LlmServer;
  /** One `marvin --non-interactive` run against this server. */
  ask: (prompt?: string) => Promise<MarvinRun>;
}

/** `serve(runs, toolNames)`: a scripted server with `runs` runs' worth of replies. */
const test = base.extend<{ serve: (runs: number, toolNames: string[]) => Promise<Served> }>({
  serve: async ({ llm, home }, use) =>
    use(async (runs, toolNames) => {
      const server = await llm(Array.from({ length: runs * 2 }, () => toolRoundThenAnswer(toolNames)));
      const options = { env: serverEnv(server.url, home), cwd: home, timeoutMs: 60_000 };
      return { server, ask: (prompt = "go") => runMarvin(["--non-interactive", "--prompt", prompt], options) };
    }),
});

describe("usage.json shared by concurrent runs", () => {
  test("adds up every one of 20 runs started at the same time", async ({ serve, home }) => {
    const RUNS = 20;
    const { ask } = await serve(RUNS, ["timer_check"]);
    const runs = await Promise.all(Array.from({ length: RUNS }, (_, index) => ask(`run ${index}`)));
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const usage = readUsage(home);
    expect(usage).toMatchObject({
      sessions: RUNS,
      llm_turns: RUNS * 2,
      model_turns: { "gpt-4o-mini": RUNS * 2 },
      input_tokens: { "gpt-4o-mini": RUNS * 200 },
      output_tokens: { "gpt-4o-mini": RUNS * 40 },
      tool_calls: { timer_check: RUNS },
    });
    const sessionCost = costOf(runs[0]!).session_cost;
    expect(usage.total_cost).toBeCloseTo(RUNS * sessionCost, 6);
    expect(readdirSync(stateDir(home)).filter((name) => name.startsWith("usage.json"))).toEqual(["usage.json"]);
  }, 120_000);

  test("recovers a lock left behind by a run that died", async ({ serve, home }) => {
    mkdirSync(stateDir(home), { recursive: true });
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    const lock = { pid: dead, since: Date.now(), token: "crashed" };
    writeFileSync(join(stateDir(home), "usage.json.lock"), JSON.stringify(lock));
    const { ask } = await serve(1, ["timer_check"]);
    const run = await ask();
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("Warning");
    expect(readUsage(home)).toMatchObject({ sessions: 1, llm_turns: 2 });
    expect(readdirSync(stateDir(home))).not.toContain("usage.json.lock");
  });
});

describe("tools named like Object.prototype properties", () => {
  const NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty"];

  test("are counted as ordinary names in the cost line and in usage.json", async ({ serve, home }) => {
    const { ask } = await serve(1, NAMES);
    const run = await ask();
    expect(run.code).toBe(0);
    const expected = NAMES.map((name) => [name, 1]);
    expect(Object.entries(costOf(run).tool_calls as Record<string, number>)).toEqual(expected);
    const line = run.stderrLines.at(-1);
    expect(line).toContain('"tool_calls":{"constructor":1,"__proto__":1,"toString":1,"hasOwnProperty":1}');
    expect(Object.entries(readUsage(home).tool_calls)).toEqual(expected);
    const again = await serve(1, NAMES);
    expect((await again.ask()).code).toBe(0);
    expect(Object.entries(readUsage(home).tool_calls)).toEqual(NAMES.map((name) => [name, 2]));
  });
});

describe("state files that cannot be used", () => {
  const BOMB = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    .concat(
      [..."bcdefghi"].map((name, index) => `${name}: &${name} [${Array(9).fill(`*${"abcdefghi"[index]}`).join(", ")}]`),
    )
    .join("\n");

  test("are set aside with a warning, and the run goes on with defaults", async ({ serve, home }) => {
    const profile = join(stateDir(home), "profiles", "main");
    mkdirSync(join(stateDir(home), "last_profile", "oops"), { recursive: true });
    mkdirSync(profile, { recursive: true });
    writeFileSync(join(profile, "preferences.yaml"), BOMB);
    writeFileSync(join(stateDir(home), "usage.json"), JSON.stringify({ sessions: "many", tool_calls: [1, 2] }));
    const { ask, server } = await serve(1, ["timer_check"]);
    const run = await ask();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("  🔧 timer_check\ndone\n");
    expect(run.stderr).toMatch(
      /Could not read .*last_profile: it is a directory, not a file\. It was moved to .*last_profile\.corrupt-/,
    );
    expect(run.stderr).toMatch(/Could not read .*preferences\.yaml: it is not usable YAML \(Excessive alias count/);
    expect(run.stderr).toMatch(/Warning: Could not read .*usage\.json: it does not have the expected structure\./);
    expect(server.requests[0]!.body.messages[0]!.content).toContain("## User preferences\n(none set");
    expect(readUsage(home)).toMatchObject({ sessions: 1, llm_turns: 2 });
    expect(readdirSync(stateDir(home)).filter((name) => name.includes(".corrupt-"))).toHaveLength(2);
    expect(readdirSync(profile).filter((name) => name.includes(".corrupt-"))).toHaveLength(1);
  });
});
