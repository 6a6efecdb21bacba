import { describe, expect, test } from "../support/fixtures.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

/** A name under `.invalid`, which never resolves (RFC 2606): reaching for it could only fail. */
const ELSEWHERE = "http://llm.marvin-test.invalid:8080/v1";

describe("API keys over plain http", () => {
  test("a key is not sent over http to another machine: refused before any connection, saying what to do", async ({
    home,
  }) => {
    const run = await runMarvin(["--non-interactive", "--prompt", "hi"], {
      env: serverEnv(ELSEWHERE, home),
      cwd: home,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Error: Not sending OPENAI_COMPAT_API_KEY (or ~/.ssh/OPENAI_COMPAT_API_KEY) to ${ELSEWHERE}: it is plain ` +
        "http:// to another machine, where anyone on the way could read the key. Use an https:// URL, or set " +
        "MARVIN_ALLOW_HTTP_KEYS=1",
    );
    // No attempt to reach it: no lookup failure, no retry.
    expect(run.stderr).not.toContain("Cannot reach");
  });

  test("MARVIN_ALLOW_HTTP_KEYS=1 sends it anyway: Marvin tries to reach the server", async ({ home }) => {
    const run = await runMarvin(["--non-interactive", "--prompt", "hi"], {
      env: serverEnv(ELSEWHERE, home, { MARVIN_ALLOW_HTTP_KEYS: "1" }),
      cwd: home,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Error: Cannot reach openai-compat at ${ELSEWHERE}`);
    expect(run.stderr).not.toContain("Not sending");
  });

  test("a key over http to loopback is sent as before", async ({ llm, home }) => {
    const server = await llm([{ text: "Hello." }]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    const run = await runMarvin(["--non-interactive", "--prompt", "hi"], {
      env: serverEnv(server.url, home),
      cwd: home,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello.\n");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer test-key");
  });
});
