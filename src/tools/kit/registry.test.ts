import { z } from "zod";
import { test as base, describe, expect } from "../../../tests/support/fixtures.js";
import { createTestSession, registryOf } from "../../../tests/support/test-session.js";
import { createToolContext } from "../../session/standalone-tool-context.js";
import { sleep } from "../../shared/sleep.js";
import { defineTool, type ToolContext, ToolError, type ToolMode, type ToolProgress } from "./define-tool.js";
import type { ToolRegistry } from "./registry.js";

/** `contextFor(mode, signal)`: a standalone tool context over `home`. */
const test = base.extend<{ contextFor: (mode: ToolMode, signal?: AbortSignal) => ToolContext }>({
  contextFor: async ({ home }, use) =>
    use((mode, signal = new AbortController().signal) => createToolContext({ home, mode, signal })),
});

const INTERACTIVE: ToolMode = { codingMode: false, nonInteractive: false, readonly: false };
const CODING: ToolMode = { codingMode: true, nonInteractive: false, readonly: false };
const NON_INTERACTIVE: ToolMode = { codingMode: true, nonInteractive: true, readonly: false };
const READONLY: ToolMode = { codingMode: true, nonInteractive: true, readonly: true };

/** Handlers record what they received, so tests see exactly what reached them. */
const received: Array<{ tool: string; args: unknown }> = [];
const echo = (tool: string) => async (args: unknown) => {
  received.push({ tool, args });
  return `${tool} ran with ${JSON.stringify(args)}`;
};

const everyday = defineTool({
  name: "weather_forecast",
  effect: "read",
  description: "Weather.",
  parameters: z.object({ city: z.string() }),
  handler: echo("weather_forecast"),
});
const codingOnly = defineTool({
  name: "git_status",
  effect: "read",
  description: "Status.",
  parameters: z.object({}),
  codingOnly: true,
  handler: echo("git_status"),
});
const writer = defineTool({
  name: "create_file",
  effect: "write",
  description: "Create.",
  parameters: z.object({ path: z.string(), content: z.string() }),
  codingOnly: true,
  handler: echo("create_file"),
});
const interactiveOnly = defineTool({
  name: "open_editor",
  effect: "read",
  description: "Editor.",
  parameters: z.object({}),
  interactiveOnly: true,
  handler: echo("open_editor"),
});
const typed = defineTool({
  name: "timer_start",
  effect: "read",
  description: "Timer.",
  parameters: z.object({
    name: z.string(),
    duration_seconds: z.number().int().min(0).default(0),
    loud: z.boolean().default(false),
    tags: z.array(z.string()).default([]),
    note: z.string().optional(),
  }),
  handler: echo("timer_start"),
});

function registry(): ToolRegistry {
  received.length = 0;
  return registryOf([everyday, codingOnly, writer, interactiveOnly, typed]);
}

const schemaNames = (tools: ToolRegistry, mode: ToolMode) => tools.schemas(mode).map((schema) => schema.function.name);

describe("tool schemas per mode", () => {
  test("hides codingOnly tools outside coding mode", () => {
    const tools = registry();
    expect(schemaNames(tools, INTERACTIVE)).toEqual(["weather_forecast", "open_editor", "timer_start"]);
    expect(schemaNames(tools, CODING)).toEqual([
      "weather_forecast",
      "git_status",
      "create_file",
      "open_editor",
      "timer_start",
    ]);
  });

  test("hides interactiveOnly tools from non-interactive runs", () => {
    expect(schemaNames(registry(), NON_INTERACTIVE)).toEqual([
      "weather_forecast",
      "git_status",
      "create_file",
      "timer_start",
    ]);
  });

  test("strips write tools when read-only", () => {
    expect(schemaNames(registry(), READONLY)).toEqual(["weather_forecast", "git_status", "timer_start"]);
    expect(registry().names(READONLY)).not.toContain("create_file");
  });

  test("sends OpenAI function schemas built from the zod parameters", () => {
    const [schema] = registry().schemas(INTERACTIVE);
    expect(schema).toEqual({
      type: "function",
      function: {
        name: "weather_forecast",
        description: "Weather.",
        parameters: expect.objectContaining({ type: "object", required: ["city"] }),
      },
    });
  });

  test("refuses a second tool with the same name", () => {
    const tools = registry();
    expect(() => tools.register(everyday)).toThrow("Tool 'weather_forecast' is registered twice");
  });
});

describe("refusing tools the mode does not offer", () => {
  test("refuses a write tool in a read-only agent with a clear message, without running it", async ({ contextFor }) => {
    const tools = registry();
    const outcome = await tools.execute("create_file", { path: "a.txt", content: "x" }, contextFor(READONLY));
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("create_file is disabled: this is a read-only agent (MARVIN_READONLY=1)");
    expect(received).toEqual([]);
  });

  test(
    "offers a tool that writes only with some arguments to a read-only agent, and refuses just its " + "writing calls",
    async ({ contextFor }) => {
      const branches = defineTool({
        name: "branches",
        effect: ({ create }) => (create ? "write" : "read"),
        description: "Lists or creates branches.",
        parameters: z.object({ create: z.string().default("") }),
        handler: echo("branches"),
        rawArguments: async () => "raw text ran",
      });
      const tools = registryOf([branches]);
      const context = contextFor(READONLY);
      expect(schemaNames(tools, READONLY)).toEqual(["branches"]);
      expect(await tools.execute("branches", {}, context)).toEqual({
        isError: false,
        result: 'branches ran with {"create":""}',
      });
      const writing = await tools.execute("branches", { create: "topic" }, context);
      expect(writing).toEqual({
        isError: true,
        result: expect.stringContaining("branches was refused: this is a read-only agent (MARVIN_READONLY=1)"),
      });
      expect((await tools.execute("branches", "create topic", context)).result).toContain("branches was refused");
      expect(received).toEqual([{ tool: "branches", args: { create: "" } }]);
      expect((await tools.execute("branches", { create: "topic" }, contextFor(CODING))).isError).toBe(false);
    },
  );

  test("refuses to register a tool that does not declare what it changes", () => {
    const undeclared = { ...everyday, name: "undeclared", effect: undefined } as unknown as typeof everyday;
    expect(() => registryOf([undeclared])).toThrow(
      `Tool 'undeclared' must declare its effect: "read", "session", "write" or a function of its arguments`,
    );
  });

  test("refuses a coding tool outside coding mode and says how to turn it on", async ({ contextFor }) => {
    const tools = registry();
    const outcome = await tools.execute("git_status", {}, contextFor(INTERACTIVE));
    expect(outcome).toEqual({
      isError: true,
      result: expect.stringContaining("git_status is only available in coding mode"),
    });
    expect(outcome.result).toContain("!code");
    expect(received).toEqual([]);
  });

  test("refuses an interactive-only tool in a non-interactive run", async ({ contextFor }) => {
    const tools = registry();
    const outcome = await tools.execute("open_editor", {}, contextFor(NON_INTERACTIVE));
    expect(outcome.result).toBe("open_editor is only available in an interactive session.");
    expect(received).toEqual([]);
  });
});

describe("unknown tools", () => {
  test("lists near names among the tools the mode offers", async ({ contextFor }) => {
    const tools = registry();
    const outcome = await tools.execute("timer_stat", {}, contextFor(INTERACTIVE));
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toMatch(/^Unknown tool 'timer_stat'\. Did you mean: timer_start\? Available tools: /);
    expect(outcome.result).not.toContain("git_status"); // hidden outside coding mode
  });

  test("still lists the available tools when nothing is close", async ({ contextFor }) => {
    const tools = registry();
    const outcome = await tools.execute("zzzzzzzzzz", {}, contextFor(CODING));
    expect(outcome.result).toBe(
      "Unknown tool 'zzzzzzzzzz'. Available tools: weather_forecast, git_status, create_file, open_editor, timer_start",
    );
  });
});

describe("argument decoding", () => {
  test("accepts an object, a JSON string of one, and a double-encoded JSON string", async ({ contextFor }) => {
    const tools = registry();
    const context = contextFor(INTERACTIVE);
    const forms = [
      { city: "Oslo" },
      JSON.stringify({ city: "Oslo" }),
      JSON.stringify(JSON.stringify({ city: "Oslo" })),
    ];
    for (const form of forms) {
      const outcome = await tools.execute("weather_forecast", form, context);
      expect(outcome).toEqual({ isError: false, result: 'weather_forecast ran with {"city":"Oslo"}' });
    }
  });

  test("treats empty, null and missing arguments as no arguments", async ({ contextFor }) => {
    const tools = registry();
    const context = contextFor(CODING);
    for (const form of ["", "  ", "null", null, undefined]) {
      expect((await tools.execute("git_status", form, context)).result).toBe("git_status ran with {}");
    }
  });

  test("explains a raw non-JSON string with the parameters and an example", async ({ contextFor }) => {
    const tools = registry();
    const outcome = await tools.execute("timer_start", "name=tea, duration=5", contextFor(INTERACTIVE));
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("Error: the arguments for timer_start must be a JSON object, not a raw string.");
    expect(outcome.result).toContain("  - name (string, required)");
    expect(outcome.result).toContain("  - duration_seconds (integer, default 0)");
    expect(outcome.result).toContain('Example: timer_start({"name":"..."})');
    expect(outcome.result).toContain("Received: name=tea, duration=5");
    expect(received).toEqual([]);
  });

  test("explains a raw string even when it arrives JSON-quoted", async ({ contextFor }) => {
    const tools = registry();
    const outcome = await tools.execute("weather_forecast", JSON.stringify("city=Oslo"), contextFor(INTERACTIVE));
    expect(outcome.result).toContain("must be a JSON object, not a raw string");
    expect(outcome.result).toContain("Received: city=Oslo");
  });

  test("rejects JSON that is not an object", async ({ contextFor }) => {
    const tools = registry();
    const outcome = await tools.execute("weather_forecast", "[1,2]", contextFor(INTERACTIVE));
    expect(outcome.result).toMatch(/^Error: the arguments for weather_forecast must be a JSON object, got \[1,2\]\./);
    expect(outcome.result).toContain('Example: weather_forecast({"city":"..."})');
  });

  test("hands raw strings to a tool that understands them (Codex patches), quoted or not", async ({ contextFor }) => {
    const patches: string[] = [];
    const patchTool = defineTool({
      name: "apply_patch",
      effect: "write",
      description: "Patch.",
      parameters: z.object({ path: z.string(), old_str: z.string(), new_str: z.string() }),
      handler: async () => "structured",
      rawArguments: async (raw) => {
        if (!raw.startsWith("*** Begin Patch")) return undefined;
        patches.push(raw);
        return "patch applied";
      },
    });
    const tools = registryOf([patchTool]);
    const context = contextFor(CODING);
    const patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n*** End Patch";
    expect(await tools.execute("apply_patch", patch, context)).toEqual({ isError: false, result: "patch applied" });
    expect(await tools.execute("apply_patch", JSON.stringify(patch), context)).toEqual({
      isError: false,
      result: "patch applied",
    });
    expect(patches).toEqual([patch, patch]);
    const other = await tools.execute("apply_patch", "diff --git a b", context);
    expect(other.result).toContain("must be a JSON object, not a raw string");
  });
});

describe("validation", () => {
  test("names every wrong field and shows the correct usage", async ({ contextFor }) => {
    const tools = registry();
    const outcome = await tools.execute(
      "timer_start",
      { duration_seconds: "soon", loud: "very", colour: "red" },
      contextFor(INTERACTIVE),
    );
    expect(outcome.isError).toBe(true);
    const lines = outcome.result.split("\n");
    expect(lines[0]).toBe("Validation error for timer_start:");
    expect(lines).toContain("  - name: required (string)");
    expect(lines.find((line) => line.startsWith("  - duration_seconds: "))).toMatch(/expected number/);
    expect(lines.find((line) => line.startsWith("  - loud: "))).toMatch(/expected boolean/);
    expect(lines).toContain("  - unknown parameter(s): colour");
    expect(outcome.result).toContain("Parameters:\n  - name (string, required)");
    expect(outcome.result).toContain('Correct usage: timer_start({"name":"..."})');
    expect(received).toEqual([]);
  });

  test("repairs the lax forms models send: numbers and booleans as strings, null, one string for a list", async ({
    contextFor,
  }) => {
    const tools = registry();
    const outcome = await tools.execute(
      "timer_start",
      { name: "tea", duration_seconds: " 180 ", loud: "TRUE", tags: "kitchen", note: null },
      contextFor(INTERACTIVE),
    );
    expect(outcome.isError).toBe(false);
    expect(received.at(-1)!.args).toEqual({ name: "tea", duration_seconds: 180, loud: true, tags: ["kitchen"] });
    await tools.execute("timer_start", { name: "tea", tags: '["a","b"]' }, contextFor(INTERACTIVE));
    expect(received.at(-1)!.args).toEqual({ name: "tea", duration_seconds: 0, loud: false, tags: ["a", "b"] });
  });
});

describe("running handlers", () => {
  test("stops a tool at its time limit, aborts its signal and says so", async ({ contextFor }) => {
    let sawAbort = false;
    const slow = defineTool({
      name: "slow_tool",
      effect: "read",
      description: "Slow.",
      parameters: z.object({}),
      timeoutMs: 100,
      handler: async (_args, context) => {
        await sleep(5_000, context.signal).catch(() => (sawAbort = context.signal.aborted));
        return "too late";
      },
    });
    const tools = registryOf([slow]);
    const started = Date.now();
    const outcome = await tools.execute("slow_tool", {}, contextFor(INTERACTIVE));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(outcome).toEqual({
      isError: true,
      result: "Tool slow_tool timed out after 0.1s and was stopped. Try a smaller request.",
    });
    await sleep(10);
    expect(sawAbort).toBe(true);
  });

  test("takes the time limit from the arguments when it is a function", async ({ contextFor }) => {
    const waits = defineTool({
      name: "wait",
      effect: "read",
      description: "Waits.",
      parameters: z.object({ seconds: z.number() }),
      timeoutMs: ({ seconds }) => seconds * 1000,
      handler: async (_args, context) => {
        await sleep(300, context.signal);
        return "waited";
      },
    });
    const tools = registryOf([waits]);
    const context = contextFor(INTERACTIVE);
    expect((await tools.execute("wait", { seconds: 2 }, context)).result).toBe("waited");
    expect((await tools.execute("wait", { seconds: 0.05 }, context)).result).toContain("timed out after 0.1s");
  });

  test("turns a throwing handler into an error result the model can read", async ({ contextFor }) => {
    const failing = defineTool({
      name: "failing",
      effect: "read",
      description: "Fails.",
      parameters: z.object({}),
      handler: async () => {
        throw new ToolError("File not found: a.txt. Use tree to list files.");
      },
    });
    const crashing = defineTool({
      name: "crashing",
      effect: "read",
      description: "Crashes.",
      parameters: z.object({}),
      handler: async () => {
        throw new TypeError("cannot read x of undefined");
      },
    });
    const tools = registryOf([failing, crashing]);
    const context = contextFor(INTERACTIVE);
    expect(await tools.execute("failing", {}, context)).toEqual({
      isError: true,
      result: "Error in failing: File not found: a.txt. Use tree to list files.",
    });
    expect(await tools.execute("crashing", {}, context)).toEqual({
      isError: true,
      result: "Error in crashing: cannot read x of undefined",
    });
  });

  test("reports a cancelled call when the run is aborted", async ({ contextFor }) => {
    const waiting = defineTool({
      name: "waiting",
      effect: "read",
      description: "Waits.",
      parameters: z.object({}),
      handler: async (_args, context) => {
        await sleep(5_000, context.signal);
        return "done";
      },
    });
    const tools = registryOf([waiting]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user pressed Ctrl+C")), 30);
    const outcome = await tools.execute("waiting", {}, contextFor(INTERACTIVE, controller.signal));
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toBe("Tool waiting was cancelled.");
  });

  test("gives the handler the session's live context", async ({ home }) => {
    const where = defineTool({
      name: "where",
      effect: "read",
      description: "Where.",
      parameters: z.object({}),
      handler: async (_args, context) => `${context.profileName} ${context.workingDir} ${context.mode.codingMode}`,
    });
    const tools = registryOf([where]);
    const session = createTestSession({ home, registry: tools, codingMode: true });
    const context = session.toolContext(new AbortController().signal);
    session.setWorkingDir("/somewhere");
    expect((await tools.execute("where", {}, context)).result).toBe("main /somewhere true");
  });
});

describe("what a handler gives back", () => {
  const weather = defineTool({
    name: "weather_now",
    effect: "read",
    description: "Weather now.",
    parameters: z.object({ city: z.string() }),
    handler: async ({ city }) => ({ text: `Sunny in ${city}, 21 °C.`, details: { city, celsius: 21 } }),
  });

  test("passes details on beside the text the model reads", async ({ contextFor }) => {
    const tools = registryOf([weather]);
    const outcome = await tools.execute("weather_now", { city: "Bern" }, contextFor(INTERACTIVE));
    const details = { city: "Bern", celsius: 21 };
    expect(outcome).toEqual({ result: "Sunny in Bern, 21 °C.", isError: false, details });
  });

  test("gives a plain-text result no details at all", async ({ contextFor }) => {
    const tools = registry();
    const outcome = await tools.execute("weather_forecast", { city: "Oslo" }, contextFor(INTERACTIVE));
    expect(Object.keys(outcome)).toEqual(["result", "isError"]);
  });

  test("passes progress on while the call runs, with the fraction kept within 0 to 1", async ({ home }) => {
    const steps: ToolProgress[] = [];
    const cloning = defineTool({
      name: "clone",
      effect: "write",
      description: "Clones.",
      parameters: z.object({}),
      handler: async (_args, context) => {
        context.onProgress({ message: "Counting objects" });
        context.onProgress({ message: "Receiving objects", fraction: 0.5 });
        context.onProgress({ message: "Resolving deltas", fraction: 1.7 });
        context.onProgress({ message: "Checking out", fraction: Number.NaN });
        return "Cloned.";
      },
    });
    const tools = registryOf([cloning]);
    const context = createToolContext({ home, onProgress: (update) => steps.push(update) });
    expect((await tools.execute("clone", {}, context)).result).toBe("Cloned.");
    expect(steps).toEqual([
      { message: "Counting objects" },
      { message: "Receiving objects", fraction: 0.5 },
      { message: "Resolving deltas", fraction: 1 },
      { message: "Checking out" },
    ]);
  });

  test("drops progress a handler reports after its call has ended", async ({ home }) => {
    const steps: ToolProgress[] = [];
    let reportLate: () => void = () => undefined;
    const stubborn = defineTool({
      name: "stubborn",
      effect: "read",
      description: "Ignores its time limit.",
      parameters: z.object({}),
      timeoutMs: 50,
      handler: async (_args, context) => {
        reportLate = () => context.onProgress({ message: "still going" });
        context.onProgress({ message: "started" });
        await sleep(200);
        return "finished late";
      },
    });
    const tools = registryOf([stubborn]);
    const context = createToolContext({ home, onProgress: (update) => steps.push(update) });
    const outcome = await tools.execute("stubborn", {}, context);
    expect(outcome.result).toContain("timed out");
    reportLate();
    expect(steps).toEqual([{ message: "started" }]);
  });
});
