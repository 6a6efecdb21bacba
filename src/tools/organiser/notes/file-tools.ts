import { z } from "zod";
import { numberedExcerpt } from "../../../shared/nearest-lines.js";
import { readEditableText, writeTextFile } from "../../../workspace/text-file.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { FileEdits } from "../../kit/file-edits.js";
import { COMMAND_SYNTAX, looksLikeCommands, parseLineCommands } from "./line-commands.js";
import { applyLineEdits, type LineEdit, type LineFile, renderLineFile, toLineFile } from "./line-edits.js";
import { existingNotesRoot, noNotesYet, noteNotFound, resolveNote, shownNotePath } from "./notes-root.js";
import { looksLikeUnifiedDiff, parseUnifiedDiff } from "./unified-diff.js";

const MAX_LINES_SHOWN = 2000;
const MAX_CHARS_SHOWN = 60_000;
const MAX_PREVIEW_LINES = 40;

/** An existing note's text, for reading or editing; ToolErrors name the notes folder and what is there. */
async function readNoteText(
  context: ToolContext,
  path: string,
  write = false,
): Promise<{ root: string; real: string; shown: string; text: string }> {
  const root = await existingNotesRoot(context);
  if (!root) throw noNotesYet(context);
  const real = await resolveNote(root, path, { write });
  const shown = shownNotePath(root, real);
  const text = await readEditableText(real, shown);
  if (text === undefined) throw await noteNotFound(root, shown);
  return { root, real, shown, text };
}

function numberedRange(texts: readonly string[], first: number, last: number): { body: string; shownLast: number } {
  let shownLast = Math.min(last, first + MAX_LINES_SHOWN - 1);
  let body = numberedExcerpt(texts, first - 1, shownLast - 1);
  while (body.length > MAX_CHARS_SHOWN && shownLast > first) {
    shownLast = first + Math.floor((shownLast - first) / 2);
    body = numberedExcerpt(texts, first - 1, shownLast - 1);
  }
  return { body, shownLast };
}

function parsePatch(patch: string, file: LineFile): { edits: LineEdit[]; endsWithNewline: boolean } {
  const normalised = patch.replace(/\r\n/g, "\n");
  if (looksLikeUnifiedDiff(normalised)) return parseUnifiedDiff(normalised, file);
  if (looksLikeCommands(normalised))
    return { edits: parseLineCommands(normalised, file), endsWithNewline: file.endsWithNewline };
  throw new ToolError(
    "The patch is neither a unified diff nor line commands.\n" +
      "Unified diff: hunks starting with '@@ -3,2 +3,2 @@', then lines starting with ' ' (context), '-' (remove), " +
      "'+' (add).\n" +
      `Line commands (numbers as file_read_lines shows them): ${COMMAND_SYNTAX}.\n` +
      "Example:\nREPLACE 3-4\nnew line three\nnew line four\nEND\nDELETE 9",
  );
}

/** The changed regions of the new file (one line of context each side, merged), numbered, so the model can check and
 * patch again. */
function changedRegions(edits: readonly LineEdit[], after: LineFile): string {
  const texts = after.lines.map((line) => line.text);
  if (texts.length === 0) return "(the note is now empty)";
  const ranges: Array<[number, number]> = [];
  let shift = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    const start = edit.start + shift;
    shift += edit.insert.length - edit.deleteCount;
    const range: [number, number] = [
      Math.max(0, start - 1),
      Math.min(texts.length - 1, start + Math.max(edit.insert.length, 1)),
    ];
    const previous = ranges.at(-1);
    if (previous && range[0] <= previous[1] + 1) previous[1] = Math.max(previous[1], range[1]);
    else ranges.push(range);
  }
  const regions: string[] = [];
  let budget = MAX_PREVIEW_LINES;
  for (const [from, to] of ranges) {
    if (budget <= 0) {
      regions.push("[more changes not shown]");
      break;
    }
    const last = Math.min(to, from + budget - 1);
    regions.push(numberedExcerpt(texts, from, last) + (last < to ? "\n[…]" : ""));
    budget -= last - from + 1;
  }
  return regions.join("\n…\n");
}

export const notesFileTools = [
  defineTool({
    name: "file_read_lines",
    effect: "read",
    description: "Read lines of a note from the notes folder, numbered for editing with file_apply_patch.",
    parameters: z.object({
      path: z.string().describe("Note path"),
      start: z.number().int().default(1).describe("First line, 1-based"),
      end: z.number().int().default(0).describe("Last line (inclusive); 0 = end of file"),
    }),
    handler: async ({ path, start, end }, context) => {
      const { shown, text } = await readNoteText(context, path);
      const texts = toLineFile(text).lines.map((line) => line.text);
      const count = texts.length;
      if (count === 0) return `${shown} is empty (0 lines).`;
      if (start < 1)
        throw new ToolError(`start must be 1 or more (lines are numbered from 1); ${shown} has ${count} lines.`);
      if (start > count)
        throw new ToolError(
          `start ${start} is past the end: ${shown} has ${count} line${count === 1 ? "" : "s"}. Use start between 1 ` +
            `and ${count}.`,
        );
      if (end !== 0 && end < start)
        throw new ToolError(`end ${end} is before start ${start}. Use end ≥ start, or 0 for the end of the file.`);
      const last = end === 0 ? count : Math.min(end, count);
      const { body, shownLast } = numberedRange(texts, start, last);
      const more =
        shownLast < last
          ? `\n[showing lines ${start}-${shownLast}; call again with start=${shownLast + 1} for more]`
          : "";
      return `${shown}: lines ${start}-${shownLast} of ${count}\n${body}${more}`;
    },
  }),
  defineTool({
    name: "file_apply_patch",
    effect: "write",
    description:
      "Edit a note in the notes folder with a patch, all or nothing. Either unified diff hunks ('@@ -3,2 +3,2 @@' " +
      "then ' ', '-', '+' lines), " +
      `or line commands using the numbers file_read_lines shows: ${COMMAND_SYNTAX}. dry_run checks the patch ` +
      `without writing.`,
    parameters: z.object({
      path: z.string().describe("Note path"),
      patch: z.string().describe("Unified diff hunks, or REPLACE/INSERT/DELETE commands"),
      dry_run: z.boolean().default(false).describe("Only check that the patch applies; write nothing"),
    }),
    handler: async ({ path, patch, dry_run }, context) => {
      const { real, shown, text } = await readNoteText(context, path, true);
      const before = toLineFile(text);
      const { edits, endsWithNewline } = parsePatch(patch, before);
      const after = applyLineEdits({ ...before, endsWithNewline }, edits);
      const added = edits.reduce((sum, edit) => sum + edit.insert.length, 0);
      const removed = edits.reduce((sum, edit) => sum + edit.deleteCount, 0);
      const summary =
        `${edits.length} edit${edits.length === 1 ? "" : "s"}, +${added} -${removed} lines, now ` +
        `${after.lines.length} lines`;
      const preview = changedRegions(edits, after);
      if (dry_run)
        return `Dry run: the patch applies cleanly to ${shown} (${summary}). Nothing was written.\n${preview}`;
      const written = renderLineFile(after);
      const recorded = await FileEdits.begin(context, [{ real, shown }]);
      await writeTextFile(real, written);
      return { text: `Patched ${shown} (${summary}).\n${preview}`, details: await recorded.wrote(real, written) };
    },
  }),
];
