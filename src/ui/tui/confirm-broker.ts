interface PendingConfirmation {
  command: string;
  resolve: (approved: boolean) => void;
}

/**
 * Carries the session's run_command confirmations (`confirmCommand`) to the screen: the
 * question waits here until the person answers y or n. One question at a time; a second
 * one waits for the first.
 */
export class ConfirmBroker {
  private readonly waiting: PendingConfirmation[] = [];
  private listener: (() => void) | undefined;

  /** The command being asked about, if any. */
  get pending(): string | undefined {
    return this.waiting[0]?.command;
  }

  onChange(listener: () => void): void {
    this.listener = listener;
  }

  ask = (command: string): Promise<boolean> =>
    new Promise((resolve) => {
      this.waiting.push({ command, resolve });
      this.listener?.();
    });

  answer(approved: boolean): void {
    const current = this.waiting.shift();
    current?.resolve(approved);
    this.listener?.();
  }

  /** Declines everything still waiting (on exit). */
  declineAll(): void {
    while (this.waiting.length) this.waiting.shift()!.resolve(false);
    this.listener?.();
  }
}
