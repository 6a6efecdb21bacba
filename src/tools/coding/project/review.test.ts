import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { ToolHarness, ToolHarnessOptions } from "../../../../tests/support/tool-harness.js";
import { providerCredentialVariables } from "../../../providers/credentials.js";
import type { ProviderName } from "../../../providers/types.js";
import { ReviewJob, reviewerEnv, reviewerLlm } from "./review-process.js";

const reviewerEnvFor = (env: Record<string, string>, provider: ProviderName) =>
  reviewerEnv(env, providerCredentialVariables(provider, env));

import { buildReviewPrompt, REVIEW_PROMPT_OPENING } from "./review-prompt.js";
import { processAlive, REVIEWS_SUBDIR, type ReviewRecord } from "./review-record.js";

const test = base.extend<{
  /** The test's temp folder: the home, and proj/ (the working dir, with its reviews folder). */
  root: string;
  project: string;
  /** A coding session in `project`. */
  harness: (options?: Partial<ToolHarnessOptions>) => Promise<ToolHarness>;
}>({
  root: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-review-")),
  project: async ({ root }, use) => {
    await mkdir(join(root, "proj", REVIEWS_SUBDIR), { recursive: true });
    await use(join(root, "proj"));
  },
  harness: async ({ harnesses, root, project }, use) =>
    use((options = {}) => harnesses.open({ home: root, workingDir: project, codingMode: true, ...options })),
});

/** The pid of a process that has already exited. */
async function finishedPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await once(child, "exit");
  return child.pid!;
}

async function recordReview(project: string, id: string, log: string, output: string): Promise<void> {
  const dir = join(project, REVIEWS_SUBDIR);
  const record: ReviewRecord = {
    id,
    pid: await finishedPid(),
    directory: project,
    focus: "security",
    startedAt: new Date(Date.now() - 65_000).toISOString(),
    outputFile: join(dir, `${id}.md`),
    logFile: join(dir, `${id}.log`),
  };
  await writeFile(join(dir, `${id}.json`), JSON.stringify(record));
  await writeFile(record.outputFile, output);
  await writeFile(record.logFile, log);
}

describe("review_codebase", () => {
  test("refuses to nest reviews past the depth limit and says why", async ({ harness }) => {
    const outcome = await (await harness({ env: { MARVIN_DEPTH: "2" } })).call("review_codebase", {});
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("this Marvin is already a nested agent (MARVIN_DEPTH=2)");
    expect(outcome.result).toContain("Review the code yourself");
  });

  test("reviews only directories inside the working dir", async ({ harness }) => {
    const tools = await harness();
    expect((await tools.call("review_codebase", { working_dir: "../" })).result).toContain(
      "Path traversal not allowed",
    );
    expect((await tools.call("review_codebase", { working_dir: "/etc" })).result).toContain(
      "Absolute paths not allowed",
    );
    expect((await tools.call("review_codebase", { working_dir: "missing" })).result).toContain(
      "missing is not a directory inside the working dir",
    );
  });

  test("gives the reviewer the parent's environment, one level deeper, read-only, without git overrides", () => {
    const env = reviewerEnv(
      {
        LLM_PROVIDER: "openai-compat",
        OPENAI_COMPAT_URL: "http://127.0.0.1:1/v1",
        MARVIN_DEPTH: "1",
        GIT_DIR: "/elsewhere/.git",
        GIT_WORK_TREE: "/elsewhere",
        MARVIN_SUBAGENT_LOG: "/tmp/audit.jsonl",
        MARVIN_CODE_MODEL_HIGH: "big-model",
      },
      [],
    );
    expect(env).toEqual({
      LLM_PROVIDER: "openai-compat",
      OPENAI_COMPAT_URL: "http://127.0.0.1:1/v1",
      MARVIN_DEPTH: "2",
      MARVIN_READONLY: "1",
      MARVIN_CODE_MODEL_HIGH: "big-model",
    });
    expect(reviewerEnvFor({}, "ollama").MARVIN_DEPTH).toBe("1");
  });

  test("gives the reviewer the key of its own provider and no other credential", () => {
    const parent = {
      HOME: "/home/u",
      OPENAI_COMPAT_API_KEY: "compat",
      GROQ_API_KEY: "groq",
      OPENAI_API_KEY: "openai",
      GH_TOKEN: "gh",
      GITHUB_TOKEN: "github",
      COPILOT_GITHUB_TOKEN: "copilot",
      AWS_SECRET_ACCESS_KEY: "aws",
    };
    expect(reviewerEnvFor(parent, "groq")).toEqual({
      HOME: "/home/u",
      GROQ_API_KEY: "groq",
      MARVIN_DEPTH: "1",
      MARVIN_READONLY: "1",
    });
    expect(reviewerEnvFor(parent, "openai-compat")).toEqual({
      HOME: "/home/u",
      OPENAI_COMPAT_API_KEY: "compat",
      MARVIN_DEPTH: "1",
      MARVIN_READONLY: "1",
    });
    expect(reviewerEnvFor(parent, "copilot")).toEqual({
      HOME: "/home/u",
      GH_TOKEN: "gh",
      GITHUB_TOKEN: "github",
      COPILOT_GITHUB_TOKEN: "copilot",
      MARVIN_DEPTH: "1",
      MARVIN_READONLY: "1",
    });
  });

  test(
    "runs the reviewer on the parent's provider and model, or on the review tier's model when " +
      "MARVIN_CODE_MODEL_HIGH is set",
    () => {
      const parent = { name: "groq", model: "llama-3.3-70b-versatile" } as const;
      expect(reviewerLlm({}, parent)).toEqual({ provider: "groq", model: "llama-3.3-70b-versatile" });
      expect(reviewerLlm({ MARVIN_CODE_MODEL_HIGH: " big-model " }, parent)).toEqual({
        provider: "groq",
        model: "big-model",
      });
    },
  );

  test("refuses to start a reviewer before the session has a provider", async ({ harness }) => {
    const outcome = await (await harness()).call("review_codebase", {});
    expect(outcome).toEqual({
      isError: true,
      result:
        "Error in review_codebase: Cannot start a reviewer: this session has no active LLM provider yet, so the " +
        "reviewer would not know which one to use.",
    });
  });

  test("builds a prompt with the focus, the reference documents and the requester's context", () => {
    const prompt = buildReviewPrompt({
      directory: "/p",
      focus: "security",
      refDir: "docs",
      maxRounds: 2,
      context: "We just rewrote auth.",
    });
    expect(prompt.startsWith(REVIEW_PROMPT_OPENING)).toBe(true);
    expect(prompt).toContain("Focus on security.");
    expect(prompt).toContain("Reference documents (specifications, designs) are in docs/");
    expect(prompt).toContain("Make up to 2 passes");
    expect(prompt).toContain("Context from the requester:\nWe just rewrote auth.");
    expect(
      buildReviewPrompt({ directory: "/p", focus: "all", refDir: undefined, maxRounds: 4, context: "" }),
    ).not.toContain("Reference documents");
  });
});

describe("review_status", () => {
  test("says when no review was started", async ({ harness }) => {
    expect((await (await harness()).call("review_status", {})).result).toBe(
      "No code review has been started in this working dir yet. Start one with review_codebase.",
    );
  });

  test("reads reviews of earlier sessions from their files: finished with cost, or stopped with the log", async ({
    project,
    harness,
  }) => {
    await recordReview(
      project,
      "review-20250101-120000",
      'notice\nMARVIN_COST:{"session_cost":0.0123,"llm_turns":3}\n',
      "## Findings\n- **major** `a.ts:1` bug\n",
    );
    await recordReview(project, "review-20250102-120000", "Error: provider exploded\n", "");
    const tools = await harness();
    const latest = await tools.call("review_status", {});
    expect(latest.result).toMatch(
      /^review-20250102-120000 \(code review of \., focus: security\): stopped after 1m 0[45]s without finishing \(killed or crashed\)\.\n/,
    );
    expect(latest.result).toContain("(the reviewer wrote no report)");
    expect(latest.result).toContain("Reviewer log (last lines):\nError: provider exploded");
    const earlier = await tools.call("review_status", { job_id: "review-20250101-120000" });
    expect(earlier.result).toMatch(
      /^review-20250101-120000 \(code review of \., focus: security\): finished after 1m 0[45]s\. Cost: \$0\.0123, 3 LLM turns\.\n/,
    );
    expect(earlier.result).toContain(
      "Report file: .marvin/reviews/review-20250101-120000.md\n\n## Findings\n- **major** `a.ts:1` bug",
    );
    const unknown = await tools.call("review_status", { job_id: "../../etc/passwd" });
    expect(unknown.result).toContain(
      "No review '../../etc/passwd'. Known reviews: review-20250101-120000, review-20250102-120000.",
    );
  });
});

describe("ReviewJob", () => {
  const record = (pid: number): ReviewRecord => ({
    id: "review-20250101-000000",
    pid,
    directory: "/p",
    focus: "all",
    startedAt: new Date().toISOString(),
    outputFile: "/dev/null",
    logFile: "/dev/null",
  });

  test("reports the exit of its process", async () => {
    const child = spawn(process.execPath, ["-e", "process.exit(3)"], { stdio: "ignore" });
    const job = new ReviewJob(record(child.pid!), child);
    expect(job.status()).toMatch(/^running for \ds \(pid \d+\)$/);
    await once(child, "exit");
    expect(job.status()).toBe("failed after 0s (exit 3)");
    expect(job.running).toBe(false);
  });

  test("cancel() stops watching but leaves the detached review running", async () => {
    const child = spawn("sleep", ["10"], { stdio: "ignore", detached: true });
    try {
      const job = new ReviewJob(record(child.pid!), child);
      job.cancel();
      expect(processAlive(child.pid!)).toBe(true);
      expect(child.listenerCount("exit")).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
