import { describe, expect, it } from "vitest";
import { contextNote, minuteClock, stateFacts } from "./context-note.js";

const now = new Date(2025, 2, 14, 15, 9, 26);
const facts = stateFacts({ preferences: "budget: moderate", savedPlaces: [], backgroundJobs: [] });

describe("contextNote", () => {
  it("gives the date and time to the minute and nothing else when nothing changed", () => {
    const note = contextNote({ now, notifications: [], planning: false, told: facts, current: facts });
    expect(note).toBe(`<context>\nCurrent date and time: ${minuteClock(now)}\n</context>`);
    expect(minuteClock(now)).toContain("15:09");
    expect(minuteClock(now)).not.toContain("15:09:26");
    expect(minuteClock(now)).toContain("2025");
  });

  it("lists new notifications and every part of the user's state that changed since the model was told", () => {
    const current = stateFacts({
      preferences: "budget: cheap",
      savedPlaces: [
        { label: "home", name: "Flat", address: "1 Main St", phone: "", website: "", lat: 0, lng: 0, notes: "" },
      ],
      backgroundJobs: [{ id: "job-1", description: "npm test", status: "running for 5s" }],
    });
    const notifications = ["[15:08] ntfy 'Family': Dinner"];
    const note = contextNote({ now, notifications, planning: false, told: facts, current });
    expect(note.split("\n")).toEqual([
      "<context>",
      `Current date and time: ${minuteClock(now)}`,
      "Notifications that arrived since the last message:",
      "[15:08] ntfy 'Family': Dinner",
      "User preferences now:",
      "budget: cheap",
      "Saved places now:",
      "- home: Flat, 1 Main St",
      "Background jobs now:",
      "- job-1 (npm test): running for 5s",
      "Use review_status to read a job's output.",
      "</context>",
    ]);
  });

  it("asks for a plan, and for no change, while plan mode is on", () => {
    const note = contextNote({ now, notifications: [], planning: true, told: facts, current: facts });
    expect(note).toContain("Plan mode is on: only tools that look are available.");
    expect(note).toContain("change nothing until the user approves the plan");
  });
});
