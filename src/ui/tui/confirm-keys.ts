import type { ApprovalAnswer, ApprovalQuestion } from "../../session/approvals.js";
import { approvalAnswer, approvalPrompt } from "../approval-prompt.js";
import type { InputEvent } from "./key-parser.js";

/** Keys that say no to an approval question (besides `n`): Enter, Esc and Ctrl+C. */
const DECLINING = new Set(["n", "no", "enter", "escape"]);

/** The answer a key gives to an approval question on screen; undefined for keys that answer nothing. */
export function confirmationAnswer(event: InputEvent, question: ApprovalQuestion): ApprovalAnswer | undefined {
  const answer = event.kind === "text" ? event.text.trim().toLowerCase() : event.kind === "key" ? event.name : "";
  const chosen = approvalAnswer(answer, question);
  if (chosen !== "no") return chosen;
  return DECLINING.has(answer) || isCtrlC(event) ? "no" : undefined;
}

export function isCtrlC(event: InputEvent): boolean {
  return event.kind === "key" && event.ctrl && event.name === "c";
}

/** What the chat keeps of an answered approval question: the question and the key that answered it. */
export function answeredConfirmation(question: ApprovalQuestion, answer: ApprovalAnswer): string {
  const typed = { yes: "y", no: "n", conversation: "a" }[answer];
  return `${approvalPrompt(question)}${typed}`;
}
