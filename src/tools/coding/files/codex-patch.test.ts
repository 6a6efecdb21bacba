import { describe, expect, it } from "vitest";
import { describeOperation, looksLikeCodexPatch, PatchParseError, parseCodexPatch } from "./codex-patch.js";

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

describe("looksLikeCodexPatch", () => {
  it("recognises bare and heredoc-wrapped patches, and nothing else", () => {
    expect(looksLikeCodexPatch(patch("*** Delete File: a"))).toBe(true);
    expect(looksLikeCodexPatch(`  \n${patch("*** Delete File: a")}`)).toBe(true);
    expect(looksLikeCodexPatch(`apply_patch <<'EOF'\n${patch("*** Delete File: a")}\nEOF`)).toBe(true);
    expect(looksLikeCodexPatch("--- a/x\n+++ b/x\n@@ -1 +1 @@")).toBe(false);
    expect(looksLikeCodexPatch("const marker = '*** Begin Patch';")).toBe(false);
  });
});

describe("parseCodexPatch", () => {
  it("parses add, delete and update with move, anchors and end-of-file chunks", () => {
    const operations = parseCodexPatch(
      patch(
        "*** Add File: docs/new.md",
        "+# Title",
        "+",
        "*** Delete File: old.txt",
        "*** Update File: src/app.py",
        "*** Move to: src/main.py",
        "@@ def greet():",
        "-    print('Hi')",
        "+    print('Hello')",
        "@@",
        " tail",
        "+more",
        "*** End of File",
      ),
    );
    expect(operations).toEqual([
      { kind: "add", path: "docs/new.md", content: "# Title\n\n" },
      { kind: "delete", path: "old.txt" },
      {
        kind: "update",
        path: "src/app.py",
        moveTo: "src/main.py",
        chunks: [
          {
            anchor: "def greet():",
            lines: [
              { kind: "remove", text: "    print('Hi')" },
              { kind: "add", text: "    print('Hello')" },
            ],
            endOfFile: false,
          },
          {
            lines: [
              { kind: "context", text: "tail" },
              { kind: "add", text: "more" },
            ],
            endOfFile: true,
          },
        ],
      },
    ]);
    expect(operations.map(describeOperation)).toEqual([
      "Add File: docs/new.md",
      "Delete File: old.txt",
      "Update File: src/app.py (move to src/main.py)",
    ]);
  });

  it("accepts a first chunk without @@, CRLF patch text, a heredoc wrapper and an environment line", () => {
    const text =
      `<<'EOF'\r\n*** Begin Patch\r\n*** Environment ID: abc\r\n*** Update File: a.txt\r\n-x\r\n+y\r\n*** ` +
      `End Patch\r\nEOF`;
    expect(parseCodexPatch(text)).toEqual([
      {
        kind: "update",
        path: "a.txt",
        chunks: [
          {
            lines: [
              { kind: "remove", text: "x" },
              { kind: "add", text: "y" },
            ],
            endOfFile: false,
          },
        ],
      },
    ]);
  });

  it("returns no operations for an empty patch", () => {
    expect(parseCodexPatch(patch())).toEqual([]);
  });

  it.each([
    ["a missing Begin marker", "*** Update File: a\n-x\n*** End Patch", "first line"],
    ["a missing End marker", "*** Begin Patch\n*** Delete File: a", "last line"],
    ["an unknown header", patch("*** Rename File: a"), "'*** Rename File: a' is not a valid hunk header"],
    ["an empty update", patch("*** Update File: a"), "Update file hunk for path 'a' is empty"],
    ["two @@ lines in a row", patch("*** Update File: a", "@@ class A", "@@ def b", "-x"), "Only one @@ line"],
    [
      "a line without a diff prefix",
      patch("*** Update File: a", "@@", "-x", "oops"),
      "Unexpected line found in update hunk: 'oops'",
    ],
    [
      "lines after End of File without @@",
      patch("*** Update File: a", "@@", "-x", "*** End of File", "+y"),
      "Expected update hunk to start with a @@",
    ],
    [
      "End of File without lines",
      patch("*** Update File: a", "@@", "*** End of File"),
      "must follow the lines of a hunk",
    ],
  ])("rejects %s", (_name, text, message) => {
    expect(() => parseCodexPatch(text)).toThrow(PatchParseError);
    expect(() => parseCodexPatch(text)).toThrow(message);
  });
});
