import type { ToolFamily } from "../kit/tool-family.js";
import { chatLogTools } from "./chat-log/index.js";
import { profileTools } from "./profiles/index.js";
import { systemTools } from "./system/index.js";

export const personalFamily: ToolFamily = {
  name: "personal",
  summary: "the app, usage and system info, profiles and preferences, chat-history backups",
  tools: [...systemTools, ...profileTools, ...chatLogTools],
};
