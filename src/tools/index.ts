import { FAMILY_LOADERS, TOOL_CATALOG } from "./families.js";
import { loadToolsTool } from "./kit/load-tools.js";
import { CORE_FAMILY, ToolRegistry } from "./kit/registry.js";

const loaders = new Map(FAMILY_LOADERS);

/** Every tool family, registered in one place (seed 000 §4.1), and load_tools, which offers them on demand. */
export function createToolRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const family of TOOL_CATALOG) {
    const load = loaders.get(family.name);
    if (!load) throw new Error(`src/tools/catalog.json names a tool family that does not exist: ${family.name}`);
    registry.registerFamily(family, load);
  }
  registry.register(loadToolsTool(registry), { name: CORE_FAMILY, summary: "" });
  return registry;
}
