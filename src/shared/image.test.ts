import { describe, expect, it } from "vitest";
import { fixtureImage } from "../../tests/support/images.js";
import { describeImage, imageDimensions, imageTypeOf } from "./image.js";

describe("images", () => {
  it("tells the type from the bytes and reads the size from the header", () => {
    const cases = [
      ["tiny.png", "image/png", [2, 3]],
      ["tiny.jpg", "image/jpeg", [3, 2]],
      ["tiny.webp", "image/webp", [6, 7]],
      ["tiny.gif", "image/gif", [4, 5]],
    ] as const;
    for (const [name, type, size] of cases) {
      const bytes = fixtureImage(name);
      expect(imageTypeOf(bytes), name).toBe(type);
      expect(imageDimensions(bytes, type), name).toEqual(size);
    }
    expect(describeImage(fixtureImage("tiny.png"), "image/png")).toBe("PNG, 2×3, 97 B");
  });

  it("takes no text, PDF or cut-short header for an image", () => {
    expect(imageTypeOf(Buffer.from("\x89PNG but not really"))).toBeUndefined();
    expect(imageTypeOf(Buffer.from("%PDF-1.7"))).toBeUndefined();
    expect(imageTypeOf(Buffer.alloc(0))).toBeUndefined();
    const cut = fixtureImage("tiny.jpg").subarray(0, 40);
    expect(imageDimensions(cut, "image/jpeg")).toBeUndefined();
    expect(describeImage(cut, "image/jpeg")).toBe("JPEG, 40 B");
  });
});
