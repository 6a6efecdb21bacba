import { preview } from "../../shared/truncate.js";
import type { CompletionItem, Completions } from "../commands/completion.js";
import { safeLabel } from "../terminal-text.js";
import type { LineState } from "./line-editor.js";
import { textWidth } from "./spans.js";
import type { Theme } from "./theme.js";

/** The completion overlay over the input line: the choices and the one selected. */
export interface CompletionMenu extends Completions {
  selected: number;
}

const MAX_MENU_ROWS = 8;

export function openMenu(found: Completions | undefined): CompletionMenu | undefined {
  return found ? { ...found, selected: 0 } : undefined;
}

export function moveSelection(menu: CompletionMenu, by: number): CompletionMenu {
  const count = menu.items.length;
  return { ...menu, selected: (menu.selected + by + count) % count };
}

export function selectedItem(menu: CompletionMenu): CompletionItem {
  return menu.items[menu.selected]!;
}

/** The line with the word replaced by `value`; a finished word (not a folder) gets a space after it. */
export function replaceWord(line: LineState, menu: Completions, value: string): LineState {
  const finished = !value.endsWith("/") && value !== line.text.slice(menu.start, menu.end);
  const after = line.text.slice(menu.end);
  const inserted = finished && !after.startsWith(" ") ? `${value} ` : value;
  const text = line.text.slice(0, menu.start) + inserted + after;
  return { text, cursor: menu.start + inserted.length };
}

/** The longest start all the values share (what Tab inserts when several match). */
export function sharedStart(items: readonly CompletionItem[]): string {
  let shared = items[0]?.value ?? "";
  for (const { value } of items) while (!value.startsWith(shared)) shared = shared.slice(0, -1);
  return shared;
}

/** The menu as screen lines: a window of choices around the selected one, label then summary. */
export function renderMenu(menu: CompletionMenu, width: number, maxRows: number, theme: Theme): string[] {
  const rows = Math.max(1, Math.min(MAX_MENU_ROWS, maxRows, menu.items.length));
  const first = Math.min(Math.max(0, menu.selected - rows + 1), menu.items.length - rows);
  const labelWidth = Math.min(
    Math.floor(width / 2),
    Math.max(...menu.items.map((item) => textWidth(safeLabel(item.label)))) + 2,
  );
  return menu.items.slice(first, first + rows).map((item, offset) => {
    const label = preview(safeLabel(item.label), labelWidth);
    const pad = " ".repeat(Math.max(1, labelWidth + 1 - textWidth(label)));
    const detail = item.detail ? preview(safeLabel(item.detail), Math.max(1, width - labelWidth - 3)) : "";
    const row = ` ${label}${pad}${detail}`;
    return first + offset === menu.selected
      ? theme.inverse(row)
      : `${theme.accent(` ${label}`)}${pad}${theme.muted(detail)}`;
  });
}
