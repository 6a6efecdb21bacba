import { describe, expect, it } from "vitest";
import { HeadTailBuffer } from "./head-tail-buffer.js";

describe("HeadTailBuffer", () => {
  it("keeps everything while it fits", () => {
    const buffer = new HeadTailBuffer(4, 4);
    for (const chunk of ["ab", "cd", "ef", "gh"]) buffer.append(chunk);
    expect(buffer.text()).toBe("abcdefgh");
    expect(buffer.cut).toBe(0);
  });

  it("keeps the head and the tail across chunk boundaries and counts the middle", () => {
    const buffer = new HeadTailBuffer(3, 5);
    for (const chunk of ["0123", "45678", "9", "abcdefg", "hij"]) buffer.append(chunk);
    expect(buffer.total).toBe(20);
    expect(buffer.cut).toBe(12);
    expect(buffer.text()).toBe("012\n[… 12 characters cut from the middle of the output …]\nfghij");
  });
});
