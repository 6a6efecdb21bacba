import type { RestoreOutcome, RestorePlan } from "../../session/checkpoints/conversation-checkpoints.js";
import { firstLine, type NumberedUserMessage } from "../../session/saved-sessions/session-file.js";
import type { Session } from "../../session/session.js";
import { safeLabel } from "../terminal-text.js";
import type { CommandHost } from "./types.js";

/** What `rewind` and `undo` cannot reach, said wherever they are offered. */
const OUTSIDE = "Only the file tools' changes are tracked: what run_command and the git tools changed is not restored.";

const CHOICES = "Restore [b]oth files and conversation, [f]iles only, or [c]onversation only? (Enter cancels) ";

type Scope = { files: boolean; conversation: boolean };

const SCOPES: Record<string, Scope> = {
  b: { files: true, conversation: true },
  both: { files: true, conversation: true },
  f: { files: true, conversation: false },
  files: { files: true, conversation: false },
  c: { files: false, conversation: true },
  conversation: { files: false, conversation: true },
};

/** The person's files relative to where Marvin works, for lists. */
function shownPath(session: Session, path: string): string {
  const root = session.workingDir;
  return safeLabel(root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path);
}

function paths(session: Session, list: readonly string[]): string {
  return list.map((path) => shownPath(session, path)).join(", ");
}

/** The numbered user messages, each with how many files its turn changed. */
async function messageList(session: Session, numbered: readonly NumberedUserMessage[]): Promise<string> {
  const turns = (await session.checkpoints?.turns()) ?? [];
  const lines = numbered.map((entry, position) => {
    const files = turns.find((turn) => turn.message === entry.message)?.files.length ?? 0;
    const changed = files ? ` · changed ${files} file${files === 1 ? "" : "s"}` : "";
    return `${String(position + 1).padStart(2)}. ${safeLabel(firstLine(entry.text, 70))}${changed}`;
  });
  return (
    "Your messages in this conversation (rewind to one: the files Marvin changed since are restored and the " +
    `conversation goes back to before it):\n${lines.join("\n")}\n${OUTSIDE}`
  );
}

/** Asks about files changed since Marvin wrote them; true: overwrite them too. */
async function overwriteChanged(session: Session, host: CommandHost, plan: RestorePlan): Promise<boolean> {
  if (plan.changed.length === 0) return false;
  const answer = await host.ask(
    `Changed since Marvin wrote them: ${paths(
      session,
      plan.changed.map((file) => file.path),
    )}. Overwrite them with the earlier version too? [y/N] `,
  );
  return /^y(es)?$/i.test(answer?.trim() ?? "");
}

function restoreReport(session: Session, outcome: RestoreOutcome): string[] {
  const lines: string[] = [];
  if (outcome.restored.length) lines.push(`Restored ${paths(session, outcome.restored)}.`);
  else if (!outcome.failed.length) lines.push("No file needed restoring.");
  if (outcome.kept.length) lines.push(`Kept your changes to ${paths(session, outcome.kept)}.`);
  if (outcome.notKept.length)
    lines.push(`Not restored (too large to keep a checkpoint of): ${paths(session, outcome.notKept)}.`);
  if (outcome.failed.length) lines.push(`Could not restore: ${outcome.failed.join(", ")}.`);
  return lines;
}

/**
 * `rewind [N]`: lists the user messages of this conversation; for the one chosen, restores the
 * files Marvin changed since, cuts the conversation back to before it, or both. Returns the
 * text to show.
 */
export async function rewindCommand(session: Session, host: CommandHost, query: string): Promise<string> {
  if (!session.checkpoints) return "This session keeps no conversation, so there is nothing to rewind.";
  if (session.busy) return "Marvin is still answering: rewind after the answer, or press Ctrl+C first.";
  const numbered = session.userMessages();
  if (numbered.length === 0) return "Nothing to rewind yet: you have not sent a message in this conversation.";
  let choice = query;
  if (!choice) {
    host.system(await messageList(session, numbered));
    choice = (await host.ask("Rewind to which message (number; Enter cancels)? "))?.trim() ?? "";
    if (!choice) return "Rewind cancelled.";
  }
  const picked = /^\d+$/.test(choice) ? numbered[Number(choice) - 1] : undefined;
  if (!picked) return `There is no message ${safeLabel(choice)}: choose a number from 1 to ${numbered.length}.`;
  const scope = SCOPES[(await host.ask(CHOICES))?.trim().toLowerCase() ?? ""];
  if (!scope) return "Rewind cancelled.";
  const report: string[] = [];
  if (scope.files) {
    const plan = await session.checkpoints.planFrom(picked.message);
    const outcome = await session.checkpoints.restore(plan, await overwriteChanged(session, host, plan));
    report.push(...restoreReport(session, outcome));
  }
  if (scope.conversation) {
    await session.cutConversation(picked.message);
    host.conversationRewound?.(session.messages, session.messageCount);
    report.push(`The conversation is back to before "${safeLabel(firstLine(picked.text, 60))}".`);
  }
  return report.join("\n");
}

/** `undo`: restores the files of the latest turn that changed files. Returns the text to show. */
export async function undoCommand(session: Session, host: CommandHost): Promise<string> {
  if (!session.checkpoints) return "This session keeps no conversation, so there is nothing to undo.";
  if (session.busy) return "Marvin is still answering: undo after the answer, or press Ctrl+C first.";
  const plan = await session.checkpoints.planLast();
  if (!plan) return `Nothing to undo: Marvin has not changed a file in this conversation. ${OUTSIDE}`;
  const asked = session.userMessages().find((entry) => entry.message === plan.message);
  const outcome = await session.checkpoints.restore(plan, await overwriteChanged(session, host, plan));
  const turn = asked ? `your message "${safeLabel(firstLine(asked.text, 60))}"` : "an earlier message";
  return [`Undo: the file changes Marvin made answering ${turn}.`, ...restoreReport(session, outcome)].join("\n");
}
