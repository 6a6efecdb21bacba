import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { errorMessage } from "./error-message.js";
import { ToolError } from "./tool-error.js";

describe("errorMessage", () => {
  it("gives an Error's message, subclasses included", () => {
    expect(errorMessage(new Error("disk full"))).toBe("disk full");
    expect(errorMessage(new ToolError("path is required"))).toBe("path is required");
  });

  it("gives anything else thrown as text", () => {
    expect(errorMessage("plain string")).toBe("plain string");
    expect(errorMessage(42)).toBe("42");
    expect(errorMessage(undefined)).toBe("undefined");
    expect(errorMessage(null)).toBe("null");
  });
});

describe("the source", () => {
  it("spells an error's message one way: errorMessage", async () => {
    const root = join(import.meta.dirname, "..");
    const handWritten = [
      /instanceof Error \? \w+\.message : String\(/,
      /\(\w+ as Error\)\.message/,
      /\(\w+: Error\) => [^\n]*\.message/,
    ];
    const offenders: string[] = [];
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
      const path = join(entry.parentPath, entry.name);
      if (path === join(root, "shared", "error-message.ts")) continue;
      const text = await readFile(path, "utf8");
      if (handWritten.some((pattern) => pattern.test(text))) offenders.push(path.slice(root.length + 1));
    }
    expect(offenders).toEqual([]);
  });
});
