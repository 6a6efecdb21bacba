import { describe, expect, it } from "vitest";
import type { Message } from "../types.js";
import { continuesDialogue, dialogueOf, earlierMessages, systemContextUpdate } from "./messages.js";

describe("systemContextUpdate", () => {
  const before = [
    "You are Marvin.\nCurrent date and time: 10:00",
    "## User preferences\ndiet: none\ncity: Lyon",
    "## Background jobs\n- r1 (review): running",
  ].join("\n\n");

  it("is undefined when nothing changed", () => {
    expect(systemContextUpdate(before, before)).toBeUndefined();
  });

  it("gives the changed lines under their section's title, new sections whole, and sections that are gone", () => {
    const after = [
      "You are Marvin.\nCurrent date and time: 10:07",
      "## User preferences\ndiet: vegan\ncity: Lyon",
      "## Saved places\n- home: 1 rue X",
    ].join("\n\n");
    expect(systemContextUpdate(before, after)).toBe(
      [
        "Current date and time: 10:07",
        "## User preferences\ndiet: vegan",
        "## Saved places\n- home: 1 rue X",
        "## Background jobs\n(no longer applies)",
      ].join("\n\n"),
    );
  });
});

describe("continuesDialogue", () => {
  const held = dialogueOf([
    { role: "user", content: "a" },
    { role: "assistant", content: "A" },
    { role: "user", content: "b" },
    { role: "assistant", content: "B" },
  ]);

  it("accepts the held dialogue, or its end once Marvin has dropped old messages", () => {
    expect(continuesDialogue(held, held)).toBe(true);
    expect(continuesDialogue(held, held.slice(2))).toBe(true);
    expect(continuesDialogue([], [])).toBe(true);
  });

  it("refuses an answer the session never gave, a missing one, and another conversation", () => {
    const fallbackAnswer = { role: "assistant" as const, content: "from the fallback" };
    expect(continuesDialogue(held, [...held.slice(0, 3), fallbackAnswer])).toBe(false);
    expect(continuesDialogue(held, [...held, { role: "user", content: "c" }])).toBe(false);
    expect(continuesDialogue(held, [])).toBe(false);
  });

  it("ignores tool traffic and system notes when reading a conversation's dialogue", () => {
    const treeCall = { id: "1", type: "function" as const, function: { name: "tree", arguments: "{}" } };
    const messages: Message[] = [
      { role: "user", content: "a" },
      { role: "assistant", content: null, tool_calls: [treeCall] },
      { role: "tool", tool_call_id: "1", content: "src/" },
      { role: "system", content: "[Compacted history summary]" },
      { role: "assistant", content: "A" },
    ];
    expect(dialogueOf(messages)).toEqual([
      { role: "user", content: "a" },
      { role: "assistant", content: "A" },
    ]);
  });
});

describe("earlierMessages", () => {
  it("is the conversation before the newest user message, without Marvin's system message", () => {
    const messages: Message[] = [
      { role: "system", content: "You are Marvin." },
      { role: "user", content: "a" },
      { role: "assistant", content: "A" },
      { role: "user", content: "b" },
    ];
    expect(earlierMessages(messages)).toEqual([
      { role: "user", content: "a" },
      { role: "assistant", content: "A" },
    ]);
  });
});
