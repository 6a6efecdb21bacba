import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type RecordedRequest, type ScriptedReply, startLlmServer } from "../tests/support/llm-server.js";
import { MARVIN_BIN, REPO_ROOT, runMarvin, serverEnv, tempDir } from "../tests/support/run-marvin.js";
import { promptCachePrefix } from "./prompt-cache.js";
import { sessionList, sessionResume } from "./sessions.js";
import { median, ms, percentile, report } from "./stats.js";

/** Median wall time of `runs` fresh node processes running `args`. */
async function nodeRuns(args: string[], runs: number): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { stdio: "ignore", env: { PATH: process.env.PATH } });
    if (result.status !== 0) throw new Error(`node ${args.join(" ")} failed (exit ${result.status})`);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Cold start: a fresh `node marvin --version` process, next to a bare `node -e 0` in the same run. */
async function startup(): Promise<void> {
  const bare = await nodeRuns(["-e", "0"], 15);
  const value = await nodeRuns([MARVIN_BIN, "--version"], 15);
  report("cold start (marvin --version, median)", ms(value), { text: "< 100 ms", met: value < 100 });
  const ratio = value / bare;
  report("  … against bare node -e 0", `${ratio.toFixed(2)}× (${ms(bare)})`, { text: "≤ 1.5×", met: ratio <= 1.5 });
}

async function timedRun(script: ScriptedReply[], prompt: string): Promise<{ wall: number }> {
  const server = await startLlmServer(script);
  const home = tempDir("marvin-bench-");
  try {
    const started = performance.now();
    const result = await runMarvin(["--non-interactive", "--working-dir", home.path, "--prompt", prompt], {
      env: serverEnv(server.url, home.path),
      timeoutMs: 120_000,
    });
    const wall = performance.now() - started;
    if (result.code !== 0) throw new Error(`marvin run failed: ${result.stderr}`);
    return { wall };
  } finally {
    await server.close();
    home.cleanup();
  }
}

/** The minimal streaming client (bench/minimal-client.mjs) answering one prompt: process start to exit. */
async function minimalClientTurn(): Promise<number> {
  const server = await startLlmServer(Array.from({ length: 7 }, () => ({ text: "Hello from the benchmark." })));
  try {
    return await nodeRunsAsync([join(REPO_ROOT, "bench", "minimal-client.mjs"), server.url, "hi"], 7);
  } finally {
    await server.close();
  }
}

/** Like nodeRuns, without blocking the event loop the scripted server answers on. */
async function nodeRunsAsync(args: string[], runs: number): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const code = await new Promise<number | null>((resolve) =>
      spawn(process.execPath, args, { stdio: "ignore" }).on("close", resolve),
    );
    if (code !== 0) throw new Error(`node ${args.join(" ")} failed (exit ${code})`);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** One whole non-interactive turn: process start, provider setup, one streamed answer, exit. */
async function wholeTurn(): Promise<void> {
  const minimal = await minimalClientTurn();
  const walls: number[] = [];
  for (let run = 0; run < 7; run += 1)
    walls.push(
      (await timedRun([{ text: "Hello from the benchmark.", usage: { prompt: 10, completion: 5 } }], "hi")).wall,
    );
  const value = median(walls);
  report("one whole turn (median)", ms(value), { text: "< 300 ms", met: value < 300 });
  const ratio = value / minimal;
  report("  … against a minimal streaming client", `${ratio.toFixed(2)}× (${ms(minimal)})`, {
    text: "≤ 1.3×",
    met: ratio <= 1.3,
  });
}

/** Agent-loop cost per tool round: 50 rounds minus 1 round, divided by 49 (median of 3). */
async function perRound(): Promise<void> {
  // Usage in every reply, as real providers send it (otherwise the tokenizer estimates it).
  const usage = { prompt: 5_000, completion: 20 };
  const toolRound: ScriptedReply = { toolCalls: [{ name: "list_places", arguments: {} }], usage };
  const final: ScriptedReply = { text: "done", usage };
  const samples: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    const one = await timedRun([toolRound, final], "one round");
    const fifty = await timedRun([...Array.from({ length: 50 }, () => toolRound), final], "fifty rounds");
    samples.push((fifty.wall - one.wall) / 49);
  }
  const value = median(samples);
  report("per-round overhead (50 tool rounds)", ms(value), { text: "< 5 ms", met: value < 5 });
}

/** Time from a chunk leaving the server to its bytes on marvin's stdout. */
async function chunkLatency(): Promise<void> {
  const sentAt = new Map<string, number>();
  const parts = Array.from({ length: 100 }, (_, index) => `<${String(index).padStart(3, "0")}>`);
  const server = await startLlmServer([
    { text: parts.join(""), chunkSize: 5, delayMs: 10, onChunk: (part) => sentAt.set(part, performance.now()) },
  ]);
  const home = tempDir("marvin-bench-");
  const latencies: number[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [MARVIN_BIN, "--non-interactive", "--prompt", "stream"], {
        env: serverEnv(server.url, home.path) as NodeJS.ProcessEnv,
        cwd: home.path,
      });
      let seen = "";
      child.stdout.setEncoding("utf8").on("data", (data: string) => {
        const now = performance.now();
        seen += data;
        for (const match of seen.matchAll(/<\d{3}>/g)) {
          const sent = sentAt.get(match[0]);
          if (sent !== undefined) latencies.push(now - sent);
          sentAt.delete(match[0]);
        }
      });
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`marvin exited ${code}`))));
    });
  } finally {
    await server.close();
    home.cleanup();
  }
  const p50 = median(latencies);
  const worst = Math.max(...latencies);
  report(
    "chunk → stdout latency (median / p95 / max)",
    `${ms(p50)} / ${ms(percentile(latencies, 0.95))} / ${ms(worst)}`,
    { text: "< 5 ms", met: p50 < 5 },
  );
}

/** The first request a real run sends: a non-interactive one (coding mode) or `--plain` (chat mode). */
async function firstRequest(mode: "coding" | "chat"): Promise<RecordedRequest["body"]> {
  const server = await startLlmServer([{ text: "ok" }]);
  const home = tempDir("marvin-bench-");
  try {
    const coding = ["--non-interactive", "--working-dir", home.path, "--prompt", "size"];
    const args = mode === "coding" ? coding : ["--plain"];
    const result = await runMarvin(args, { env: serverEnv(server.url, home.path), cwd: home.path, stdin: "size\n" });
    if (result.code !== 0) throw new Error(`marvin ${args[0]} failed: ${result.stderr}`);
    return server.requests[0]!.body;
  } finally {
    await server.close();
    home.cleanup();
  }
}

/**
 * Size of the first request body, system message included: tools are offered on demand (a core for the mode
 * and load_tools), so a chat-mode run should send ≤ 12 KB and a coding-mode run ≤ 24 KB.
 */
async function requestSize(): Promise<void> {
  for (const mode of ["coding", "chat"] as const) {
    const body = await firstRequest(mode);
    const bytes = Buffer.byteLength(JSON.stringify(body));
    const limit = mode === "coding" ? 24 : 12;
    report(`first request, ${body.tools?.length ?? 0} tools (${mode})`, `${(bytes / 1024).toFixed(1)} KB`, {
      text: `≤ ${limit} KB`,
      met: bytes <= limit * 1024,
    });
  }
}

export async function runCoreBenchmarks(): Promise<void> {
  await startup();
  await wholeTurn();
  await perRound();
  await chunkLatency();
  await requestSize();
  await promptCachePrefix();
  await sessionResume();
  await sessionList();
}
