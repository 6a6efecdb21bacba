import type { PromptState } from "./prompt-keys.js";
import { searchResult } from "./reverse-search.js";
import { textWidth } from "./spans.js";
import type { Theme } from "./theme.js";

interface Row {
  text: string;
  /** Column of the cursor on this row, if it is here. */
  cursor?: number;
}

/** Splits the input into screen rows of at most `width` columns, noting where the cursor is. */
function layoutRows(text: string, cursor: number, width: number): Row[] {
  const rows: Row[] = [];
  let offset = 0;
  for (const logical of text.split("\n")) {
    let row: Row = { text: "" };
    let used = 0;
    let index = offset;
    for (const character of logical) {
      const columns = textWidth(character);
      if (used + columns > width && row.text) {
        rows.push(row);
        row = { text: "" };
        used = 0;
      }
      if (index === cursor) row.cursor = used;
      row.text += character;
      used += columns;
      index += character.length;
    }
    if (index === cursor) {
      if (used >= width) {
        rows.push(row);
        row = { text: "" };
        used = 0;
      }
      row.cursor = used;
    }
    rows.push(row);
    offset = index + 1;
  }
  return rows;
}

function drawRow(row: Row, theme: Theme): string {
  if (row.cursor === undefined) return row.text;
  const characters = Array.from(row.text);
  let column = 0;
  let index = 0;
  while (index < characters.length && column < row.cursor) column += textWidth(characters[index++]!);
  const under = characters[index] ?? " ";
  return characters.slice(0, index).join("") + theme.inverse(under) + characters.slice(index + 1).join("");
}

/** The rows around the cursor, at most `maxRows` of them. */
function windowAroundCursor(rows: Row[], maxRows: number): Row[] {
  if (rows.length <= maxRows) return rows;
  const cursorRow = Math.max(
    0,
    rows.findIndex((row) => row.cursor !== undefined),
  );
  const start = Math.min(Math.max(0, cursorRow - maxRows + 1), rows.length - maxRows);
  return rows.slice(start, start + maxRows);
}

/**
 * The input area as terminal lines: the prompt (`> ` or `$ `), the text with a visible cursor,
 * wrapped to `width`; during Ctrl+R, the search line instead.
 */
export function renderPrompt(
  prompt: string,
  state: PromptState,
  history: readonly string[],
  width: number,
  maxRows: number,
  theme: Theme,
): string[] {
  if (state.search) {
    const { search } = state;
    const label = search.query && search.match === undefined ? "(failed reverse-i-search)" : "(reverse-i-search)";
    const head = `${label}'${search.query}': `;
    const match = search.query ? searchResult(history, search) : "";
    const rows = layoutRows(head + match.replace(/\n/g, " "), head.length, Math.max(1, width));
    return windowAroundCursor(rows, maxRows).map((row) => theme.you(drawRow(row, theme)));
  }
  const indent = " ".repeat(textWidth(prompt));
  const rows = layoutRows(state.line.text, state.line.cursor, Math.max(1, width - indent.length));
  const shown = windowAroundCursor(rows, maxRows);
  return shown.map(
    (row, index) =>
      (index === 0 && shown[0] === rows[0] ? theme.bold(theme.you(prompt)) : indent) + theme.you(drawRow(row, theme)),
  );
}
