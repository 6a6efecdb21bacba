/** Shown after a first Ctrl+C on an empty, idle prompt. */
export const EXIT_HINT = "(To exit, press Ctrl+C again or Ctrl+D, or type quit.)";

/** What one Ctrl+C did; the UI carries out the last three. */
export type InterruptOutcome =
  /** Stopped the answer or command in progress. */
  | "stopped"
  /** Nothing to stop and no prompt on screen (e.g. a report being prepared). */
  | "ignored"
  /** Clear the typed line. */
  | "clear"
  /** Show EXIT_HINT. */
  | "hint"
  | "exit";

/**
 * Ctrl+C as both interactive UIs understand it: it stops the answer or command in progress;
 * at the prompt it clears what is typed; on an empty prompt the first press only shows
 * EXIT_HINT, and a second press in a row exits. So pressing twice while an answer streams
 * stops the answer and then asks, rather than quitting.
 */
export class InterruptKey {
  private armed = false;

  /** `stopWork` stops whatever runs and says whether there was anything (CommandLayer.interrupt). */
  constructor(private readonly stopWork: () => boolean) {}

  /** One Ctrl+C. `typed` is the prompt line's text, undefined when no prompt is shown. */
  press(typed: string | undefined): InterruptOutcome {
    if (this.stopWork()) {
      this.armed = false;
      return "stopped";
    }
    if (typed === undefined) return "ignored";
    if (typed) {
      this.armed = false;
      return "clear";
    }
    if (this.armed) return "exit";
    this.armed = true;
    return "hint";
  }

  /** Any other key or line: the next Ctrl+C on an empty prompt asks again. */
  reset(): void {
    this.armed = false;
  }
}
