import { basename } from "node:path";
import { z } from "zod";
import { errorMessage } from "../../../shared/error-message.js";
import { importUserModules } from "../../../shared/user-modules.js";
import { type AnyToolDef, defineTool, TOOL_EFFECTS, type ToolContext, type ToolOutput } from "../../kit/define-tool.js";
import { type JsonSchema, parametersFromJsonSchema } from "../../kit/json-schema.js";
import { withExec } from "./custom-exec.js";

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** What a custom tool file exports (default export), or a function of `{ z }` that returns it. */
interface CustomToolDefinition {
  name?: unknown;
  description?: unknown;
  /** A zod object (built with the `z` Marvin hands in) or a JSON Schema object; none = no parameters. */
  parameters?: unknown;
  /** "read", "session" or "write" (default "write": a read-only agent is not offered it). */
  effect?: unknown;
  timeoutMs?: unknown;
  handler?: unknown;
}

type Handler = (args: Record<string, unknown>, context: ToolContext) => Promise<ToolOutput> | ToolOutput;

function isZodObject(value: unknown): value is z.ZodObject {
  return value instanceof z.ZodObject;
}

/** The tool a definition describes, or what is wrong with it. */
function toToolDef(definition: CustomToolDefinition): AnyToolDef | string {
  const { name, description, parameters, effect = "write", timeoutMs, handler } = definition;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) return "its name must be 1-64 letters, digits, _ or -";
  if (typeof description !== "string" || !description.trim()) return `tool ${name} needs a description`;
  if (typeof handler !== "function") return `tool ${name} needs a handler function`;
  if (!TOOL_EFFECTS.includes(effect as never)) return `tool ${name}: effect must be "read", "session" or "write"`;
  if (timeoutMs !== undefined && (typeof timeoutMs !== "number" || timeoutMs <= 0))
    return `tool ${name}: timeoutMs must be a positive number`;
  const schema = parameters ?? { type: "object", properties: {} };
  if (!isZodObject(schema) && (typeof schema !== "object" || Array.isArray(schema)))
    return `tool ${name}: parameters must be a zod object (z.object) or a JSON Schema object`;
  const run = handler as Handler;
  return defineTool({
    name,
    description,
    parameters: isZodObject(schema) ? schema : parametersFromJsonSchema(schema as JsonSchema),
    ...(isZodObject(schema) ? {} : { inputSchema: schema as JsonSchema }),
    effect: effect as (typeof TOOL_EFFECTS)[number],
    ...(timeoutMs ? { timeoutMs: timeoutMs as number } : {}),
    handler: async (args, context) => {
      const output = await run(args, withExec(context));
      if (typeof output === "string" || (typeof output === "object" && output && "text" in output)) return output;
      return output === undefined ? "(no output)" : JSON.stringify(output);
    },
  });
}

async function definitionsOf(exports: Record<string, unknown>): Promise<unknown[]> {
  const exported = exports.default ?? exports.tool ?? exports.tools;
  const value = typeof exported === "function" ? await exported({ z }) : exported;
  return Array.isArray(value) ? value : [value];
}

/**
 * The custom tools of `~/.config/local-finder/tools/` (never of a working directory): each file's
 * default export is a definition, a list of them, or a function of `{ z }` returning them. The
 * registry treats them like built-ins (validation, time limit, read-only rule, audit log).
 */
export async function loadCustomTools(dir: string): Promise<{ tools: AnyToolDef[]; problems: string[] }> {
  const tools: AnyToolDef[] = [];
  const problems: string[] = [];
  for (const loaded of await importUserModules(dir)) {
    const where = `Custom tool ${basename(loaded.file)}`;
    if ("problem" in loaded) {
      problems.push(`${where} was not loaded: ${loaded.problem}.`);
      continue;
    }
    try {
      for (const definition of await definitionsOf(loaded.exports)) {
        const tool = toToolDef((definition ?? {}) as CustomToolDefinition);
        if (typeof tool === "string") problems.push(`${where} was not loaded: ${tool}.`);
        else tools.push(tool);
      }
    } catch (error) {
      problems.push(`${where} was not loaded: ${errorMessage(error)}.`);
    }
  }
  return { tools, problems };
}
