import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import { SECRET_SAMPLES } from "../../../../tests/support/secrets.js";
import type { ToolHarness, ToolHarnessOptions } from "../../../../tests/support/tool-harness.js";

type Git = (cwd: string, ...args: string[]) => string;

async function initRepo(git: Git, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  git(dir, "init", "--quiet", "--initial-branch=main");
  git(dir, "config", "user.name", "Test Author");
  git(dir, "config", "user.email", "test@example.invalid");
}

const test = base.extend<{
  /** The test's temp folder: the home, and proj/ (the working dir). */
  root: string;
  /** `git(cwd, ...args)` with only PATH and HOME (`root`) set. */
  git: Git;
  /** A fresh repository. */
  project: string;
  /** A coding session in `project`. */
  harness: (options?: Partial<ToolHarnessOptions>) => Promise<ToolHarness>;
}>({
  root: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-git-")),
  git: async ({ root }, use) =>
    use((cwd, ...args) =>
      execFileSync("git", args, { cwd, env: { PATH: process.env.PATH, HOME: root }, encoding: "utf8", stdio: "pipe" }),
    ),
  project: async ({ root, git }, use) => {
    await initRepo(git, join(root, "proj"));
    await use(join(root, "proj"));
  },
  harness: async ({ harnesses, root, project }, use) =>
    use((options = {}) => harnesses.open({ home: root, workingDir: project, codingMode: true, ...options })),
});

describe("git tools", () => {
  test("status, diff, commit (staging everything by default) and log on a real repository", async ({
    project,
    harness,
  }) => {
    const tools = await harness();
    expect((await tools.call("git_log", {})).result).toBe("No commits yet.");
    await writeFile(join(project, "a.txt"), "old\n");
    expect((await tools.call("git_status", {})).result).toContain("?? a.txt");
    expect((await tools.call("git_diff", {})).result).toBe(
      "No unstaged changes. (New untracked files do not show in a diff; git_status lists them.)",
    );

    const first = await tools.call("git_commit", { message: "Add a.txt" });
    expect(first.isError).toBe(false);
    expect(first.result).toMatch(/^\[main \(root-commit\) [0-9a-f]+\] Add a\.txt\n 1 file changed, 1 insertion/);
    expect((await tools.call("git_status", {})).result).toContain("Nothing to commit, working tree clean.");

    await writeFile(join(project, "a.txt"), "new\n");
    const diff = await tools.call("git_diff", { path: "a.txt" });
    expect(diff.result).toContain("-old\n+new");
    expect((await tools.call("git_diff", { staged: true })).result).toBe("No staged changes.");
    expect((await tools.call("git_commit", { message: "nothing staged", add_all: false })).result).toBe(
      "Nothing to commit: nothing is staged. Call git_commit with add_all=true to stage all changes.",
    );
    await tools.call("git_commit", { message: "Change a.txt\n\nDetails here." });
    expect((await tools.call("git_commit", { message: "again" })).result).toBe(
      "Nothing to commit: the working tree is clean.",
    );

    const log = (await tools.call("git_log", { max_count: 5 })).result.split("\n");
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(/^[0-9a-f]{7,} \d{4}-\d{2}-\d{2} Test Author \(HEAD -> main\): Change a\.txt$/);
    expect(log[1]).toMatch(/Add a\.txt$/);
    const full = (await tools.call("git_log", { max_count: 1, oneline: false })).result;
    expect(full).toContain("Author: Test Author <test@example.invalid>");
    expect(full).toContain("Details here.");
    expect(full).toContain("a.txt | 2 +-");

    const blame = (await tools.call("git_blame", { path: "a.txt", start_line: 1, end_line: 1 })).result;
    expect(blame).toMatch(/^[0-9a-f^]+ \(Test Author \d{4}-\d{2}-\d{2} +1\) new$/);
  });

  test("runs git (and the hooks it starts) without the session's API keys and tokens", async ({
    root,
    project,
    harness,
  }) => {
    const hook = join(project, ".git", "hooks", "pre-commit");
    await writeFile(hook, `#!/bin/sh\nenv > "${join(root, "hook-env.txt")}"\n`, { mode: 0o755 });
    await writeFile(join(project, "a.txt"), "a\n");
    expect((await (await harness({ env: SECRET_SAMPLES })).call("git_commit", { message: "Add a" })).isError).toBe(
      false,
    );
    const seen = await readFile(join(root, "hook-env.txt"), "utf8");
    expect(seen).toContain("PATH=");
    for (const name of Object.keys(SECRET_SAMPLES)) expect(seen).not.toMatch(new RegExp(`^${name}=`, "m"));
  });

  test(
    "ignores GIT_DIR and GIT_WORK_TREE inherited from the parent and acts on the working dir's " + "repository",
    async ({ root, git, project, harness }) => {
      const other = join(root, "other");
      await initRepo(git, other);
      const tools = await harness({
        env: { GIT_DIR: join(other, ".git"), GIT_WORK_TREE: other, GIT_INDEX_FILE: join(other, ".git", "index") },
      });
      await writeFile(join(project, "mine.txt"), "mine\n");
      expect((await tools.call("git_commit", { message: "Mine" })).isError).toBe(false);
      expect(git(project, "log", "--format=%s")).toBe("Mine\n");
      expect(() => git(other, "log")).toThrow();
      expect((await tools.call("run_command", { command: "git log --format=%s" })).result).toContain("Mine");
    },
  );

  test(
    "never shows or commits files outside the project when the repository's core.worktree " + "points elsewhere",
    async ({ root, git, project, harness }) => {
      const outside = join(root, "outside");
      await mkdir(outside);
      await writeFile(join(outside, "credentials"), "secret\n");
      await writeFile(join(project, "mine.txt"), "mine\n");
      git(project, "config", "core.worktree", outside);
      const tools = await harness();
      const status = (await tools.call("git_status", {})).result;
      expect(status).toContain("mine.txt");
      expect(status).not.toContain("credentials");
      expect((await tools.call("git_commit", { message: "Mine" })).isError).toBe(false);
      expect(git(project, `--work-tree=${project}`, "show", "--name-only", "--format=")).toBe("mine.txt\n");
    },
  );

  test("lists and creates branches and checks them out", async ({ git, project, harness }) => {
    const tools = await harness();
    expect((await tools.call("git_branch", {})).result).toBe(
      "No branches yet (no commits). The first commit will be on main.",
    );
    await writeFile(join(project, "a.txt"), "a\n");
    await tools.call("git_commit", { message: "init" });
    expect((await tools.call("git_branch", { name: "feature/x" })).result).toBe(
      "Created branch feature/x (still on main). Switch to it with git_checkout.",
    );
    const listing = (await tools.call("git_branch", {})).result;
    expect(listing).toMatch(/^ {2}feature\/x +[0-9a-f]+ init\n\* main +[0-9a-f]+ init$/);

    const switched = await tools.call("git_checkout", { target: "feature/x" });
    expect(switched.result).toBe("Switched to branch 'feature/x'\nNow on branch feature/x.");
    const created = await tools.call("git_checkout", { target: "topic", create_branch: true });
    expect(created.result).toBe("Switched to a new branch 'topic'\nNow on branch topic.");
    await writeFile(join(project, "a.txt"), "changed\n");
    expect((await tools.call("git_checkout", { target: "a.txt" })).isError).toBe(false);
    expect(git(project, "status", "--short")).toBe("");
  });

  test("explains refused checkouts: option-like targets, escapes and conflicting changes", async ({
    project,
    harness,
  }) => {
    const tools = await harness();
    await writeFile(join(project, "a.txt"), "a\n");
    await tools.call("git_commit", { message: "init" });
    await tools.call("git_checkout", { target: "other", create_branch: true });
    await writeFile(join(project, "a.txt"), "other\n");
    await tools.call("git_commit", { message: "other" });
    await writeFile(join(project, "a.txt"), "dirty\n");
    const conflict = await tools.call("git_checkout", { target: "main" });
    expect(conflict.isError).toBe(true);
    expect(conflict.result).toContain("uncommitted changes would be overwritten");
    expect(conflict.result).toContain("Commit them with git_commit first");
    expect((await tools.call("git_checkout", { target: "--force" })).result).toContain("looks like an option");
    expect((await tools.call("git_checkout", { target: "../other/a.txt" })).result).toContain(
      "works inside the working dir only",
    );
    expect((await tools.call("git_diff", { path: "../other" })).result).toContain("Path traversal not allowed");
  });

  test("refuses writes in a read-only agent but still lists branches", async ({ harness }) => {
    const tools = await harness({ readonly: true });
    expect((await tools.call("git_commit", { message: "x" })).result).toContain(
      "git_commit is disabled: this is a read-only agent",
    );
    expect((await tools.call("git_checkout", { target: "main" })).result).toContain("read-only agent");
    expect((await tools.call("git_branch", { name: "new" })).result).toContain(
      "git_branch was refused: this is a read-only agent",
    );
    expect((await tools.call("git_branch", {})).isError).toBe(false);
  });

  test("runs nothing a hostile repository's config names when it only looks at it", async ({
    root,
    git,
    project,
    harness,
  }) => {
    const markers = join(root, "markers");
    const traps = join(root, "traps");
    await mkdir(markers);
    await mkdir(join(traps, "hooks"), { recursive: true });
    /** A script that leaves a marker named `name` when git runs it, then behaves as `body`. */
    const trap = async (name: string, body = "exit 0", path = join(traps, name)) => {
      await writeFile(path, `#!/bin/sh\ntouch '${join(markers, name)}'\n${body}\n`, { mode: 0o755 });
      return path;
    };
    const sprung = () => readdir(markers);
    const signature = "-----BEGIN PGP SIGNATURE-----\\n\\nx\\n-----END PGP SIGNATURE-----\\n";
    const fakeSign = await trap("sign", `cat >/dev/null\necho '[GNUPG:] SIG_CREATED ' >&2\nprintf -- '${signature}'`);
    await writeFile(join(project, ".gitattributes"), "*.txt filter=evil diff=evil\n");
    await writeFile(join(project, "a.txt"), "old\n");
    git(project, "add", "--all");
    git(project, "-c", `gpg.program=${fakeSign}`, "commit", "--quiet", "--gpg-sign", "-m", "signed");
    await rm(join(markers, "sign"));

    git(project, "config", "core.fsmonitor", await trap("fsmonitor"));
    git(project, "config", "core.hooksPath", join(traps, "hooks"));
    await trap("post-index-change", "exit 0", join(traps, "hooks", "post-index-change"));
    git(project, "config", "filter.evil.clean", await trap("clean", "cat"));
    git(project, "config", "diff.evil.textconv", await trap("textconv", 'cat "$1"'));
    git(project, "config", "diff.external", await trap("external-diff"));
    git(project, "config", "log.showSignature", "true");
    git(project, "config", "gpg.program", await trap("gpg"));
    await writeFile(join(project, "a.txt"), "new\n");

    // The traps are armed: plain git springs every one of them.
    git(project, "status", "--short");
    git(project, "diff");
    git(project, "log", "-1");
    git(project, "blame", "a.txt");
    expect((await sprung()).sort()).toEqual([
      "clean",
      "external-diff",
      "fsmonitor",
      "gpg",
      "post-index-change",
      "textconv",
    ]);
    await rm(markers, { recursive: true });
    await mkdir(markers);

    const tools = await harness({ readonly: true });
    expect(await tools.call("git_status", {})).toEqual({ isError: false, result: expect.stringContaining(" M a.txt") });
    expect((await tools.call("git_diff", {})).result).toContain("-old\n+new");
    expect((await tools.call("git_diff", { staged: true, path: "a.txt" })).result).toBe("No staged changes in a.txt.");
    expect((await tools.call("git_log", {})).result).toMatch(/^[0-9a-f]+ .*: signed$/);
    expect((await tools.call("git_log", { oneline: false })).result).toMatch(/a\.txt +\| 1 \+/);
    expect((await tools.call("git_blame", { path: "a.txt" })).result).toContain("Not Committed Yet");
    expect((await tools.call("git_branch", {})).result).toContain("* main");
    expect(await sprung()).toEqual([]);
  });

  test("keeps the repository's hooks for commits, which the user asked for", async ({ root, project, harness }) => {
    await mkdir(join(project, ".git", "hooks"), { recursive: true });
    const hook = `#!/bin/sh\ntouch '${join(root, "pre-commit-ran")}'\n`;
    await writeFile(join(project, ".git", "hooks", "pre-commit"), hook, { mode: 0o755 });
    await writeFile(join(project, "a.txt"), "a\n");
    expect((await (await harness()).call("git_commit", { message: "hooked" })).isError).toBe(false);
    expect(existsSync(join(root, "pre-commit-ran"))).toBe(true);
  });

  test("no tool writes into .git, so the model cannot name a program for git to run", async ({
    root,
    project,
    harness,
  }) => {
    const marker = join(root, "fsmonitor-ran");
    const setting = `[core]\n\tfsmonitor = touch '${marker}'\n`;
    await mkdir(join(project, "sub"));
    await symlink(".git", join(project, "meta"));
    const tools = await harness();
    const refusals = [
      await tools.failure("append_file", { path: ".git/config", content: setting }),
      await tools.failure("append_file", { path: "meta/config", content: setting }),
      await tools.failure("apply_patch", { path: ".git/config", old_str: "[core]", new_str: setting }),
      await tools.failure("create_file", { path: ".GIT/hooks/pre-commit", content: "#!/bin/sh\n" }),
      await tools.failure("create_file", { path: "sub/.git", content: `gitdir: ${join(root, "elsewhere")}\n` }),
    ];
    for (const refusal of refusals) expect(refusal).toMatch(/: no tool writes git's own \.git or anything inside it/);
    await writeFile(join(project, "a.txt"), "a\n");
    expect((await tools.call("git_commit", { message: "a" })).isError).toBe(false);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(project, "sub", ".git"))).toBe(false);
  });

  test("never runs the repository's fsmonitor, also when it commits or checks out", async ({
    root,
    git,
    project,
    harness,
  }) => {
    const fsmonitor = join(root, "fsmonitor");
    await writeFile(fsmonitor, `#!/bin/sh\ntouch '${join(root, "fsmonitor-ran")}'\n`, { mode: 0o755 });
    git(project, "config", "core.fsmonitor", fsmonitor);
    await writeFile(join(project, "a.txt"), "a\n");
    const tools = await harness();
    expect((await tools.call("git_commit", { message: "a" })).isError).toBe(false);
    expect((await tools.call("git_checkout", { target: "topic", create_branch: true })).isError).toBe(false);
    await writeFile(join(project, "a.txt"), "b\n");
    expect((await tools.call("git_checkout", { target: "a.txt" })).isError).toBe(false);
    expect(existsSync(join(root, "fsmonitor-ran"))).toBe(false);
  });

  test("opens no bare repository it comes across, such as one a cloned repository carries", async ({
    root,
    git,
    project,
    harness,
  }) => {
    await writeFile(join(project, "a.txt"), "a\n");
    git(project, "add", "a.txt");
    git(project, "commit", "--quiet", "-m", "init");
    const embedded = join(project, "vendor", "embedded");
    git(root, "clone", "--quiet", "--bare", project, embedded);
    const hook = join(embedded, "hooks", "reference-transaction");
    await writeFile(hook, `#!/bin/sh\ntouch '${join(root, "hook-ran")}'\n`, { mode: 0o755 });
    const tools = await harness({ workingDir: embedded });
    const refusal = `${embedded} is a bare git repository`;
    expect(await tools.failure("git_branch", { name: "x" })).toContain(refusal);
    expect(await tools.failure("git_log", {})).toContain(refusal);
    expect(existsSync(join(root, "hook-ran"))).toBe(false);
  });

  test("says what to do when the dir is not a repository, git is missing, or the author is unknown", async ({
    root,
    git,
    project,
    harness,
  }) => {
    const plain = join(root, "plain");
    await mkdir(plain);
    const notRepo = await (await harness({ workingDir: plain })).call("git_status", {});
    expect(notRepo).toEqual({
      isError: true,
      result:
        `Error in git_status: ${plain} is not a git repository (nor inside one). Create one with ` +
        `run_command("git init"), or set_working_dir to the repository.`,
    });

    const emptyBin = join(root, "empty-bin");
    await mkdir(emptyBin);
    const missing = await (await harness({ env: { PATH: emptyBin } })).call("git_log", {});
    expect(missing.result).toContain("git is not installed (or not on PATH)");

    git(project, "config", "--unset", "user.name");
    git(project, "config", "--unset", "user.email");
    git(project, "config", "user.useConfigOnly", "true");
    await writeFile(join(project, "a.txt"), "a\n");
    const anonymous = await (await harness()).call("git_commit", { message: "who" });
    expect(anonymous.isError).toBe(true);
    expect(anonymous.result).toContain("git does not know who the author is");
  });
});
