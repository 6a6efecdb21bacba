#!/usr/bin/env node
// Streams 5,000 tokens at 1,000 tokens/s from a local OpenAI-compatible SSE server through the
// full-screen TUI of the built marvin, running in a real pseudo-terminal (util-linux `script`),
// and prints the CPU time marvin used and the worst gap between a token leaving the server and
// that token being drawn on the terminal. Run with: node bench/tui-stream.mjs
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const TOKENS = 5000;
const TOKENS_PER_SECOND = 1000;
const TICK_MS = 5;
const PARAGRAPH_EVERY = 80;
const COLUMNS = 100;
const ROWS = 30;
const TARGETS = { gapMs: 50, cpuShare: 0.3 };

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const marvinBin = join(root, "dist", "cli", "main.js");

const token = (index) => `w${String(index).padStart(5, "0")}`;
const sseChunk = (content) => {
  const choices = [{ index: 0, delta: { content }, finish_reason: null }];
  const chunk = { id: "bench", object: "chat.completion.chunk", created: 0, model: "bench-model", choices };
  return `data: ${JSON.stringify(chunk)}\n\n`;
};
const finishChunk = {
  id: "bench",
  object: "chat.completion.chunk",
  created: 0,
  model: "bench-model",
  choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
};
/** Like real OpenAI-compatible servers asked for `include_usage`: the token counts come last. */
const usageChunk = {
  id: "bench",
  object: "chat.completion.chunk",
  created: 0,
  model: "bench-model",
  choices: [],
  usage: { prompt_tokens: 1500, completion_tokens: TOKENS, total_tokens: 1500 + TOKENS },
};
const finish = `data: ${JSON.stringify(finishChunk)}\n\ndata: ${JSON.stringify(usageChunk)}\n\ndata: [DONE]\n\n`;

function ensureBuilt() {
  if (existsSync(marvinBin)) return;
  execFileSync(
    process.execPath,
    [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.build.json")],
    { stdio: "inherit" },
  );
}

/** An SSE server that paces tokens by the wall clock and records when each one was sent. */
function startServer(sentAt) {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const started = performance.now();
      let next = 0;
      const timer = setInterval(() => {
        const due = Math.min(TOKENS, Math.floor(((performance.now() - started) / 1000) * TOKENS_PER_SECOND) + 1);
        for (; next < due; next += 1) {
          const separator = next === 0 ? "" : next % PARAGRAPH_EVERY === 0 ? "\n\n" : " ";
          response.write(sseChunk(separator + token(next)));
          sentAt[next] = performance.now();
        }
        if (next >= TOKENS) {
          clearInterval(timer);
          response.end(finish);
        }
      }, TICK_MS);
      response.on("close", () => clearInterval(timer));
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** CPU seconds (user + system) a process has used so far, from /proc; undefined elsewhere. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

function childPid(pid) {
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      if (children) return Number(children.split(" ")[0]);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

const percentile = (values, fraction) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(fraction * values.length))];
const line = (name, figure, target) =>
  console.log(
    `${name.padEnd(38)} ${figure}${target ? `  (target ${target.text}: ${target.met ? "met" : "MISSED"})` : ""}`,
  );

async function main() {
  ensureBuilt();
  const sentAt = new Array(TOKENS);
  const shownAt = new Array(TOKENS);
  const server = await startServer(sentAt);
  const home = mkdtempSync(join(tmpdir(), "marvin-bench-tui-"));
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    TERM: "xterm-256color",
    LLM_PROVIDER: "openai-compat",
    OPENAI_COMPAT_URL: `http://127.0.0.1:${server.address().port}/v1`,
    OPENAI_COMPAT_API_KEY: "bench",
    OPENAI_COMPAT_MODEL: "bench-model",
  };
  const command = `stty cols ${COLUMNS} rows ${ROWS}; exec '${process.execPath}' '${marvinBin}'`;
  const terminal = spawn("script", ["-qfec", command, "/dev/null"], { env, stdio: ["pipe", "pipe", "inherit"] });
  let shown = 0;
  let resolveReady;
  let resolveDone;
  const ready = new Promise((resolve) => (resolveReady = resolve));
  const done = new Promise((resolve) => (resolveDone = resolve));
  let resolveFirst;
  const firstShown = new Promise((resolve) => (resolveFirst = resolve));
  terminal.stdin.on("error", () => undefined); // marvin may be gone already when we say goodbye
  terminal.stdout.setEncoding("utf8");
  terminal.stdout.on("data", (chunk) => {
    const now = performance.now();
    if (chunk.includes("for commands")) resolveReady();
    let newest = -1;
    for (const match of chunk.matchAll(/w(\d{5})/g)) newest = Math.max(newest, Number(match[1]));
    for (; shown <= newest && shown < TOKENS; shown += 1) shownAt[shown] = now;
    if (shown > 0) resolveFirst();
    if (shown >= TOKENS) resolveDone();
  });
  const exited = new Promise((resolve) => terminal.on("close", resolve));
  terminal.on("error", (error) => {
    console.log(`tui-stream: cannot run util-linux \`script\` for a pseudo-terminal (${error.message})`);
    process.exitCode = 1;
    resolveReady();
    resolveFirst();
    resolveDone();
  });
  const timeout = setTimeout(() => {
    console.log(`tui-stream: timed out (${shown} of ${TOKENS} tokens shown)`);
    terminal.kill("SIGKILL");
    process.exitCode = 1;
    resolveReady();
    resolveFirst();
    resolveDone();
  }, 60_000);
  try {
    await ready;
    if (process.exitCode) return;
    const marvinPid = childPid(terminal.pid) ?? terminal.pid;
    const cpuAtSubmit = cpuSeconds(marvinPid);
    terminal.stdin.write("stream please\r");
    await firstShown;
    const cpuAtFirstToken = cpuSeconds(marvinPid);
    await done;
    if (process.exitCode) return;
    const cpuAtLastToken = cpuSeconds(marvinPid);
    const streamSeconds = (shownAt[TOKENS - 1] - shownAt[0]) / 1000;
    const gaps = sentAt.map((sent, index) => shownAt[index] - sent).filter((gap) => Number.isFinite(gap));
    const worst = Math.max(...gaps);
    line(
      `TUI stream (${TOKENS} tokens at ${TOKENS_PER_SECOND}/s)`,
      `${streamSeconds.toFixed(2)} s from first to last token on screen`,
    );
    line(
      "arrival → display gap, median / p95",
      `${percentile(gaps, 0.5).toFixed(1)} ms / ${percentile(gaps, 0.95).toFixed(1)} ms`,
    );
    line("arrival → display gap, worst", `${worst.toFixed(1)} ms (token ${gaps.indexOf(worst) + 1})`, {
      text: `< ${TARGETS.gapMs} ms`,
      met: worst < TARGETS.gapMs,
    });
    if (cpuAtSubmit !== undefined && cpuAtFirstToken !== undefined && cpuAtLastToken !== undefined) {
      const streaming = cpuAtLastToken - cpuAtFirstToken;
      const share = streaming / streamSeconds;
      line("marvin CPU while streaming", `${streaming.toFixed(2)} s = ${(share * 100).toFixed(1)}% of one core`, {
        text: `< ${TARGETS.cpuShare * 100}%`,
        met: share < TARGETS.cpuShare,
      });
      line(
        "marvin CPU before the first token",
        `${(cpuAtFirstToken - cpuAtSubmit).toFixed(2)} s (provider start, first request)`,
      );
    } else {
      line("marvin CPU while streaming", "not measurable here (needs /proc)");
    }
  } finally {
    clearTimeout(timeout);
    if (terminal.exitCode === null) terminal.stdin.write("\x04");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (terminal.exitCode === null) terminal.kill("SIGKILL");
    server.closeAllConnections();
    server.close();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
