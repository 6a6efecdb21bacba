import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

/** A bare repository `<origin>/octo-org/hello.git` holding one source file. */
function makeOriginRepository(origin: string): void {
  const work = join(origin, "work");
  mkdirSync(join(work, "src"), { recursive: true });
  writeFileSync(join(work, "src", "main.rs"), 'fn main() {\n    println!("the answer is 42");\n}\n');
  const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "ignore" });
  git(work, "init", "-q", "-b", "main");
  git(work, "add", "-A");
  git(work, "-c", "user.name=Octo", "-c", "user.email=octo@example.org", "commit", "-qm", "Answer");
  mkdirSync(join(origin, "octo-org"));
  git(origin, "clone", "-q", "--bare", work, join(origin, "octo-org", "hello.git"));
}

describe("GitHub and bookmark tools in the built CLI", () => {
  test("clones a repository, finds a line in it for the model, and bookmarks it", async ({ home, llm, tempDirs }) => {
    const origin = await tempDirs.make("marvin-github-origin-");
    makeOriginRepository(origin);
    const server = await llm([
      { toolCalls: [{ name: "github_clone", arguments: { repo: "octo-org/hello" } }] },
      { toolCalls: [{ name: "github_grep", arguments: { repo: "octo-org/hello", pattern: "answer" } }] },
      {
        toolCalls: [
          { name: "bookmark_save", arguments: { url: "https://github.com/octo-org/hello", tags: "rust, answers" } },
        ],
      },
      { text: "The program prints 42." },
    ]);
    const env = serverEnv(server.url, home, { MARVIN_GITHUB_CLONE_URL: `file://${origin}` });
    const run = await runMarvin(["--non-interactive", "--prompt", "What does octo-org/hello print?"], {
      env,
      cwd: home,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("  🔧 github_clone\n  🔧 github_grep\n  🔧 bookmark_save\nThe program prints 42.\n");
    const grepResult = server.requests[2]!.body.messages.at(-1)!;
    expect(grepResult).toMatchObject({ role: "tool" });
    expect(grepResult.content).toBe('src/main.rs\n2:    println!("the answer is 42");\n\n1 matching line in 1 file.');
    const clone = join(home, "github-clones", "octo-org", "hello", "src", "main.rs");
    expect(readFileSync(clone, "utf8")).toContain("the answer is 42");
    const bookmarks = join(home, ".config", "local-finder", "profiles", "main", "bookmarks.json");
    expect(JSON.parse(readFileSync(bookmarks, "utf8"))).toMatchObject([
      { url: "https://github.com/octo-org/hello", tags: ["rust", "answers"] },
    ]);
  });
});
