import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/run-marvin.js";

interface PendingScripts {
  allowScripts?: Array<{ name: string; changes: Array<{ key: string; change: string }> }>;
}

describe("npm install", () => {
  it("warns about no install script: package.json's allowScripts covers every dependency that has one", () => {
    const listed = execFileSync("npm", ["install-scripts", "ls", "--json"], { cwd: REPO_ROOT, encoding: "utf8" });
    const pending = ((JSON.parse(listed) as PendingScripts).allowScripts ?? []).flatMap(({ changes }) =>
      changes.filter(({ change }) => change === "pending").map(({ key }) => key),
    );
    expect(pending).toEqual([]);
  });
});
