import { test } from "../../../tests/support/command-layer-fixture.js";
import { describe, expect } from "../../../tests/support/fixtures.js";
import { contextNoteOf, type RecordedRequest, userWords } from "../../../tests/support/llm-server.js";
import type { CommandResult } from "./command-result.js";

const toolsOf = (request: RecordedRequest) => (request.body.tools ?? []).map((tool) => tool.function.name);
const WRITERS = ["create_file", "append_file", "apply_patch", "run_command", "git_commit"];

async function answered(result: CommandResult): Promise<void> {
  expect(result.type).toBe("submitted");
  if (result.type === "submitted") await result.done;
}

describe("plan", () => {
  test("offers only tools that look until the plan is approved, then every tool again", async ({ openLayer }) => {
    const { layer, host, server, harness } = await openLayer([
      { text: "1. Add src/a.ts" },
      { text: "1. Add src/a.ts with a test" },
      { text: "Done." },
    ]);
    await layer.handle("!code");
    await layer.handle("plan");
    expect(host.lastSystem).toMatch(/^Plan mode on: Marvin only looks/);
    expect(layer.prompt).toBe("plan> ");
    await answered(await layer.handle("add a module"));
    await answered(await layer.handle("with a test please"));
    for (const request of server.requests) {
      expect(toolsOf(request)).toContain("read_file");
      for (const writer of WRITERS) expect(toolsOf(request)).not.toContain(writer);
      expect(contextNoteOf(request.body.messages.at(-1)!.content)).toContain("Plan mode is on");
    }
    const refused = await harness.call("create_file", { path: "a.ts", content: "" });
    expect(refused.result).toContain("create_file is disabled: plan mode is on");

    await answered(await layer.handle("plan approve"));
    expect(layer.prompt).toBe("> ");
    const approved = server.requests[2]!;
    expect(userWords(approved.body.messages.at(-1)!.content)).toBe("The plan is approved. Carry it out now.");
    expect(contextNoteOf(approved.body.messages.at(-1)!.content)).not.toContain("Plan mode");
    expect(toolsOf(approved)).toEqual(expect.arrayContaining(["create_file", "apply_patch", "run_command"]));
  });

  test("plan off leaves without approving; approving outside plan mode says so", async ({ openLayer }) => {
    const { layer, host, harness, server } = await openLayer();
    await layer.handle("plan");
    expect(harness.session.mode).toMatchObject({ readonly: true, planning: true });
    await layer.handle("plan off");
    expect(host.lastSystem).toBe("Plan mode off: every tool is available again; no plan was approved.");
    expect(harness.session.mode).toMatchObject({ readonly: false, planning: false });
    await layer.handle("plan approve");
    expect(host.lastSystem).toBe("Plan mode is not on: `plan` turns it on.");
    layer.togglePlan();
    expect(harness.session.planning).toBe(true);
    layer.togglePlan();
    expect(harness.session.planning).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});

test("help lists plan, init and lsp", async ({ openLayer }) => {
  const { layer, host } = await openLayer();
  await layer.handle("help");
  for (const command of ["/plan [approve|off]", "/init", "/lsp", "Shift+Tab"])
    expect(host.lastSystem).toContain(command);
});

describe("init", () => {
  test("asks the model to explore the project and write AGENTS.md, in coding mode only", async ({ openLayer }) => {
    const { layer, host, server } = await openLayer([{ text: "Wrote AGENTS.md." }]);
    await layer.handle("init");
    expect(host.lastSystem).toBe(
      "init writes an AGENTS.md for the working directory: turn on coding mode first (!code).",
    );
    await layer.handle("!code");
    await answered(await layer.handle("init"));
    const asked = userWords(server.requests[0]!.body.messages.at(-1)!.content);
    expect(asked).toMatch(/^Explore this project .* write an AGENTS\.md at the root of the working directory/);
  });
});

describe("lsp", () => {
  test("says which language servers run", async ({ openLayer }) => {
    const on = await openLayer([], { MARVIN_LSP: "on" });
    await on.layer.handle("lsp");
    expect(on.host.lastSystem).toBe(
      "Language servers:\n  No language server is running: one starts when coding mode opens a project or a " +
        "tool writes a code file.",
    );
    const off = await openLayer([], { MARVIN_LSP: "off" });
    await off.layer.handle("lsp");
    expect(off.host.lastSystem).toBe("Language servers:\n  Diagnostics after edits are off (MARVIN_LSP=off).");
  });
});
