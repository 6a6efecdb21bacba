import { describe, expect, it } from "vitest";
import type { ChatLogEntry } from "../state/chat-log.js";
import {
  buildSystemMessage,
  COMPACT_HISTORY_CHARS,
  COMPACT_HISTORY_ENTRIES,
  compactChatLog,
  formatPreferences,
  type SystemPromptInput,
} from "./system-prompt.js";

function input(overrides: Partial<SystemPromptInput> = {}): SystemPromptInput {
  return {
    profileName: "ada",
    preferences: "dietary:\n  - vegetarian\nbudget: moderate",
    savedPlaces: [
      { label: "home", name: "Flat", address: "1 Main St", phone: "", website: "", lat: 52.52, lng: 13.405, notes: "" },
      { label: "gym", name: "", address: "Sportweg 3", phone: "", website: "", lat: 0, lng: 0, notes: "opens 6am" },
    ],
    chatLog: [
      { role: "you", text: "Find ramen near home", time: "12:01" },
      { role: "assistant", text: "Ichiran is 800 m away.", time: "12:02" },
    ],
    codingMode: false,
    nonInteractive: false,
    workingDir: null,
    backgroundJobs: [],
    ...overrides,
  };
}

const everything = (): SystemPromptInput =>
  input({
    codingMode: true,
    nonInteractive: true,
    workingDir: "/home/ada/app",
    backgroundJobs: [{ id: "review-1", description: "code review", status: "running for 2m 10s" }],
    project: {
      instructions: {
        name: "/home/ada/app/.marvin-instructions",
        content: "Use tabs. Run npm test before committing.",
      },
      agentInstructions: [{ name: "/home/ada/app/AGENTS.md", content: "Commit in small steps." }],
      documents: [
        { name: ".marvin/spec.md", content: "# Spec\nA todo app." },
        { name: ".marvin/ux.md", content: "# UX\nOne screen." },
        { name: ".marvin/design.md", content: "# Design\nSQLite." },
      ],
      warnings: [],
    },
  });

describe("buildSystemMessage", () => {
  it("contains all nine sections of seed 000 §2.15 in order when everything applies", () => {
    const message = buildSystemMessage(everything());
    const markers = [
      "You are Marvin, a helpful local-business and general-purpose assistant",
      "## User preferences",
      "## Active profile\nActive profile: ada",
      "## Saved places",
      "## Recent conversation (compact)",
      "## Coding mode\nWorking directory: /home/ada/app",
      "## Background jobs\n- review-1 (code review): running for 2m 10s",
      "## Project instructions (/home/ada/app/.marvin-instructions)\nUse tabs. Run npm test before committing.",
      "## Project document .marvin/spec.md\n# Spec\nA todo app.",
      "## Project document .marvin/ux.md\n# UX\nOne screen.",
      "## Project document .marvin/design.md\n# Design\nSQLite.",
    ];
    const positions = markers.map((marker) => message.indexOf(marker));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("carries no clock, so that it stays the same from message to message", () => {
    expect(buildSystemMessage(input())).not.toMatch(/\d\d:\d\d:\d\d|Current date and time/);
  });

  it("lists preferences as YAML, leaving out empty values", async () => {
    const preferences = await formatPreferences({
      dietary: ["vegetarian"],
      budget: "moderate",
      notes: "",
      avoid_cuisines: [],
      favourite_spots: [{ name: "Café Fred", city: "Bern" }],
      zip: "3011",
    });
    expect(preferences).toBe(
      'dietary:\n  - vegetarian\nbudget: moderate\nfavourite_spots:\n  - name: Café Fred\n    city: Bern\nzip: "3011"',
    );
    expect(buildSystemMessage(input({ preferences }))).toContain(`## User preferences\n${preferences}\n\n`);
    expect(await formatPreferences({ notes: "" })).toBe(
      "(none set: learn them from the conversation and save them with update_preferences)",
    );
  });

  it("lists saved places with labels, addresses and coordinates", () => {
    const message = buildSystemMessage(input());
    expect(message).toContain(
      "## Saved places\n- home: Flat, 1 Main St [52.52, 13.405]\n- gym: Sportweg 3 (opens 6am)",
    );
    expect(buildSystemMessage(input({ savedPlaces: [] }))).toContain("## Saved places\n(none yet");
  });

  it("includes the compact conversation history with times and roles", () => {
    expect(buildSystemMessage(input())).toContain(
      "## Recent conversation (compact)\n[12:01] you: Find ramen near home\n[12:02] assistant: Ichiran is 800 m away.",
    );
    expect(buildSystemMessage(input({ chatLog: [] }))).toContain(
      "## Recent conversation (compact)\n(no earlier conversation)",
    );
  });

  it("leaves out coding, job and project sections when they do not apply", () => {
    const message = buildSystemMessage(input());
    expect(message).not.toContain("## Coding mode");
    expect(message).not.toContain("## Background jobs");
    expect(message).not.toContain("## Project");
  });

  it("asks for a working directory in coding mode without one", () => {
    const message = buildSystemMessage(input({ codingMode: true }));
    expect(message).toContain(
      "## Coding mode\nNo working directory is set yet: call set_working_dir before using file tools.",
    );
    expect(message).toContain("the user confirms each command");
  });

  it("tells a non-interactive agent that commands run without confirmation", () => {
    const message = buildSystemMessage(everything());
    expect(message).toContain("Run builds and tests with run_command (commands run without confirmation)");
    expect(message).toContain("files over 10KB need start_line/end_line");
    expect(message).toContain("Notes you write go to .marvin/notes/ inside the project.");
  });
});

describe("compactChatLog", () => {
  it(
    `keeps the last ${COMPACT_HISTORY_ENTRIES} entries, each cut to ${COMPACT_HISTORY_CHARS} characters ` +
      `on one line`,
    () => {
      const entries: ChatLogEntry[] = Array.from({ length: 30 }, (_, index) => ({
        role: index % 2 ? "assistant" : "you",
        text: `message ${index}\n${"y".repeat(300)}`,
        time: `10:${String(index).padStart(2, "0")}`,
      }));
      const lines = compactChatLog(entries).split("\n");
      expect(lines).toHaveLength(20);
      expect(lines[0]).toBe(`[10:10] you: ${`message 10 ${"y".repeat(300)}`.slice(0, 200)}…`);
      expect(lines[19]!.startsWith("[10:29] assistant: message 29 yyy")).toBe(true);
      for (const line of lines) expect(line.replace(/^\[\d\d:\d\d\] \w+: /, "").length).toBeLessThanOrEqual(201);
    },
  );

  it("does not mark short entries as cut", () => {
    expect(compactChatLog([{ role: "system", text: "Switched profile.", time: "09:00" }])).toBe(
      "[09:00] system: Switched profile.",
    );
  });
});
