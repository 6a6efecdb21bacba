import type { Completer } from "../commands/completion.js";
import {
  type CompletionMenu,
  moveSelection,
  openMenu,
  replaceWord,
  selectedItem,
  sharedStart,
} from "./completion-menu.js";
import type { InputEvent, KeyEvent } from "./key-parser.js";
import type { LineState } from "./line-editor.js";

/** What completion needs from the prompt. */
interface CompletionContext {
  completer: Completer;
  line(): LineState;
  setLine(line: LineState): void;
  /** A chosen command that runs as it is (`/help`): the prompt empties and the line runs. */
  run(text: string): void;
}

/** Typing, pasting and deleting open the completion menu; moving through the line or the history closes it. */
function typedEdit(event: InputEvent): boolean {
  return (
    event.kind === "text" ||
    event.kind === "paste" ||
    (event.kind === "key" && !event.ctrl && (event.name === "backspace" || event.name === "delete"))
  );
}

/** Tab completion and the completion menu over the prompt. */
export class CompletionKeys {
  /** The completion overlay while it is open. */
  menu: CompletionMenu | undefined;
  /** Tab was pressed before the file index was ready: complete once it is. */
  private tabWaiting = false;

  constructor(private readonly context: CompletionContext) {}

  /** The prompt's line changed through `event`: the menu follows typing, and closes on other moves. */
  edited(event: InputEvent): void {
    this.menu = typedEdit(event) ? this.menuFor(this.context.line()) : undefined;
  }

  /** A key while the menu is open; false when it is not the menu's. */
  key(menu: CompletionMenu, key: KeyEvent): boolean {
    switch (key.name) {
      case "up":
      case "down":
        this.menu = moveSelection(menu, key.name === "up" ? -1 : 1);
        return true;
      case "escape":
        this.menu = undefined;
        return true;
      case "enter": {
        const current = this.context.line();
        const item = selectedItem(menu);
        const line = replaceWord(current, menu, item.value);
        this.menu = undefined;
        if (item.runs) {
          this.context.run(line.text.trim());
          return true;
        }
        if (line.text.trimEnd() === current.text.trimEnd()) return false; // nothing left to complete: send
        this.setLine(line);
        return true;
      }
      default:
        return false;
    }
  }

  /** Tab: takes the selected choice, or the only one; with several, what they share, and shows them. */
  tab(): void {
    const line = this.context.line();
    const { completer } = this.context;
    if (this.menu) return this.setLine(replaceWord(line, this.menu, selectedItem(this.menu).value));
    const found = completer.complete(line.text, line.cursor, true);
    this.tabWaiting = !found;
    if (!found) return;
    if (found.items.length === 1) return this.setLine(replaceWord(line, found, found.items[0]!.value));
    const shared = sharedStart(found.items);
    const text = line.text.slice(0, found.start) + shared + line.text.slice(found.end);
    this.context.setLine({ text, cursor: found.start + shared.length });
    this.menu = openMenu(completer.complete(text, found.start + shared.length, true));
  }

  /** The file index arrived: a waiting Tab completes, an open menu shows the files. */
  indexReady(): void {
    if (this.tabWaiting) this.tab();
    else if (this.menu) this.menu = this.menuFor(this.context.line());
  }

  private setLine(line: LineState): void {
    this.context.setLine(line);
    this.menu = this.menuFor(line);
  }

  private menuFor(line: LineState): CompletionMenu | undefined {
    return openMenu(this.context.completer.complete(line.text, line.cursor, false));
  }
}
