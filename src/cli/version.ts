import { readFileSync } from "node:fs";

/** The package version, read from package.json next to dist/. */
export function marvinVersion(): string {
  try {
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    return (JSON.parse(text) as { version: string }).version;
  } catch {
    return "unknown";
  }
}
