import { readFileSync } from "node:fs";
import { join } from "node:path";

/** Tiny real images made by a browser's canvas (tests/fixtures/images): 2×3 PNG, 3×2 JPEG, 6×7 WebP, 4×5 GIF. */
export function fixtureImage(name: "tiny.png" | "tiny.jpg" | "tiny.webp" | "tiny.gif"): Buffer {
  return readFileSync(join(import.meta.dirname, "../fixtures/images", name));
}
