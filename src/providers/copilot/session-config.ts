import type { PermissionHandler, SessionConfig, Tool, ToolResultObject } from "@github/copilot-sdk";
import type { ToolSchema } from "../../shared/tool-schema.js";
import type { ChatRequest } from "../types.js";
import { systemMessageOf, toolNamesOf } from "./messages.js";
import type { CopilotSdk } from "./runtime.js";

/** Runs one of Marvin's tools for the session (through Marvin's loop). */
type RunTool = (name: string, args: unknown, toolCallId: string) => Promise<string | ToolResultObject>;

interface SessionSettings {
  model: string;
  workingDirectory?: string;
  runTool: RunTool;
}

function approveOnly(toolNames: ReadonlySet<string>): PermissionHandler {
  return (request) =>
    request.kind === "custom-tool" && toolNames.has(request.toolName)
      ? { kind: "approve-once" }
      : { kind: "reject", feedback: "Only Marvin's own tools may run in this session." };
}

function sdkTool(schema: ToolSchema, runTool: RunTool): Tool {
  const name = schema.function.name;
  return {
    name,
    description: schema.function.description,
    parameters: schema.function.parameters,
    overridesBuiltInTool: true,
    skipPermission: true,
    handler: (args, invocation) => runTool(name, args, invocation.toolCallId),
  };
}

/** A Copilot session for `request`: Marvin's system prompt and tools, and none of the SDK's own. */
export function sessionConfig(request: ChatRequest, sdk: CopilotSdk, settings: SessionSettings): SessionConfig {
  const systemMessage = systemMessageOf(request.messages);
  return {
    clientName: "marvin",
    model: settings.model,
    streaming: true,
    workingDirectory: settings.workingDirectory,
    ...(systemMessage === undefined ? {} : { systemMessage: { mode: "replace", content: systemMessage } }),
    tools: request.tools.map((schema) => sdkTool(schema, settings.runTool)),
    // Only Marvin's tools: the SDK's built-ins (shell, file edits, web fetch) stay off.
    availableTools: new sdk.ToolSet().addCustom("*"),
    toolSearch: { enabled: false },
    onPermissionRequest: approveOnly(new Set(toolNamesOf(request))),
  };
}
