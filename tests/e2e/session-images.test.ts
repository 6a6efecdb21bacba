import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { fixtureImage, PNG_BASE64 } from "../support/images.js";
import type { LlmServer } from "../support/llm-server.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

const sessionsDir = (home: string) => join(home, ".config", "local-finder", "profiles", "main", "sessions");

function nonInteractive(server: LlmServer, home: string, prompt: string, args: string[]) {
  return runMarvin(["--non-interactive", "--prompt", prompt, ...args], { env: serverEnv(server.url, home), cwd: home });
}

/** The data URLs of the images a request carried, in order. */
function imageUrls(server: LlmServer, request: number): string[] {
  return server.requests[request]!.body.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as Array<{ type: string; image_url?: { url: string } }>).flatMap((part) =>
          part.image_url ? [part.image_url.url] : [],
        )
      : [],
  );
}

describe("images of saved sessions", () => {
  test("are kept once beside the session, owner-only; its file stays small and a resume sends them", async ({
    llm,
    home,
  }) => {
    const project = join(home, "project");
    mkdirSync(project);
    // Three different 1 MB PNGs: the tiny fixture's bytes, then a megabyte the decoder never reads.
    const pictures = ["a", "b", "c"].map((name) => {
      const bytes = Buffer.concat([fixtureImage("tiny.png"), randomBytes(1024 * 1024)]);
      writeFileSync(join(project, `${name}.png`), bytes);
      return `data:image/png;base64,${bytes.toString("base64")}`;
    });
    const server = await llm([{ text: "Three pictures." }, { text: "Still three." }]);
    const args = ["--session", "pics", "--working-dir", project];
    const first = await nonInteractive(server, home, "compare @a.png @b.png @c.png", args);
    expect(first.code, first.stderr).toBe(0);
    expect(imageUrls(server, 0)).toEqual(pictures);

    const file = join(sessionsDir(home), "pics.jsonl");
    expect(statSync(file).size).toBeLessThan(50 * 1024);
    const stored = join(sessionsDir(home), "pics.images");
    expect(statSync(stored).mode & 0o777).toBe(0o700);
    expect(readdirSync(stored)).toHaveLength(3);
    for (const name of readdirSync(stored)) expect(statSync(join(stored, name)).mode & 0o777).toBe(0o600);

    const second = await nonInteractive(server, home, "and now?", args);
    expect(second.code, second.stderr).toBe(0);
    expect(imageUrls(server, 1)).toEqual(pictures);
    expect(statSync(file).size).toBeLessThan(50 * 1024);
    expect(readdirSync(stored)).toHaveLength(3);
  });

  test("a session saved with its images inside the file still resumes with them", async ({ llm, home }) => {
    mkdirSync(sessionsDir(home), { recursive: true });
    const at = "2026-11-24T10:00:00.000Z";
    const start = { type: "start", version: 1, id: "old", title: "a picture", startedAt: at, cwd: home };
    const image = { mediaType: "image/png", data: PNG_BASE64() };
    const records = [
      { ...start, provider: null, model: null, codingMode: true, workingDir: null },
      { type: "message", at, message: { role: "user", content: "what is this?", images: [image] } },
      { type: "message", at, message: { role: "assistant", content: "A dark picture." } },
    ];
    writeFileSync(join(sessionsDir(home), "old.jsonl"), `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const server = await llm([{ text: "Still dark." }]);
    const run = await nonInteractive(server, home, "and now?", ["--session", "old"]);
    expect(run.code, run.stderr).toBe(0);
    expect(imageUrls(server, 0)).toEqual([`data:image/png;base64,${PNG_BASE64()}`]);
  });

  test("go with their session when the oldest are removed", async ({ llm, home }) => {
    const project = join(home, "project");
    mkdirSync(project);
    writeFileSync(join(project, "a.png"), fixtureImage("tiny.png"));
    const server = await llm([{ text: "One." }, { text: "Two." }]);
    const env = { ...serverEnv(server.url, home), MARVIN_MAX_SESSIONS: "1" };
    const run = (prompt: string, id: string) =>
      runMarvin(["--non-interactive", "--prompt", prompt, "--session", id, "--working-dir", project], {
        env,
        cwd: home,
      });
    expect((await run("look at @a.png", "first")).code).toBe(0);
    expect(readdirSync(join(sessionsDir(home), "first.images"))).toHaveLength(1);
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(sessionsDir(home), "first.jsonl"), old, old);
    expect((await run("hello", "second")).code).toBe(0);
    expect(readdirSync(sessionsDir(home)).filter((name) => name.startsWith("first"))).toEqual([]);
    expect(readFileSync(join(sessionsDir(home), "second.jsonl"), "utf8")).toContain('"content":"hello"');
  });
});
