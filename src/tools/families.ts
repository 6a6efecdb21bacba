import catalogFile from "./catalog.json" with { type: "json" };
import type { FamilyCatalog, ToolFamily } from "./kit/tool-family.js";

/**
 * Every built-in tool family, in the order they are offered (seed 000 Appendix B). A family's code (its handlers
 * and what they use: HTML and feed parsers, calendars…) is loaded on the first call of one of its tools; until
 * then the registry offers its tools from src/tools/catalog.json, which catalog.test.ts keeps equal to the code.
 */
export const FAMILY_LOADERS: ReadonlyArray<readonly [name: string, load: () => Promise<ToolFamily>]> = [
  ["personal", async () => (await import("./personal/family.js")).personalFamily],
  ["places", async () => (await import("./places/family.js")).placesFamily],
  ["media", async () => (await import("./media/family.js")).mediaFamily],
  ["web", async () => (await import("./web/family.js")).webFamily],
  ["organiser", async () => (await import("./organiser/family.js")).organiserFamily],
  ["tickets", async () => (await import("./tickets/family.js")).ticketsFamily],
  ["coding", async () => (await import("./coding/family.js")).codingFamily],
  ["knowledge", async () => (await import("./knowledge/family.js")).knowledgeFamily],
];

export const TOOL_CATALOG: readonly FamilyCatalog[] = (catalogFile as { families: FamilyCatalog[] }).families;

const familyToolNames = (name: string) =>
  TOOL_CATALOG.find((family) => family.name === name)?.tools.map((tool) => tool.name) ?? [];

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
  coding: ["web_search", "browse_web", "exit_app", ...familyToolNames("coding")],
} as const;
