import type { Env } from "../shared/env.js";
import type { WithoutSandbox } from "../tools/kit/sandbox/command-sandbox.js";
import {
  APPROVAL_MODES,
  type ApprovalMode,
  type Approvals,
  type UnconfinedAnswer,
} from "../tools/kit/tool-services.js";

/** One question for the person at the terminal. */
export interface ApprovalQuestion {
  /** The question, e.g. "Run `npm test`?". */
  text: string;
  /** What it is about: the command, or the tool's name. */
  subject: string;
  /** Whether "a" (allow for the rest of this conversation) is one of the answers. */
  forConversation: boolean;
}

export type ApprovalAnswer = "yes" | "no" | "conversation";

/** How a front end asks: shows the question, resolves with the answer. */
export type AskPerson = (question: ApprovalQuestion) => Promise<ApprovalAnswer>;

/** The mode MARVIN_APPROVAL names, or undefined when it names none. */
export function parseApprovalMode(value: string | undefined): ApprovalMode | undefined {
  const mode = value?.trim().toLowerCase();
  return APPROVAL_MODES.find((known) => known === mode);
}

/**
 * The starting mode: `never` without anyone to ask (non-interactive runs), else MARVIN_APPROVAL,
 * else `ask` (every command asks).
 */
export function initialApprovalMode(env: Env, canAsk: boolean): ApprovalMode {
  if (!canAsk) return "never";
  return parseApprovalMode(env.MARVIN_APPROVAL) ?? "ask";
}

/** The line to say when MARVIN_APPROVAL names no mode (the starting mode is then the default); undefined otherwise. */
export function approvalSettingProblem(env: Env, canAsk: boolean): string | undefined {
  const value = env.MARVIN_APPROVAL?.trim();
  if (!value || parseApprovalMode(value)) return undefined;
  const fallback = canAsk ? "ask, the default" : "never, as in every non-interactive run";
  return `MARVIN_APPROVAL=${value} is not understood: use ${APPROVAL_MODES.join(", ")}. Using ${fallback}.`;
}

/** What becomes of commands, when no sandbox program works, in a session that starts in `mode`. */
export function commandsWithoutSandbox(mode: ApprovalMode, canAsk: boolean): WithoutSandbox {
  if (mode !== "never") return "each-asked";
  return canAsk ? "asked-once" : "refused";
}

/** The approvals of one session; `/permissions` changes the mode for the conversation. */
export class SessionApprovals implements Approvals {
  private readonly allowedTools = new Set<string>();
  /** The person's one answer to running commands without a sandbox in `never` mode; undefined until asked. */
  private unconfinedAllowed: boolean | undefined;

  constructor(
    public mode: ApprovalMode,
    private readonly ask: AskPerson | undefined,
  ) {}

  async command(command: string, sandboxed: boolean): Promise<boolean> {
    if (!this.ask || this.mode === "never" || (this.mode === "auto" && sandboxed)) return true;
    return (await this.ask({ text: `Run \`${command}\`?`, subject: command, forConversation: false })) !== "no";
  }

  async unconfined(missing: string): Promise<UnconfinedAnswer> {
    const without = commandsWithoutSandbox(this.mode, this.ask !== undefined);
    if (without === "each-asked") return "run";
    if (!this.ask) return "nobody-to-ask";
    if (this.unconfinedAllowed === undefined) {
      const text =
        `No sandbox works here (${missing}), so commands would run unconfined, with all your rights. Let commands ` +
        "run without a sandbox for the rest of this conversation?";
      const answer = await this.ask({ text, subject: "commands without a sandbox", forConversation: false });
      this.unconfinedAllowed = answer !== "no";
    }
    return this.unconfinedAllowed ? "run" : "declined";
  }

  async rerunOutsideSandbox(command: string, reason: string): Promise<boolean> {
    if (!this.ask || this.mode !== "auto") return false;
    const text = `The sandbox stopped \`${command}\` (${reason}). Run it again outside the sandbox?`;
    return (await this.ask({ text, subject: command, forConversation: false })) !== "no";
  }

  async tool(name: string, action: string): Promise<boolean> {
    if (!this.ask || this.mode === "never" || this.allowedTools.has(name)) return true;
    const answer = await this.ask({ text: `Allow ${name} (${action})?`, subject: name, forConversation: true });
    if (answer === "conversation") this.allowedTools.add(name);
    return answer !== "no";
  }
}
