import { TOOL_FAMILIES } from "./families.js";
import { loadToolsTool } from "./kit/load-tools.js";
import { CORE_FAMILY, ToolRegistry } from "./kit/registry.js";

/** Every tool family, registered in one place (seed 000 §4.1), and load_tools, which offers them on demand. */
export function createToolRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const family of TOOL_FAMILIES) registry.registerFamily(family.name, family.summary, family.tools);
  registry.register(loadToolsTool(registry), { name: CORE_FAMILY, summary: "" });
  return registry;
}
