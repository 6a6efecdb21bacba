import { describe, expect, test } from "../../tests/support/fixtures.js";
import { errorMessage } from "../shared/error-message.js";
import { GIT_MISSING, runGitProcess } from "./git-process.js";

const env = { PATH: process.env.PATH, HOME: "/nonexistent", GIT_CONFIG_NOSYSTEM: "1" };
const failure = (run: Promise<unknown>) =>
  run.then(
    () => "resolved",
    (error: unknown) => errorMessage(error),
  );

describe("runGitProcess", () => {
  test("answers with git's exit code and output; a failing git is an answer, not an error", async ({ tempDirs }) => {
    const cwd = await tempDirs.make("marvin-git-");
    const signal = new AbortController().signal;
    const version = await runGitProcess(["--version"], { cwd, env, signal });
    expect(version).toMatchObject({ code: 0, stderr: "" });
    expect(version.stdout).toMatch(/^git version \d/);
    const outside = await runGitProcess(["status"], { before: ["-c", "core.fsmonitor=false"], cwd, env, signal });
    expect(outside.code).toBe(128);
    expect(outside.stderr).toMatch(/not a git repository/i);
  });

  test("says the same thing for every failure: git missing, cancelled, or printing too much", async ({ tempDirs }) => {
    const cwd = await tempDirs.make("marvin-git-");
    const signal = new AbortController().signal;
    expect(await failure(runGitProcess(["status"], { cwd, env: { PATH: cwd }, signal }))).toBe(GIT_MISSING);
    expect(await failure(runGitProcess(["log"], { cwd, env, signal: AbortSignal.abort() }))).toBe(
      "git log was cancelled.",
    );
    expect(await failure(runGitProcess(["--version"], { cwd, env, signal, maxOutputBytes: 5 }))).toBe(
      "git --version printed more than 5 bytes. Narrow it down (a path, fewer commits, a line range).",
    );
  });
});
