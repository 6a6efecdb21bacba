import { alarmTools } from "./alarms/tools.js";
import { calendarTools } from "./calendar/tools.js";
import { ntfyTools } from "./ntfy/tools.js";

/** Calendar, alarms and ntfy notifications (seed 000 §2.8). */
export const organiserTools = [...calendarTools, ...alarmTools, ...ntfyTools];
