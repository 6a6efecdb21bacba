import type { ToolFamily } from "../kit/tool-family.js";
import { ticketTools } from "./index.js";

export const ticketsFamily: ToolFamily = { name: "tickets", summary: "the project's tickets (tk)", tools: ticketTools };
