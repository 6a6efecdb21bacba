/**
 * ↑/↓ through the typed-input history (oldest first). The text being typed is kept as a draft
 * and comes back when the person moves past the newest entry.
 */
export class InputHistoryBrowser {
  private index: number;
  private draft = "";

  constructor(private entries: readonly string[] = []) {
    this.index = entries.length;
  }

  get lines(): readonly string[] {
    return this.entries;
  }

  /** New history (after a submission); browsing starts again from the newest entry. */
  replace(entries: readonly string[]): void {
    this.entries = entries;
    this.reset();
  }

  reset(): void {
    this.index = this.entries.length;
    this.draft = "";
  }

  /** The previous (older) entry, or undefined at the oldest. */
  older(current: string): string | undefined {
    if (this.index === 0) return undefined;
    if (this.index === this.entries.length) this.draft = current;
    this.index -= 1;
    return this.entries[this.index];
  }

  /** The next (newer) entry, the draft after the newest, or undefined when already there. */
  newer(): string | undefined {
    if (this.index >= this.entries.length) return undefined;
    this.index += 1;
    return this.index === this.entries.length ? this.draft : this.entries[this.index];
  }
}
