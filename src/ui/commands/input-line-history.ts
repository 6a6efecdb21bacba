import { errorMessage } from "../../shared/error-message.js";
import { appendInputHistory, loadInputHistory } from "../../state/input-history.js";
import { safeText } from "../terminal-text.js";

/** The lines typed at the prompt, kept in the active profile's input history file for ↑/↓ and Ctrl+R. */
export class InputLineHistory {
  private writes: Promise<void> = Promise.resolve();
  private warned = false;

  /** `path` gives the active profile's file; `warn` is told once when a line cannot be saved. */
  constructor(
    private readonly path: () => string,
    private readonly warn: (text: string) => void,
  ) {}

  /** The lines, oldest first, safe to show on the prompt line (after the writes still pending). */
  async lines(): Promise<string[]> {
    await this.writes;
    return (await loadInputHistory(this.path())).map(safeText);
  }

  record(line: string): void {
    const path = this.path();
    this.writes = this.writes
      .then(() => appendInputHistory(path, line))
      .then(
        () => undefined,
        (error: unknown) => {
          if (this.warned) return;
          this.warned = true;
          this.warn(`Could not save the input history (${path}): ${errorMessage(error)}`);
        },
      );
  }

  /** Settles once every recorded line is written (or failed). */
  settled(): Promise<void> {
    return this.writes;
  }
}
