import type { ApprovalAnswer, ApprovalQuestion } from "../session/approvals.js";
import { safeText } from "./terminal-text.js";

/** The question as both UIs show it, with its answers: `Run `ls`? [y/N] `. */
export function approvalPrompt(question: ApprovalQuestion): string {
  return `${safeText(question.text)} ${question.forConversation ? "[y/N/a=allow for this conversation]" : "[y/N]"} `;
}

/** What a typed answer means: y/yes, a/always (when offered), anything else no. */
export function approvalAnswer(typed: string | undefined, question: ApprovalQuestion): ApprovalAnswer {
  const answer = typed?.trim().toLowerCase() ?? "";
  if (answer === "y" || answer === "yes") return "yes";
  if (question.forConversation && (answer === "a" || answer === "always")) return "conversation";
  return "no";
}
