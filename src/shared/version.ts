import { readFileSync } from "node:fs";

const PACKAGE_NAME = "marvin-assistant";
let cached: string | undefined;

/** Marvin's version from its package.json, looked up once. */
export function marvinVersion(): string {
  cached ??= readVersion();
  return cached;
}

// The source, the compiled files and the bundle's chunks sit at different depths below the package root.
function readVersion(): string {
  for (let depth = 1; depth <= 4; depth++) {
    try {
      const text = readFileSync(new URL(`${"../".repeat(depth)}package.json`, import.meta.url), "utf8");
      const manifest = JSON.parse(text) as { name?: string; version?: string };
      if (manifest.name === PACKAGE_NAME && typeof manifest.version === "string") return manifest.version;
    } catch {
      // not at this depth
    }
  }
  return "unknown";
}
