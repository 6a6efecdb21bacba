import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RecordedRequest, startLlmServer } from "../tests/support/llm-server.js";
import { serverEnv, tempDir } from "../tests/support/run-marvin.js";
import { runMarvinWithin } from "./limits.js";
import { report } from "./stats.js";

/** What a provider's prompt cache sees of a request, in the order it caches: the tools, then the messages. */
const cachedOrder = (request: RecordedRequest) =>
  JSON.stringify({ tools: request.body.tools ?? [], messages: request.body.messages });

function commonPrefixLength(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/**
 * A three-message conversation with over 60 KB of history, one message per run (`--session`, so the
 * conversation also crosses processes): how much of the first request of each new message repeats, as a
 * prefix, the request before it — the part a provider's prompt cache can serve.
 */
export async function promptCachePrefix(): Promise<void> {
  const home = tempDir("marvin-bench-cache-");
  // 64 KB of a file the first message reads, so that the later messages carry that much history.
  writeFileSync(join(home.path, "notes.txt"), `${"a line of notes, long enough to count. ".repeat(16)}\n`.repeat(100));
  const server = await startLlmServer([
    { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt", start_line: 1, end_line: 100 } }] },
    { text: "Read it." },
    { text: "Second answer." },
    { text: "Third answer." },
  ]);
  try {
    const env = serverEnv(server.url, home.path);
    for (const prompt of ["read notes.txt", "and then?", "and after that?"]) {
      const args = ["--non-interactive", "--working-dir", home.path, "--session", "cache", "--prompt", prompt];
      const result = await runMarvinWithin(args, { env, cwd: home.path });
      if (result.code !== 0) throw new Error(`marvin failed: ${result.stderr}`);
    }
    const bodies = server.requests.map(cachedOrder);
    const history = bodies[2]!.length;
    const shares = [2, 3].map(
      (index) => commonPrefixLength(bodies[index - 1]!, bodies[index]!) / bodies[index]!.length,
    );
    const worst = Math.min(...shares);
    report(
      "prompt-cache prefix, new messages",
      `${shares.map((share) => `${(share * 100).toFixed(1)} %`).join(" / ")} of ${Math.round(history / 1024)} KB`,
      { text: "≥ 95 %", met: worst >= 0.95 },
    );
  } finally {
    await server.close();
    home.cleanup();
  }
}
