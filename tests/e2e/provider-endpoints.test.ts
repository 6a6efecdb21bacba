import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PROVIDERS } from "../../src/providers/registry.js";
import { ACCOUNT_ID, codexAuthJson, jwt } from "../support/chatgpt-servers.js";
import { describe, expect, test } from "../support/fixtures.js";
import { runMarvin } from "../support/run-marvin.js";

/** A ChatGPT sign-in the codex provider can use, where the codex CLI keeps it. */
async function codexSignIn(home: string): Promise<void> {
  const access = jwt({ "https://api.openai.com/auth": { chatgpt_account_id: ACCOUNT_ID } }, 3_600);
  const tokens = { id_token: access, access_token: access, refresh_token: "refresh", account_id: ACCOUNT_ID };
  await mkdir(join(home, ".codex"));
  await writeFile(join(home, ".codex", "auth.json"), codexAuthJson(tokens), { mode: 0o600 });
}

/** The providers Marvin reaches over HTTP at an address of its own (Copilot goes through its runtime). */
const overHttp = PROVIDERS.filter(({ defaults }) => defaults.baseUrl !== undefined || defaults.urlEnv !== undefined);

describe("every provider's endpoint is a setting", () => {
  test.for(overHttp.map(({ name, defaults }) => [name, defaults] as const))(
    "%s sends its requests to the server its URL setting names",
    async ([name, defaults], { httpServers, home }) => {
      expect(defaults.urlEnv, `${name} declares the variable of its endpoint`).toBeDefined();
      const server = await httpServers.start((_request, response) => {
        response.writeHead(401, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: "recorded", type: "invalid_request_error" } }));
      });
      if (name === "codex") await codexSignIn(home);
      const mount = `/gateway-${name}`;
      const env = {
        PATH: process.env.PATH,
        HOME: home,
        [defaults.urlEnv!]: `${server.origin}${mount}`,
        ...(defaults.keyEnv ? { [defaults.keyEnv]: "test-key" } : {}),
      };
      const run = await runMarvin(["--non-interactive", "--provider", name, "--prompt", "hello"], { env, cwd: home });
      expect(run.code, run.stderr).not.toBe(0);
      expect(server.requests.length, run.stderr).toBeGreaterThan(0);
      for (const request of server.requests) expect(request.url.startsWith(`${mount}/`), request.url).toBe(true);
    },
  );
});
