import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { SessionStore } from "../src/session/saved-sessions/session-store.js";
import { startLlmServer } from "../tests/support/llm-server.js";
import { runMarvin, serverEnv, tempDir } from "../tests/support/run-marvin.js";
import { median, ms, report } from "./stats.js";

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
    let started = performance.now();
    const first = await store.list();
    const cold = performance.now() - started;
    if (first.length !== 200 || first[0]!.messageCount !== 82) throw new Error("the sessions did not all list");
    report("list 200 sessions of 1 MB, first time", ms(cold));
    const again: number[] = [];
    for (let run = 0; run < 5; run++) {
      started = performance.now();
      await store.list();
      again.push(performance.now() - started);
    }
    const warm = median(again);
    report("list them again (median)", ms(warm), { text: "< 100 ms", met: warm < 100 });
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
    const loads: number[] = [];
    for (let run = 0; run < 9; run++) {
      const started = performance.now();
      const loaded = await store.load("long");
      loads.push(performance.now() - started);
      if (loaded?.messages.length !== MESSAGES) throw new Error("the long session did not load whole");
    }
    const load = median(loads);
    report(`load a ${MESSAGES}-message session (median)`, ms(load), { text: "< 200 ms", met: load < 200 });

    const env = serverEnv(server.url, home.path);
    const wall = async (session: string) => {
      const started = performance.now();
      const result = await runMarvin(["--non-interactive", "--prompt", "go on", "--session", session], {
        env,
        cwd: home.path,
      });
      if (result.code !== 0) throw new Error(`marvin --session ${session} failed: ${result.stderr}`);
      return performance.now() - started;
    };
    const fresh: number[] = [];
    const resumed: number[] = [];
    for (let run = 0; run < 5; run++) {
      fresh.push(await wall(`fresh-${run}`));
      resumed.push(await wall("long"));
    }
    const extra = median(resumed) - median(fresh);
    report("resume it in a whole run (extra, median)", ms(extra), { text: "< 200 ms", met: extra < 200 });
  } finally {
    await server.close();
    home.cleanup();
  }
}
