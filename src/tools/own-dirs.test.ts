import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import type { ToolHarness, ToolHarnessOptions } from "../../tests/support/tool-harness.js";

// A cloned repository whose Marvin folders (.marvin/notes, .marvin/logs, .marvin/reviews,
// .tickets) are symlinks leading out of it: every tool that writes or reads there refuses,
// and nothing outside the working dir is read or changed.

const AUTHORIZED_KEYS = "ssh-ed25519 AAAA… ada@laptop\n";

const test = base.extend<{
  /** The test's temp folder: home/, cloned-repo/ and home-ssh/. */
  root: string;
  /** The working dir, with an empty .marvin. */
  project: string;
  /** A folder outside it worth protecting, with authorized_keys. */
  ssh: string;
  /** A coding session in `project`. */
  open: (options?: Partial<ToolHarnessOptions>) => Promise<ToolHarness>;
}>({
  root: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-own-dirs-tools-")),
  project: async ({ root }, use) => {
    await mkdir(join(root, "cloned-repo", ".marvin"), { recursive: true });
    await use(join(root, "cloned-repo"));
  },
  ssh: async ({ root }, use) => {
    await mkdir(join(root, "home-ssh"));
    await writeFile(join(root, "home-ssh", "authorized_keys"), AUTHORIZED_KEYS);
    await use(join(root, "home-ssh"));
  },
  open: async ({ harnesses, root, project }, use) =>
    use((options = {}) =>
      harnesses.open({ home: join(root, "home"), codingMode: true, workingDir: project, ...options }),
    ),
});

const LEADS_OUT = "leading outside the working dir";

describe("notes in a working dir whose .marvin/notes leads out", () => {
  test("refuses every notes tool, leaving the target untouched", async ({ project, ssh, open }) => {
    await symlink(ssh, join(project, ".marvin", "notes"));
    const harness = await open();
    expect(
      await harness.failure("write_note", { path: "authorized_keys", content: "ssh-rsa attacker", append: true }),
    ).toContain(`Refusing to use .marvin/notes/: it is a symbolic link (or lies under one) ${LEADS_OUT}`);
    for (const [tool, args] of [
      ["read_note", { path: "authorized_keys" }],
      ["notes_ls", {}],
      ["search_notes", { query: "ssh" }],
      ["file_read_lines", { path: "authorized_keys" }],
    ] as const) {
      expect(await harness.failure(tool, args)).toContain(LEADS_OUT);
    }
    expect(await readFile(join(ssh, "authorized_keys"), "utf8")).toBe(AUTHORIZED_KEYS);
    expect(await readdir(ssh)).toEqual(["authorized_keys"]);
  });

  test("refuses edits and new folders too, and a .marvin that itself leads out", async ({ project, ssh, open }) => {
    await rm(join(project, ".marvin"), { recursive: true });
    await mkdir(join(ssh, "notes"));
    await writeFile(join(ssh, "notes", "keys.md"), "one\n");
    await symlink(ssh, join(project, ".marvin"));
    const harness = await open();
    expect(await harness.failure("file_apply_patch", { path: "keys.md", patch: "DELETE 1" })).toContain(LEADS_OUT);
    expect(await harness.failure("notes_mkdir", { path: "more" })).toContain(LEADS_OUT);
    expect(await harness.failure("write_note", { path: "new", content: "x" })).toContain(LEADS_OUT);
    expect(await readdir(join(ssh, "notes"))).toEqual(["keys.md"]);
  });

  test("catches a link made mid-session, as run_command could", async ({ project, ssh, open }) => {
    const harness = await open();
    await harness.ok("write_note", { path: "plan", content: "step 1\n" });
    await rm(join(project, ".marvin", "notes"), { recursive: true });
    await symlink(ssh, join(project, ".marvin", "notes"));
    expect(await harness.failure("write_note", { path: "plan", content: "step 2\n" })).toContain(LEADS_OUT);
    expect(await readdir(ssh)).toEqual(["authorized_keys"]);
  });
});

describe("tickets in a working dir whose .tickets leads out", () => {
  test("refuses to create, list or change tickets through it", async ({ root, project, open }) => {
    const elsewhere = join(root, "elsewhere");
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, "x-0001.md"), "---\nid: x-0001\nstatus: open\n---\n# Planted\n");
    await symlink("../elsewhere", join(project, ".tickets"));
    const harness = await open();
    expect(await harness.failure("create_ticket", { title: "Innocent" })).toContain(
      `Refusing to use .tickets/: it is a symbolic link (or lies under one) ${LEADS_OUT}`,
    );
    expect(await harness.failure("ticket_list", {})).toContain(LEADS_OUT);
    expect(await harness.failure("ticket_close", { ticket_id: "x-0001" })).toContain(LEADS_OUT);
    expect(await readdir(elsewhere)).toEqual(["x-0001.md"]);
  });

  test("refuses TICKETS_DIR inside the working dir when it leads out, but takes one chosen elsewhere", async ({
    root,
    project,
    ssh,
    open,
  }) => {
    await symlink(ssh, join(project, "tasks"));
    for (const TICKETS_DIR of [join(project, "tasks"), "tasks"]) {
      expect(await (await open({ env: { TICKETS_DIR } })).failure("create_ticket", { title: "x" })).toContain(
        LEADS_OUT,
      );
    }
    expect(await readdir(ssh)).toEqual(["authorized_keys"]);
    const chosen = join(root, "my-tickets");
    await (await open({ env: { TICKETS_DIR: chosen } })).ok("create_ticket", { title: "Mine" });
    expect(await readdir(chosen)).toHaveLength(1);
  });

  test("still uses a .tickets found above the working dir (the user's own tree), symlink or not", async ({
    root,
    open,
  }) => {
    await mkdir(join(root, "shared-tickets"));
    await symlink(join(root, "shared-tickets"), join(root, ".tickets"));
    await (await open()).ok("create_ticket", { title: "From the repo" });
    expect(await readdir(join(root, "shared-tickets"))).toHaveLength(1);
  });

  test("skips ticket files that lead out of the tickets folder or are FIFOs", async ({ project, ssh, open }) => {
    await mkdir(join(project, ".tickets"));
    await writeFile(join(project, ".tickets", "cr-0001.md"), "---\nid: cr-0001\nstatus: open\n---\n# Real one\n");
    await writeFile(join(ssh, "cr-0002.md"), "---\nid: cr-0002\nstatus: open\n---\n# secret key material\n");
    await symlink(join(ssh, "cr-0002.md"), join(project, ".tickets", "cr-0002.md"));
    execFileSync("mkfifo", [join(project, ".tickets", "cr-0003.md")]);
    const harness = await open();
    const listed = await harness.ok("ticket_list", {});
    expect(listed).toContain("cr-0001");
    expect(listed).not.toContain("secret");
    expect(await harness.failure("ticket_show", { ticket_id: "cr-0002" })).toContain("not found");
  });
});

describe("reviews and history backups in a working dir whose .marvin folders lead out", () => {
  test("review_codebase and review_status refuse a .marvin/reviews that leads out", async ({ project, ssh, open }) => {
    await symlink(ssh, join(project, ".marvin", "reviews"));
    const harness = await open();
    expect(await harness.failure("review_codebase", {})).toContain(
      `Refusing to use .marvin/reviews/: it is a symbolic link (or lies under one) ${LEADS_OUT}`,
    );
    expect(await harness.failure("review_status", {})).toContain(LEADS_OUT);
    expect(await readdir(ssh)).toEqual(["authorized_keys"]);
  });

  test("review_status reads a record's report and log only next to it, never where the record points", async ({
    project,
    ssh,
    open,
  }) => {
    const reviews = join(project, ".marvin", "reviews");
    await mkdir(reviews);
    const id = "review-20250101-120000";
    const record = {
      id,
      pid: 999_999_999,
      directory: project,
      focus: "all",
      startedAt: new Date().toISOString(),
      outputFile: join(ssh, "authorized_keys"),
      logFile: join(ssh, "authorized_keys"),
    };
    await writeFile(join(reviews, `${id}.json`), JSON.stringify(record));
    await symlink(join(ssh, "authorized_keys"), join(reviews, `${id}.log`));
    const status = await (await open()).ok("review_status", {});
    expect(status).not.toContain("ssh-ed25519");
    expect(status).toContain(`Report file: .marvin/reviews/${id}.md`);
  });

  test("search_history_backups does not search a .marvin/logs that leads out, and says so", async ({
    project,
    ssh,
    open,
  }) => {
    await writeFile(
      join(ssh, "context-backup-2025-01-01T10-00-00-000Z.jsonl"),
      `${JSON.stringify({ role: "user", content: "the secret word" })}\n`,
    );
    await symlink(ssh, join(project, ".marvin", "logs"));
    const result = await (await open()).ok("search_history_backups", { query: "secret" });
    expect(result).toContain("No history backups exist yet");
    expect(result).toContain(
      `(Not searched: Refusing to use .marvin/logs/: it is a symbolic link (or lies under one) ${LEADS_OUT}`,
    );
  });
});

describe("Marvin's runtime files stay out of the user's commits", () => {
  /** `git(...args)` in `project`, made a repository with src/app.ts and no .marvin. */
  const gitTest = test.extend<{ git: (...args: string[]) => string }>({
    git: async ({ root, project }, use) => {
      const git = (...args: string[]) =>
        execFileSync("git", args, { cwd: project, env: { PATH: process.env.PATH, HOME: root }, encoding: "utf8" });
      await rm(join(project, ".marvin"), { recursive: true });
      git("init", "--quiet", "--initial-branch=main");
      git("config", "user.name", "Test Author");
      git("config", "user.email", "test@example.invalid");
      await mkdir(join(project, "src"));
      await writeFile(join(project, "src", "app.ts"), "export {};\n");
      await use(git);
    },
  });

  async function plantRuntimeFiles(project: string): Promise<void> {
    await mkdir(join(project, ".marvin", "reviews"), { recursive: true });
    await mkdir(join(project, ".marvin", "logs"), { recursive: true });
    await writeFile(join(project, ".marvin", "reviews", "review-20250101-120000.md"), "## Findings\n");
    await writeFile(join(project, ".marvin", "reviews", "review-20250101-120000.json"), '{"pid": 4242}');
    await writeFile(join(project, ".marvin", "logs", "context-backup-2025-01-01.jsonl"), "{}\n");
    await writeFile(join(project, ".marvin", "reviewer.pid"), "4242\n");
  }

  gitTest(
    "git_commit with add_all commits the code and notes, not reviews, logs or pids",
    async ({ project, open, git }) => {
      const harness = await open();
      await harness.ok("write_note", { path: "plan", content: "step 1\n" });
      expect(await readFile(join(project, ".marvin", ".gitignore"), "utf8")).toContain("/reviews/");
      await plantRuntimeFiles(project);
      await harness.ok("git_commit", { message: "Work" });
      expect(git("ls-files").trim().split("\n")).toEqual([".marvin/notes/plan.md", "src/app.ts"]);
      expect(git("status", "--porcelain")).toBe("");
    },
  );

  gitTest("also when .marvin was made before Marvin wrote its .gitignore", async ({ project, open, git }) => {
    await plantRuntimeFiles(project);
    await writeFile(join(project, ".marvin", "spec.md"), "# Spec\n");
    await (await open()).ok("git_commit", { message: "Work" });
    expect(git("ls-files").trim().split("\n")).toEqual([".marvin/spec.md", "src/app.ts"]);
  });

  gitTest("never overwrites the user's own .marvin/.gitignore", async ({ project, open, git }) => {
    await mkdir(join(project, ".marvin"));
    await writeFile(join(project, ".marvin", ".gitignore"), "notes/\n");
    const harness = await open();
    await harness.ok("write_note", { path: "plan", content: "step 1\n" });
    await harness.ok("git_commit", { message: "Work" });
    expect(await readFile(join(project, ".marvin", ".gitignore"), "utf8")).toBe("notes/\n");
    expect(git("ls-files").trim().split("\n")).toEqual([".marvin/.gitignore", "src/app.ts"]);
  });
});
