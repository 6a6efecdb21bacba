import type { ChatEntry } from "./chat-entry.js";
import type { TuiController } from "./controller.js";
import { EntryLineRenderer } from "./entry-lines.js";
import type { ScreenOverlay } from "./frame-writer.js";
import type { Theme } from "./theme.js";
import { visibleRange } from "./viewport.js";

const WARM_UP_MARKDOWN =
  "# Title\n\nSome **bold**, *italic* and `code` text.\n\n- a list\n- of items\n\n```js\nconst answer = 42; // " +
  "comment\n```\n\nMore words";

const COUNTER_TICK_MS = 250;

/**
 * The chat area. Ink only reserves its rows; the lines (wrapped and styled already) are laid
 * over Ink's frame here. Two reasons: Ink would re-parse every styled character of them on
 * each frame, and streamed text would re-render the whole React tree. With the pane, a frame
 * of streamed text costs one re-render of the answer being written and a diff of the rows.
 */
export class ChatPane implements ScreenOverlay {
  private renderer: EntryLineRenderer;
  /** The theme the lines were drawn with: another one draws them all again. */
  private theme: Theme;
  private top = 0;
  private width = 1;
  private height = 1;
  private lines: string[] = [];
  private rule = "";
  private repaint: (() => void) | undefined;
  /** Redraws a few times a second while a tool runs, for its elapsed-time counter. */
  private counterTimer: ReturnType<typeof setInterval> | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly controller: TuiController) {
    this.theme = controller.theme;
    this.renderer = new EntryLineRenderer(this.theme);
    this.unsubscribe = controller.chat.subscribe(() => this.refresh());
  }

  /**
   * Where the chat area is (from the React render); computes its lines. The row after it is
   * the rule above the input (drawn here too: Ink measures box-drawing characters slowly).
   * Returns the number of lines below the visible window.
   */
  place(top: number, width: number, height: number): number {
    this.top = top;
    if (width !== this.width) this.rule = this.theme.muted("─".repeat(width));
    this.width = width;
    this.height = height;
    return this.update();
  }

  /** The conversation changed (streamed text, a tool line): draw it now, without React. */
  refresh(): void {
    this.update();
    this.repaint?.();
  }

  compose(rows: string[]): string[] {
    const composed = [...rows];
    this.lines.forEach((line, index) => {
      if (this.top + index < composed.length) composed[this.top + index] = line;
    });
    for (let index = this.lines.length; index < this.height && this.top + index < composed.length; index += 1)
      composed[this.top + index] = "";
    if (this.top + this.height < composed.length) composed[this.top + this.height] = this.rule;
    return composed;
  }

  /**
   * Renders a sample answer once, off-screen, so the code that draws markdown is compiled
   * before the first real answer streams in (a cold first frame would lag by tens of ms).
   */
  warmUp(): void {
    const sample: ChatEntry = {
      id: 0,
      revision: 0,
      kind: "assistant",
      text: WARM_UP_MARKDOWN,
      chunks: WARM_UP_MARKDOWN.split(/(?<=\n)/),
      time: "",
      streaming: true,
      continued: false,
      interrupted: false,
    };
    this.renderer.entryLines(sample, this.width, 0);
    this.renderer.entryLines({ ...sample, streaming: false }, this.width, 0);
  }

  private keepCountersLive(): void {
    const running = this.controller.chat.entries.some(
      (entry) => entry.kind === "tools" && entry.calls.some((call) => call.elapsedMs === undefined),
    );
    if (running && !this.counterTimer) this.counterTimer = setInterval(() => this.refresh(), COUNTER_TICK_MS);
    if (!running && this.counterTimer) {
      clearInterval(this.counterTimer);
      this.counterTimer = undefined;
    }
  }

  /** A new theme: every line is drawn again with it (the rendered lines of the old one are dropped). */
  private restyle(theme: Theme): void {
    this.theme = theme;
    this.renderer = new EntryLineRenderer(theme);
    this.rule = theme.muted("─".repeat(this.width));
  }

  onRepaint(repaint: (() => void) | undefined): void {
    this.repaint = repaint;
  }

  dispose(): void {
    this.unsubscribe();
    this.repaint = undefined;
    clearInterval(this.counterTimer);
    this.counterTimer = undefined;
  }

  private update(): number {
    const { controller } = this;
    if (controller.theme !== this.theme) this.restyle(controller.theme);
    this.keepCountersLive();
    const all = this.renderer.render(controller.chat.entries, this.width, controller.chat.clock());
    const range = visibleRange(all.length, this.height, controller.scrollTop);
    controller.layout = { totalLines: all.length, height: this.height };
    this.lines = all.slice(range.start, range.end);
    return range.below;
  }
}
