import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LlmServer, type RecordedRequest, type ScriptedReply, startLlmServer } from "../support/llm-server.js";
import { costOf, runMarvin, serverEnv, tempDir } from "../support/run-marvin.js";

let server: LlmServer | undefined;
let home: { path: string; cleanup: () => void };
const stateDir = () => join(home.path, ".config", "local-finder");
const readUsage = () => JSON.parse(readFileSync(join(stateDir(), "usage.json"), "utf8"));

beforeEach(() => {
  home = tempDir("marvin-usage-home-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  home.cleanup();
});

/** Every run: one tool round (`toolNames`), then an answer; each request reports the same usage. */
function toolRoundThenAnswer(toolNames: string[]): (request: RecordedRequest) => ScriptedReply {
  const usage = { prompt: 100, completion: 20 };
  return (request) =>
    request.body.messages.at(-1)!.role === "user"
      ? { toolCalls: toolNames.map((name) => ({ name, arguments: {} })), usage }
      : { text: "done", usage };
}

/** Starts (or replaces) the scripted server with `runs` runs' worth of replies. */
async function serve(runs: number, toolNames: string[]): Promise<void> {
  await server?.close();
  server = await startLlmServer(Array.from({ length: runs * 2 }, () => toolRoundThenAnswer(toolNames)));
}

function ask(prompt = "go") {
  const options = { env: serverEnv(server!.url, home.path), cwd: home.path, timeoutMs: 60_000 };
  return runMarvin(["--non-interactive", "--prompt", prompt], options);
}

describe("usage.json shared by concurrent runs", () => {
  it("adds up every one of 20 runs started at the same time", async () => {
    const RUNS = 20;
    await serve(RUNS, ["timer_check"]);
    const runs = await Promise.all(Array.from({ length: RUNS }, (_, index) => ask(`run ${index}`)));
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const usage = readUsage();
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
    expect(readdirSync(stateDir()).filter((name) => name.startsWith("usage.json"))).toEqual(["usage.json"]);
  }, 120_000);

  it("recovers a lock left behind by a run that died", async () => {
    mkdirSync(stateDir(), { recursive: true });
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    const lock = { pid: dead, since: Date.now(), token: "crashed" };
    writeFileSync(join(stateDir(), "usage.json.lock"), JSON.stringify(lock));
    await serve(1, ["timer_check"]);
    const run = await ask();
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("Warning");
    expect(readUsage()).toMatchObject({ sessions: 1, llm_turns: 2 });
    expect(readdirSync(stateDir())).not.toContain("usage.json.lock");
  });
});

describe("tools named like Object.prototype properties", () => {
  const NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty"];

  it("are counted as ordinary names in the cost line and in usage.json", async () => {
    await serve(1, NAMES);
    const run = await ask();
    expect(run.code).toBe(0);
    const expected = NAMES.map((name) => [name, 1]);
    expect(Object.entries(costOf(run).tool_calls as Record<string, number>)).toEqual(expected);
    const line = run.stderrLines.at(-1);
    expect(line).toContain('"tool_calls":{"constructor":1,"__proto__":1,"toString":1,"hasOwnProperty":1}');
    expect(Object.entries(readUsage().tool_calls)).toEqual(expected);
    await serve(1, NAMES);
    expect((await ask()).code).toBe(0);
    expect(Object.entries(readUsage().tool_calls)).toEqual(NAMES.map((name) => [name, 2]));
  });
});

describe("state files that cannot be used", () => {
  const BOMB = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    .concat(
      [..."bcdefghi"].map((name, index) => `${name}: &${name} [${Array(9).fill(`*${"abcdefghi"[index]}`).join(", ")}]`),
    )
    .join("\n");

  it("are set aside with a warning, and the run goes on with defaults", async () => {
    const profile = join(stateDir(), "profiles", "main");
    mkdirSync(join(stateDir(), "last_profile", "oops"), { recursive: true });
    mkdirSync(profile, { recursive: true });
    writeFileSync(join(profile, "preferences.yaml"), BOMB);
    writeFileSync(join(stateDir(), "usage.json"), JSON.stringify({ sessions: "many", tool_calls: [1, 2] }));
    await serve(1, ["timer_check"]);
    const run = await ask();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("  🔧 timer_check\ndone\n");
    expect(run.stderr).toMatch(
      /Could not read .*last_profile: it is a directory, not a file\. It was moved to .*last_profile\.corrupt-/,
    );
    expect(run.stderr).toMatch(/Could not read .*preferences\.yaml: it is not usable YAML \(Excessive alias count/);
    expect(run.stderr).toMatch(/Warning: Could not read .*usage\.json: it does not have the expected structure\./);
    expect(server!.requests[0]!.body.messages[0]!.content).toContain("## User preferences\n(none set");
    expect(readUsage()).toMatchObject({ sessions: 1, llm_turns: 2 });
    expect(readdirSync(stateDir()).filter((name) => name.includes(".corrupt-"))).toHaveLength(2);
    expect(readdirSync(profile).filter((name) => name.includes(".corrupt-"))).toHaveLength(1);
  });
});
