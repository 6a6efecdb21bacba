import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/providers/types.js";

/** Tiny real images made by a browser's canvas (tests/fixtures/images): 2×3 PNG, 3×2 JPEG, 6×7 WebP, 4×5 GIF. */
export function fixtureImage(name: "tiny.png" | "tiny.jpg" | "tiny.webp" | "tiny.gif"): Buffer {
  return readFileSync(join(import.meta.dirname, "../fixtures/images", name));
}

/** A conversation with an image in a user message (the PNG) and one in a tool result (the JPEG). */
export function conversationWithImages(): Message[] {
  const png = { mediaType: "image/png" as const, data: fixtureImage("tiny.png").toString("base64") };
  const jpeg = { mediaType: "image/jpeg" as const, data: fixtureImage("tiny.jpg").toString("base64") };
  return [
    { role: "system", content: "You are Marvin." },
    { role: "user", content: "what is this?", images: [png] },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"b.jpg"}' } }],
    },
    { role: "tool", tool_call_id: "call_1", content: "b.jpg: JPEG, 3×2, 761 B", images: [jpeg] },
  ];
}

export const PNG_BASE64 = () => fixtureImage("tiny.png").toString("base64");
export const JPEG_BASE64 = () => fixtureImage("tiny.jpg").toString("base64");
