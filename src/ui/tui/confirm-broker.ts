import type { ApprovalAnswer, ApprovalQuestion } from "../../session/approvals.js";

interface PendingConfirmation {
  question: ApprovalQuestion;
  resolve: (answer: ApprovalAnswer) => void;
}

/**
 * Carries the session's run_command confirmations (`askApproval`) to the screen: the
 * question waits here until the person answers y or n. One question at a time; a second
 * one waits for the first.
 */
export class ConfirmBroker {
  private readonly waiting: PendingConfirmation[] = [];
  private listener: (() => void) | undefined;

  /** The question being asked, if any. */
  get pending(): ApprovalQuestion | undefined {
    return this.waiting[0]?.question;
  }

  onChange(listener: () => void): void {
    this.listener = listener;
  }

  ask = (question: ApprovalQuestion): Promise<ApprovalAnswer> =>
    new Promise((resolve) => {
      this.waiting.push({ question, resolve });
      this.listener?.();
    });

  answer(answer: ApprovalAnswer): void {
    const current = this.waiting.shift();
    current?.resolve(answer);
    this.listener?.();
  }

  /** Declines everything still waiting (on exit). */
  declineAll(): void {
    while (this.waiting.length) this.waiting.shift()!.resolve("no");
    this.listener?.();
  }
}
