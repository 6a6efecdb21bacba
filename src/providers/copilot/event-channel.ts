import type { ProviderEvent } from "../types.js";

/**
 * Events pushed as the Copilot runtime sends them, read as one stream: it ends after the first `done` or `error`.
 * Events pushed before anyone reads wait; events pushed after the end are dropped.
 */
export class EventChannel {
  private readonly waiting: ProviderEvent[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  push(event: ProviderEvent): void {
    if (this.ended) return;
    if (event.type === "done" || event.type === "error") this.ended = true;
    this.waiting.push(event);
    this.wake?.();
  }

  async *events(): AsyncGenerator<ProviderEvent> {
    for (;;) {
      const next = this.waiting.shift();
      if (next === undefined) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
        continue;
      }
      yield next;
      if (next.type === "done" || next.type === "error") return;
    }
  }
}
