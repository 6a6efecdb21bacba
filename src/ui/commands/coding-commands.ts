import type { Session } from "../../session/session.js";

/** `init`: what the model is asked to do. */
const INIT_PROMPT =
  "Explore this project (its layout, how it is built, tested and linted, its conventions and code style) and " +
  "write an AGENTS.md at the root of the working directory: the instructions a coding agent new to the project " +
  "needs and cannot guess (commands to run, where things live, rules to follow, pitfalls). Keep it short and " +
  "concrete. If an AGENTS.md already exists, improve it and keep what is still true.";

/** Sent when the user approves the plan: the conversation goes on with every tool. */
const PLAN_APPROVED = "The plan is approved. Carry it out now.";

const PLAN_ON =
  "Plan mode on: Marvin only looks (no tool that changes something) and answers with a plan. Refine it with " +
  "more messages; `plan approve` lets Marvin carry it out, `plan off` leaves plan mode without approving.";

/** What a coding command asks of the command layer: a system message, or a message for the model. */
export type CodingOutcome = { say: string } | { submit: string; note?: string };

export type PlanAction = "on" | "approve" | "off";

/** `lsp`: the language servers this session started. */
export function lspReport(session: Session): CodingOutcome {
  return {
    say: ["Language servers:", ...session.services.diagnostics.describe().map((line) => `  ${line}`)].join("\n"),
  };
}

/** `init`: asks the model to write AGENTS.md for the working directory. */
export function initCommand(session: Session): CodingOutcome {
  if (!session.codingMode || !session.workingDir)
    return { say: "init writes an AGENTS.md for the working directory: turn on coding mode first (!code)." };
  return { submit: INIT_PROMPT };
}

/** `plan`, `plan approve`, `plan off` (and Shift+Tab in the TUI, which turns plan mode on or off). */
export function planCommand(session: Session, action: PlanAction): CodingOutcome {
  if (action === "on") {
    if (session.planning) return { say: `Plan mode is already on. ${PLAN_ON.slice(PLAN_ON.indexOf(":") + 2)}` };
    session.setPlanning(true);
    return { say: PLAN_ON };
  }
  if (!session.planning) return { say: "Plan mode is not on: `plan` turns it on." };
  session.setPlanning(false);
  if (action === "off") return { say: "Plan mode off: every tool is available again; no plan was approved." };
  return { submit: PLAN_APPROVED, note: "Plan approved: Marvin carries it out with every tool." };
}
