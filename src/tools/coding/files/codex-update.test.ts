import { describe, expect, it } from "vitest";
import { parseCodexPatch, type UpdateChunk } from "./codex-patch.js";
import { applyUpdateChunks, ChunkMismatchError } from "./codex-update.js";

function chunksOf(...lines: string[]): UpdateChunk[] {
  const [operation] = parseCodexPatch(["*** Begin Patch", "*** Update File: f", ...lines, "*** End Patch"].join("\n"));
  if (operation?.kind !== "update") throw new Error("expected an update");
  return operation.chunks;
}

describe("applyUpdateChunks", () => {
  it("replaces exact matches and keeps the rest byte for byte", () => {
    expect(applyUpdateChunks("a\nb\nc\n", chunksOf("@@", " a", "-b", "+B"), "f")).toBe("a\nB\nc\n");
  });

  it("matches whole lines only: text inside a longer line or a block split differently is passed over", () => {
    const content = "xold\nold tail\nold\nnext\n";
    expect(applyUpdateChunks(content, chunksOf("@@", "-old", "+new"), "f")).toBe("xold\nold tail\nnew\nnext\n");
    // A last line without a line break matches, and the result ends with one.
    expect(applyUpdateChunks("a\nlast", chunksOf("@@", " a", "-last", "+end"), "f")).toBe("a\nend\n");
    // A block ending in an empty line does not match the nothing after the file's final line break.
    expect(applyUpdateChunks("b\na\n", chunksOf("@@", " a", " ", "+c"), "f")).toBe("b\na\nc\n");
  });

  it("tolerates trailing and surrounding whitespace, then typographic punctuation", () => {
    expect(applyUpdateChunks("x = 1   \ny\n", chunksOf("@@", "-x = 1", "+x = 2"), "f")).toBe("x = 2\ny\n");
    expect(applyUpdateChunks("   indented\n", chunksOf("@@", "-indented", "+done"), "f")).toBe("done\n");
    expect(applyUpdateChunks("say “hi” — now\n", chunksOf("@@", '-say "hi" - now', "+said"), "f")).toBe("said\n");
  });

  it("keeps the original bytes of context lines matched loosely", () => {
    expect(applyUpdateChunks("  keep  \nold\n", chunksOf("@@", " keep", "-old", "+new"), "f")).toBe("  keep  \nnew\n");
  });

  it("moves past an @@ anchor before searching, so the right one of two equal lines changes", () => {
    const content = "def a():\n    return 1\ndef b():\n    return 1\n";
    expect(applyUpdateChunks(content, chunksOf("@@ def b():", "-    return 1", "+    return 2"), "f")).toBe(
      "def a():\n    return 1\ndef b():\n    return 2\n",
    );
  });

  it("pins End of File chunks to the tail", () => {
    expect(applyUpdateChunks("x\ny\nx\n", chunksOf("@@", "-x", "+z", "*** End of File"), "f")).toBe("x\ny\nz\n");
  });

  it("appends pure additions at the end of the file, and ends the file with a line break", () => {
    expect(applyUpdateChunks("a\nb", chunksOf("@@", "+c"), "f")).toBe("a\nb\nc\n");
  });

  it("retries without a trailing empty context line", () => {
    expect(applyUpdateChunks("a\nb\n", chunksOf("@@", "-b", "+c", ""), "f")).toBe("a\nc\n");
  });

  it("keeps CRLF and lone CR endings, and gives new lines the file's first ending", () => {
    expect(
      applyUpdateChunks("one\r\ntwo\rthree\nfour\r\n", chunksOf("@@", " two", "-three", "+THREE", "+extra"), "f"),
    ).toBe("one\r\ntwo\rTHREE\r\nextra\r\nfour\r\n");
  });

  it("applies chunks in file order and refuses one that comes before the previous", () => {
    expect(applyUpdateChunks("1\n2\n3\n4\n", chunksOf("@@", "-2", "+two", "@@", "-4", "+four"), "f")).toBe(
      "1\ntwo\n3\nfour\n",
    );
    expect(() => applyUpdateChunks("1\n2\n3\n4\n", chunksOf("@@", "-4", "+four", "@@", "-2", "+two"), "f")).toThrow(
      ChunkMismatchError,
    );
  });

  it("explains a mismatch with the nearest lines and their numbers", () => {
    const content = "function total(items) {\n  return items.reduce((sum, item) => sum + item.price, 0);\n}\n";
    const error = (() => {
      try {
        applyUpdateChunks(
          content,
          chunksOf("@@", "-  return items.reduce((sum, item) => sum + item.cost, 0);", "+  return 0;"),
          "cart.js",
        );
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ChunkMismatchError);
    expect(error!.message).toContain("Failed to find expected lines in cart.js");
    expect(error!.message).toContain("2 |   return items.reduce((sum, item) => sum + item.price, 0);");
    expect(() => applyUpdateChunks(content, chunksOf("@@ class Cart", "-x", "+y"), "cart.js")).toThrow(
      "Failed to find context 'class Cart' in cart.js",
    );
  });
});
