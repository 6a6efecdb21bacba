import { execFileSync } from "node:child_process";
import { chmod, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";

/**
 * A stand-in for github.com: bare repositories under `<origin>/<owner>/<name>.git`, served to git
 * through MARVIN_GITHUB_CLONE_URL=file://<origin>. The repository holds what a hostile one might:
 * symlinks leading out of the clone, and a binary file.
 */
interface Fixture {
  origin: string;
  /** A file outside every clone, which no tool may read. */
  secretFile: string;
  harness: ToolHarness;
  /** Adds a commit to octo-org/hello in the origin. */
  push(path: string, content: string, message: string): Promise<void>;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

async function put(root: string, path: string, content: string | Buffer): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}

const test = base.extend<Fixture>({
  origin: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-github-origin-")),
  secretFile: async ({ tempDirs }, use) => {
    const file = join(await tempDirs.make("marvin-outside-"), "secret.txt");
    await writeFile(file, "TOP SECRET needle outside the clone\n");
    await use(file);
  },
  push: async ({ origin, tempDirs, secretFile }, use) => {
    const work = await tempDirs.make("marvin-github-work-");
    git(work, "init", "-q", "-b", "main");
    git(work, "config", "user.name", "Octo Author");
    git(work, "config", "user.email", "octo@example.invalid");
    await put(work, "README.md", "# hello\n\nSay hello to the needle.\n");
    await put(work, "src/main.rs", 'fn main() {\n    println!("needle in a haystack");\n}\n');
    await put(work, "src/lib.rs", 'pub fn greet() -> &\'static str {\n    "hi"\n}\n');
    await put(work, "logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]));
    await put(work, "big.txt", Array.from({ length: 600 }, (_, index) => `line ${index + 1}`).join("\n"));
    await symlink(secretFile, join(work, "escape.txt"));
    await symlink(dirname(secretFile), join(work, "outside"));
    git(work, "add", "-A");
    git(work, "commit", "-qm", "First commit");
    await put(work, "src/lib.rs", 'pub fn greet() -> &\'static str {\n    "hello"\n}\n');
    git(work, "commit", "-qam", "Say hello");
    const bare = join(origin, "octo-org", "hello.git");
    await mkdir(dirname(bare), { recursive: true });
    git(origin, "clone", "-q", "--bare", work, bare);
    git(work, "remote", "add", "origin", bare);
    await use(async (path, content, message) => {
      await put(work, path, content);
      git(work, "add", "-A");
      git(work, "commit", "-qm", message);
      git(work, "push", "-q", "origin", "main");
    });
  },
  harness: async ({ harnesses, home, origin, push: _ }, use) =>
    use(await harnesses.open({ home, env: { MARVIN_GITHUB_CLONE_URL: `file://${origin}` } })),
});

describe("github_clone", () => {
  test("clones the latest commit to ~/github-clones/<owner>/<name> and describes it", async ({ harness, home }) => {
    const text = await harness.ok("github_clone", { repo: "octo-org/hello" });
    const dir = join(home, "github-clones", "octo-org", "hello");
    expect(text).toMatch(
      new RegExp(
        `^Cloned octo-org/hello to ${dir} \\(shallow: the latest commit only\\)\\.\\n` +
          "Latest commit: [0-9a-f]{7,} \\d{4}-\\d\\d-\\d\\d Say hello\\nFiles: 7\\nTop level:\\n",
      ),
    );
    expect(text).toContain("Top level:\nsrc/\nbig.txt\nescape.txt\nlogo.png\noutside\nREADME.md\nRead files");
    expect(text).toMatch(
      /Read files with github_read_file and search them with github_grep \(repo "octo-org\/hello"\)\.$/,
    );
    const lastProgress = harness.progress.at(-1)?.message;
    expect(lastProgress).toMatch(/^Cloning octo-org\/hello: (receiving objects|resolving deltas) 100%$/);
    expect(git(dir, "rev-parse", "--is-shallow-repository").trim()).toBe("true");
    expect(git(dir, "rev-list", "--count", "HEAD").trim()).toBe("1");
  });

  test("takes a github.com URL and clones the full history when shallow is false", async ({ harness, home }) => {
    const text = await harness.ok("github_clone", { repo: "https://github.com/octo-org/hello.git", shallow: false });
    expect(text).toContain("(full history)");
    expect(git(join(home, "github-clones", "octo-org", "hello"), "rev-list", "--count", "HEAD").trim()).toBe("2");
  });

  test("updates a clone that is already there instead of cloning again", async ({ harness, home, push }) => {
    await harness.ok("github_clone", { repo: "octo-org/hello" });
    await push("NEWS.md", "Version 2 is out.\n", "Announce version 2");
    const text = await harness.ok("github_clone", { repo: "octo-org/hello" });
    expect(text).toMatch(/^octo-org\/hello was already cloned at .*; updated it \(/);
    expect(text).toContain("Announce version 2");
    const dir = join(home, "github-clones", "octo-org", "hello");
    expect(await readFile(join(dir, "NEWS.md"), "utf8")).toBe("Version 2 is out.\n");
  });

  test("never overwrites a directory that is not a clone", async ({ harness, home }) => {
    const dir = join(home, "github-clones", "octo-org", "hello");
    await put(dir, "notes.txt", "mine");
    expect(await harness.failure("github_clone", { repo: "octo-org/hello" })).toBe(
      `Error in github_clone: ${dir} already exists and is not a git clone; Marvin does not overwrite it. Ask the ` +
        "user to move it away.",
    );
    expect(await readdir(dir)).toEqual(["notes.txt"]);
  });

  test("says a repository does not exist or is private, and how to log in", async ({ harness, home }) => {
    const text = await harness.failure("github_clone", { repo: "octo-org/missing" });
    expect(text).toMatch(
      /^Error in github_clone: Could not clone octo-org\/missing from file:\/\/.*\/octo-org\/missing\.git: no such repository, or it is private \(git said: .*\)\. Check the name/,
    );
    expect(text).toContain("`gh auth login`, then `gh auth setup-git`");
    expect(await readdir(home)).not.toContain("github-clones-missing");
    await expect(readdir(join(home, "github-clones", "octo-org", "missing"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  test("refuses names that are paths or options, creating nothing", async ({ harness, home }) => {
    for (const repo of ["../etc", "octo-org/..", "--upload-pack=touch pwned/x", "-owner/repo", "a/b/c", "owner"]) {
      expect(await harness.failure("github_clone", { repo })).toBe(
        `Error in github_clone: '${repo}' is not a GitHub repository name. Give it as owner/name, e.g. ` +
          "'torvalds/linux' or 'https://github.com/torvalds/linux'.",
      );
    }
    expect(await readdir(home)).not.toContain("github-clones");
  });

  test("refuses a clone URL setting git would run a command for", async ({ harnesses, home }) => {
    const harness = await harnesses.open({ home, env: { MARVIN_GITHUB_CLONE_URL: "ext::sh -c touch% /tmp/pwned" } });
    expect(await harness.failure("github_clone", { repo: "octo-org/hello" })).toMatch(
      /^Error in github_clone: MARVIN_GITHUB_CLONE_URL is not a usable address \('ext::sh -c touch% \/tmp\/pwned'\)/,
    );
  });

  test("gives git the GitHub tokens and no other secret, and never lets it prompt", async ({
    harnesses,
    home,
    tempDirs,
  }) => {
    // An ssh clone URL makes git run the user's core.sshCommand: here a script that records its environment.
    const dir = await tempDirs.make("marvin-git-env-");
    const script = join(dir, "record-env.sh");
    await writeFile(script, `#!/bin/sh\nenv > '${join(dir, "env.txt")}'\nexit 1\n`);
    await chmod(script, 0o755);
    await writeFile(join(dir, "gitconfig"), `[core]\n\tsshCommand = ${script}\n`);
    const env = {
      MARVIN_GITHUB_CLONE_URL: "ssh://git@github.invalid",
      GIT_CONFIG_GLOBAL: join(dir, "gitconfig"),
      GH_TOKEN: "ghp_forGit",
      OPENAI_API_KEY: "sk-not-for-git",
      GIT_DIR: "/somewhere/else/.git",
    };
    const harness = await harnesses.open({ home, env });
    await harness.failure("github_clone", { repo: "octo-org/hello" });
    const seen = await readFile(join(dir, "env.txt"), "utf8");
    expect(seen).toContain("GH_TOKEN=ghp_forGit\n");
    expect(seen).toContain("GIT_TERMINAL_PROMPT=0\n");
    expect(seen).not.toContain("sk-not-for-git");
    expect(seen).not.toContain("/somewhere/else");
  });

  test("names git and its package when git is missing", async ({ harnesses, home, tempDirs, origin }) => {
    const env = { PATH: await tempDirs.make("marvin-no-git-"), MARVIN_GITHUB_CLONE_URL: `file://${origin}` };
    const harness = await harnesses.open({ home, env });
    expect(await harness.failure("github_clone", { repo: "octo-org/hello" })).toBe(
      "Error in github_clone: git is not installed (or not on PATH). Install it (Debian/Ubuntu: `sudo apt install " +
        "git`), then try again.",
    );
  });
});

describe("github_read_file", () => {
  test("reads a file of the clone as numbered lines, or a range of it", async ({ harness }) => {
    await harness.ok("github_clone", { repo: "octo-org/hello" });
    expect(await harness.ok("github_read_file", { repo: "octo-org/hello", path: "src/main.rs" })).toBe(
      'octo-org/hello/src/main.rs\n1. fn main() {\n2.     println!("needle in a haystack");\n3. }',
    );
    expect(await harness.ok("github_read_file", { repo: "octo-org/hello", path: "big.txt", start: 10, end: 12 })).toBe(
      "octo-org/hello/big.txt\n10. line 10\n11. line 11\n12. line 12\n\n[Lines 10-12 of 600.]",
    );
  });

  test("stops at 500 lines and says where to read on", async ({ harness }) => {
    await harness.ok("github_clone", { repo: "octo-org/hello" });
    const text = await harness.ok("github_read_file", { repo: "octo-org/hello", path: "big.txt" });
    expect(text).toContain("\n500. line 500\n\n[Lines 1-500 of 600. Read on with start=501.]");
    expect(text).not.toContain("501. line 501");
  });

  test("lists a directory, and declines a binary file", async ({ harness }) => {
    await harness.ok("github_clone", { repo: "octo-org/hello" });
    expect(await harness.ok("github_read_file", { repo: "octo-org/hello", path: "src" })).toBe(
      "octo-org/hello/src/ holds:\nlib.rs\nmain.rs",
    );
    expect(await harness.ok("github_read_file", { repo: "octo-org/hello", path: "logo.png" })).toBe(
      "octo-org/hello/logo.png looks like a binary file (8 bytes); it is not shown.",
    );
  });

  test("never follows a symlink or a path out of the clone", async ({ harness, secretFile }) => {
    await harness.ok("github_clone", { repo: "octo-org/hello" });
    for (const path of ["escape.txt", "outside/secret.txt", "../../../../etc/passwd", secretFile]) {
      const text = await harness.failure("github_read_file", { repo: "octo-org/hello", path });
      expect(text).toMatch(
        /points outside the clone of octo-org\/hello|Path traversal not allowed|Absolute paths not allowed/,
      );
      expect(text).not.toContain("TOP SECRET");
    }
  });

  test("asks for a clone first, and names a missing file", async ({ harness }) => {
    expect(await harness.failure("github_read_file", { repo: "octo-org/hello", path: "README.md" })).toBe(
      "Error in github_read_file: octo-org/hello is not cloned yet; call github_clone with repo " +
        '"octo-org/hello" first.',
    );
    await harness.ok("github_clone", { repo: "octo-org/hello" });
    expect(await harness.failure("github_read_file", { repo: "octo-org/hello", path: "nope.md" })).toMatch(
      /^Error in github_read_file: nope\.md does not exist in octo-org\/hello\. Top level:\n/,
    );
    expect(await harness.failure("github_read_file", { repo: "octo-org/hello", path: "big.txt", start: 700 })).toBe(
      "Error in github_read_file: start 700 is past the end of octo-org/hello/big.txt, which has 600 lines.",
    );
  });
});

describe("github_grep", () => {
  test("finds matching lines by file, never through symlinks leading out", async ({ harness }) => {
    await harness.ok("github_clone", { repo: "octo-org/hello" });
    expect(await harness.ok("github_grep", { repo: "octo-org/hello", pattern: "needle" })).toBe(
      'README.md\n3:Say hello to the needle.\n\nsrc/main.rs\n2:    println!("needle in a haystack");\n\n' +
        "2 matching lines in 2 files.",
    );
  });

  test("keeps to the files the glob filter names, and caps the matches", async ({ harness }) => {
    await harness.ok("github_clone", { repo: "octo-org/hello" });
    expect(await harness.ok("github_grep", { repo: "octo-org/hello", pattern: "needle", glob_filter: "*.rs" })).toBe(
      'src/main.rs\n2:    println!("needle in a haystack");\n\n1 matching line in 1 file.',
    );
    const text = await harness.ok("github_grep", { repo: "octo-org/hello", pattern: "^line \\d+$", max_results: 2 });
    expect(text).toBe(
      "big.txt\n1:line 1\n2:line 2\n\nShowing the first 2 matching lines (in 1 file) of 600 in 1 file; 598 more " +
        "not shown. Narrow the pattern, pass glob_filter, or raise max_results.",
    );
  });

  test("says when nothing matches, and when the pattern is not a regex", async ({ harness }) => {
    await harness.ok("github_clone", { repo: "octo-org/hello" });
    expect(await harness.ok("github_grep", { repo: "octo-org/hello", pattern: "TOP SECRET" })).toBe(
      "No matches for /TOP SECRET/ in the clone of octo-org/hello.",
    );
    expect(await harness.failure("github_grep", { repo: "octo-org/hello", pattern: "fn (" })).toMatch(
      /^Error in github_grep: Invalid regex pattern \/fn \(\/:/,
    );
  });

  test("asks for a clone first", async ({ harness }) => {
    expect(await harness.failure("github_grep", { repo: "octo-org/hello", pattern: "x" })).toBe(
      'Error in github_grep: octo-org/hello is not cloned yet; call github_clone with repo "octo-org/hello" first.',
    );
  });
});
