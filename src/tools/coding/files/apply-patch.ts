import { z } from "zod";
import { numberedLines } from "../../../shared/nearest-lines.js";
import { resolveInside } from "../../../workspace/sandbox.js";
import { readEditableText, writeTextFile } from "../../../workspace/text-file.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { FileEdits } from "../../kit/file-edits.js";
import { requireWorkingDir } from "../../kit/require-working-dir.js";
import { reportWritten, type Written } from "./after-write.js";
import { FILE_TOOLS_BLOCKED } from "./blocked-names.js";
import { applyCodexPatch } from "./codex-apply.js";
import { looksLikeCodexPatch } from "./codex-patch.js";
import { fileNotFound } from "./missing-file.js";
import { replaceOnce } from "./str-replace.js";
import { countLines, linesAround } from "./text-lines.js";

const UNIFIED_DIFF = /^(diff --git |--- \S|@@ -\d)/;
const PATCH_FIELDS = ["patch", "input", "diff", "path"] as const;

interface ApplyPatchArgs {
  path: string;
  old_str: string;
  new_str: string;
  [field: string]: unknown;
}

/** A Codex patch sent inside the JSON arguments: in a field of its own, or in new_str/old_str with the other one empty.
 * */
function embeddedCodexPatch(args: ApplyPatchArgs): string | undefined {
  for (const field of PATCH_FIELDS) {
    const value = args[field];
    if (typeof value === "string" && looksLikeCodexPatch(value)) return value;
  }
  if (args.old_str === "" && looksLikeCodexPatch(args.new_str)) return args.new_str;
  if (args.new_str === "" && looksLikeCodexPatch(args.old_str)) return args.old_str;
  return undefined;
}

/** A patch field that holds something other than a Codex patch: say what is accepted instead of guessing. */
function misplacedPatch(args: ApplyPatchArgs): ToolError | undefined {
  for (const field of ["patch", "input", "diff"]) {
    const value = args[field];
    if (typeof value !== "string" || value.trim() === "") continue;
    if (UNIFIED_DIFF.test(value.trimStart())) return unsupportedFormat();
    return new ToolError(
      `The '${field}' field must hold a Codex patch that starts with '*** Begin Patch' and ends with '*** End ` +
        `Patch'. For a simple edit use path, old_str and new_str instead.`,
    );
  }
  return undefined;
}

function unsupportedFormat(): ToolError {
  return new ToolError(
    'apply_patch does not take unified diffs. Either send JSON arguments {"path": "src/a.ts", "old_str": "exact text ' +
      'now in the file", ' +
      '"new_str": "replacement"}, or a Codex patch:\n*** Begin Patch\n*** Update File: src/a.ts\n@@\n-old line\n+new ' +
      "line\n*** End Patch",
  );
}

/** Writes `content` to `real` as one recorded edit: checkpointed before, with its diff as details. */
async function writeEdit(
  context: ToolContext,
  target: { real: string; shown: string },
  content: string,
  text: string,
): Promise<Written> {
  const edits = await FileEdits.begin(context, [target]);
  await writeTextFile(target.real, content);
  return { text, files: [target.real], details: await edits.wrote(target.real, content) };
}

async function replaceInFile(
  context: ToolContext,
  root: string,
  { path, old_str: oldStr, new_str: newStr }: ApplyPatchArgs,
): Promise<Written> {
  if (path.trim() === "")
    throw new ToolError(
      'path is required: the file to edit, relative to the working dir (or send a Codex "*** Begin Patch" patch).',
    );
  const real = await resolveInside(root, path, { write: true, blocked: FILE_TOOLS_BLOCKED });
  const target = { real, shown: path };
  const content = await readEditableText(real, path);
  if (content === undefined) {
    if (oldStr !== "") throw await fileNotFound(root, real, path);
    return writeEdit(context, target, newStr, `Created ${path} (${countLines(newStr)} lines).`);
  }
  if (oldStr === "") {
    if (content !== "") {
      throw new ToolError(
        `old_str is empty but ${path} already has ${countLines(content)} lines. Put the exact text to replace in ` +
          `old_str; to add at the end use append_file.`,
      );
    }
    return writeEdit(context, target, newStr, `Wrote ${countLines(newStr)} lines to the empty file ${path}.`);
  }
  const replaced = replaceOnce(content, oldStr, newStr, path);
  const shown = linesAround(replaced.content, replaced.offset, 1, Math.min(replaced.addedLines, 10) + 2);
  const excerpt = numberedLines(shown.first, shown.lines);
  const text =
    `Patched ${path}: replaced ${replaced.removedLines} line(s) with ${replaced.addedLines} at line ` +
    `${replaced.line}. Now:\n${excerpt}`;
  return writeEdit(context, target, replaced.content, text);
}

export const applyPatchTool = defineTool({
  name: "apply_patch",
  effect: "write",
  description:
    "Edit a file of the working dir: old_str must match the file exactly once (whitespace included) and is replaced " +
    "by new_str. " +
    "An empty old_str creates a missing file with new_str. Also accepts a Codex patch ('*** Begin Patch' … '*** End " +
    "Patch' with " +
    "Add File / Update File (+ Move to) / Delete File, several files at once) as the whole arguments or in a " +
    "'patch' field; " +
    "it is applied all-or-nothing.",
  parameters: z.looseObject({
    path: z.preprocess((value) => value ?? "", z.string()).describe("File to edit"),
    old_str: z.string().default(""),
    new_str: z.string().default(""),
  }),
  codingOnly: true,
  handler: async (args, context) => {
    const root = requireWorkingDir(context);
    const patch = embeddedCodexPatch(args);
    if (patch !== undefined) return reportWritten(context, root, await applyCodexPatch(context, root, patch));
    const misplaced = misplacedPatch(args);
    if (misplaced) throw misplaced;
    return reportWritten(context, root, await replaceInFile(context, root, args));
  },
  rawArguments: async (raw, context) => {
    if (looksLikeCodexPatch(raw)) {
      const root = requireWorkingDir(context);
      return reportWritten(context, root, await applyCodexPatch(context, root, raw));
    }
    if (UNIFIED_DIFF.test(raw.trimStart())) throw unsupportedFormat();
    return undefined;
  },
});
