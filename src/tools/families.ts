import { codingFamily } from "./coding/family.js";
import type { ToolFamily } from "./kit/tool-family.js";
import { knowledgeFamily } from "./knowledge/family.js";
import { mediaFamily } from "./media/family.js";
import { organiserFamily } from "./organiser/family.js";
import { personalFamily } from "./personal/family.js";
import { placesFamily } from "./places/family.js";
import { ticketsFamily } from "./tickets/family.js";
import { webFamily } from "./web/family.js";

/** Every built-in tool, by family, in the order they are offered (seed 000 Appendix B). */
export const TOOL_FAMILIES: readonly ToolFamily[] = [
  personalFamily,
  placesFamily,
  mediaFamily,
  webFamily,
  organiserFamily,
  ticketsFamily,
  codingFamily,
  knowledgeFamily,
];

/**
 * The tools offered from the first request on, before any load_tools call: in chat mode a handful of the most
 * used everyday tools, in coding mode the coding family and those.
 */
export const CORE_TOOLS = {
  chat: [
    "web_search",
    "browse_web",
    "weather_forecast",
    "get_my_location",
    "timer_start",
    "convert_units",
    "update_preferences",
    "exit_app",
  ],
  coding: ["web_search", "browse_web", "exit_app", ...codingFamily.tools.map((tool) => tool.name)],
} as const;
