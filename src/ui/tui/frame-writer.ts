import { EventEmitter } from "node:events";

const SYNC_START = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";
const RESET = "\x1b[0m";
const ERASE_TO_END = "\x1b[K";
const CLEAR_SCREEN = "\x1b[2J";

const moveTo = (row: number) => `\x1b[${row};1H`;

/** Rows laid over Ink's frame (the chat pane). */
export interface ScreenOverlay {
  compose(rows: string[]): string[];
  /** Registers what to call when the overlay changed on its own and the screen must be drawn again. */
  onRepaint(repaint: (() => void) | undefined): void;
}

/**
 * The stream Ink renders into. Ink (in its debug mode) hands over each whole frame; this lays
 * the overlay rows over it and writes only the rows that changed, at absolute positions,
 * inside one synchronized-output update, so the screen never flickers and never scrolls.
 * Size and resize events come from the real terminal; after a resize the next frame is
 * drawn in full.
 */
export class FrameWriter extends EventEmitter {
  readonly isTTY = true;
  private previous: string[] = [];
  /** Ink's last frame, kept to lay a changed overlay over it. */
  private inkFrame = "";
  private clearFirst = true;

  constructor(
    private readonly terminal: NodeJS.WriteStream,
    private readonly overlay?: ScreenOverlay,
  ) {
    super();
    terminal.on("resize", this.onResize);
    overlay?.onRepaint(() => this.redraw());
  }

  /** The rows last drawn (with styles), top to bottom. */
  get screen(): readonly string[] {
    return this.previous;
  }

  get columns(): number {
    return this.terminal.columns || 80;
  }

  get rows(): number {
    return this.terminal.rows || 24;
  }

  write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean {
    const frame = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    if (frame) {
      this.inkFrame = frame;
      this.draw(frame);
    }
    callback?.();
    return true;
  }

  /** Draws the last frame again (the overlay changed, or after `invalidate`). */
  redraw(): void {
    this.draw(this.inkFrame);
  }

  /** Makes the next frame redraw every row (after the screen was cleared or reflowed). */
  invalidate(): void {
    this.previous = [];
    this.clearFirst = true;
  }

  dispose(): void {
    this.terminal.off("resize", this.onResize);
    this.overlay?.onRepaint(undefined);
  }

  private readonly onResize = () => {
    this.invalidate();
    this.emit("resize");
  };

  private draw(frame: string): void {
    if (!frame) return;
    const inkRows = frame.replace(/\n$/, "").split("\n");
    const lines = (this.overlay ? this.overlay.compose(inkRows) : inkRows).slice(0, this.rows);
    let update = this.clearFirst ? CLEAR_SCREEN : "";
    const rowCount = Math.min(this.rows, Math.max(lines.length, this.previous.length));
    for (let row = 0; row < rowCount; row += 1) {
      const line = lines[row] ?? "";
      if (!this.clearFirst && line === this.previous[row]) continue;
      update += moveTo(row + 1) + RESET + line + RESET + ERASE_TO_END;
    }
    this.previous = lines;
    this.clearFirst = false;
    if (update) this.terminal.write(SYNC_START + update + SYNC_END);
  }
}
