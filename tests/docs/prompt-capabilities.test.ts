import { describe, expect, it } from "vitest";
import { buildSystemMessage, type SystemPromptInput } from "../../src/session/system-prompt.js";
import { createToolRegistry } from "../../src/tools/index.js";
import type { ToolMode } from "../../src/tools/kit/define-tool.js";

/**
 * Capability words the system prompt could use, and the tool names that would back each one.
 * A word in the prompt with no such tool in the mode's registry is a promise Marvin cannot
 * keep. When a domain's tools land, the prompt may name it; extend this list with new words.
 */
const DOMAINS: Array<{ domain: string; words: RegExp; tools: RegExp }> = [
  { domain: "weather", words: /\b(weather|forecasts?)\b/i, tools: /weather|forecast/ },
  { domain: "news", words: /\b(news|headlines?)\b/i, tools: /news|headline/ },
  { domain: "calendar", words: /\b(calendars?|appointments?|schedules?)\b/i, tools: /calendar|appointment|schedule/ },
  // Reminders come with calendar events (1 h and 30 min before) and with alarms.
  { domain: "reminders", words: /\breminders?\b/i, tools: /remind|alarm|calendar_add/ },
  { domain: "alarms", words: /\balarms?\b/i, tools: /alarm/ },
  { domain: "music", words: /\b(music|songs?|playlists?|spotify)\b/i, tools: /music|song|playlist|spotify/ },
  { domain: "movies", words: /\b(movies?|films?|tv shows?)\b/i, tools: /movie|film|tv_/ },
  { domain: "games", words: /\b(games?|steam)\b/i, tools: /game|steam/ },
  { domain: "media", words: /\bmedia\b/i, tools: /movie|music|game|media|podcast/ },
  { domain: "recipes", words: /\b(recipes?|cooking)\b/i, tools: /recipe/ },
  {
    domain: "travel",
    words: /\b(travel|flights?|directions|routes?|transit)\b/i,
    tools: /travel|flight|direction|route/,
  },
  {
    domain: "place search",
    words: /\b(restaurants?|nearby|opening hours|search(es|ing)? (for )?places|places search|find places)\b/i,
    tools: /search_places|places_search|nearby|find_place/,
  },
  { domain: "the web", words: /\b(web|internet|online|browse|websites?|URLs?)\b/i, tools: /web|browse|fetch/ },
  { domain: "email", words: /\be-?mails?\b/i, tools: /mail/ },
  {
    domain: "voice",
    words: /\b(voice|speech|transcri\w*|whisper|dictation)\b/i,
    tools: /voice|speech|transcri|whisper/,
  },
  { domain: "Blender", words: /\b(blender|3d models?)\b/i, tools: /blender/ },
  { domain: "finance", words: /\b(stocks?|exchange rates?|currenc(y|ies))\b/i, tools: /stock|exchange|currenc/ },
  { domain: "translation", words: /\btranslat\w*\b/i, tools: /translat/ },
  { domain: "images", words: /\b(images?|photos?|pictures?)\b/i, tools: /image|photo|picture/ },
  { domain: "smart home", words: /\b(smart home|lights|thermostat)\b/i, tools: /home_assistant|light|thermostat/ },
  { domain: "encyclopedia", words: /\bwikipedia\b/i, tools: /wiki/ },
  // Domains Marvin has, so the check is seen to pass for real words too.
  { domain: "unit conversion", words: /\b(unit\s+conversions?|convert\s+units)\b/i, tools: /^convert_units$/ },
  { domain: "maps", words: /\b(maps?|openstreetmap)\b/i, tools: /osm|map/ },
  { domain: "notes", words: /\bnotes?\b/i, tools: /note/ },
  { domain: "push notifications", words: /\b(ntfy|push notifications?)\b/i, tools: /ntfy/ },
  { domain: "tickets", words: /\btickets?\b/i, tools: /ticket/ },
  { domain: "timers", words: /\btimers?\b/i, tools: /^timer_/ },
  { domain: "profiles", words: /\bprofiles?\b/i, tools: /profile/ },
  { domain: "saved places", words: /\bsaved places?\b/i, tools: /place/ },
  { domain: "research papers", words: /\b(research papers?|arxiv|semantic scholar)\b/i, tools: /paper|arxiv/ },
  { domain: "Stack Exchange", words: /\bstack (exchange|overflow)\b/i, tools: /^stack_/ },
  { domain: "dictionary", words: /\bdictionar(y|ies)\b/i, tools: /dictionary/ },
  { domain: "feeds", words: /\b(rss|feeds?)\b/i, tools: /rss|feed/ },
  { domain: "sub-agents", words: /\bsub-?agents?\b/i, tools: /^launch_agent$/ },
  { domain: "Python packages", words: /\b(python packages?|pip|virtualenv|venv)\b/i, tools: /^install_packages$/ },
];

/** Domains the text names that none of `toolNames` backs. */
function unbackedClaims(text: string, toolNames: string[]): string[] {
  const backed = (tools: RegExp) => toolNames.some((name) => tools.test(name));
  return DOMAINS.filter(({ words, tools }) => words.test(text) && !backed(tools)).map(({ domain }) => domain);
}

/** Marvin's own words only: no preferences, places or history the user brought. */
function prompt(mode: ToolMode, workingDir: string | null): string {
  const input: SystemPromptInput = {
    profileName: "main",
    preferences: "",
    savedPlaces: [],
    chatLog: [],
    codingMode: mode.codingMode,
    nonInteractive: mode.nonInteractive,
    workingDir,
    backgroundJobs: [],
  };
  return buildSystemMessage(input);
}

const MODES: Array<[string, ToolMode, string | null]> = [
  ["an interactive chat", { codingMode: false, nonInteractive: false, readonly: false }, null],
  ["interactive coding mode without a working dir", { codingMode: true, nonInteractive: false, readonly: false }, null],
  ["interactive coding mode", { codingMode: true, nonInteractive: false, readonly: false }, "/work/app"],
  ["a non-interactive run", { codingMode: true, nonInteractive: true, readonly: false }, "/work/app"],
];

/** What the interactive UIs do themselves, named like tools: voice input is `!v` / `!voice`, not a tool. */
const INTERACTIVE_FEATURES = ["voice_input"];

describe("the system prompt promises only what the tools can do", () => {
  const registry = createToolRegistry();

  it.each(MODES)("in %s, every capability it names has a tool", (_name, mode, workingDir) => {
    const text = prompt(mode, workingDir);
    const features = mode.nonInteractive ? [] : INTERACTIVE_FEATURES;
    expect(unbackedClaims(text, [...registry.names(mode), ...features])).toEqual([]);
  });

  it("recognises the domains it does name", () => {
    const text = prompt(MODES[0]![1], null);
    const named = DOMAINS.filter(({ words }) => words.test(text)).map(({ domain }) => domain);
    expect(named).toEqual(
      expect.arrayContaining([
        "weather",
        "news",
        "the web",
        "travel",
        "unit conversion",
        "place search",
        "maps",
        "notes",
        "tickets",
        "timers",
        "saved places",
        "calendar",
        "alarms",
        "reminders",
        "push notifications",
        "voice",
        "Blender",
      ]),
    );
  });

  it("would catch a capability without tools", () => {
    const names = registry.names();
    const oldPromise = "You help with everyday life (places, travel, weather, news, media, recipes).";
    expect(unbackedClaims(oldPromise, names)).toEqual([]);
    expect(
      unbackedClaims(
        "Plan travel.",
        names.filter((name) => !/travel|direction/.test(name)),
      ),
    ).toEqual(["travel"]);
    expect(unbackedClaims("Give sources (URLs) for facts from the web.", names)).toEqual([]);
    const withoutWeb = names.filter((name) => !/web|browse|news/.test(name));
    expect(unbackedClaims("Give sources (URLs) for the news.", withoutWeb)).toEqual(["news", "the web"]);
    expect(unbackedClaims("Look up the weather.", [...names, "get_weather"])).toEqual([]);
  });
});
