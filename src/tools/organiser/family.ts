import type { ToolFamily } from "../kit/tool-family.js";
import { alarmTools } from "./alarms/alarm-tools.js";
import { calendarTools } from "./calendar/calendar-tools.js";
import { notesFileTools } from "./notes/file-tools.js";
import { noteTools } from "./notes/index.js";
import { ntfyTools } from "./ntfy/ntfy-tools.js";
import { timerTools } from "./timers/index.js";

/** Timers, calendar, alarms, ntfy notifications (seed 000 §2.8) and notes. */
export const organiserFamily: ToolFamily = {
  name: "organiser",
  summary: "timers, calendar, alarms and reminders, ntfy push notifications, notes",
  tools: [...timerTools, ...calendarTools, ...alarmTools, ...ntfyTools, ...noteTools, ...notesFileTools],
};
