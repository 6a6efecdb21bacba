import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REVIEW_PROMPT_OPENING } from "../../src/tools/coding/project/review-prompt.js";
import { test as base, describe, expect } from "../support/fixtures.js";
import {
  type LlmServer,
  type RecordedRequest,
  type Script,
  type ScriptedReply,
  userWords,
} from "../support/llm-server.js";
import { killLeftovers, running, waitFor } from "../support/processes.js";
import { MARVIN_BIN, runMarvin, serverEnv } from "../support/run-marvin.js";
import { ORDINARY_VALUE_SAMPLES, SECRET_SAMPLES, SECRET_VALUE_SAMPLES } from "../support/secrets.js";

/** Runs git in `project` with only PATH and HOME set. */
function gitIn(project: string, home: string): (...args: string[]) => string {
  return (...args) =>
    execFileSync("git", args, { cwd: project, env: { PATH: process.env.PATH, HOME: home }, encoding: "utf8" });
}

/** Kills reviewers a failed test may have left behind. */
function killReviewers(project: string): void {
  const dir = join(project, ".marvin", "reviews");
  for (const name of (() => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  })().filter((file) => file.endsWith(".json"))) {
    const { pid } = JSON.parse(readFileSync(join(dir, name), "utf8")) as { pid: number };
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

const test = base.extend<{
  /** `home`/project with a src/app.ts; reviewers a failed test left running are killed afterwards. */
  project: string;
  /** Processes a test started through run_command, killed if a failed test left them running. */
  leftovers: number[];
}>({
  project: async ({ home }, use) => {
    const project = join(home, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(join(project, "src", "app.ts"), "// TODO: validate input\nexport const password = 'hunter2';\n");
    await use(project);
    killReviewers(project);
  },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern.
  leftovers: async ({}, use) => {
    const pids: number[] = [];
    await use(pids);
    killLeftovers(pids);
  },
});

/** A run_command script that waits until the reviewer has written its cost line and exited (kill -0 fails once it is
 * reaped). It names a pid of Marvin's namespace: it runs outside the sandbox (UNSANDBOXED). */
const WAIT_FOR_REVIEWER =
  "for i in $(seq 1 300); do pid=$(grep -ho '\"pid\": [0-9]*' .marvin/reviews/*.json 2>/dev/null | grep -o " +
  "'[0-9]*'); " +
  'grep -qs MARVIN_COST .marvin/reviews/*.log && [ -n "$pid" ] && ! kill -0 $pid 2>/dev/null && exit 0; sleep 0.05; ' +
  "done; exit 1";

/**
 * For tests that read pids a command prints (`echo $!`): inside the sandbox's pid namespace those are not the
 * host's. run-command-sandbox.test.ts tests the same killing inside the sandbox.
 */
const UNSANDBOXED = { MARVIN_SANDBOX: "off" };

const isReviewerRequest = (request: RecordedRequest) =>
  request.body.messages.some(
    (message) => message.role === "user" && userWords(message.content)?.startsWith(REVIEW_PROMPT_OPENING),
  );

/** A scripted server answering the parent and the reviewer child from their own scripts. */
async function startReviewServer(
  llm: (script: Script[]) => Promise<LlmServer>,
  parentScript: ScriptedReply[],
  reviewerScript: ScriptedReply[],
): Promise<{ server: LlmServer; counters: { parent: number; reviewer: number } }> {
  const counters = { parent: 0, reviewer: 0 };
  const dispatch = (request: RecordedRequest): ScriptedReply => {
    const reviewer = isReviewerRequest(request);
    const reply = reviewer ? reviewerScript[counters.reviewer++] : parentScript[counters.parent++];
    return (
      reply ?? { status: 500, body: { error: { message: `unexpected ${reviewer ? "reviewer" : "parent"} request` } } }
    );
  };
  return { server: await llm(Array.from({ length: 10 }, () => dispatch)), counters };
}

const toolResults = (request: RecordedRequest) =>
  request.body.messages.filter((message) => message.role === "tool").map((message) => message.content ?? "");

describe("coding, git and shell tools end to end", () => {
  test("runs a command, commits with git and greps in the --working-dir", async ({ llm, home, project }) => {
    const git = gitIn(project, home);
    git("init", "--quiet", "--initial-branch=main");
    git("config", "user.name", "E2E Author");
    git("config", "user.email", "e2e@example.invalid");
    const server = await llm([
      {
        toolCalls: [{ name: "run_command", arguments: { command: "echo hello > hello.txt && cat hello.txt && pwd" } }],
      },
      { toolCalls: [{ name: "git_commit", arguments: { message: "Add hello" } }] },
      { toolCalls: [{ name: "code_grep", arguments: { pattern: "TODO|password", context_lines: 0 } }] },
      { text: "All done." },
    ]);
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "do the chores"], {
      env: serverEnv(server.url, home),
      cwd: home,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("  🔧 run_command\n  🔧 git_commit\n  🔧 code_grep\nAll done.\n");
    const offered = server.requests[0]!.body.tools!.map((tool) => tool.function.name);
    expect(offered).toEqual(
      expect.arrayContaining([
        "run_command",
        "git_commit",
        "git_status",
        "code_grep",
        "tree",
        "review_codebase",
        "review_status",
      ]),
    );

    const [commandResult] = toolResults(server.requests[1]!);
    expect(commandResult).toMatch(/^Exit code: 0 \(\ds\)\nhello\n/);
    expect(commandResult).toContain(project);
    const [commitResult] = toolResults(server.requests[2]!).slice(-1);
    expect(commitResult).toMatch(/^\[main \(root-commit\) [0-9a-f]+\] Add hello\n 2 files changed/);
    const [grepResult] = toolResults(server.requests[3]!).slice(-1);
    expect(grepResult).toBe(
      "src/app.ts\n1:// TODO: validate input\n2:export const password = 'hunter2';\n\n2 matching lines in 1 file.",
    );

    expect(git("log", "--format=%s")).toBe("Add hello\n");
    expect(git("show", "--stat", "--format=", "HEAD")).toContain("hello.txt");
  });

  test(
    "review_codebase starts a real read-only child marvin against the same server; review_status returns " +
      "its report",
    async ({ llm, home, project }) => {
      const reviewerScript: ScriptedReply[] = [
        {
          toolCalls: [
            { name: "code_grep", arguments: { pattern: "password" }, id: "grep1" },
            { name: "review_codebase", arguments: {}, id: "nested1" },
          ],
        },
        {
          text:
            "## Findings\n- **critical** `src/app.ts:2` hard-coded password.\n## Summary\nMove the secret out " +
            "of the code.",
        },
      ];
      const parentScript: ScriptedReply[] = [
        { toolCalls: [{ name: "review_codebase", arguments: { focus: "security", context: "Check secrets." } }] },
        { toolCalls: [{ name: "run_command", arguments: { command: WAIT_FOR_REVIEWER, timeout: 30 } }] },
        { toolCalls: [{ name: "review_status", arguments: {} }] },
        { text: "Review done." },
      ];
      const started = await startReviewServer(llm, parentScript, reviewerScript);
      const server = started.server;
      const counters = started.counters;
      const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "review my code"], {
        env: serverEnv(server.url, home, { MARVIN_DEPTH: "1", ...UNSANDBOXED }),
        cwd: home,
        timeoutMs: 45_000,
      });
      expect(run.stderr).not.toContain("Error:");
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("  🔧 review_codebase\n  🔧 run_command\n  🔧 review_status\nReview done.\n");
      expect(counters).toEqual({ parent: 4, reviewer: 2 });

      const reviewerRequests = server.requests.filter(isReviewerRequest);
      const reviewerTools = reviewerRequests[0]!.body.tools!.map((tool) => tool.function.name);
      expect(reviewerTools).toContain("code_grep");
      expect(reviewerTools).not.toContain("run_command");
      expect(reviewerTools).not.toContain("git_commit");
      expect(reviewerTools).not.toContain("review_codebase");
      const prompt = reviewerRequests[0]!.body.messages.find((message) => message.role === "user")!.content!;
      expect(prompt).toContain("Focus on security.");
      expect(prompt).toContain("Context from the requester:\nCheck secrets.");
      const [grep, nested] = toolResults(reviewerRequests[1]!);
      expect(grep).toContain("src/app.ts\n1-// TODO: validate input\n2:export const password = 'hunter2';");
      expect(nested).toContain("review_codebase is disabled: this is a read-only agent (MARVIN_READONLY=1)");

      const parentRequests = server.requests.filter((request) => !reviewerRequests.includes(request));
      expect(toolResults(parentRequests[1]!)[0]).toMatch(
        /^Started review (review-\d{8}-\d{6}) of \. in the background \(pid \d+\)\./,
      );
      expect(toolResults(parentRequests[2]!).at(-1)).toMatch(/^Exit code: 0 /);
      const status = toolResults(parentRequests[3]!).at(-1)!;
      expect(status).toMatch(
        /^review-\d{8}-\d{6} \(code review of \., focus: security\): finished after \d+s \(exit 0\)\. Cost: \$\d\.\d{4}, 2 LLM turns\.\n/,
      );
      expect(status).toContain("## Findings\n- **critical** `src/app.ts:2` hard-coded password.");

      const reviews = readdirSync(join(project, ".marvin", "reviews"));
      const report = reviews.find((name) => name.endsWith(".md"))!;
      expect(status).not.toContain("🔧");
      expect(readFileSync(join(project, ".marvin", "reviews", report), "utf8")).toBe(
        "  🔧 code_grep, review_codebase\n## Findings\n- **critical** `src/app.ts:2` hard-coded password.\n## " +
          "Summary\nMove the secret out of the code.\n",
      );
    },
  );

  test(
    "review_codebase runs the reviewer on the parent's provider and model when several providers are " + "configured",
    async ({ llm, home, project }) => {
      const started = await startReviewServer(
        llm,
        [
          { toolCalls: [{ name: "review_codebase", arguments: {} }] },
          { toolCalls: [{ name: "run_command", arguments: { command: WAIT_FOR_REVIEWER, timeout: 30 } }] },
          { text: "Started." },
        ],
        [{ text: "## Findings\nNone." }],
      );
      const server = started.server;
      const env = {
        ...serverEnv(server.url, home, { OPENAI_API_KEY: "openai-key", GROQ_API_KEY: "groq-key", ...UNSANDBOXED }),
        LLM_PROVIDER: undefined,
      };
      const run = await runMarvin(
        [
          "--non-interactive",
          "--provider",
          "openai-compat",
          "--model",
          "parent-model",
          "--working-dir",
          project,
          "--prompt",
          "review",
        ],
        { env, cwd: home, timeoutMs: 45_000 },
      );
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("  🔧 review_codebase\n  🔧 run_command\nStarted.\n");
      const reviewsDir = join(project, ".marvin", "reviews");
      const log = readFileSync(
        join(reviewsDir, readdirSync(reviewsDir).find((name) => name.endsWith(".log"))!),
        "utf8",
      );
      expect(log).not.toContain("several providers");
      expect(started.counters.reviewer).toBe(1);
      const [reviewerRequest] = server.requests.filter(isReviewerRequest);
      expect(reviewerRequest!.body.model).toBe("parent-model");
      expect(reviewerRequest!.headers.authorization).toBe("Bearer test-key");
    },
  );

  test("run_command gives neither the model nor the audit log a key, token or password of its environment", async ({
    llm,
    home,
    project,
  }) => {
    const server = await llm([
      { toolCalls: [{ name: "run_command", arguments: { command: "env" } }] },
      { text: "Done." },
    ]);
    const audit = join(home, "audit.jsonl");
    // The sandbox removes variables that lead to a socket (the D-Bus bus), whatever their value.
    const { PATH: _path, DBUS_SESSION_BUS_ADDRESS: _bus, ...ordinary } = ORDINARY_VALUE_SAMPLES;
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "show env"], {
      env: {
        ...SECRET_SAMPLES,
        ...SECRET_VALUE_SAMPLES,
        ...ordinary,
        ...serverEnv(server.url, home, { MARVIN_SUBAGENT_LOG: audit }),
      },
      cwd: home,
    });
    expect(run.code).toBe(0);
    const [result] = toolResults(server.requests[1]!);
    expect(result).toMatch(/^Exit code: 0 /);
    expect(result).toContain(`HOME=${home}`);
    for (const [name, value] of Object.entries(ordinary)) expect(result).toContain(`${name}=${value}\n`);
    const logged = readFileSync(audit, "utf8");
    const everythingSent = JSON.stringify(server.requests);
    for (const value of [...Object.values(SECRET_SAMPLES), ...Object.values(SECRET_VALUE_SAMPLES), "test-key"]) {
      expect(result).not.toContain(value);
      expect(logged).not.toContain(value);
    }
    for (const password of ["pw-of-DATABASE_URL", "pw-of-REDIS_URL", "pw-of-HTTPS_PROXY"])
      expect(everythingSent).not.toContain(password);
  });

  test("stops what run_command left running in the background when marvin exits", async ({
    llm,
    home,
    project,
    leftovers,
  }) => {
    const command = "sleep 300 > /dev/null 2>&1 & echo $!; setsid sleep 301 > /dev/null 2>&1 & echo $!";
    const server = await llm([{ toolCalls: [{ name: "run_command", arguments: { command } }] }, { text: "Started." }]);
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "start it"], {
      env: serverEnv(server.url, home, UNSANDBOXED),
      cwd: home,
    });
    const [result] = toolResults(server.requests[1]!);
    const pids = result!.split("\n").slice(1, 3).map(Number);
    leftovers.push(...pids);
    expect(run.code).toBe(0);
    expect(result).toContain("Note: still running in the background: ");
    expect(result).toContain("Marvin stops them when it exits.");
    for (const pid of pids) expect(running(pid), `pid ${pid}`).toBe(false);
  });

  test.for(["SIGINT", "SIGTERM"] as const)(
    "on %s kills the command that is running and what it started, setsid included",
    async (signal, { llm, home, project, leftovers }) => {
      const command = "sleep 300 & echo $! > bg.pid; setsid sleep 301 > /dev/null 2>&1 & echo $! > setsid.pid; wait";
      const server = await llm([
        { toolCalls: [{ name: "run_command", arguments: { command, timeout: 600 } }] },
        { text: "unreachable" },
      ]);
      const child = spawn(
        process.execPath,
        [MARVIN_BIN, "--non-interactive", "--working-dir", project, "--prompt", "run"],
        { env: serverEnv(server.url, home, UNSANDBOXED) as NodeJS.ProcessEnv, cwd: home },
      );
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
      const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
      const files = ["bg.pid", "setsid.pid"].map((name) => join(project, name));
      await waitFor(() => files.every((file) => existsSync(file) && readFileSync(file, "utf8").endsWith("\n")), 15_000);
      const pids = files.map((file) => Number(readFileSync(file, "utf8")));
      leftovers.push(...pids);
      child.kill(signal);
      expect(await closed).toBe(1);
      expect(stderr).toContain("Error: interrupted");
      for (const pid of pids) expect(running(pid), `pid ${pid}`).toBe(false);
    },
  );
});
