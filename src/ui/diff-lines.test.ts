import { describe, expect, it } from "vitest";
import { type DiffLine, diffLines, editDiff } from "./diff-lines.js";

/** A line as `[kind] text`, its changed words in {braces}. */
const show = (line: DiffLine) =>
  `[${line.kind}] ${line.parts.map((part) => (part.changed ? `{${part.text}}` : part.text)).join("")}`;

describe("diffLines", () => {
  it("tells file headers, hunk headers, added, removed and unchanged lines apart", () => {
    const diff = "--- a/x.ts\n+++ b/x.ts\n@@ -1,2 +1,2 @@\n keep\n-gone entirely\n+something new here\n";
    expect(diffLines(diff).map(show)).toEqual([
      "[file] --- a/x.ts",
      "[file] +++ b/x.ts",
      "[hunk] @@ -1,2 +1,2 @@",
      "[context]  keep",
      "[removed] -gone entirely",
      "[added] +something new here",
    ]);
  });

  it("marks the changed words of a removed line and the added line that replaces it", () => {
    const diff = "@@ -1 +1 @@\n-const answer = 41; // guess\n+const answer = 42; // guess\n";
    expect(diffLines(diff).map(show)).toEqual([
      "[hunk] @@ -1 +1 @@",
      "[removed] -const answer = {41}; // guess",
      "[added] +const answer = {42}; // guess",
    ]);
  });

  it("pairs the lines of a change block in order, and leaves extra added lines whole", () => {
    const diff = "@@ -1,2 +1,3 @@\n-let a = 1;\n-let b = 2;\n+let a = 10;\n+let b = 2; // same\n+let c = 3;\n";
    expect(diffLines(diff).map(show)).toEqual([
      "[hunk] @@ -1,2 +1,3 @@",
      "[removed] -let a = {1};",
      "[removed] -let b = 2;",
      "[added] +let a = {10};",
      "[added] +let b = 2;{ // same}",
      "[added] +let c = 3;",
    ]);
  });

  it("shows a line that shares little with its replacement as replaced whole", () => {
    const diff = "@@ -1 +1 @@\n-alpha beta gamma\n+completely different words\n";
    expect(diffLines(diff).map(show)).toEqual([
      "[hunk] @@ -1 +1 @@",
      "[removed] -alpha beta gamma",
      "[added] +completely different words",
    ]);
  });

  it("reads `--- ` and `+++ ` inside a hunk as a removed and an added line", () => {
    const diff = "--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,2 @@\n--- old note\n+++ new note\n select 1;\n";
    expect(diffLines(diff).map((line) => line.kind)).toEqual(["file", "file", "hunk", "removed", "added", "context"]);
  });
});

describe("editDiff", () => {
  it("is the diff of an edit's details, and nothing for other details", () => {
    expect(editDiff({ diff: "--- a/x\n+++ b/x\n" })).toBe("--- a/x\n+++ b/x\n");
    expect(editDiff({ diff: "" })).toBeUndefined();
    expect(editDiff({ diff: 3 })).toBeUndefined();
    expect(editDiff("diff")).toBeUndefined();
    expect(editDiff(undefined)).toBeUndefined();
  });
});
