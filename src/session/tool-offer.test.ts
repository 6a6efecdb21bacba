import { existsSync } from "node:fs";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import type { LlmServer, RecordedRequest, Script } from "../../tests/support/llm-server.js";
import { createTestSession, type TestSessionOptions } from "../../tests/support/test-session.js";
import { createToolRegistry } from "../tools/index.js";
import type { Session } from "./session.js";

const toolNames = (request: RecordedRequest) => (request.body.tools ?? []).map((tool) => tool.function.name);
const toolBytes = (request: RecordedRequest) => JSON.stringify(request.body.tools ?? []);
const toolResult = (request: RecordedRequest) =>
  request.body.messages.filter((message) => message.role === "tool").at(-1)?.content;

/** A session over every real tool that offers them as users get them (MARVIN_TOOLS unset). */
const test = base.extend<{
  offering: (
    script: Script[],
    options?: Partial<TestSessionOptions>,
  ) => Promise<{ session: Session; server: LlmServer }>;
}>({
  offering: async ({ home, llm }, use) =>
    use(async (script, options = {}) => {
      const server = await llm(script);
      const session = createTestSession({
        home,
        llmUrl: server.url,
        registry: createToolRegistry(),
        ...options,
        env: { MARVIN_TOOLS: "", ...options.env },
      });
      await session.start();
      return { session, server };
    }),
});

describe("tools offered on demand", () => {
  test("a chat starts with a handful of everyday tools and load_tools, which lists every other family", async ({
    offering,
  }) => {
    const { session, server } = await offering([{ text: "Hi." }]);
    await session.submit("hi");
    const [first] = server.requests;
    expect(toolNames(first!)).toEqual([
      "web_search",
      "browse_web",
      "weather_forecast",
      "get_my_location",
      "timer_start",
      "convert_units",
      "update_preferences",
      "exit_app",
      "load_tools",
    ]);
    const loadTools = first!.body.tools!.at(-1)!.function as { description: string };
    expect(loadTools.description).toMatch(/^- places: .*\(places_text_search, places_nearby_search, /m);
    expect(loadTools.description).toMatch(/^- media: .*spotify_create_playlist.*\)$/m);
    expect(loadTools.description).not.toMatch(/[ (]apply_patch[,)]/); // coding tools are for coding mode
    expect(Buffer.byteLength(JSON.stringify(first!.body))).toBeLessThanOrEqual(12 * 1024);
  });

  test("load_tools appends a family from the next request on; the tools before it keep their bytes", async ({
    offering,
  }) => {
    const { session, server } = await offering([
      { toolCalls: [{ name: "load_tools", arguments: { families: ["places"] } }] },
      { text: "Loaded." },
      { text: "Still here." },
    ]);
    await session.submit("find a café");
    await session.submit("and now?");
    const [first, second, third] = server.requests;
    expect(toolResult(second!)).toMatch(/^Loaded places \(get_my_location, places_text_search, /);
    const before = toolBytes(first!);
    expect(toolBytes(second!).startsWith(before.slice(0, -1))).toBe(true);
    expect(toolNames(second!).slice(9)).toEqual(
      expect.arrayContaining(["places_text_search", "save_place", "get_directions", "osm_search"]),
    );
    expect(toolNames(second!)).not.toContain("get_my_location".repeat(2));
    expect(toolNames(second!).filter((name) => name === "weather_forecast")).toHaveLength(1);
    expect(toolBytes(third!)).toBe(toolBytes(second!)); // the next message offers the same, byte for byte
  });

  test("a tool that exists but is not offered yet runs anyway, and its family is offered from then on", async ({
    offering,
    home,
  }) => {
    const { session, server } = await offering([
      { toolCalls: [{ name: "save_place", arguments: { label: "home", address: "1 Main St" } }] },
      { text: "Saved." },
    ]);
    await session.submit("remember my home: 1 Main St");
    const [first, second] = server.requests;
    expect(toolNames(first!)).not.toContain("save_place");
    expect(toolResult(second!)).toMatch(/home/);
    expect(existsSync(join(home, ".config", "local-finder", "profiles", "main", "saved_places.json"))).toBe(true);
    expect(toolNames(second!)).toContain("save_place");
    expect(toolNames(second!)).toContain("list_places");
  });

  test("an unknown family is refused with the names of the real ones", async ({ offering }) => {
    const { session, server } = await offering([
      { toolCalls: [{ name: "load_tools", arguments: { families: ["weather"] } }] },
      { text: "ok" },
    ]);
    await session.submit("go");
    expect(toolResult(server.requests[1]!)).toMatch(
      /No tool family named 'weather'.* The families are: personal, places/,
    );
    expect(toolNames(server.requests[1]!)).toEqual(toolNames(server.requests[0]!));
  });

  test("coding mode starts with the coding tools; MARVIN_TOOLS=all offers every tool and no load_tools", async ({
    offering,
    workspace,
  }) => {
    const coding = await offering([{ text: "ok" }], { codingMode: true, workingDir: workspace });
    await coding.session.submit("go");
    const names = toolNames(coding.server.requests[0]!);
    expect(names).toEqual(
      expect.arrayContaining(["read_file", "apply_patch", "git_commit", "run_command", "load_tools"]),
    );
    expect(names).not.toContain("spotify_search");
    expect(Buffer.byteLength(JSON.stringify(coding.server.requests[0]!.body))).toBeLessThanOrEqual(24 * 1024);

    const all = await offering([{ text: "ok" }], { env: { MARVIN_TOOLS: "all" } });
    await all.session.submit("go");
    const everything = toolNames(all.server.requests[0]!);
    expect(everything).toContain("spotify_search");
    expect(everything).not.toContain("load_tools");
    expect(everything.length).toBeGreaterThan(90);
  });

  test("a resumed conversation offers again the families it had loaded", async ({ offering }) => {
    const first = await offering([
      { toolCalls: [{ name: "load_tools", arguments: { families: ["media"] } }] },
      { text: "Loaded." },
    ]);
    await first.session.submit("music please");
    const messages = first.session.messages.slice(1);
    const second = await offering([{ text: "Back." }]);
    await second.session.resume({
      id: "again",
      path: "",
      messages,
      state: { provider: null, model: null, codingMode: false, workingDir: null },
      skippedLines: 0,
      endsWithNewline: true,
    } as unknown as Parameters<Session["resume"]>[0]);
    await second.session.submit("more");
    expect(toolNames(second.server.requests[0]!)).toContain("spotify_search");
  });
});
