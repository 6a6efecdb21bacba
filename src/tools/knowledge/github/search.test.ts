import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { LocalHttpServer } from "../../../../tests/support/local-http-server.js";
import { sendJson } from "../../../../tests/support/local-http-server.js";
import {
  BAD_CREDENTIALS,
  CODE_SEARCH,
  COMMIT_SEARCH,
  EMPTY_SEARCH,
  ISSUE_SEARCH,
  RATE_LIMIT_EXCEEDED,
  RATE_LIMIT_HEADERS,
  REPOSITORY_SEARCH,
  USER_SEARCH,
  VALIDATION_FAILED,
} from "../../../../tests/support/payloads/github.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";

interface Setup {
  /** Starts a GitHub API fixture answering `body` and opens a harness pointed at it; `gh` has no login. */
  github(
    body: unknown,
    options?: { status?: number; headers?: Record<string, string>; env?: Record<string, string>; delayMs?: number },
  ): Promise<{ harness: ToolHarness; server: LocalHttpServer; ghConfig: string }>;
}

const test = base.extend<Setup>({
  github: async ({ harnesses, httpServers, tempDirs, home }, use) => {
    await use(async (body, options = {}) => {
      const server = await httpServers.start(async (_request, response) => {
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        if (typeof body === "string") {
          response.writeHead(options.status ?? 200, { "content-type": "application/json; charset=utf-8" });
          response.end(body);
        } else sendJson(response, body, options.status ?? 200, options.headers);
      });
      const ghConfig = await tempDirs.make("marvin-gh-config-");
      const env = { MARVIN_GITHUB_API_URL: server.origin, GH_CONFIG_DIR: ghConfig, ...options.env };
      return { harness: await harnesses.open({ home, env }), server, ghConfig };
    });
  },
});

const query = (url: string) => Object.fromEntries(new URL(url, "http://fixture").searchParams);

describe("github_search", () => {
  test("finds repositories anonymously when there is no login", async ({ github }) => {
    const { harness, server } = await github(REPOSITORY_SEARCH);
    const text = await harness.ok("github_search", { query: "cat clone language:rust", max_results: 3 });
    expect(text).toBe(
      [
        'GitHub repositories for "cat clone language:rust" (3 of 1,892):',
        "1. sharkdp/bat · ★ 52,811 · Rust · updated 2026-11-20",
        "   A cat(1) clone with wings.",
        "   https://github.com/sharkdp/bat",
        "2. octo-org/octo-cat · ★ 7 · updated 2025-01-02",
        "   https://github.com/octo-org/octo-cat",
        "3. old-corp/bat-fork · ★ 0 · C · updated 2019-07-01 · archived · fork",
        "   https://github.com/old-corp/bat-fork",
      ].join("\n"),
    );
    const request = server.requests[0]!;
    expect(request.url).toMatch(/^\/search\/repositories\?/);
    expect(query(request.url)).toEqual({ q: "cat clone language:rust", per_page: "3" });
    expect(request.headers.accept).toBe("application/vnd.github+json");
    expect(request.headers["x-github-api-version"]).toBe("2022-11-28");
    expect(request.headers.authorization).toBeUndefined();
  });

  test("signs in with GH_TOKEN", async ({ github }) => {
    const { harness, server } = await github(REPOSITORY_SEARCH, { env: { GH_TOKEN: "ghp_fromEnvironment" } });
    await harness.ok("github_search", { query: "bat" });
    expect(server.requests[0]!.headers.authorization).toBe("Bearer ghp_fromEnvironment");
    expect(query(server.requests[0]!.url).per_page).toBe("10");
  });

  test("signs in with the login of the real gh CLI for the API's host", async ({ github, tempDirs }) => {
    const ghConfig = await tempDirs.make("marvin-gh-login-");
    const { harness, server } = await github(CODE_SEARCH, { env: { GH_CONFIG_DIR: ghConfig } });
    const host = new URL(server.origin).host;
    await writeFile(
      join(ghConfig, "hosts.yml"),
      `github.com:\n    oauth_token: gho_forGitHubDotCom\n    user: marvin\n` +
        `${host}:\n    oauth_token: gho_forTheFixture\n    user: marvin\n`,
    );
    const text = await harness.ok("github_search", { query: "addClass repo:jquery/jquery", search_type: "code" });
    expect(server.requests[0]!.headers.authorization).toBe("Bearer gho_forTheFixture");
    expect(server.requests[0]!.url).toMatch(/^\/search\/code\?/);
    expect(text).toBe(
      'GitHub code for "addClass repo:jquery/jquery" (1 of 7):\n' +
        "1. jquery/jquery: src/attributes/classes.js\n" +
        "   https://github.com/jquery/jquery/blob/825ac3773694e0cd23ee74895fd5aeb535b27da4/src/attributes/classes.js",
    );
  });

  test("asks for `gh auth login` before a code search without a login", async ({ github }) => {
    const { harness, server } = await github(CODE_SEARCH);
    expect(await harness.failure("github_search", { query: "addClass", search_type: "code" })).toBe(
      "Error in github_search: GitHub's code search needs a login: run `gh auth login`, or set GH_TOKEN to a " +
        "GitHub token.",
    );
    expect(server.connections).toBe(0);
  });

  test("names the GitHub CLI and its Debian package when gh is not installed", async ({ github, tempDirs }) => {
    const emptyPath = await tempDirs.make("marvin-no-gh-");
    const { harness } = await github(CODE_SEARCH, { env: { PATH: emptyPath } });
    expect(await harness.failure("github_search", { query: "addClass", search_type: "code" })).toBe(
      "Error in github_search: GitHub's code search needs a login: the GitHub CLI `gh` (Debian/Ubuntu: `sudo apt " +
        "install gh`; elsewhere https://cli.github.com) is not installed: install it and run `gh auth login`, or set " +
        "GH_TOKEN to a GitHub token.",
    );
  });

  test("lists issues and pull requests with their repository, number and state", async ({ github }) => {
    const { harness, server } = await github(ISSUE_SEARCH, { env: { GITHUB_TOKEN: "ghs_actions" } });
    const text = await harness.ok("github_search", { query: "sesame", search_type: "issues" });
    expect(server.requests[0]!.headers.authorization).toBe("Bearer ghs_actions");
    expect(text).toBe(
      [
        'GitHub issues for "sesame" (2 of 2):',
        "1. Sesame seeds split without a pop! (issue octokit-fixture-org/search-issues#2, open by " +
          "octokit-fixture-user-b) · 42 comments · updated 2017-10-10",
        "   https://github.com/octokit-fixture-org/search-issues/issues/2",
        "2. The doors don’t open (pull request octokit-fixture-org/search-issues#1, closed by " +
          "octokit-fixture-user-a) · 42 comments · updated 2017-10-10",
        "   https://github.com/octokit-fixture-org/search-issues/issues/1",
      ].join("\n"),
    );
  });

  test("lists commits by their first line, and users, saying when GitHub stopped early", async ({ github }) => {
    const commits = await github(COMMIT_SEARCH);
    expect(await commits.harness.ok("github_search", { query: "styles.css", search_type: "commits" })).toBe(
      'GitHub commits for "styles.css" (1 of 1):\n' +
        "1. octocat/Spoon-Knife bb4cc8d: Create styles.css and updated README · The Octocat, 2014-02-04\n" +
        "   https://github.com/octocat/Spoon-Knife/commit/bb4cc8d3b2e14b3af5df699876dd4ff3acd00b7f",
    );
    const users = await github(USER_SEARCH);
    expect(await users.harness.ok("github_search", { query: "mojombo", search_type: "users" })).toBe(
      'GitHub users for "mojombo" (2 of 12):\n' +
        "1. mojombo (User) https://github.com/mojombo\n" +
        "2. github (Organization) https://github.com/github\n" +
        "(GitHub's search stopped early: there may be more matches.)",
    );
  });

  test("says when nothing is found", async ({ github }) => {
    const { harness } = await github(EMPTY_SEARCH);
    expect(await harness.ok("github_search", { query: "zzqxv nothing" })).toBe(
      'GitHub found no repositories for "zzqxv nothing".',
    );
  });

  test("says a refused token came from GH_TOKEN and how to log in again", async ({ github }) => {
    const { harness } = await github(BAD_CREDENTIALS, { status: 401, env: { GH_TOKEN: "ghp_revoked" } });
    expect(await harness.failure("github_search", { query: "bat" })).toBe(
      "Error in github_search: GitHub answered HTTP 401: the token from GH_TOKEN was refused — run `gh auth " +
        "login`, or set GH_TOKEN to a GitHub token.",
    );
  });

  test("explains a used-up rate limit and suggests logging in", async ({ github }) => {
    const { harness } = await github(RATE_LIMIT_EXCEEDED, { status: 403, headers: RATE_LIMIT_HEADERS });
    expect(await harness.failure("github_search", { query: "bat" })).toBe(
      "Error in github_search: GitHub answered HTTP 403: its search rate limit is used up — wait a minute, or log in " +
        "for a higher " +
        "limit: run `gh auth login`, or set GH_TOKEN to a GitHub token.",
    );
  });

  test("hands on GitHub's refusal of a query", async ({ github }) => {
    const { harness } = await github(VALIDATION_FAILED, { status: 422 });
    expect(await harness.failure("github_search", { query: "x".repeat(300) })).toBe(
      'Error in github_search: GitHub answered HTTP 422 (Unprocessable Entity): "Validation Failed" — it did not ' +
        "accept the request; check the parameters.",
    );
  });

  test("refuses an answer that is not a search page, naming the setting", async ({ github }) => {
    const { harness } = await github('{"total_count": 3, "items": "<html>');
    expect(await harness.failure("github_search", { query: "bat" })).toMatch(
      /^Error in github_search: GitHub sent an answer Marvin does not understand: .*MARVIN_GITHUB_API_URL=http:\/\/127\.0\.0\.1:\d+ points at GitHub\.$/,
    );
  });

  test("gives up on a server that does not answer in time", async ({ github }) => {
    const { harness } = await github(REPOSITORY_SEARCH, { delayMs: 5_000, env: { MARVIN_HTTP_TIMEOUT: "1" } });
    expect(await harness.failure("github_search", { query: "bat" })).toBe(
      "Error in github_search: GitHub took longer than 1 s to answer — try again in a minute, or ask for less.",
    );
  });

  test("refuses an unknown search type before asking GitHub", async ({ github }) => {
    const { harness, server } = await github(REPOSITORY_SEARCH);
    expect(await harness.failure("github_search", { query: "bat", search_type: "gists" })).toMatch(
      /search_type.*repositories.*code.*issues.*commits.*users/s,
    );
    expect(server.connections).toBe(0);
  });
});
