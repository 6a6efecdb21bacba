import { ToolError } from "../../../shared/tool-error.js";
import { type AnyToolDef, defineTool } from "../../kit/define-tool.js";
import { parametersFromJsonSchema } from "../../kit/json-schema.js";
import { toolNamePart } from "./config.js";
import type { McpToolInfo } from "./connection.js";
import { type McpCallResult, resultText } from "./result-text.js";

/** Providers accept tool names of at most 64 characters. */
const MAX_TOOL_NAME = 64;

function mcpToolName(server: string, tool: string): string {
  return `${server}__${toolNamePart(tool)}`.slice(0, MAX_TOOL_NAME);
}

interface ServerHandle {
  name: string;
  toolTimeoutMs: number;
  /** Calls a tool on the running server; throws when the server is gone. */
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number): Promise<McpCallResult>;
}

/**
 * One MCP tool as a Marvin tool: `<server>__<tool>`, the server's JSON Schema as given, read-only
 * only when the server's annotations say `readOnlyHint` (the registry then offers it to a
 * read-only agent), and the server's `isError` results as errors the model can act on.
 */
export function mcpToolDef(server: ServerHandle, tool: McpToolInfo): AnyToolDef {
  const inputSchema = { type: "object", properties: {}, ...tool.inputSchema };
  const description =
    tool.description?.trim() || tool.annotations?.title || `Tool ${tool.name} of MCP server ${server.name}.`;
  return defineTool({
    name: mcpToolName(server.name, tool.name),
    description: `${description} (MCP server ${server.name})`,
    parameters: parametersFromJsonSchema(inputSchema),
    inputSchema,
    effect: tool.annotations?.readOnlyHint === true ? "read" : "write",
    ...(tool.annotations?.readOnlyHint === true ? {} : { approval: `MCP tool of ${server.name}, may change things` }),
    // The registry's limit stops the call a moment after the server's own request timeout would.
    timeoutMs: server.toolTimeoutMs + 1_000,
    handler: async (args, context) => {
      const result = await server.call(tool.name, args, context.signal, server.toolTimeoutMs);
      const text = resultText(result);
      if (result.isError)
        throw new ToolError(
          `MCP server ${server.name} reports an error from ${tool.name}: ${text}\n` +
            "Check the arguments against the tool's parameters and try again, or tell the user what failed.",
        );
      return text;
    },
  });
}
