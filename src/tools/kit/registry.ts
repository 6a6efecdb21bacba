import type { z } from "zod";
import { nearestNames } from "../../shared/edit-distance.js";
import { errorMessage } from "../../shared/error-message.js";
import { decodeToolArguments, type ToolArguments } from "../../shared/tool-arguments.js";
import type { ToolSchema } from "../../shared/tool-schema.js";
import {
  type AnyToolDef,
  TOOL_EFFECTS,
  type ToolContext,
  type ToolMode,
  type ToolOutcome,
  type ToolOutput,
  type ToolProgress,
} from "./define-tool.js";
import { coerceArguments, describeParameters, exampleCall, type JsonSchema } from "./json-schema.js";
import { lowerResultLimits } from "./lenient-parameters.js";
import { type FamilyCatalog, parametersSchemaOf, type ToolFacts, type ToolFamily, toolFacts } from "./tool-family.js";

const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

interface RegisteredTool {
  facts: ToolFacts;
  schema: ToolSchema;
  family: string;
  /** The tool's code: a built-in family's is loaded on the first call of one of its tools. */
  definition(): Promise<AnyToolDef>;
}

/** The family of the tools always offered (load_tools); it is never listed for loading. */
export const CORE_FAMILY = "core";
/** Tools registered without a family: the user's custom tools. */
const CUSTOM_FAMILY = { name: "custom", summary: "the user's own custom tools" };

/** A family as load_tools lists it: the tools of it offered in a mode. */
export interface FamilyListing {
  name: string;
  summary: string;
  tools: string[];
}

function modeKey(mode: ToolMode): string {
  return `${Number(mode.codingMode)}${Number(mode.nonInteractive)}${Number(mode.readonly)}`;
}

function offeredIn(tool: ToolFacts, mode: ToolMode): boolean {
  if (tool.codingOnly && !mode.codingMode) return false;
  if (tool.interactiveOnly && mode.nonInteractive) return false;
  if (tool.effect === "write" && mode.readonly) return false;
  return true;
}

const READ_ONLY_AGENT = "this is a read-only agent (MARVIN_READONLY=1)";
const PLANNING = "plan mode is on (tools that change something come back once the user approves the plan)";

const readOnlyReason = (mode: ToolMode) => (mode.planning ? PLANNING : READ_ONLY_AGENT);

const error = (result: string): ToolOutcome => ({ result, isError: true });

function succeeded(output: ToolOutput): ToolOutcome {
  if (typeof output === "string") return { result: output, isError: false };
  return {
    result: output.text,
    isError: false,
    ...(output.details === undefined ? {} : { details: output.details }),
    ...(output.images?.length ? { images: output.images } : {}),
  };
}

/** The notes below the result, each on a line of its own. */
function withNotes(outcome: ToolOutcome, notes: string[]): ToolOutcome {
  return notes.length ? { ...outcome, result: [outcome.result, ...notes].join("\n") } : outcome;
}

/** A fraction is kept within 0…1; one that is not a finite number is left out, as is output that is not text. */
function cleanProgress({ message, fraction, output }: ToolProgress): ToolProgress {
  const printed = typeof output === "string" ? { output } : {};
  if (typeof fraction !== "number" || !Number.isFinite(fraction)) return { message: String(message), ...printed };
  return { message: String(message), fraction: Math.min(1, Math.max(0, fraction)), ...printed };
}

/** All tools by name: JSON schemas per mode, and validated, time-limited execution. */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly schemaCache = new Map<string, ToolSchema[]>();
  private readonly familySummaries = new Map<string, string>();

  /**
   * Registers the tools of a built-in family, which load_tools offers together, from its catalog entry: the
   * family's code is loaded by `load` on the first call of one of its tools, so a run loads only what it uses.
   */
  registerFamily(catalog: FamilyCatalog, load: () => Promise<ToolFamily>): void {
    let loading: Promise<ToolFamily> | undefined;
    for (const { parameters, ...facts } of catalog.tools) {
      const schema: ToolSchema = {
        type: "function",
        function: { name: facts.name, description: facts.description, parameters },
      };
      const definition = async () => {
        loading ??= load();
        const def = (await loading).tools.find((tool) => tool.name === facts.name);
        if (!def)
          throw new Error(`the ${catalog.name} family has no tool ${facts.name} (src/tools/catalog.json is stale)`);
        return def;
      };
      this.add({ facts, schema, family: catalog.name, definition }, catalog);
    }
  }

  /** Registers a tool whose code is already loaded: load_tools, MCP tools, the user's custom tools. */
  register(def: AnyToolDef, family: { name: string; summary: string } = CUSTOM_FAMILY): void {
    if (typeof def.effect !== "function" && !TOOL_EFFECTS.includes(def.effect)) {
      const choices = TOOL_EFFECTS.map((effect) => `"${effect}"`).join(", ");
      throw new Error(`Tool '${def.name}' must declare its effect: ${choices} or a function of its arguments`);
    }
    let schema: ToolSchema | undefined;
    this.add(
      {
        facts: toolFacts(def),
        // Made on first use: turning a zod schema into JSON Schema costs about a millisecond a tool.
        get schema() {
          schema ??= {
            type: "function",
            function: { name: def.name, description: def.description, parameters: parametersSchemaOf(def) },
          };
          return schema;
        },
        family: family.name,
        definition: async () => def,
      },
      family,
    );
  }

  private add(tool: RegisteredTool, family: { name: string; summary: string }): void {
    if (this.tools.has(tool.facts.name)) throw new Error(`Tool '${tool.facts.name}' is registered twice`);
    this.tools.set(tool.facts.name, tool);
    this.familySummaries.set(family.name, family.summary);
    this.schemaCache.clear();
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** The code of a tool, loading its family when needed. */
  async definition(name: string): Promise<AnyToolDef | undefined> {
    return this.tools.get(name)?.definition();
  }

  familyOf(name: string): string | undefined {
    return this.tools.get(name)?.family;
  }

  /** The families with tools offered in `mode`, in the order they were registered. */
  families(mode: ToolMode): FamilyListing[] {
    const listings = new Map<string, FamilyListing>();
    for (const { facts, family } of this.tools.values()) {
      if (family === CORE_FAMILY || !offeredIn(facts, mode)) continue;
      const listing = listings.get(family) ?? {
        name: family,
        summary: this.familySummaries.get(family) ?? "",
        tools: [],
      };
      listing.tools.push(facts.name);
      listings.set(family, listing);
    }
    return [...listings.values()];
  }

  /** The schema of each named tool offered in `mode`, in the order of `names`; unknown names are skipped. */
  schemasOf(names: Iterable<string>, mode: ToolMode): ToolSchema[] {
    const schemas: ToolSchema[] = [];
    for (const name of new Set(names)) {
      const tool = this.tools.get(name);
      if (tool && offeredIn(tool.facts, mode)) schemas.push(tool.schema);
    }
    return schemas;
  }

  names(mode?: ToolMode): string[] {
    return [...this.tools.values()]
      .filter(({ facts }) => !mode || offeredIn(facts, mode))
      .map(({ facts }) => facts.name);
  }

  schemas(mode: ToolMode): ToolSchema[] {
    const key = modeKey(mode);
    let cached = this.schemaCache.get(key);
    if (!cached) {
      cached = [...this.tools.values()].filter(({ facts }) => offeredIn(facts, mode)).map(({ schema }) => schema);
      this.schemaCache.set(key, cached);
    }
    return cached;
  }

  /** Runs one call with arguments as the model sent them (an object or its JSON text); see {@link run}. */
  execute(name: string, rawArguments: unknown, context: ToolContext): Promise<ToolOutcome> {
    return this.run(name, decodeToolArguments(rawArguments), context);
  }

  /**
   * Runs one call with its decoded arguments. Never throws: every failure is a result the model can act on.
   * Diagnostics of earlier writes that came after those writes' results end this result, whatever the tool.
   */
  async run(name: string, decoded: ToolArguments, context: ToolContext): Promise<ToolOutcome> {
    const outcome = await this.runCall(name, decoded, context);
    const late = await context.diagnostics.lateReports().catch(() => "");
    return late ? { ...outcome, result: `${outcome.result}\n\n${late}` } : outcome;
  }

  private async runCall(name: string, decoded: ToolArguments, context: ToolContext): Promise<ToolOutcome> {
    const tool = this.tools.get(name);
    if (!tool) return error(this.unknownToolMessage(name, context.mode));
    const parameters = tool.schema.function.parameters as JsonSchema;
    const refusal = this.refusal(tool.facts, context.mode);
    if (refusal) return error(refusal);
    let def: AnyToolDef;
    try {
      def = await tool.definition();
    } catch (thrown) {
      return error(`Error in ${name}: its code could not be loaded (${errorMessage(thrown)}).`);
    }

    if ("rawText" in decoded) {
      // A per-call effect needs parsed arguments: raw text cannot show that the call only reads.
      if (context.mode.readonly && typeof def.effect === "function" && def.rawArguments)
        return error(this.writingCallRefusal(def, context.mode));
      const handled = def.rawArguments
        ? await this.guard(def, context, () => def.rawArguments!(decoded.rawText, context), DEFAULT_TOOL_TIMEOUT_MS)
        : undefined;
      if (handled) return handled;
      return error(
        `Error: the arguments for ${name} must be a JSON object, not a raw string.\n` +
          `Parameters:\n${describeParameters(parameters)}\nExample: ${exampleCall(name, parameters)}\n` +
          `Received: ${decoded.rawText.slice(0, 200)}`,
      );
    }
    if ("notObject" in decoded) {
      return error(
        `Error: the arguments for ${name} must be a JSON object, got ` +
          `${JSON.stringify(decoded.notObject).slice(0, 100)}.\nParameters:\n${describeParameters(parameters)}\n` +
          `Example: ${exampleCall(name, parameters)}`,
      );
    }

    const lowered = lowerResultLimits(name, def.parameters, coerceArguments(parameters, decoded.value));
    const parsed: z.ZodSafeParseResult<Record<string, unknown>> = def.parameters.safeParse(lowered.args);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => {
        const field = issue.path.join(".") || "(arguments)";
        const missing = issue.code === "invalid_type" && decoded.value[String(issue.path[0])] === undefined;
        return `  - ${field}: ${missing ? `required (${issue.expected})` : issue.message}`;
      });
      const unknown = Object.keys(decoded.value).filter((key) => !(key in ((parameters.properties ?? {}) as object)));
      if (unknown.length) problems.push(`  - unknown parameter(s): ${unknown.join(", ")}`);
      return error(
        `Validation error for ` +
          `${name}:\n${problems.join("\n")}\n\nParameters:\n${describeParameters(parameters)}\nCorrect usage: ` +
          `${exampleCall(name, parameters)}`,
      );
    }
    if (context.mode.readonly && typeof def.effect === "function" && def.effect(parsed.data) === "write") {
      return error(this.writingCallRefusal(def, context.mode));
    }
    if (def.approval && !(await context.approvals.tool(name, def.approval))) {
      return error(`The user did not allow ${name} (${def.approval}). Do not call it again unless the user asks.`);
    }
    const timeout =
      typeof def.timeoutMs === "function" ? def.timeoutMs(parsed.data) : (def.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS);
    const outcome = await this.guard(def, context, (guarded) => def.handler(parsed.data, guarded), timeout);
    if (!outcome) return error(`${name} returned nothing.`);
    return outcome.isError ? outcome : withNotes(outcome, lowered.notes);
  }

  private refusal(tool: ToolFacts, mode: ToolMode): string | undefined {
    if (tool.effect === "write" && mode.readonly) {
      const refused = "tools that change files, repositories or the user's saved state, or run commands, are refused";
      return `${tool.name} is disabled: ${readOnlyReason(mode)}, so ${refused}.`;
    }
    if (tool.codingOnly && !mode.codingMode)
      return (
        `${tool.name} is only available in coding mode. Ask the user to turn it on with !code (or run with ` +
        `--working-dir).`
      );
    if (tool.interactiveOnly && mode.nonInteractive) return `${tool.name} is only available in an interactive session.`;
    return undefined;
  }

  private writingCallRefusal(def: AnyToolDef, mode: ToolMode): string {
    const allowed = `Only calls of ${def.name} that read are allowed here.`;
    return `${def.name} was refused: ${readOnlyReason(mode)} and this call would change something. ${allowed}`;
  }

  private unknownToolMessage(name: string, mode: ToolMode): string {
    const available = this.names(mode);
    const near = nearestNames(name, available);
    const hint = near.length ? ` Did you mean: ${near.join(", ")}?` : "";
    return `Unknown tool '${name}'.${hint} Available tools: ${available.join(", ")}`;
  }

  /** Runs with a time limit and abort signal; turns throws and timeouts into error results. */
  private async guard(
    def: AnyToolDef,
    context: ToolContext,
    run: (context: ToolContext) => Promise<ToolOutput | undefined>,
    timeoutMs: number,
  ): Promise<ToolOutcome | undefined> {
    const timeout = new AbortController();
    // AbortSignal.any follows the run's signal without adding a listener to it for every call:
    // a dozen parallel calls would otherwise trip Node's MaxListenersExceededWarning.
    const signal = AbortSignal.any([context.signal, timeout.signal]);
    let timer: NodeJS.Timeout | undefined;
    let ended = false;
    const onProgress = (update: ToolProgress) => {
      // A handler still running after its time limit must not report on a call that has ended.
      if (!ended && !signal.aborted) context.onProgress(cleanProgress(update));
    };
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => {
        timeout.abort(new Error("timeout"));
        resolve("timeout");
      }, timeoutMs);
    });
    try {
      // Object.create keeps the session's live getters (profileName…) reachable. The working dir is
      // read once, as the call starts: a set_working_dir running in the same round must not change
      // it halfway through another call (a notes root computed twice from two directories).
      const guarded: ToolContext = Object.create(context, {
        signal: { value: signal },
        workingDir: { value: context.workingDir },
        onProgress: { value: onProgress },
      });
      const result = await Promise.race([run(guarded), timedOut]);
      if (result === "timeout")
        return error(
          `Tool ${def.name} timed out after ${Number((timeoutMs / 1000).toFixed(1))}s and was stopped. Try a ` +
            `smaller request.`,
        );
      if (context.signal.aborted) return error(`Tool ${def.name} was cancelled.`);
      return result === undefined ? undefined : succeeded(result);
    } catch (thrown) {
      if (context.signal.aborted) return error(`Tool ${def.name} was cancelled.`);
      return error(`Error in ${def.name}: ${errorMessage(thrown)}`);
    } finally {
      ended = true;
      clearTimeout(timer);
    }
  }
}
