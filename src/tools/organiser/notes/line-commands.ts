import { numberedExcerpt } from "../../../shared/nearest-lines.js";
import { ToolError } from "../../kit/define-tool.js";
import { type LineEdit, type LineFile, newLines } from "./line-edits.js";

/**
 * The line-number command form of file_apply_patch. Numbers are those file_read_lines shows,
 * all taken from the file before the patch:
 *
 *   REPLACE 3-5        lines up to END replace lines 3..5 (REPLACE 3 = one line)
 *   INSERT AFTER 7     lines up to END go after line 7 (INSERT AFTER 0 = at the top;
 *                      INSERT BEFORE 7 also works; INSERT 7 means after 7)
 *   DELETE 10-12       removes lines 10..12 (DELETE 10 = one line)
 */
export const COMMAND_SYNTAX = "REPLACE 3-5 / INSERT AFTER 7 (text lines, then END) / DELETE 10-12";

const COMMAND = /^\s*(REPLACE|INSERT|DELETE)\b\s*(.*)$/i;
const RANGE = /^(?:lines?\s+)?(\d+)(?:\s*(?:-|–|:|\.\.|to)\s*(\d+))?\s*$/i;
const POSITION = /^(?:(AFTER|BEFORE)\s+)?(?:line\s+)?(\d+)\s*$/i;
const END = "END";

export function looksLikeCommands(patch: string): boolean {
  const first = patch.split("\n").find((line) => line.trim() !== "");
  return first !== undefined && COMMAND.test(first);
}

function excerptAround(file: LineFile, line: number): string {
  if (file.lines.length === 0) return "The file is empty.";
  const texts = file.lines.map((entry) => entry.text);
  return `Lines near ${line} as the file is now:\n${numberedExcerpt(texts, line - 4, line + 2)}`;
}

function problem(command: string, message: string, file?: LineFile, near?: number): ToolError {
  const context = file && near !== undefined ? `\n${excerptAround(file, near)}` : "";
  return new ToolError(`${command}: ${message}. Nothing was changed.${context}`);
}

function parseRange(command: string, argument: string, file: LineFile): [number, number] {
  const match = RANGE.exec(argument);
  if (!match) throw problem(command, `expected a line or range like '3' or '3-5' after ${command.split(/\s/)[0]}`);
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : Number(match[2]);
  const count = file.lines.length;
  if (first < 1 || last < first)
    throw problem(command, `the range must start at 1 or later and not end before it starts`);
  if (last > count)
    throw problem(
      command,
      `line ${last} is past the end; the file has ${count} line${count === 1 ? "" : "s"}`,
      file,
      count,
    );
  return [first, last];
}

/** 0-based index where INSERT puts its lines. */
function parsePosition(command: string, argument: string, file: LineFile): number {
  const match = POSITION.exec(argument);
  if (!match) throw problem(command, "expected 'INSERT AFTER <line>' or 'INSERT BEFORE <line>'");
  const line = Number(match[2]);
  const before = match[1]?.toUpperCase() === "BEFORE";
  const count = file.lines.length;
  if (before ? line < 1 || line > count + 1 : line > count) {
    throw problem(
      command,
      `line ${line} is outside the file, which has ${count} line${count === 1 ? "" : "s"}`,
      file,
      Math.min(line, count),
    );
  }
  return before ? line - 1 : line;
}

/** The text lines after a REPLACE/INSERT command, up to END (or the end of the patch, when no command follows). */
function takeBlock(lines: readonly string[], from: number, command: string): { texts: string[]; next: number } {
  const end = lines.findIndex((line, index) => index >= from && line.trimEnd() === END);
  if (end >= 0) return { texts: lines.slice(from, end), next: end + 1 };
  const rest = lines.slice(from);
  if (rest.some((line) => COMMAND.test(line)))
    throw problem(command, `its text must end with a line containing only ${END} before the next command`);
  while (rest.length && rest.at(-1) === "") rest.pop();
  return { texts: rest, next: lines.length };
}

/** Parses the commands into edits against `file`; every problem is reported before anything changes. */
export function parseLineCommands(patch: string, file: LineFile): LineEdit[] {
  const lines = patch.split("\n");
  const edits: LineEdit[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    index++;
    if (line.trim() === "") continue;
    const match = COMMAND.exec(line);
    if (!match)
      throw new ToolError(
        `Unexpected line in the patch: '${line.trim()}'. Each command starts with ${COMMAND_SYNTAX}. Nothing ` +
          `was changed.`,
      );
    const verb = match[1]!.toUpperCase();
    const argument = match[2]!.trim();
    const label = `${verb} ${argument}`;
    if (verb === "DELETE") {
      const [first, last] = parseRange(label, argument, file);
      edits.push({ start: first - 1, deleteCount: last - first + 1, insert: [], label });
      continue;
    }
    const block = takeBlock(lines, index, label);
    index = block.next;
    if (verb === "REPLACE") {
      const [first, last] = parseRange(label, argument, file);
      edits.push({ start: first - 1, deleteCount: last - first + 1, insert: newLines(block.texts, file.eol), label });
    } else {
      if (block.texts.length === 0) throw problem(label, "there are no lines to insert between the command and END");
      edits.push({
        start: parsePosition(label, argument, file),
        deleteCount: 0,
        insert: newLines(block.texts, file.eol),
        label,
      });
    }
  }
  if (edits.length === 0)
    throw new ToolError(`The patch has no commands. Use ${COMMAND_SYNTAX}, or unified diff hunks starting with @@.`);
  return edits;
}
