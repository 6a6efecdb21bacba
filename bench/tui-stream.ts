// Streams 5,000 tokens at 1,000 tokens/s from a local OpenAI-compatible SSE server through the full-screen TUI of
// the built marvin in a real pseudo-terminal (util-linux `script`; Linux only: CPU times come from /proc), in turns
// with the minimal client writing the same stream to a pipe: the CPU each uses while streaming, and the gap from a
// token leaving the server to its bytes arriving (on the terminal, in the pipe).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { WELCOME_HINT } from "../src/ui/commands/welcome-hint.js";
import { safeText } from "../src/ui/terminal-text.js";
import { MARVIN_BIN, REPO_ROOT } from "../tests/support/run-marvin.js";
import { alternate, within } from "./limits.js";
import { median, ms, percentile, report, reportRatio } from "./stats.js";
import {
  childPid,
  cpuSeconds,
  type StreamServer,
  startStreamServer,
  TOKENS,
  TOKENS_PER_SECOND,
} from "./token-stream.js";

const COLUMNS = 160;
const ROWS = 30;
const RUNS = 2;
const LIMIT_MS = 30_000;

/** One stream as a reader saw it: CPU seconds spent between its first and last token, and the gaps. */
interface Streamed {
  cpu: number;
  gaps: number[];
}

/** Watches `output` for the tokens; resolves `first` on the first and `all` on the last. */
function watchTokens(output: NodeJS.ReadableStream, shownAt: number[]) {
  let shown = 0;
  let markFirst = () => {};
  let markAll = () => {};
  const first = new Promise<void>((resolve) => (markFirst = resolve));
  const all = new Promise<void>((resolve) => (markAll = resolve));
  output.on("data", (chunk: string) => {
    const now = performance.now();
    let newest = -1;
    for (const match of chunk.matchAll(/w(\d{5})/g)) newest = Math.max(newest, Number(match[1]));
    for (; shown <= newest && shown < TOKENS; shown += 1) shownAt[shown] = now;
    if (shown > 0) markFirst();
    if (shown >= TOKENS) markAll();
  });
  return { first, all, shown: () => shown };
}

/** Waits for the stream to go through `pid`'s hands, measuring its CPU between the first and the last token. */
async function measure(server: StreamServer, pid: () => number, tokens: ReturnType<typeof watchTokens>, who: string) {
  await within(`the first token to reach ${who}`, LIMIT_MS, tokens.first);
  const atFirst = cpuSeconds(pid());
  await within(`all ${TOKENS} tokens to reach ${who} (${tokens.shown()} so far)`, LIMIT_MS, tokens.all);
  const atLast = cpuSeconds(pid());
  return { cpu: atLast - atFirst, gaps: server.gaps() };
}

/** The baseline: the minimal client writing the stream to a pipe. */
async function throughPipe(server: StreamServer): Promise<Streamed> {
  const shownAt = server.start();
  const child = spawn(process.execPath, [join(REPO_ROOT, "bench", "minimal-client.mjs"), server.url, "stream"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const tokens = watchTokens(child.stdout.setEncoding("utf8"), shownAt);
  try {
    return await measure(server, () => child.pid!, tokens, "the pipe");
  } finally {
    await stop(child);
  }
}

async function stop(child: ChildProcess, goodbye?: string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on("close", resolve));
  if (goodbye) child.stdin?.write(goodbye);
  else child.kill();
  await within("the reader to exit", 5_000, exited).catch(() => child.kill("SIGKILL"));
}

/** Marvin's full-screen UI on a pseudo-terminal, waiting for its welcome line before asking. */
async function throughTui(server: StreamServer): Promise<Streamed> {
  const home = mkdtempSync(join(tmpdir(), "marvin-bench-tui-"));
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    TERM: "xterm-256color",
    LLM_PROVIDER: "openai-compat",
    OPENAI_COMPAT_URL: server.url,
    OPENAI_COMPAT_API_KEY: "bench",
    OPENAI_COMPAT_MODEL: "bench-model",
  };
  const command = `stty cols ${COLUMNS} rows ${ROWS}; exec '${process.execPath}' '${MARVIN_BIN}'`;
  const terminal = spawn("script", ["-qfec", command, "/dev/null"], { env, stdio: ["pipe", "pipe", "inherit"] });
  terminal.stdin.on("error", () => undefined); // marvin may be gone already when we say goodbye
  try {
    let screen = "";
    const welcomed = new Promise<void>((resolve, reject) => {
      terminal.on("error", (error) => reject(new Error(`cannot run util-linux \`script\`: ${error.message}`)));
      const watch = (chunk: string) => {
        screen += chunk;
        if (!safeText(screen).replace(/\s+/g, " ").includes(WELCOME_HINT)) return;
        terminal.stdout.off("data", watch);
        resolve();
      };
      terminal.stdout.setEncoding("utf8").on("data", watch);
    });
    await within(`the TUI's welcome line ("${WELCOME_HINT}")`, LIMIT_MS, welcomed);
    const shownAt = server.start();
    const tokens = watchTokens(terminal.stdout, shownAt);
    const marvin = childPid(terminal.pid!) ?? terminal.pid!;
    terminal.stdin.write("stream please\r");
    return await measure(server, () => marvin, tokens, "the terminal");
  } finally {
    await stop(terminal, "\x04");
    rmSync(home, { recursive: true, force: true });
  }
}

export async function tuiStream(): Promise<void> {
  const server = await startStreamServer();
  try {
    const runs = { pipe: [] as Streamed[], tui: [] as Streamed[] };
    await alternate(RUNS, {
      pipe: async () => runs.pipe.push(await throughPipe(server)),
      tui: async () => runs.tui.push(await throughTui(server)),
    });
    const cpu = (side: Streamed[]) => median(side.map((run) => run.cpu * 1000));
    const seconds = TOKENS / TOKENS_PER_SECOND;
    const share = (value: number) => `${((value / 1000 / seconds) * 100).toFixed(1)}% of a core`;
    report(
      `TUI stream: ${TOKENS} tokens at ${TOKENS_PER_SECOND}/s`,
      `TUI ${share(cpu(runs.tui))}, pipe ${share(cpu(runs.pipe))}`,
    );
    reportRatio("TUI CPU while streaming", cpu(runs.tui), { label: "pipe", value: cpu(runs.pipe) }, 4);
    const gaps = (side: Streamed[]) => side.flatMap((run) => run.gaps);
    const [tui, pipe] = [gaps(runs.tui), gaps(runs.pipe)];
    // For the record: on a loaded machine the frames of the TUI wait for the CPU, so these are not judged.
    report("arrival gap median, TUI / pipe", `${ms(median(tui))} / ${ms(median(pipe))}`);
    report("arrival gap p95, TUI / pipe", `${ms(percentile(tui, 0.95))} / ${ms(percentile(pipe, 0.95))}`);
    report("arrival gap worst, TUI / pipe", `${ms(Math.max(...tui))} / ${ms(Math.max(...pipe))}`);
  } finally {
    server.close();
  }
}
