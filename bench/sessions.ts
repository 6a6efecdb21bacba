import { mkdirSync, writeFileSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { SessionStore } from "../src/session/saved-sessions/session-store.js";
import { startLlmServer } from "../tests/support/llm-server.js";
import { serverEnv, tempDir } from "../tests/support/run-marvin.js";
import { alternate, runMarvinWithin, timed } from "./limits.js";
import { median, ms, report, reportRatio } from "./stats.js";

const MESSAGES = 2_000;

/** A session file of `count` messages: questions, tool calls with results, answers — about 1 MB. */
function writeLongSession(dir: string, id: string, count: number): void {
  const at = "2026-11-24T10:00:00.000Z";
  const start = { type: "start", version: 1, id, title: "a long conversation", startedAt: at, cwd: "/tmp" };
  const lines = [
    JSON.stringify({ ...start, provider: "openai-compat", model: "gpt-4o-mini", codingMode: true, workingDir: null }),
  ];
  for (let index = 0; lines.length <= count; index++) {
    const call = {
      id: `call_${index}`,
      type: "function",
      function: { name: "read_file", arguments: '{"path":"src/a.ts"}' },
    };
    const messages = [
      { role: "user", content: `Question ${index}: what does line ${index} of src/a.ts do, and why?` },
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: call.id, content: `${index}: export const value = ${index};\n`.repeat(12) },
      { role: "assistant", content: `Line ${index} exports a constant. `.repeat(8) },
    ];
    for (const message of messages) lines.push(JSON.stringify({ type: "message", at, message }));
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${id}.jsonl`), `${lines.slice(0, count + 1).join("\n")}\n`);
}

/** A session file of about 1 MB: a few exchanges, one with a screenshot (kept as base64, as images are). */
function writeSessionWithImage(dir: string, id: string): void {
  const at = "2026-11-24T10:00:00.000Z";
  const start = { type: "start", version: 1, id, title: `conversation ${id}`, startedAt: at, cwd: "/tmp" };
  const screenshot = { mediaType: "image/png", data: Buffer.alloc(700_000, id).toString("base64") };
  const messages = [
    { role: "user", content: "what is in this screenshot?", images: [screenshot] },
    { role: "assistant", content: "A terminal with a build log. ".repeat(20) },
    ...Array.from({ length: 40 }, (_, index) => [
      { role: "user", content: `And line ${index}?` },
      { role: "assistant", content: `Line ${index} says the build passed. `.repeat(10) },
    ]).flat(),
  ];
  const lines = [
    JSON.stringify({ ...start, provider: "openai-compat", model: "gpt-4o", codingMode: false, workingDir: null }),
    ...messages.map((message) => JSON.stringify({ type: "message", at, message })),
  ];
  writeFileSync(join(dir, `${id}.jsonl`), `${lines.join("\n")}\n`);
}

/** Listing 200 sessions of about 1 MB each (`/sessions`, the session picker): the first time, and again. */
export async function sessionList(): Promise<void> {
  const home = tempDir("marvin-bench-session-list-");
  try {
    const dir = join(home.path, "sessions");
    mkdirSync(dir, { recursive: true });
    for (let index = 0; index < 200; index++) writeSessionWithImage(dir, `s${index}`);
    const store = new SessionStore(dir);
    const started = performance.now();
    const first = await store.list();
    report("list 200 sessions of 1 MB, first time", ms(performance.now() - started));
    if (first.length !== 200 || first[0]!.messageCount !== 82) throw new Error("the sessions did not all list");
    // The least a list of changed files can do: read the folder and look at each file's size and time.
    const statEach = async () => {
      const names = await readdir(dir);
      await Promise.all(names.map((name) => stat(join(dir, name))));
    };
    const times = await alternate(7, { stat: () => timed(statEach), list: () => timed(() => store.list()) });
    const baseline = { label: "readdir + stat of each", value: median(times.stat) };
    reportRatio("list them again", median(times.list), baseline, 4);
  } finally {
    home.cleanup();
  }
}

/** Resuming a 2,000-message session: reading and checking its file, and a whole run that continues it. */
export async function sessionResume(): Promise<void> {
  const home = tempDir("marvin-bench-sessions-");
  // Usage in every reply, as real providers send it (otherwise the tokenizer estimates it).
  const reply = { text: "ok", usage: { prompt: 30_000, completion: 1 } };
  const server = await startLlmServer(Array.from({ length: 20 }, () => reply));
  try {
    const dir = join(home.path, ".config", "local-finder", "profiles", "main", "sessions");
    writeLongSession(dir, "long", MESSAGES);
    const store = new SessionStore(dir);
    const file = join(dir, "long.jsonl");
    // Plain Node reading the same file: read it, parse each line.
    const readPlain = async () => {
      const lines = (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
      for (const line of lines) JSON.parse(line);
    };
    const loadLong = async () => {
      const loaded = await store.load("long");
      if (loaded?.messages.length !== MESSAGES) throw new Error("the long session did not load whole");
    };
    const loads = await alternate(9, { plain: () => timed(readPlain), load: () => timed(loadLong) });
    const plain = { label: "read + JSON.parse each line", value: median(loads.plain) };
    reportRatio(`load a ${MESSAGES}-message session`, median(loads.load), plain, 8);

    const env = serverEnv(server.url, home.path);
    const wall = async (session: string) => {
      const started = performance.now();
      const result = await runMarvinWithin(["--non-interactive", "--prompt", "go on", "--session", session], {
        env,
        cwd: home.path,
      });
      if (result.code !== 0) throw new Error(`marvin --session ${session} failed: ${result.stderr}`);
      return performance.now() - started;
    };
    let freshRuns = 0;
    const runs = await alternate(5, { fresh: () => wall(`fresh-${freshRuns++}`), resumed: () => wall("long") });
    const fresh = { label: "a new conversation", value: median(runs.fresh) };
    reportRatio("resume it in a whole run", median(runs.resumed), fresh, 1.5);
  } finally {
    await server.close();
    home.cleanup();
  }
}
