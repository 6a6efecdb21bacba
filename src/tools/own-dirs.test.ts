import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TempDirs } from "../../tests/support/test-session.js";
import { type ToolHarness, type ToolHarnessOptions, ToolHarnessPool } from "../../tests/support/tool-harness.js";

// A cloned repository whose Marvin folders (.marvin/notes, .marvin/logs, .marvin/reviews,
// .tickets) are symlinks leading out of it: every tool that writes or reads there refuses,
// and nothing outside the working dir is read or changed.

const dirs = new TempDirs();
const harnesses = new ToolHarnessPool();
let base: string;
let project: string;
let ssh: string;

const AUTHORIZED_KEYS = "ssh-ed25519 AAAA… ada@laptop\n";

beforeEach(async () => {
  base = await dirs.make("marvin-own-dirs-tools-");
  project = join(base, "cloned-repo");
  ssh = join(base, "home-ssh");
  await mkdir(join(project, ".marvin"), { recursive: true });
  await mkdir(ssh);
  await writeFile(join(ssh, "authorized_keys"), AUTHORIZED_KEYS);
});

afterEach(async () => {
  await harnesses.closeAll();
  await dirs.cleanup();
});

const open = (options: Partial<ToolHarnessOptions> = {}): Promise<ToolHarness> =>
  harnesses.open({ home: join(base, "home"), codingMode: true, workingDir: project, ...options });

const LEADS_OUT = "leading outside the working dir";

describe("notes in a working dir whose .marvin/notes leads out", () => {
  it("refuses every notes tool, leaving the target untouched", async () => {
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

  it("refuses edits and new folders too, and a .marvin that itself leads out", async () => {
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

  it("catches a link made mid-session, as run_command could", async () => {
    const harness = await open();
    await harness.ok("write_note", { path: "plan", content: "step 1\n" });
    await rm(join(project, ".marvin", "notes"), { recursive: true });
    await symlink(ssh, join(project, ".marvin", "notes"));
    expect(await harness.failure("write_note", { path: "plan", content: "step 2\n" })).toContain(LEADS_OUT);
    expect(await readdir(ssh)).toEqual(["authorized_keys"]);
  });
});

describe("tickets in a working dir whose .tickets leads out", () => {
  it("refuses to create, list or change tickets through it", async () => {
    const elsewhere = join(base, "elsewhere");
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

  it("refuses TICKETS_DIR inside the working dir when it leads out, but takes one chosen elsewhere", async () => {
    await symlink(ssh, join(project, "tasks"));
    for (const TICKETS_DIR of [join(project, "tasks"), "tasks"]) {
      expect(await (await open({ env: { TICKETS_DIR } })).failure("create_ticket", { title: "x" })).toContain(
        LEADS_OUT,
      );
    }
    expect(await readdir(ssh)).toEqual(["authorized_keys"]);
    const chosen = join(base, "my-tickets");
    await (await open({ env: { TICKETS_DIR: chosen } })).ok("create_ticket", { title: "Mine" });
    expect(await readdir(chosen)).toHaveLength(1);
  });

  it("still uses a .tickets found above the working dir (the user's own tree), symlink or not", async () => {
    await mkdir(join(base, "shared-tickets"));
    await symlink(join(base, "shared-tickets"), join(base, ".tickets"));
    await (await open()).ok("create_ticket", { title: "From the repo" });
    expect(await readdir(join(base, "shared-tickets"))).toHaveLength(1);
  });

  it("skips ticket files that lead out of the tickets folder or are FIFOs", async () => {
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
  it("review_codebase and review_status refuse a .marvin/reviews that leads out", async () => {
    await symlink(ssh, join(project, ".marvin", "reviews"));
    const harness = await open();
    expect(await harness.failure("review_codebase", {})).toContain(
      `Refusing to use .marvin/reviews/: it is a symbolic link (or lies under one) ${LEADS_OUT}`,
    );
    expect(await harness.failure("review_status", {})).toContain(LEADS_OUT);
    expect(await readdir(ssh)).toEqual(["authorized_keys"]);
  });

  it("review_status reads a record's report and log only next to it, never where the record points", async () => {
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

  it("search_history_backups does not search a .marvin/logs that leads out, and says so", async () => {
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
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: project, env: { PATH: process.env.PATH, HOME: base }, encoding: "utf8" });

  beforeEach(async () => {
    await rm(join(project, ".marvin"), { recursive: true });
    git("init", "--quiet", "--initial-branch=main");
    git("config", "user.name", "Test Author");
    git("config", "user.email", "test@example.invalid");
    await mkdir(join(project, "src"));
    await writeFile(join(project, "src", "app.ts"), "export {};\n");
  });

  async function plantRuntimeFiles(): Promise<void> {
    await mkdir(join(project, ".marvin", "reviews"), { recursive: true });
    await mkdir(join(project, ".marvin", "logs"), { recursive: true });
    await writeFile(join(project, ".marvin", "reviews", "review-20250101-120000.md"), "## Findings\n");
    await writeFile(join(project, ".marvin", "reviews", "review-20250101-120000.json"), '{"pid": 4242}');
    await writeFile(join(project, ".marvin", "logs", "context-backup-2025-01-01.jsonl"), "{}\n");
    await writeFile(join(project, ".marvin", "reviewer.pid"), "4242\n");
  }

  it("git_commit with add_all commits the code and notes, not reviews, logs or pids", async () => {
    const harness = await open();
    await harness.ok("write_note", { path: "plan", content: "step 1\n" });
    expect(await readFile(join(project, ".marvin", ".gitignore"), "utf8")).toContain("/reviews/");
    await plantRuntimeFiles();
    await harness.ok("git_commit", { message: "Work" });
    expect(git("ls-files").trim().split("\n")).toEqual([".marvin/notes/plan.md", "src/app.ts"]);
    expect(git("status", "--porcelain")).toBe("");
  });

  it("also when .marvin was made before Marvin wrote its .gitignore", async () => {
    await plantRuntimeFiles();
    await writeFile(join(project, ".marvin", "spec.md"), "# Spec\n");
    await (await open()).ok("git_commit", { message: "Work" });
    expect(git("ls-files").trim().split("\n")).toEqual([".marvin/spec.md", "src/app.ts"]);
  });

  it("never overwrites the user's own .marvin/.gitignore", async () => {
    await mkdir(join(project, ".marvin"));
    await writeFile(join(project, ".marvin", ".gitignore"), "notes/\n");
    const harness = await open();
    await harness.ok("write_note", { path: "plan", content: "step 1\n" });
    await harness.ok("git_commit", { message: "Work" });
    expect(await readFile(join(project, ".marvin", ".gitignore"), "utf8")).toBe("notes/\n");
    expect(git("ls-files").trim().split("\n")).toEqual([".marvin/.gitignore", "src/app.ts"]);
  });
});
