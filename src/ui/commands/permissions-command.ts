import { parseApprovalMode } from "../../session/approvals.js";
import type { Session } from "../../session/session.js";
import type { ApprovalMode } from "../../tools/kit/tool-services.js";

const MEANINGS: Record<ApprovalMode, string> = {
  ask: "every command asks first (MCP tools that change things and crontab lines too)",
  auto: "commands run in the sandbox without asking; one the sandbox stops asks to run outside it",
  never: "nothing asks; what the sandbox stops stays stopped",
};

/** `permissions [ask|auto|never]`: shows the approval mode of this conversation, or changes it. */
export function permissionsCommand(session: Session, requested: string | undefined): string {
  const { approvals } = session.services;
  if (requested === undefined) {
    const change = 'Change it with "/permissions ask|auto|never".';
    return `Approval mode: ${approvals.mode} — ${MEANINGS[approvals.mode]}. ${change}`;
  }
  const mode = parseApprovalMode(requested);
  if (!mode) return `"${requested}" is not an approval mode: use ask, auto or never.`;
  approvals.mode = mode;
  return `Approval mode for this conversation: ${mode} — ${MEANINGS[mode]}.`;
}
