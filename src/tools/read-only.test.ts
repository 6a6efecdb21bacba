import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TempDirs } from "../../tests/support/test-session.js";
import { ToolHarnessPool } from "../../tests/support/tool-harness.js";
import { configPaths } from "../state/paths.js";
import { type AnyToolDef, TOOL_EFFECTS, type ToolMode } from "./define-tool.js";
import { createToolRegistry } from "./index.js";

const everyTool = (): AnyToolDef[] => {
  const registry = createToolRegistry();
  return registry.names().map((name) => registry.get(name)!);
};

const READ_ONLY_MODES: ToolMode[] = [
  { codingMode: true, nonInteractive: true, readonly: true },
  { codingMode: true, nonInteractive: false, readonly: true },
  { codingMode: false, nonInteractive: false, readonly: true },
];

describe("every tool declares what it changes", () => {
  it("has an effect: read, session, write, or a function of the arguments", () => {
    const tools = everyTool();
    expect(tools.length).toBeGreaterThan(40);
    for (const tool of tools) {
      const declared = typeof tool.effect === "function" || TOOL_EFFECTS.includes(tool.effect);
      expect(declared, `${tool.name}: ${String(tool.effect)}`).toBe(true);
    }
  });

  it("offers a read-only agent only the tools declared not to write, in every mode", () => {
    const registry = createToolRegistry();
    for (const mode of READ_ONLY_MODES) {
      const offered = registry.schemas(mode).map((schema) => schema.function.name);
      const fitting = registry.names({ ...mode, readonly: false });
      const declaredNotWriting = fitting.filter((name) => registry.get(name)!.effect !== "write");
      expect(offered).toEqual(declaredNotWriting);
    }
  });

  it("leaves exactly these tools to a read-only coding agent", () => {
    const offered = createToolRegistry()
      .schemas(READ_ONLY_MODES[0]!)
      .map((schema) => schema.function.name);
    expect(offered.sort()).toEqual(
      [
        // look only
        "system_info",
        "get_usage",
        "list_places",
        "search_history_backups",
        "timer_check",
        "read_note",
        "notes_ls",
        "osm_search",
        "overpass_query",
        "get_my_location",
        "places_text_search",
        "places_nearby_search",
        "setup_google_auth",
        "search_notes",
        "file_read_lines",
        "ticket_show",
        "ticket_list",
        "ticket_dep_tree",
        "read_file",
        "code_grep",
        "tree",
        "weather_forecast",
        "estimate_travel_time",
        "get_directions",
        "estimate_traffic_adjusted_time",
        "convert_units",
        "music_search",
        "music_lookup",
        "spotify_search",
        "recipe_search",
        "recipe_lookup",
        "web_search",
        "search_news",
        "browse_web",
        "scrape_page",
        "search_movies",
        "get_movie_details",
        "search_games",
        "get_game_details",
        "steam_search",
        "steam_app_details",
        "steam_featured",
        "steam_player_stats",
        "steam_user_games",
        "steam_user_summary",
        "calendar_view",
        "calendar_list_upcoming",
        "list_alarms",
        "get_working_dir",
        "review_status",
        "git_status",
        "git_diff",
        "git_log",
        "git_blame",
        "bookmark_list",
        "bookmark_search",
        "github_search",
        "github_read_file",
        "github_grep",
        "wiki_search",
        "wiki_summary",
        "wiki_grep",
        "search_papers",
        "search_arxiv",
        "stack_search",
        "stack_answers",
        "dictionary_lookup",
        "translate_text",
        "read_rss",
        // this session's memory only
        "load_tools",
        "exit_app",
        "timer_start",
        "timer_stop",
        "set_working_dir",
        // lists branches; creating one is refused per call
        "git_branch",
      ].sort(),
    );
  });
});

const dirs = new TempDirs();
const harnesses = new ToolHarnessPool();
let home: string;
let project: string;

beforeEach(async () => {
  const base = await dirs.make("marvin-readonly-");
  home = join(base, "home");
  project = join(base, "project");
  await mkdir(home);
  await mkdir(project);
});

afterEach(async () => {
  await harnesses.closeAll();
  await dirs.cleanup();
});

/** Every file and folder under `dir` with its content, to compare before and after. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    result[path] = entry.isFile() ? await readFile(path, "utf8") : entry.isDirectory() ? "(dir)" : "(other)";
  }
  return result;
}

describe("a read-only agent", () => {
  it("is refused the tools that used to leak, and nothing on disk or in the user's state changes", async () => {
    const writer = await harnesses.open({ home, workingDir: project, codingMode: true });
    await writer.ok("write_note", { path: "plan.md", content: "one\ntwo\n" });
    const ticket = /^Created ticket (\S+):/.exec(await writer.ok("create_ticket", { title: "Existing" }))![1]!;
    await writer.ok("create_ticket", { title: "Other" });
    await writer.ok("save_place", { label: "home", address: "1 Main St" });
    await writeFile(configPaths(home).lastProfile, "main\n");

    const before = { home: await snapshot(home), project: await snapshot(project) };
    const reviewer = await harnesses.open({
      home,
      workingDir: project,
      codingMode: true,
      nonInteractive: true,
      readonly: true,
    });
    const offered = createToolRegistry()
      .schemas(reviewer.session.mode)
      .map((schema) => schema.function.name);
    const attempts: Array<[string, Record<string, unknown>]> = [
      ["write_note", { path: "plan.md", content: "overwritten" }],
      ["notes_mkdir", { path: "new-folder" }],
      ["file_apply_patch", { path: "plan.md", patch: "DELETE 1" }],
      ["create_ticket", { title: "From the reviewer" }],
      ["ticket_start", { ticket_id: ticket }],
      ["ticket_close", { ticket_id: ticket }],
      ["ticket_add_note", { ticket_id: ticket, note: "reviewed" }],
      ["ticket_add_dep", { ticket_id: ticket, depends_on: "Other" }],
      ["save_place", { label: "work", address: "2 Side St" }],
      ["remove_place", { label: "home" }],
      ["update_preferences", { key: "budget", value: "high" }],
      ["switch_profile", { profile_name: "reviewer" }],
      ["compact_history", { target_tokens: 200 }],
      ["review_codebase", {}],
      ["create_file", { path: "new.txt", content: "x" }],
      ["run_command", { command: "touch ran.txt" }],
    ];
    for (const [name, args] of attempts) {
      expect(offered, name).not.toContain(name);
      const outcome = await reviewer.call(name, args);
      const refusal = `${name} is disabled: this is a read-only agent (MARVIN_READONLY=1)`;
      expect(outcome, name).toEqual({ isError: true, result: expect.stringContaining(refusal) });
    }
    expect(await reviewer.failure("git_branch", { name: "topic" })).toContain(
      "git_branch was refused: this is a read-only agent",
    );
    expect(reviewer.session.profileName).toBe("main");
    expect({ home: await snapshot(home), project: await snapshot(project) }).toEqual(before);
  });

  it("still reads notes, tickets and places", async () => {
    const writer = await harnesses.open({ home, workingDir: project, codingMode: true });
    await writer.ok("write_note", { path: "plan.md", content: "the plan\n" });
    await writer.ok("create_ticket", { title: "Existing" });
    await writer.ok("save_place", { label: "home", address: "1 Main St" });
    const reviewer = await harnesses.open({
      home,
      workingDir: project,
      codingMode: true,
      nonInteractive: true,
      readonly: true,
    });
    expect(await reviewer.ok("read_note", { path: "plan.md" })).toBe("the plan\n");
    expect(await reviewer.ok("ticket_list", {})).toContain("Existing");
    expect(await reviewer.ok("list_places", {})).toContain("1 Main St");
    expect(await reviewer.ok("timer_start", { name: "review" })).toBe("Stopwatch 'review' started.");
  });
});
