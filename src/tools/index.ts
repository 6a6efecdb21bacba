import { ToolRegistry } from "./registry.js";
import { historyTools } from "./history/index.js";
import { placeTools } from "./places/index.js";
import { profileTools } from "./profiles/index.js";
import { systemTools } from "./system/index.js";
import { timerTools } from "./timers/index.js";

/** Every tool domain, registered in one place (seed 000 §4.1). */
export function createToolRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of [...systemTools, ...placeTools, ...profileTools, ...historyTools, ...timerTools]) {
    registry.register(tool);
  }
  return registry;
}
