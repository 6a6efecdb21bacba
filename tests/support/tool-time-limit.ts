import { createToolContext } from "../../src/session/standalone-tool-context.js";
import type { Env } from "../../src/shared/env.js";
import type { AnyToolDef, ToolOutcome } from "../../src/tools/kit/define-tool.js";
import { registryOf } from "./test-session.js";

/**
 * Calls the real tool `name` of `tools` through the registry with a shorter time limit, so a test of a
 * service that never answers ends in a second rather than after the tool's usual limit.
 */
export async function callWithTimeLimit(
  tools: readonly AnyToolDef[],
  name: string,
  args: unknown,
  { home, env, timeoutMs }: { home: string; env: Env; timeoutMs: number },
): Promise<ToolOutcome> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`No tool ${name}`);
  const registry = registryOf([{ ...tool, timeoutMs }]);
  return registry.execute(name, JSON.stringify(args), createToolContext({ home, env }));
}
