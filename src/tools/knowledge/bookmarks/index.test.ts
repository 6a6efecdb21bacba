import { readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";
import { configPaths, profilePaths } from "../../../state/paths.js";

const test = base.extend<{ harness: ToolHarness; bookmarksFile: string }>({
  harness: async ({ harnesses, home }, use) => use(await harnesses.open({ home })),
  bookmarksFile: async ({ home }, use) => use(profilePaths(configPaths(home), "main").bookmarks),
});

const SAVED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function saveThree(harness: ToolHarness): Promise<void> {
  await harness.ok("bookmark_save", {
    url: "https://doc.rust-lang.org/book/",
    title: "The Rust Programming Language",
    tags: "rust, books",
  });
  await harness.ok("bookmark_save", {
    url: "https://tokio.rs/tokio/tutorial",
    title: "Tokio tutorial",
    tags: "rust,async",
    notes: "Start with the mini-redis chapter",
  });
  await harness.ok("bookmark_save", { url: "https://nodejs.org/api/fs.html", title: "Node fs", tags: "node" });
}

describe("bookmark_save", () => {
  test("writes bookmarks.json in the profile folder with tags as a list", async ({ harness, bookmarksFile }) => {
    const text = await harness.ok("bookmark_save", {
      url: "https://tokio.rs/tokio/tutorial",
      title: "Tokio tutorial",
      tags: " rust, #async,, Rust ",
      notes: "Start with mini-redis",
    });
    expect(text).toMatch(
      /^Saved a bookmark:\n1\. Tokio tutorial — https:\/\/tokio\.rs\/tokio\/tutorial\n {3}tags: rust, async · saved \d{4}-\d\d-\d\d · notes: Start with mini-redis$/,
    );
    const stored = JSON.parse(await readFile(bookmarksFile, "utf8"));
    expect(stored).toEqual([
      {
        url: "https://tokio.rs/tokio/tutorial",
        title: "Tokio tutorial",
        tags: ["rust", "async"],
        notes: "Start with mini-redis",
        saved_at: expect.stringMatching(SAVED_AT),
      },
    ]);
    // Written atomically: no temp file or lock left behind.
    expect(await readdir(dirname(bookmarksFile))).not.toContainEqual(expect.stringMatching(/\.tmp$|\.lock$/));
  });

  test("updates the bookmark of an address saved before instead of adding another", async ({
    harness,
    bookmarksFile,
  }) => {
    await harness.ok("bookmark_save", { url: "https://example.org", title: "Example", tags: "demo" });
    const text = await harness.ok("bookmark_save", { url: "example.org/", tags: "test", notes: "placeholder site" });
    expect(text).toMatch(/^Updated the bookmark:\n1\. Example — https:\/\/example\.org\n {3}tags: demo, test · saved /);
    const stored = JSON.parse(await readFile(bookmarksFile, "utf8"));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ title: "Example", tags: ["demo", "test"], notes: "placeholder site" });
  });

  test("refuses something that is not an address", async ({ harness, bookmarksFile }) => {
    expect(await harness.failure("bookmark_save", { url: "http://exa mple.org" })).toBe(
      "Error in bookmark_save: 'http://exa mple.org' is not a web address; give a full URL such as " +
        "https://example.org/page.",
    );
    await expect(readFile(bookmarksFile)).rejects.toMatchObject({ code: "ENOENT" });
  });

  test("keeps a corrupt bookmarks.json aside, says where, and starts a new one", async ({ harness, bookmarksFile }) => {
    await harness.ok("bookmark_save", { url: "https://example.org" });
    await writeFile(bookmarksFile, '[{"url": "https://kept.example", "title": "Mine"');
    const text = await harness.ok("bookmark_save", { url: "https://new.example", title: "New" });
    const aside = (await readdir(dirname(bookmarksFile))).filter((name) => name.startsWith("bookmarks.json.corrupt-"));
    expect(aside).toHaveLength(1);
    expect(text).toContain(`Could not read ${bookmarksFile}: it is not valid JSON`);
    expect(text).toContain(`It was moved to ${join(dirname(bookmarksFile), aside[0]!)}; starting from an empty one.`);
    expect(await readFile(join(dirname(bookmarksFile), aside[0]!), "utf8")).toContain("https://kept.example");
    expect(JSON.parse(await readFile(bookmarksFile, "utf8"))).toMatchObject([{ url: "https://new.example" }]);
  });

  test("two saves at the same moment both land", async ({ harness, bookmarksFile }) => {
    await Promise.all([
      harness.ok("bookmark_save", { url: "https://one.example" }),
      harness.ok("bookmark_save", { url: "https://two.example" }),
      harness.ok("bookmark_save", { url: "https://three.example" }),
    ]);
    const urls = JSON.parse(await readFile(bookmarksFile, "utf8")).map((bookmark: { url: string }) => bookmark.url);
    expect(urls.sort()).toEqual(["https://one.example", "https://three.example", "https://two.example"]);
  });
});

describe("bookmark_list", () => {
  test("lists newest first, up to the limit", async ({ harness }) => {
    await saveThree(harness);
    const text = await harness.ok("bookmark_list", { limit: 2 });
    expect(text).toMatch(
      /^Bookmarks \(2 of 3, newest first\):\n1\. Node fs — https:\/\/nodejs\.org\/api\/fs\.html\n {3}tags: node · saved [\d-]+\n2\. Tokio tutorial — /,
    );
    expect(text).not.toContain("Rust Programming Language");
  });

  test("filters by tag in any case", async ({ harness }) => {
    await saveThree(harness);
    const text = await harness.ok("bookmark_list", { tag: "RUST" });
    expect(text.split("\n")[0]).toBe("Bookmarks tagged 'RUST' (2 of 2, newest first):");
    expect(text).toContain("1. Tokio tutorial");
    expect(text).toContain("2. The Rust Programming Language");
  });

  test("says which tags exist when none matches", async ({ harness }) => {
    await saveThree(harness);
    expect(await harness.ok("bookmark_list", { tag: "python" })).toBe(
      "No bookmarks tagged 'python'. Tags in use: async, books, node, rust.",
    );
  });

  test("says when there are none", async ({ harness }) => {
    expect(await harness.ok("bookmark_list", {})).toBe("No bookmarks saved yet. Save one with bookmark_save.");
  });

  test("reads a file of the wrong shape as none, keeping it aside", async ({ harness, bookmarksFile }) => {
    await harness.ok("bookmark_save", { url: "https://example.org" });
    await writeFile(bookmarksFile, '{"bookmarks": []}');
    const text = await harness.ok("bookmark_list", {});
    expect(text).toMatch(
      /^Could not read .*bookmarks\.json: it does not have the expected structure\. It was moved to /,
    );
    expect(text).toMatch(/\n\nNo bookmarks saved yet\. Save one with bookmark_save\.$/);
    const names = await readdir(dirname(bookmarksFile));
    expect(names.filter((name) => name.startsWith("bookmarks.json.corrupt-"))).toHaveLength(1);
  });
});

describe("bookmark_search", () => {
  test("matches every word across title, tags, URL and notes, title hits first", async ({ harness }) => {
    await saveThree(harness);
    const text = await harness.ok("bookmark_search", { query: "Rust" });
    expect(text.split("\n")[0]).toBe("Bookmarks matching 'Rust' (2 of 2):");
    // A title hit outranks a tag hit, though the tutorial is newer.
    expect(text.indexOf("The Rust Programming Language")).toBeLessThan(text.indexOf("Tokio tutorial"));
    expect(await harness.ok("bookmark_search", { query: "rust mini-redis" })).toMatch(
      /^Bookmarks matching 'rust mini-redis' \(1 of 1\):\n1\. Tokio tutorial/,
    );
    expect(await harness.ok("bookmark_search", { query: "nodejs.org" })).toContain("1. Node fs");
  });

  test("says when nothing matches", async ({ harness }) => {
    await saveThree(harness);
    expect(await harness.ok("bookmark_search", { query: "kotlin" })).toBe(
      "No bookmark matches 'kotlin' (searched 3 bookmarks).",
    );
  });

  test("takes tags written as one string in a hand-edited file", async ({ harness, bookmarksFile }) => {
    await harness.ok("bookmark_save", { url: "https://example.org" });
    await writeFile(bookmarksFile, JSON.stringify([{ url: "https://sqlite.org/lang.html", tags: "sql, docs" }]));
    expect(await harness.ok("bookmark_search", { query: "docs" })).toBe(
      "Bookmarks matching 'docs' (1 of 1):\n1. (untitled) — https://sqlite.org/lang.html\n   tags: sql, docs",
    );
  });
});
