import { z } from "zod";
import { defineTool } from "../../kit/define-tool.js";

export const timerTools = [
  defineTool({
    name: "timer_start",
    effect: "session",
    description: "Start a named countdown (duration_seconds > 0) or stopwatch (0).",
    parameters: z.object({
      name: z.string().min(1),
      duration_seconds: z.number().int().min(0).default(0),
    }),
    handler: async ({ name, duration_seconds }, context) => context.timers.start(name, duration_seconds),
  }),
  defineTool({
    name: "timer_check",
    effect: "read",
    description: "Time left/elapsed of a timer, or of all timers when name is empty.",
    parameters: z.object({ name: z.string().default("") }),
    handler: async ({ name }, context) => (name ? context.timers.describe(name) : context.timers.describeAll()),
  }),
  defineTool({
    name: "timer_stop",
    effect: "session",
    description: "Stop a timer and report its final time.",
    parameters: z.object({ name: z.string().min(1) }),
    handler: async ({ name }, context) => context.timers.stop(name),
  }),
];
