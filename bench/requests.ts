import { type RecordedRequest, startLlmServer } from "../tests/support/llm-server.js";
import { serverEnv, tempDir } from "../tests/support/run-marvin.js";
import { runMarvinWithin } from "./limits.js";
import { report } from "./stats.js";

/** The first request a real run sends: a non-interactive one (coding mode) or `--plain` (chat mode). */
async function firstRequest(mode: "coding" | "chat"): Promise<RecordedRequest["body"]> {
  const server = await startLlmServer([{ text: "ok" }]);
  const home = tempDir("marvin-bench-");
  try {
    const coding = ["--non-interactive", "--working-dir", home.path, "--prompt", "size"];
    const args = mode === "coding" ? coding : ["--plain"];
    const result = await runMarvinWithin(args, {
      env: serverEnv(server.url, home.path),
      cwd: home.path,
      stdin: "size\n",
    });
    if (result.code !== 0) throw new Error(`marvin ${args[0]} failed: ${result.stderr}`);
    return server.requests[0]!.body;
  } finally {
    await server.close();
    home.cleanup();
  }
}

/**
 * Size of the first request body, system message included: tools are offered on demand (a core for the mode
 * and load_tools), so a chat-mode run should send ≤ 12 KB and a coding-mode run ≤ 24 KB. Bytes, not time:
 * the same on every machine, so these targets need no baseline.
 */
export async function requestSize(): Promise<void> {
  for (const mode of ["coding", "chat"] as const) {
    const body = await firstRequest(mode);
    const bytes = Buffer.byteLength(JSON.stringify(body));
    const limit = mode === "coding" ? 24 : 12;
    report(`first request size (${mode})`, `${(bytes / 1024).toFixed(1)} KB, ${body.tools?.length ?? 0} tools`, {
      text: `≤ ${limit} KB`,
      met: bytes <= limit * 1024,
    });
  }
}
