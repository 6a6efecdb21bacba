import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
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

/** Busy loops on every core, as other work on a shared machine: stopped by `stop`. */
function loadTheCpus(): { stop: () => void } {
  const loops = Array.from({ length: Math.max(2, availableParallelism()) }, () =>
    spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }),
  );
  return {
    stop: () => {
      for (const loop of loops) loop.kill("SIGKILL");
    },
  };
}

describe("the installed package", () => {
  test("reports TypeScript errors after an edit with the language server it ships, on a busy machine", {
    timeout: 400_000,
  }, async ({ llm, home, tempDirs }) => {
    const bin = installPackage(await tempDirs.make("marvin-package-"));
    const project = join(home, "ts-proj");
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
    writeFileSync(join(project, "src", "main.ts"), "export const main = 1;\n");
    const write = {
      id: "c1",
      name: "create_file",
      arguments: { path: "a.ts", content: "export const a: number = 'x';\n" },
    };
    const read = { id: "c2", name: "read_file", arguments: { path: "a.ts" } };
    // A model takes some seconds to answer: the language server, started with coding mode, loads the project meanwhile.
    const server = await llm([
      { toolCalls: [write], delayMs: 8_000 },
      { toolCalls: [read], delayMs: 8_000 },
      { text: "Written." },
    ]);
    // No typescript-language-server on PATH: only the package's own can answer. The default waits.
    const env = serverEnv(server.url, home, { PATH: "/usr/bin:/bin", MARVIN_LSP: "on" });
    const load = loadTheCpus();
    const started = Date.now();
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "write a.ts"], {
      env,
      cwd: project,
      bin,
      timeoutMs: 150_000,
    }).finally(() => load.stop());
    console.log(`the run under load took ${Date.now() - started} ms`);
    expect(run.code, run.stderr).toBe(0);
    const results = server.requests[2]!.body.messages.filter((message) => message.role === "tool");
    const [written, readBack] = results.map((message) => String(message.content));
    console.log(`create_file's result: ${written}\nread_file's result ends: ${readBack!.slice(-300)}`);
    const error = /a\.ts:1:14: Type 'string' is not assignable to type 'number'\. \(typescript 2322\)/;
    // In time for the write's own result, or late and then with the next tool's.
    if (!error.test(written!)) expect(readBack).toMatch(/Diagnostics that arrived late for a\.ts/);
    expect(`${written}\n${readBack}`).toMatch(error);
  });
});
