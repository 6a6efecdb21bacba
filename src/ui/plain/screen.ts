import type { Output } from "../headless/text-renderer.js";
import { safeText } from "../terminal-text.js";
import type { Theme } from "../tui/theme.js";
import type { LineInput } from "./line-input.js";

/**
 * Everything the plain UI prints goes through here: it knows whether the cursor is at the
 * start of a line (so a system line never glues onto streamed text) and keeps output
 * that arrives while the prompt is shown (a timer going off) above the prompt.
 */
export class PlainScreen implements Output {
  private atLineStart = true;

  constructor(
    private readonly out: Output,
    private readonly themes: { readonly theme: Theme },
    private readonly input?: LineInput,
  ) {}

  write(text: string): void {
    if (!text) return;
    if (this.input?.promptShowing) this.input.writeAbovePrompt(this.atLineStart ? text : `\n${text}`);
    else this.out.write(text);
    this.atLineStart = text.endsWith("\n");
  }

  /** Moves to the start of a new line unless already there. */
  breakLine(): void {
    if (!this.atLineStart) this.write("\n");
  }

  line(text: string): void {
    this.breakLine();
    this.write(`${text}\n`);
  }

  /** A `[System] …` line; `text` may come from outside (titles, paths, a server's error) and is made safe. */
  system(text: string): void {
    this.line(this.themes.theme.system(`[System] ${safeText(text)}`));
  }
}
