import { createServer } from "node:net";
import { describe, expect, test } from "../support/fixtures.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

/** A port of 127.0.0.1 where nothing listens (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("a provider URL's user and password are never shown", () => {
  test("an unreachable OpenAI-compatible server: jsonl events and stderr show the URL as http://***@…", async ({
    home,
  }) => {
    const port = await closedPort();
    const run = await runMarvin(["--non-interactive", "--output", "jsonl", "--prompt", "hi"], {
      env: serverEnv(`http://user:secret@127.0.0.1:${port}/v1`, home),
      cwd: home,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`"Cannot reach openai-compat at http://***@127.0.0.1:${port}/v1.`);
    expect(run.stdout + run.stderr).not.toContain("secret");
    expect(run.stdout + run.stderr).not.toContain("user:");
  });

  test("an Ollama URL that does not answer: the error on stderr shows it as http://***@…", async ({ home }) => {
    const port = await closedPort();
    const run = await runMarvin(["--non-interactive", "--prompt", "hi"], {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        LLM_PROVIDER: "ollama",
        OLLAMA_URL: `http://me:secret@127.0.0.1:${port}`,
      },
      cwd: home,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`http://***@127.0.0.1:${port}`);
    expect(run.stdout + run.stderr).not.toContain("secret");
  });
});
