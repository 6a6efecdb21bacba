import { describe, expect, it } from "vitest";
import type { Message } from "../../providers/types.js";
import { hiddenNote, resumedTurns } from "./resumed-turns.js";

const room = { rows: 10, columns: 40 };

describe("resumedTurns", () => {
  it("shows the last turn even when it is longer than two screens, and counts compacted messages as left out", () => {
    const long = Array.from({ length: 50 }, (_, index) => `line ${index}`).join("\n");
    const messages: Message[] = [
      { role: "system", content: "Summary of the earlier conversation." },
      { role: "user", content: "before" },
      { role: "assistant", content: "short" },
      { role: "user", content: "tell me everything" },
      { role: "assistant", content: long },
    ];
    const { steps, hidden } = resumedTurns(messages, 10, room);
    expect(steps).toEqual([
      { kind: "you", text: "tell me everything" },
      { kind: "assistant", text: long },
    ]);
    expect(hidden).toBe(8);
    expect(hiddenNote(1)).toBe("1 earlier message is not shown.");
  });

  it("pairs each tool call with its result, arguments on one line, and marks images sent", () => {
    const messages: Message[] = [
      { role: "user", content: "weather?", images: [{ mediaType: "image/png", data: "iVBORw0KGgo=" }] },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"place":"Bern"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "Sunny\n21°C" },
      { role: "assistant", content: "Sunny." },
    ];
    expect(resumedTurns(messages, 2, room)).toEqual({
      steps: [
        { kind: "you", text: "weather? [1 image]" },
        {
          kind: "tool",
          name: "weather",
          arguments: '{"place":"Bern"}',
          label: 'weather  "Bern"',
          result: "Sunny\n21°C",
        },
        { kind: "assistant", text: "Sunny." },
      ],
      hidden: 0,
    });
  });
});
