import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { REPO_ROOT, runMarvin, serverEnv } from "../support/run-marvin.js";

/** The package as `npm pack` makes it (of the built dist/), installed into a prefix of its own. */
function installPackage(dir: string): string {
  const tarball = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  }).trim();
  const prefix = join(dir, "prefix");
  mkdirSync(prefix);
  const install = ["install", "--prefix", prefix, "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"];
  install.push(join(dir, tarball));
  execFileSync("npm", install, { cwd: dir, stdio: "ignore" });
  return join(prefix, "node_modules", "marvin-assistant", "dist", "bin", "marvin.js");
}

describe("the installed package", () => {
  test("reports TypeScript errors after an edit with the language server it ships", { timeout: 400_000 }, async ({
    llm,
    home,
    tempDirs,
  }) => {
    const bin = installPackage(await tempDirs.make("marvin-package-"));
    const project = join(home, "ts-proj");
    mkdirSync(project);
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
    const server = await llm([
      {
        toolCalls: [
          { id: "c1", name: "create_file", arguments: { path: "a.ts", content: "export const a: number = 'x';\n" } },
        ],
      },
      { text: "Written." },
    ]);
    // No typescript-language-server on PATH: only the package's own can answer.
    const env = serverEnv(server.url, home, { PATH: "/usr/bin:/bin", MARVIN_LSP: "on", MARVIN_LSP_WAIT: "55" });
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "write a.ts"], {
      env,
      cwd: project,
      bin,
      timeoutMs: 150_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const result = server.requests[1]!.body.messages.find((message) => message.tool_call_id === "c1")!.content;
    expect(result).toMatch(/a\.ts:1:14: Type 'string' is not assignable to type 'number'\. \(typescript 2322\)/);
  });
});
