import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { childEnvWith } from "../../../shared/child-env.js";
import type { Env } from "../../../shared/env.js";
import { errorMessage } from "../../../shared/error-message.js";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import type { ActiveProvider, ChildAllowance, ChildCaps } from "../../kit/tool-services.js";

/**
 * The `marvin` script of this installation: package.json's `bin.marvin`, found by walking up
 * from this module (so it works from src/ under vitest, from dist/, and from the bundle).
 */
function marvinEntryPoint(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, "package.json"))) {
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  try {
    const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as {
      bin?: string | Record<string, string>;
    };
    const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.marvin;
    if (bin) return join(directory, bin);
  } catch {
    // no readable manifest: fall back to the compiled entry point
  }
  return join(directory, "dist", "cli", "main.js");
}

/** What starting a child Marvin takes. */
interface ChildMarvinStart {
  /** The script to run with `process.execPath`. */
  entryPoint: string;
  /** The provider the child talks to: the parent's. */
  provider: ActiveProvider;
}

/**
 * What a child Marvin (`who`: the tool's name for it) needs from its parent, or an error the model can act on
 * when something is missing.
 */
export function childMarvinStart(context: Pick<ToolContext, "provider">, who: string): ChildMarvinStart {
  const provider = context.provider;
  if (!provider) {
    throw new ToolError(
      `Cannot start a ${who}: this session has no active LLM provider yet, so the ${who} would not know which one ` +
        "to use.",
    );
  }
  const entryPoint = marvinEntryPoint();
  if (!existsSync(entryPoint))
    throw new ToolError(
      `Cannot start a ${who}: Marvin's command-line entry point ${entryPoint} is missing. Build it with \`npm ` +
        `run build\`.`,
    );
  return { entryPoint, provider };
}

/** MARVIN_DEPTH: 0 for a Marvin the user started, one more for each Marvin started by another. */
export function nestingDepth(env: Readonly<Record<string, string | undefined>>): number {
  const depth = Number.parseInt(env.MARVIN_DEPTH ?? "0", 10);
  return Number.isFinite(depth) && depth > 0 ? depth : 0;
}

/**
 * A child Marvin's environment: the parent's (HOME, settings, and the key of its own provider
 * only), one level deeper, without git repository overrides or the parent's audit log; read-only
 * when asked (a read-only parent's MARVIN_READONLY is passed on as it is).
 */
export function childMarvinEnv(
  env: Env,
  credentialVariables: readonly string[],
  options: { readOnly: boolean },
): Record<string, string> {
  const child = childEnvWith(env, credentialVariables);
  child.MARVIN_DEPTH = String(nestingDepth(env) + 1);
  if (options.readOnly) child.MARVIN_READONLY = "1";
  delete child.MARVIN_SUBAGENT_LOG;
  return child;
}

/** A child's share of the spending caps (none without an allowance), or a refusal starting with `refusal`. */
export async function claimCaps(
  allowance: ChildAllowance | undefined,
  refusal: string,
): Promise<ChildCaps | undefined> {
  try {
    return await allowance?.claim();
  } catch (error) {
    throw new ToolError(`${refusal}. ${errorMessage(error)}`);
  }
}

/** Sets a child's spending caps to `caps` (what its parent gave it), removing a cap it must not have. */
export function withChildCaps(env: Record<string, string>, caps: ChildCaps): Record<string, string> {
  const settings = { MARVIN_MAX_COST: caps.conversation, MARVIN_MAX_DAILY_COST: caps.daily };
  for (const [name, limit] of Object.entries(settings)) {
    if (limit === undefined) delete env[name];
    else env[name] = limit.toFixed(6);
  }
  return env;
}

/** The fields of a MARVIN_COST line that Marvin reports back. */
export interface ChildCost {
  session_cost: number;
  llm_turns: number;
}

/** The last MARVIN_COST line of a child's stderr, if it has written one. */
export function childCost(stderr: string): ChildCost | undefined {
  const line = stderr.split("\n").findLast((candidate) => candidate.startsWith("MARVIN_COST:"));
  if (!line) return undefined;
  try {
    const cost = JSON.parse(line.slice("MARVIN_COST:".length)) as Partial<ChildCost>;
    return { session_cost: cost.session_cost ?? 0, llm_turns: cost.llm_turns ?? 0 };
  } catch {
    return undefined;
  }
}

/** `$0.0123, 3 LLM turns`. */
export function describeCost(cost: ChildCost): string {
  return `$${cost.session_cost.toFixed(4)}, ${cost.llm_turns} LLM turn${cost.llm_turns === 1 ? "" : "s"}`;
}
