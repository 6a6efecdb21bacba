import type { ToolFamily } from "../kit/tool-family.js";
import { downloadTools } from "./downloads/index.js";
import { webTools } from "./pages/index.js";

export const webFamily: ToolFamily = {
  name: "web",
  summary: "web search, news, reading web pages, downloads",
  tools: [...webTools, ...downloadTools],
};
