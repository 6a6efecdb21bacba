import { describe, expect, it } from "vitest";
import type { ToolSchema } from "../shared/tool-schema.js";
import { createToolRegistry } from "./index.js";
import type { ToolMode } from "./kit/define-tool.js";

const MODES: Record<string, ToolMode> = {
  chat: { codingMode: false, nonInteractive: false, readonly: false },
  coding: { codingMode: true, nonInteractive: false, readonly: false },
  "non-interactive": { codingMode: true, nonInteractive: true, readonly: false },
  "read-only": { codingMode: true, nonInteractive: true, readonly: true },
};

/**
 * Everything the model is shown about tools, pinned in a reviewed file: each tool's name,
 * description and parameter schema, and which tools each mode offers (with the bytes they add to
 * every request). A change to any of it shows in review; `npx vitest run -u` records it.
 */
describe("tool schemas sent to the model", () => {
  it("match the recorded snapshot", async () => {
    const registry = createToolRegistry();
    const offered = new Map<string, ToolSchema["function"]>();
    const modes = Object.fromEntries(
      Object.entries(MODES).map(([label, mode]) => {
        const schemas = registry.schemas(mode);
        for (const schema of schemas) offered.set(schema.function.name, schema.function);
        const names = schemas.map((schema) => schema.function.name);
        return [label, { tools: names.length, bytes: Buffer.byteLength(JSON.stringify(schemas)), names }];
      }),
    );
    expect([...offered.keys()].sort()).toEqual(registry.names().sort()); // no tool is offered in no mode
    const tools = registry.names().map((name) => offered.get(name));
    const recorded = `${JSON.stringify({ modes, tools }, null, 2)}\n`;
    await expect(recorded).toMatchFileSnapshot("./__snapshots__/tool-schemas.json");
  });
});
