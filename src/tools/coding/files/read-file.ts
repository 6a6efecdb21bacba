import { stat } from "node:fs/promises";
import { z } from "zod";
import { imageTypeOf } from "../../../shared/image.js";
import { readRegularFile } from "../../../workspace/regular-file.js";
import { resolveInside } from "../../../workspace/sandbox.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { imageOutput } from "../../kit/image-output.js";
import { requireWorkingDir } from "../../kit/require-working-dir.js";
import { FILE_TOOLS_BLOCKED } from "./blocked-names.js";
import { fileNotFound } from "./missing-file.js";
import { chargeReadBudget, refuseIfReadBudgetUsedUp } from "./read-budget.js";
import { countLines } from "./text-lines.js";

/** Files above this size must be read with a line range (seed 000 §4.7). */
const READ_FILE_GUARD_BYTES = 10_240;
const BINARY_SNIFF_BYTES = 8_000;

function tooLarge(path: string, size: number, lines: number): ToolError {
  const step = Math.min(200, lines);
  return new ToolError(
    `${path} is ${(size / 1024).toFixed(1)}KB (${lines} lines) — too large to read entirely.\n` +
      `Use start_line and end_line to read a section:\n` +
      `  read_file({"path": "${path}", "start_line": 1, "end_line": ${step}})\n` +
      `  read_file({"path": "${path}", "start_line": ${step + 1}, "end_line": ${Math.min(2 * step, lines)}})\n` +
      `Or find the lines you need first with code_grep. Total lines: ${lines}`,
  );
}

function numberedRange(path: string, text: string, startLine: number | null, endLine: number | null): string {
  const lines = text.split(/\r?\n/);
  if (text.endsWith("\n")) lines.pop();
  const total = lines.length;
  const start = Math.max(1, startLine ?? 1);
  const end = Math.min(total, endLine ?? total);
  if (start > total) throw new ToolError(`start_line ${start} is past the end of ${path}, which has ${total} lines.`);
  if (end < start)
    throw new ToolError(
      `end_line (${endLine}) is before start_line (${start}); give a range like start_line ${start}, end_line ` +
        `${start + 49}.`,
    );
  const body = lines
    .slice(start - 1, end)
    .map((line, index) => `${start + index}. ${line}`)
    .join("\n");
  return start > 1 || end < total ? `${body}\n\n[Lines ${start}-${end} of ${total}.]` : body;
}

/** Refuses past the hard limit; truncates to what still fits below the warning threshold (seed 004 §6.13). */
async function fitToBudget(content: string, context: ToolContext): Promise<string> {
  const { budget } = context;
  if (await budget.pastHardLimit()) {
    throw new ToolError(
      "The conversation is past its context limit, so read_file is refused. Work with what you have already read, or " +
        "finish the task.",
    );
  }
  if (budget.surelyFits(content)) return content;
  const tokens = await budget.countTokens(content);
  const available = await budget.availableTokens();
  if (tokens <= available) return content;
  if (available < 100) {
    throw new ToolError(
      `The context budget is used up (this read needs ${tokens} tokens, ${available} are left). Read a much smaller ` +
        `range, or finish with what you have.`,
    );
  }
  const truncated = await budget.truncateToTokens(content, available);
  return (
    `${truncated}\n\n[Truncated to fit context budget. ${tokens} tokens → ${available} tokens. Read smaller ` +
    `ranges with start_line/end_line.]`
  );
}

export const readFileTool = defineTool({
  name: "read_file",
  effect: "read",
  description:
    "Read a file of the working dir. Files over 10KB must be read in parts with start_line/end_line (1-based, " +
    "inclusive), " +
    "which also numbers the lines.",
  parameters: z.object({
    path: z.string().describe("e.g. 'src/main.ts'"),
    start_line: z.number().int().nullable().default(null),
    end_line: z.number().int().nullable().default(null),
  }),
  codingOnly: true,
  handler: async ({ path, start_line: startLine, end_line: endLine }, context) => {
    const root = requireWorkingDir(context);
    const real = await resolveInside(root, path, { blocked: FILE_TOOLS_BLOCKED });
    const stats = await stat(real).catch(() => undefined);
    if (!stats) throw await fileNotFound(root, real, path);
    if (stats.isDirectory())
      throw new ToolError(`${path} is a directory. List it with tree, or read a file inside it.`);
    const ranged = startLine !== null || endLine !== null;
    const bytes = await readRegularFile(real, path);
    const imageType = imageTypeOf(bytes);
    if (imageType) return imageOutput(path, bytes, imageType, context);
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0))
      throw new ToolError(`${path} looks like a binary file (${bytes.length} bytes); read_file shows text files only.`);
    const text = bytes.toString("utf8");
    if (!ranged && bytes.length > READ_FILE_GUARD_BYTES) throw tooLarge(path, bytes.length, countLines(text));
    const content = ranged ? numberedRange(path, text, startLine, endLine) : text === "" ? `(${path} is empty)` : text;
    await refuseIfReadBudgetUsedUp(root, path, content, context);
    return chargeReadBudget(await fitToBudget(content, context), context);
  },
});
