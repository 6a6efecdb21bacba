import { relative, sep } from "node:path";
import { z } from "zod";
import { formatDuration } from "../../../shared/duration.js";
import type { Env } from "../../../shared/env.js";
import { preview, truncateText } from "../../../shared/truncate.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { directoryInside, realWorkingDir } from "../../kit/require-working-dir.js";
import { loadTickets, locateTicketsDir, resolveTicket } from "../../kit/tickets/ticket-store.js";
import type { ChildAllowance } from "../../kit/tool-services.js";
import { type AgentOutcome, runSubAgent } from "./agent-run.js";
import {
  childMarvinEnv,
  childMarvinStart,
  claimCaps,
  describeCost,
  nestingDepth,
  withChildCaps,
} from "./child-marvin.js";

/** Sub-agents run at this depth at most: one launched by launch_agent cannot launch another. */
const MAX_AGENT_DEPTH = 1;
const MAX_ANSWER_CHARS = 30_000;
/** The registry's limit is the sub-agent's own plus time for the person to confirm. */
const CONFIRMATION_ALLOWANCE_MS = 10 * 60_000;
const PROMPT_PREVIEW_CHARS = 160;

/**
 * The model a sub-agent uses (seed 002's tiers): `low` is MARVIN_CODE_MODEL_LOW (implementation),
 * `high` MARVIN_CODE_MODEL_HIGH (review); `auto` is high for a read-only agent and low for one that
 * writes. A tier that is not set is the session's model; any other name is taken as it is.
 */
function chosenModel(requested: string, readOnly: boolean, env: Env, sessionModel: string): string {
  const name = requested.trim() || "auto";
  const tier = name === "auto" ? (readOnly ? "high" : "low") : name;
  if (tier === "high") return env.MARVIN_CODE_MODEL_HIGH?.trim() || sessionModel;
  if (tier === "low") return env.MARVIN_CODE_MODEL_LOW?.trim() || sessionModel;
  return name;
}

async function ticketSection(context: ToolContext, ticketId: string): Promise<string> {
  const dir = await locateTicketsDir(context);
  const ticket = resolveTicket(await loadTickets(dir), ticketId, dir);
  return `\n\nYour task is ticket ${ticket.id}. Its text:\n\n${ticket.text.trim()}`;
}

function statusLine(outcome: AgentOutcome, model: string): string {
  const { run, ending, cost } = outcome;
  const took = formatDuration(run.elapsedMs);
  const spent = cost ? `, ${describeCost(cost)}` : "";
  if (run.timedOut) return `The sub-agent (${model}) was stopped after ${took}: it ran out of time${spent}.`;
  if (run.exitCode === 0 && ending === "done") return `The sub-agent (${model}) finished in ${took}${spent}.`;
  const how = run.signal ? `killed by ${run.signal}` : `exit ${run.exitCode}`;
  return `The sub-agent (${model}) failed after ${took} (${how})${spent}.`;
}

function report(outcome: AgentOutcome, model: string, maxCost: number | undefined): string {
  const parts = [statusLine(outcome, model)];
  if (maxCost !== undefined) parts.push(`Its share of the spending caps was $${maxCost.toFixed(4)}.`);
  if (outcome.errors.length) parts.push(`Its errors:\n${outcome.errors.join("\n")}`);
  if (!outcome.cost) parts.push("It wrote no cost line, so what it spent is not known.");
  const answer = outcome.answer ? truncateText(outcome.answer, MAX_ANSWER_CHARS) : "(no answer)";
  parts.push(`Its answer:\n${answer}`);
  return parts.join("\n\n");
}

const launchParameters = z.object({
  prompt: z.string().trim().min(1).describe("The whole task: goal, files, constraints, what to report back"),
  working_dir: z.string().default(".").describe("Directory it works in, inside the working dir"),
  model: z
    .string()
    .default("auto")
    .describe(
      "auto (the high tier when read_only, else the low tier), low, high, or a model name of this session's " +
        "provider",
    ),
  read_only: z.boolean().default(false).describe("Only read and report: no file changes, no commands"),
  ticket_id: z.string().nullable().default(null).describe("A ticket whose text is added to the prompt"),
  timeout_minutes: z.number().int().min(1).max(240).default(30).describe("Minutes before it is stopped"),
});

type LaunchArguments = z.infer<typeof launchParameters>;

const launchAgent = defineTool({
  name: "launch_agent",
  description:
    "Hand a self-contained task to a sub-agent: a separate Marvin with a fresh context and the coding tools, run " +
    "to completion in the working dir (or a directory inside it). Returns its final answer and cost. Several may " +
    "run at once (call it several times in one answer). The prompt must say everything the sub-agent needs: it " +
    "sees nothing of this conversation. A sub-agent cannot launch another.",
  effect: (args) => (args.read_only ? "read" : "write"),
  codingOnly: true,
  timeoutMs: (args) => args.timeout_minutes * 60_000 + CONFIRMATION_ALLOWANCE_MS,
  parameters: launchParameters,
  handler: async (args, context) => {
    const depth = nestingDepth(context.env);
    if (depth >= MAX_AGENT_DEPTH) {
      throw new ToolError(
        `Not launching a sub-agent: this Marvin is itself a sub-agent (MARVIN_DEPTH=${depth}), and sub-agents may ` +
          `not launch others, so agents cannot spawn each other without end. Do the task yourself.`,
      );
    }
    // Enlisted before anything is awaited: the sub-agents of one answer share what the spending caps leave.
    const allowance = context.childSpending?.enlist();
    try {
      return await launch(args, context, allowance);
    } finally {
      allowance?.withdraw(); // nothing once it has settled
    }
  },
});

async function launch(args: LaunchArguments, context: ToolContext, allowance: ChildAllowance | undefined) {
  const root = await realWorkingDir(context);
  const directory = await directoryInside(root, args.working_dir);
  const { entryPoint, provider } = childMarvinStart(context, "sub-agent");
  const model = chosenModel(args.model, args.read_only, context.env, provider.model);
  const ticket = args.ticket_id?.trim() ? await ticketSection(context, args.ticket_id) : "";
  const shownDir = relative(root, directory).split(sep).join("/") || ".";
  if (!args.read_only) {
    const question =
      `a sub-agent on ${model} in ${shownDir} (it may change files and run commands without asking): ` +
      preview(args.prompt, PROMPT_PREVIEW_CHARS);
    if (!(await context.approvals.command(question, false)))
      return "The user declined to launch this sub-agent. Ask the user what to do instead, or do it yourself.";
  }
  const caps = await claimCaps(allowance, "Not launching a sub-agent");
  const env = childMarvinEnv(context.env, provider.credentialVariables, { readOnly: args.read_only });
  const outcome = await runSubAgent({
    entryPoint,
    provider: provider.name,
    model,
    directory,
    prompt: args.prompt + ticket,
    env: caps ? withChildCaps(env, caps) : env,
    signal: context.signal,
    timeoutMs: args.timeout_minutes * 60_000,
    onProgress: context.onProgress,
    label: `sub-agent on ${model} in ${shownDir}`,
  });
  allowance?.settle(outcome.cost?.session_cost);
  return {
    text: report(outcome, model, caps?.conversation),
    details: {
      model,
      workingDir: directory,
      readOnly: args.read_only,
      exitCode: outcome.run.exitCode,
      elapsedMs: outcome.run.elapsedMs,
      cost: outcome.cost,
      ...(caps?.conversation === undefined ? {} : { maxCost: caps.conversation }),
    },
  };
}

/** Sub-agents (seed 002 §4.24, as a general tool). */
export const agentTools = [launchAgent];
