import { describe, expect, it } from "vitest";
import { errorMessage } from "../../../shared/error-message.js";
import { ToolError } from "../../kit/define-tool.js";
import { parseLineCommands } from "./line-commands.js";
import { applyLineEdits, renderLineFile, toLineFile } from "./line-edits.js";
import { parseUnifiedDiff } from "./unified-diff.js";

const TEN = `${Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join("\n")}\n`;

function withCommands(content: string, patch: string): string {
  const file = toLineFile(content);
  return renderLineFile(applyLineEdits(file, parseLineCommands(patch, file)));
}

function withDiff(content: string, patch: string): string {
  const file = toLineFile(content);
  const { edits, endsWithNewline } = parseUnifiedDiff(patch, file);
  return renderLineFile(applyLineEdits({ ...file, endsWithNewline }, edits));
}

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return errorMessage(error);
  }
  throw new Error("expected a ToolError");
}

describe("REPLACE / INSERT / DELETE commands", () => {
  it("applies several commands, all numbered against the original file", () => {
    const patch =
      "REPLACE 2-3\nTWO\nEND\nINSERT AFTER 5\nafter five\nEND\nDELETE 7-8\nINSERT BEFORE 1\ntop\nEND\nDELETE 10";
    expect(withCommands(TEN, patch)).toBe("top\nline 1\nTWO\nline 4\nline 5\nafter five\nline 6\nline 9\n");
  });

  it("accepts the usual spellings and a last block without END", () => {
    expect(withCommands("a\nb\n", "replace lines 1:2\nx\ny")).toBe("x\ny\n");
    expect(withCommands("a\nb\n", "INSERT 0\nfirst\nEND")).toBe("first\na\nb\n");
    expect(withCommands("a\nb\n", "DELETE 1..2")).toBe("");
    expect(withCommands("", "INSERT AFTER 0\nnew\nEND")).toBe("new\n");
  });

  it("keeps CRLF endings and a missing final newline", () => {
    expect(withCommands("a\r\nb\r\nc", "REPLACE 2\nB\nEND\nINSERT AFTER 3\nd\nEND")).toBe("a\r\nB\r\nc\r\nd");
  });

  it("refuses ranges outside the file and shows the last lines", () => {
    const message = errorOf(() => parseLineCommands("DELETE 9-12", toLineFile(TEN)));
    expect(message).toContain("line 12 is past the end; the file has 10 lines");
    expect(message).toContain("10 | line 10");
    expect(message).toContain("Nothing was changed");
  });

  it("refuses overlapping commands, a missing END before the next command, and unknown lines", () => {
    const file = toLineFile(TEN);
    expect(errorOf(() => applyLineEdits(file, parseLineCommands("DELETE 2-4\nREPLACE 3\nx\nEND", file)))).toContain(
      "change the same lines",
    );
    expect(errorOf(() => parseLineCommands("REPLACE 1\nx\nDELETE 2", file))).toContain(
      "must end with a line containing only END",
    );
    expect(errorOf(() => parseLineCommands("REPLACE 1\nx\nEND\nhello", file))).toContain(
      "Unexpected line in the patch: 'hello'",
    );
    expect(errorOf(() => parseLineCommands("REPLACE 5-3\nx\nEND", file))).toContain("not end before it starts");
  });
});

describe("unified diff hunks", () => {
  it("applies hunks with headers, tolerating shifted line numbers", () => {
    const patch =
      "--- a/note.md\n+++ b/note.md\n@@ -1,3 +1,3 @@\n line 1\n-line 2\n+line two\n line 3\n@@ -6,2 +6,3 @@\n line " +
      "8\n+line 8.5\n line 9\n";
    expect(withDiff(TEN, patch)).toBe(TEN.replace("line 2\n", "line two\n").replace("line 9\n", "line 8.5\nline 9\n"));
  });

  it("finds bare @@ hunks by their lines, ignoring trailing whitespace differences", () => {
    expect(withDiff("# Title\nkeep  \nold\n", "@@\n keep\n-old\n+new\n")).toBe("# Title\nkeep  \nnew\n");
  });

  it("inserts pure additions where the header says", () => {
    expect(withDiff("a\nb\n", "@@ -1,0 +2,1 @@\n+between\n")).toBe("a\nbetween\nb\n");
    expect(withDiff("a\n", "@@ -0,0 +1 @@\n+top\n")).toBe("top\na\n");
  });

  it("honours '\\ No newline at end of file' on the new side", () => {
    expect(withDiff("a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n")).toBe("a\nc");
    expect(withDiff("a\nb", "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n")).toBe("a\nc\n");
  });

  it("shows the most similar lines when a hunk does not match", () => {
    const message = errorOf(() => parseUnifiedDiff("@@ -4,2 +4,2 @@\n line 4\n-line 5 changed\n+x\n", toLineFile(TEN)));
    expect(message).toContain("Hunk 1 does not apply");
    expect(message).toContain("  | line 5 changed");
    expect(message).toMatch(/most similar lines in the file \(line \d+\)/);
    expect(message).toContain("5 | line 5");
  });

  it("refuses diffs of several files and malformed hunk lines", () => {
    const twoFiles =
      "--- a/x.md\n+++ b/x.md\n@@ -1 +1 @@\n-line 1\n+one\n--- a/y.md\n+++ b/y.md\n@@ -1 +1 @@\n-a\n+b\n";
    expect(errorOf(() => parseUnifiedDiff(twoFiles, toLineFile(TEN)))).toContain("more than one file");
    expect(errorOf(() => parseUnifiedDiff("@@ -1 +1 @@\n-line 1\n*one\n", toLineFile(TEN)))).toContain(
      "not context (' '), removal ('-') or addition ('+')",
    );
    expect(withDiff("-- a\nb\n", "@@ -1,2 +1,2 @@\n--- a\n+x\n b\n")).toBe("x\nb\n");
  });
});
