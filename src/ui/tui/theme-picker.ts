import { preview } from "../../shared/truncate.js";
import { themeDetail } from "../commands/theme-command.js";
import type { ThemeChoice, ThemeEntry } from "../theme/theme-choice.js";
import { type CompletionMenu, moveSelection, renderMenu, selectedItem } from "./completion-menu.js";
import type { InputEvent } from "./key-parser.js";
import type { Theme } from "./theme.js";

/**
 * `/theme` in the full-screen UI: the themes in a menu over the prompt. The screen shows the selected theme
 * at once (↑/↓); Enter keeps it, Esc or Ctrl+C goes back to the theme in use before.
 */
export class ThemePicker {
  private menu: CompletionMenu;
  private readonly before: string;

  constructor(
    private readonly themes: ThemeChoice,
    entries: readonly ThemeEntry[],
  ) {
    this.before = themes.name;
    const items = entries.map((entry) => ({ value: entry.name, label: entry.name, detail: themeDetail(entry) }));
    const selected = Math.max(
      0,
      items.findIndex((item) => item.value === themes.name),
    );
    this.menu = { items, start: 0, end: 0, selected };
  }

  /** Handles one key; returns what to say once the picker closes, undefined while it stays open. */
  key(event: InputEvent): string | undefined {
    if (event.kind !== "key") return undefined;
    if (event.name === "escape" || (event.ctrl && event.name === "c")) {
      this.themes.show(this.before);
      return `Theme: ${this.themes.name} (unchanged).`;
    }
    if (event.name === "enter") return `Theme: ${this.themes.name}.`;
    if ((event.name === "up" || event.name === "down") && !event.ctrl && !event.meta) {
      this.menu = moveSelection(this.menu, event.name === "up" ? -1 : 1);
      this.themes.show(selectedItem(this.menu).value);
    }
    return undefined;
  }

  /** A heading, then the menu of themes around the selection. */
  lines(width: number, maxRows: number, theme: Theme): string[] {
    const heading = theme.accent(preview("Theme · ↑/↓ preview · Enter keeps it · Esc goes back", width));
    return [heading, ...renderMenu(this.menu, width, Math.max(1, maxRows - 1), theme)];
  }
}
