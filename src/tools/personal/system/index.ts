import { z } from "zod";
import { configPaths } from "../../../state/paths.js";
import { cacheHitText, type UsageRecord } from "../../../state/usage.js";
import { defineTool } from "../../kit/define-tool.js";
import { describeSystem } from "./system-info.js";

function usd(value: number): string {
  return `$${value.toFixed(value < 0.01 && value > 0 ? 6 : 4)}`;
}

function describeUsage(title: string, cost: number, record: Omit<UsageRecord, "session_cost">): string {
  const lines = [`${title}: ${usd(cost)} over ${record.llm_turns} LLM call(s)`];
  for (const model of Object.keys(record.model_turns)) {
    const input = record.input_tokens[model] ?? 0;
    const cached = cacheHitText({
      input_tokens: { [model]: input },
      cached_tokens: { [model]: record.cached_tokens[model] ?? 0 },
    });
    lines.push(
      `  ${model}: ${record.model_turns[model]} call(s), ${input} in${cached ? ` (${cached})` : ""} / ` +
        `${record.output_tokens[model] ?? 0} out tokens, ${usd(record.model_cost[model] ?? 0)}`,
    );
  }
  const tools = Object.entries(record.tool_calls).sort(([, a], [, b]) => b - a);
  if (tools.length) lines.push(`  tools: ${tools.map(([name, count]) => `${name} ×${count}`).join(", ")}`);
  return lines.join("\n");
}

export const systemTools = [
  defineTool({
    name: "exit_app",
    effect: "session",
    description: "Exit Marvin after this answer (interactive sessions).",
    parameters: z.object({ message: z.string().default("Goodbye!") }),
    handler: async ({ message }, context) => {
      context.requestExit(message);
      return context.mode.nonInteractive ? `${message} (this run ends when the answer is complete)` : message;
    },
  }),
  defineTool({
    name: "system_info",
    effect: "read",
    description: "OS, CPU, memory, disk, uptime and battery of this machine.",
    parameters: z.object({}),
    handler: async (_args, context) => describeSystem(context.home),
  }),
  defineTool({
    name: "get_usage",
    effect: "read",
    description: "Token counts and estimated cost of this session (and lifetime totals).",
    parameters: z.object({ include_lifetime: z.boolean().default(false) }),
    handler: async ({ include_lifetime }, context) => {
      const session = context.usage.getSessionUsage();
      const parts = [describeUsage("This session", session.session_cost, session)];
      if (include_lifetime) {
        const { value: lifetime, warning } = await context.usage.getLifetimeUsage(configPaths(context.home).usage);
        if (warning) parts.unshift(warning);
        parts.push(describeUsage(`Lifetime (${lifetime.sessions} sessions)`, lifetime.total_cost, lifetime));
      }
      return parts.join("\n\n");
    },
  }),
];
