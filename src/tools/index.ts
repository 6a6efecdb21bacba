import { codingTools } from "./coding/index.js";
import { fileTools } from "./files/index.js";
import { gitTools } from "./git/index.js";
import { historyTools } from "./history/index.js";
import { mapTools } from "./maps/index.js";
import { notesFileTools } from "./notes/file-tools.js";
import { noteTools } from "./notes/index.js";
import { organiserTools } from "./organiser/index.js";
import { placeTools } from "./places/index.js";
import { profileTools } from "./profiles/index.js";
import { ToolRegistry } from "./registry.js";
import { shellTools } from "./shell/index.js";
import { systemTools } from "./system/index.js";
import { ticketTools } from "./tickets/index.js";
import { timerTools } from "./timers/index.js";
import { weatherTools } from "./weather/index.js";

/** Every tool domain, registered in one place (seed 000 §4.1). */
export function createToolRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of [
    ...systemTools,
    ...placeTools,
    ...weatherTools,
    ...mapTools,
    ...profileTools,
    ...historyTools,
    ...timerTools,
    ...organiserTools,
    ...ticketTools,
    ...noteTools,
    ...notesFileTools,
    ...fileTools,
    ...codingTools,
    ...gitTools,
    ...shellTools,
  ]) {
    registry.register(tool);
  }
  return registry;
}
