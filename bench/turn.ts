import { spawn } from "node:child_process";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type Script, type ScriptedReply, startLlmServer } from "../tests/support/llm-server.js";
import { MARVIN_BIN, REPO_ROOT, serverEnv, tempDir } from "../tests/support/run-marvin.js";
import { alternate, runMarvinWithin, timeChild, within } from "./limits.js";
import { median, ms, report, reportRatio } from "./stats.js";

const MINIMAL_CLIENT = join(REPO_ROOT, "bench", "minimal-client.mjs");
const RUN_LIMIT_MS = 30_000;

/** Cold start: a fresh `node marvin --version` process, taking turns with a bare `node -e 0`. */
export async function startup(): Promise<void> {
  const env = { PATH: process.env.PATH };
  const times = await alternate(15, {
    bare: () => timeChild(process.execPath, ["-e", "0"], { env }),
    marvin: () => timeChild(process.execPath, [MARVIN_BIN, "--version"], { env }),
  });
  const bare = { label: "bare node -e 0", value: median(times.bare) };
  reportRatio("cold start, marvin --version", median(times.marvin), bare, 1.5);
}

/** Wall time of one whole marvin run against a fresh scripted server answering `script`. */
async function marvinRun(script: Script[], prompt: string): Promise<number> {
  const server = await startLlmServer(script);
  const home = tempDir("marvin-bench-");
  try {
    const started = performance.now();
    const result = await runMarvinWithin(["--non-interactive", "--working-dir", home.path, "--prompt", prompt], {
      env: serverEnv(server.url, home.path),
    });
    const wall = performance.now() - started;
    if (result.code !== 0) throw new Error(`marvin run failed: ${result.stderr}`);
    return wall;
  } finally {
    await server.close();
    home.cleanup();
  }
}

/** Wall time of the minimal streaming client against a fresh scripted server answering `script`. */
async function minimalRun(script: Script[], prompt: string): Promise<number> {
  const server = await startLlmServer(script);
  try {
    return await timeChild(process.execPath, [MINIMAL_CLIENT, server.url, prompt], { limitMs: RUN_LIMIT_MS });
  } finally {
    await server.close();
  }
}

/** One whole non-interactive turn (start, provider setup, one streamed answer, exit), against the minimal client. */
export async function wholeTurn(): Promise<void> {
  const answer: ScriptedReply[] = [{ text: "Hello from the benchmark.", usage: { prompt: 10, completion: 5 } }];
  const times = await alternate(7, {
    minimal: () => minimalRun(answer, "hi"),
    marvin: () => marvinRun(answer, "hi"),
  });
  const minimal = { label: "minimal client", value: median(times.minimal) };
  reportRatio("one whole turn", median(times.marvin), minimal, 1.3);
}

/**
 * Cost of one tool round: the median time between the server receiving one request of a 50-round run and the
 * next, which leaves out start-up and exit, and a round slowed by the machine's other work.
 */
async function perRoundOf(run: (script: Script[], prompt: string) => Promise<number>): Promise<number> {
  // Usage in every reply, as real providers send it (otherwise the tokenizer estimates it).
  const usage = { prompt: 5_000, completion: 20 };
  const arrivals: number[] = [];
  const arriving = (reply: ScriptedReply) => () => {
    arrivals.push(performance.now());
    return reply;
  };
  const toolRound = arriving({ toolCalls: [{ name: "list_places", arguments: {} }], usage });
  await run([...Array.from({ length: 50 }, () => toolRound), arriving({ text: "done", usage })], "fifty rounds");
  return median(arrivals.slice(1).map((at, index) => at - arrivals[index]!));
}

/** The agent loop's cost per tool round, against the same rounds through the minimal client. */
export async function perRound(): Promise<void> {
  const times = await alternate(9, {
    minimal: () => perRoundOf(minimalRun),
    marvin: () => perRoundOf(marvinRun),
  });
  const minimal = { label: "minimal client", value: median(times.minimal) };
  reportRatio("per-round overhead, 50 tool rounds", median(times.marvin), minimal, 2.5);
}

/** Milliseconds from each chunk leaving the server to its bytes on the stdout of `node argsFor(url)`. */
async function chunkLatencies(argsFor: (url: string) => string[]): Promise<number[]> {
  const sentAt = new Map<string, number>();
  const parts = Array.from({ length: 100 }, (_, index) => `<${String(index).padStart(3, "0")}>`);
  const server = await startLlmServer([
    { text: parts.join(""), chunkSize: 5, delayMs: 10, onChunk: (part) => sentAt.set(part, performance.now()) },
  ]);
  const home = tempDir("marvin-bench-");
  const latencies: number[] = [];
  try {
    const args = argsFor(server.url);
    const child = spawn(process.execPath, args, {
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
    const exited = new Promise<number | null>((resolve, reject) => child.on("error", reject).on("close", resolve));
    const code = await within(`${args.join(" ")} to stream 100 chunks`, RUN_LIMIT_MS, exited, () => child.kill());
    if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}`);
  } finally {
    await server.close();
    home.cleanup();
  }
  return latencies;
}

/**
 * Time from a chunk leaving the server to its bytes on stdout, against the minimal client on the same stream.
 * Both are near a millisecond, so the target is what Marvin adds, not a ratio that a tenth of a millisecond swings.
 */
export async function chunkLatency(): Promise<void> {
  const latencies = { minimal: [] as number[], marvin: [] as number[] };
  await alternate(3, {
    minimal: async () => latencies.minimal.push(...(await chunkLatencies((url) => [MINIMAL_CLIENT, url, "stream"]))),
    // Marvin finds the server in its environment (serverEnv).
    marvin: async () =>
      latencies.marvin.push(...(await chunkLatencies(() => [MARVIN_BIN, "--non-interactive", "--prompt", "stream"]))),
  });
  const [marvin, minimal] = [median(latencies.marvin), median(latencies.minimal)];
  const figure = `${ms(marvin - minimal)} (${ms(marvin)}; minimal ${ms(minimal)})`;
  report("chunk → stdout latency, added (median)", figure, {
    text: "< 5 ms",
    met: marvin - minimal < 5,
  });
}
