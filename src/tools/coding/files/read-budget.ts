import { basename } from "node:path";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import { createMemoryFile, MEMORIES_DIR } from "./memories.js";

/**
 * Seed 004 §6.13B: characters read_file may return in one session. Past the warning level
 * every result says how much is used and asks the model to save its findings; the read
 * that reaches the maximum is cut to fit; after that reads are refused and what was asked
 * for is dumped to the memories folder. Unlike the context budget it also works when the
 * provider runs its own tool loop (Copilot).
 */
export const READ_BUDGET_WARN = 200_000;
export const READ_BUDGET_MAX = 300_000;

const format = (count: number) => count.toLocaleString("en-US");
// Formatted when first needed: Intl's first use costs every start ~15 ms.
const limit = () => format(READ_BUDGET_MAX);

const SAVE_FINDINGS =
  `Save what you have found so far in ${MEMORIES_DIR}/ (for example create_file ${MEMORIES_DIR}/findings.md), ` +
  "so it survives this session";

/** `dump-<name>.txt`, or `dump-<name>-2.txt`… when taken; returns the path relative to the working dir. */
async function dumpToMemories(workingDir: string, path: string, content: string): Promise<string> {
  const stem = basename(path).replace(/[^\w.-]/g, "_") || "file";
  for (let attempt = 1; ; attempt++) {
    const name = `dump-${stem}${attempt === 1 ? "" : `-${attempt}`}.txt`;
    if (await createMemoryFile(workingDir, name, content)) return `${MEMORIES_DIR}/${name}`;
  }
}

/** Once the budget is used up: dumps `content` and refuses the read. */
export async function refuseIfReadBudgetUsedUp(
  workingDir: string,
  path: string,
  content: string,
  context: ToolContext,
): Promise<void> {
  const used = context.budget.charactersRead();
  if (used < READ_BUDGET_MAX) return;
  const dump = await dumpToMemories(workingDir, path, content);
  throw new ToolError(
    `Read budget used up: read_file has returned ${format(used)} characters this session (limit ${limit()}), ` +
      `so ${path} is not shown; its text was saved to ${dump} for a later session. ` +
      `${SAVE_FINDINGS}, then finish with what you know. ` +
      "In a new session read in smaller ranges (start_line/end_line) and search with code_grep first.",
  );
}

/** Cuts `text` to at most `max` characters, at a line end when one is in the second half. */
function cutToFit(text: string, max: number): string {
  const lineEnd = text.lastIndexOf("\n", max);
  if (lineEnd >= max / 2) return text.slice(0, lineEnd);
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Counts `content` against the budget; near the limit, cuts it to fit and adds the warning. */
export function chargeReadBudget(content: string, context: ToolContext): string {
  const { budget } = context;
  const used = budget.charactersRead();
  if (used + content.length <= READ_BUDGET_WARN) {
    budget.addCharactersRead(content.length);
    return content;
  }
  const room = READ_BUDGET_MAX - used;
  const shown = content.length > room ? cutToFit(content, room) : content;
  // The read that had to be cut uses up the budget, also the few characters a cut at a line end leaves.
  budget.addCharactersRead(shown.length < content.length ? room : shown.length);
  const cut =
    shown.length < content.length
      ? `Cut to fit the session read budget: ${format(shown.length)} of ${format(content.length)} characters shown. `
      : "";
  const total = budget.charactersRead();
  const next =
    total >= READ_BUDGET_MAX ? "read_file now returns nothing more this session" : `reads stop at ${limit()}`;
  const status = `Read budget: ${format(total)} of ${limit()} characters read this session; ${next}.`;
  return `${shown}\n\n[${cut}${status} ${SAVE_FINDINGS}.]`;
}
