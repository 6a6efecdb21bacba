// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${NAME}` is the mcp.json syntax under test.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import type { RecordedRequest } from "../support/llm-server.js";
import { REPO_ROOT, runMarvin, serverEnv } from "../support/run-marvin.js";
import { SECRET_SAMPLES } from "../support/secrets.js";

const SERVER_SCRIPT = join(REPO_ROOT, "tests", "support", "mcp-dictionary-server.mjs");

function stdioServer(mode: string, extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [SERVER_SCRIPT, mode], ...extra };
}

function writeUserMcpConfig(home: string, servers: Record<string, unknown>): void {
  const root = join(home, ".config", "local-finder");
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "mcp.json"), JSON.stringify({ mcpServers: servers }));
}

/** The dictionary server over Streamable HTTP, in a process of its own; stopped after the test. */
async function startHttpServer(children: ChildProcess[]): Promise<string> {
  const child = spawn(process.execPath, [SERVER_SCRIPT, "http"], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const match = /listening (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.on("exit", (code) => reject(new Error(`the HTTP MCP server exited (${code})`)));
  });
}

const withChildren = test.extend<{ children: ChildProcess[] }>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern.
  children: async ({}, use) => {
    const children: ChildProcess[] = [];
    await use(children);
    for (const child of children) child.kill();
  },
});

/** The description of load_tools in a request: the families not offered yet, MCP servers among them. */
const loadToolsText = (request: RecordedRequest) =>
  request.body.tools!.find((tool) => tool.function.name === "load_tools")?.function.description ?? "";

describe("MCP servers in the built CLI", () => {
  test("calls a stdio server's tool, shows its schema, and gives the server no secrets", async ({ home, llm }) => {
    writeUserMcpConfig(home, { dictionary: stdioServer("stdio", { env: { DICTIONARY_GREETING: "hello" } }) });
    const server = await llm([
      {
        toolCalls: [
          { name: "dictionary__define", arguments: { word: "towel" } },
          { name: "dictionary__environment", arguments: {} },
        ],
      },
      { text: "A towel is useful." },
    ]);
    const env = serverEnv(server.url, home, { GROQ_API_KEY: "gsk-secret" });
    const run = await runMarvin(["--non-interactive", "--prompt", "What is a towel?"], { env, cwd: home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("  🔧 dictionary__define, dictionary__environment\nA towel is useful.\n");
    // The first request lists the server's tools as a family of load_tools; calling one offers them all.
    expect(loadToolsText(server.requests[0]!)).toMatch(/^- mcp-dictionary: .*dictionary__define/m);
    const offered = server.requests[1]!.body.tools!.find((tool) => tool.function.name === "dictionary__define");
    expect(offered?.function.parameters).not.toHaveProperty("$schema");
    expect(offered?.function.parameters).toMatchObject({
      type: "object",
      properties: { word: { type: "string", description: "The word to look up" } },
      required: ["word"],
    });
    const results = server.requests[1]!.body.messages.filter((message) => message.role === "tool");
    expect(results[0]!.content).toBe("towel: the most massively useful thing an interstellar hitchhiker can have");
    expect(JSON.parse(String(results[1]!.content))).toEqual({ greeting: "hello", secrets: [], arguments: [] });
  });

  withChildren(
    "calls a Streamable HTTP server's tool; images and resources are summarised",
    async ({ home, llm, children }) => {
      writeUserMcpConfig(home, { pictures: { url: await startHttpServer(children) } });
      const server = await llm([
        { toolCalls: [{ name: "pictures__draw", arguments: { word: "marvin" } }] },
        { text: "Drawn." },
      ]);
      const run = await runMarvin(["--non-interactive", "--prompt", "Draw marvin"], {
        env: serverEnv(server.url, home),
        cwd: home,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests[1]!.body.messages.at(-1)!.content).toBe(
        "Drew 'marvin'.\n[image: image/png, 68 bytes; not shown to the model]\n" +
          "[resource memo://marvin]\nNotes on marvin",
      );
    },
  );

  test("turns an isError result into an error the model can act on", async ({ home, llm }) => {
    writeUserMcpConfig(home, { dictionary: stdioServer("stdio") });
    const server = await llm([
      { toolCalls: [{ name: "dictionary__define", arguments: { word: "zaphod" } }] },
      { text: "Not in there." },
    ]);
    const run = await runMarvin(["--non-interactive", "--prompt", "Define zaphod"], {
      env: serverEnv(server.url, home),
      cwd: home,
    });
    expect(run.code, run.stderr).toBe(0);
    const result = String(server.requests[1]!.body.messages.at(-1)!.content);
    expect(result).toContain("MCP server dictionary reports an error from define: No entry for 'zaphod'.");
    expect(result).toContain("Check the arguments");
  });

  test("a server that crashes on start or hangs costs a notice and a timeout, not the turn", async ({ home, llm }) => {
    writeUserMcpConfig(home, {
      broken: stdioServer("crash"),
      stuck: stdioServer("hang", { startupTimeout: 1500 }),
      dictionary: stdioServer("stdio"),
    });
    const server = await llm([{ text: "Still here." }]);
    const started = Date.now();
    const run = await runMarvin(["--non-interactive", "--prompt", "hi"], {
      env: serverEnv(server.url, home),
      cwd: home,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("Still here.\n");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.stderr).toMatch(/MCP server 'broken' could not start \(.*cannot open \/nonexistent\/words\.db/);
    expect(run.stderr).toContain("MCP server 'stuck' could not start (no answer within 1.5 s)");
    const offered = loadToolsText(server.requests[0]!);
    expect(offered).toContain("dictionary__define");
    expect(offered).not.toMatch(/broken__|stuck__/);
  });

  test("a read-only agent is offered only the tools annotated readOnlyHint", async ({ home, llm }) => {
    writeUserMcpConfig(home, { dictionary: stdioServer("stdio") });
    const server = await llm([{ text: "ok" }]);
    const env = serverEnv(server.url, home, { MARVIN_READONLY: "1", MARVIN_TOOLS: "all" });
    const run = await runMarvin(["--non-interactive", "--prompt", "hi"], { env, cwd: home });
    expect(run.code, run.stderr).toBe(0);
    const offered = server.requests[0]!.body.tools!.map((tool) => tool.function.name);
    expect(offered.filter((name) => name.startsWith("dictionary__")).sort()).toEqual([
      "dictionary__define",
      "dictionary__environment",
    ]);
  });

  test("a project's .marvin/mcp.json starts nothing until the project is trusted", async ({ home, llm, workspace }) => {
    mkdirSync(join(workspace, ".marvin"));
    writeFileSync(
      join(workspace, ".marvin", "mcp.json"),
      JSON.stringify({ mcpServers: { project: stdioServer("stdio") } }),
    );
    const server = await llm([{ text: "untrusted" }, { text: "trusted" }]);
    const env = serverEnv(server.url, home);
    const before = await runMarvin(["--plain"], { env, cwd: workspace, stdin: "mcp\nhi\n" });
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain("lists MCP servers, but this project is not trusted, so none of them started");
    expect(before.stdout).toContain("No MCP servers are configured.");
    expect(server.requests[0]!.body.tools!.some((tool) => tool.function.name.startsWith("project__"))).toBe(false);

    const trusted = await runMarvin(["--plain"], { env, cwd: workspace, stdin: "!mcp trust\nhi\n" });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain("its MCP servers start now (project)");
    const store = JSON.parse(readFileSync(join(home, ".config", "local-finder", "trusted_projects.json"), "utf8"));
    expect(Object.keys(store.projects)).toEqual([workspace]);
    expect(loadToolsText(server.requests[1]!)).toMatch(/^- mcp-project: .*project__define/m);

    writeFileSync(join(workspace, ".marvin", "mcp.json"), JSON.stringify({ mcpServers: { other: stdioServer("x") } }));
    const changed = await runMarvin(["--plain"], { env, cwd: workspace, stdin: "" });
    expect(changed.stdout).toContain("this project has changed since you trusted it");
  });

  withChildren(
    "a trusted project's ${NAME} stays as written: no secret reaches its servers' env, args, URL or headers",
    async ({ home, llm, workspace, children }) => {
      const url = await startHttpServer(children);
      mkdirSync(join(workspace, ".marvin"));
      writeFileSync(
        join(workspace, ".marvin", "mcp.json"),
        JSON.stringify({
          mcpServers: {
            local: {
              command: process.execPath,
              args: [SERVER_SCRIPT, "stdio", "--token=${GH_TOKEN}"],
              env: { DICTIONARY_GREETING: "${OPENAI_API_KEY}" },
            },
            remote: { url: `${url}?k=\${OPENAI_API_KEY}`, headers: { Authorization: "Bearer ${GH_TOKEN}" } },
          },
        }),
      );
      const server = await llm([
        {
          toolCalls: [
            { name: "local__environment", arguments: {} },
            { name: "remote__environment", arguments: {} },
          ],
        },
        { text: "Seen." },
      ]);
      const env = serverEnv(server.url, home, SECRET_SAMPLES);
      const run = await runMarvin(["--plain"], { env, cwd: workspace, stdin: "!mcp trust\nwhat do they get?\n" });
      expect(run.code, run.stderr).toBe(0);
      const results = server.requests[1]!.body.messages.filter((message) => message.role === "tool");
      const [local, remote] = results.map((result) => JSON.parse(String(result.content)));
      expect(local).toEqual({ greeting: "${OPENAI_API_KEY}", secrets: [], arguments: ["--token=${GH_TOKEN}"] });
      expect(remote).toMatchObject({ url: "/mcp?k=${OPENAI_API_KEY}", authorization: "Bearer ${GH_TOKEN}" });
      const seen = JSON.stringify(results);
      for (const secret of Object.values(SECRET_SAMPLES)) expect(seen).not.toContain(secret);
      expect(run.stdout).toContain("Its ${NAME} values stay as written");
    },
  );

  test("`mcp` lists the servers, their state and their tools", async ({ home, llm }) => {
    writeUserMcpConfig(home, { dictionary: stdioServer("stdio"), broken: stdioServer("crash") });
    const server = await llm([{ text: "ok" }]);
    // The message first: its request waits for the servers, so `mcp` sees them settled.
    const run = await runMarvin(["--plain"], { env: serverEnv(server.url, home), cwd: home, stdin: "hi\nmcp\n" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("MCP servers (2):");
    expect(run.stdout).toMatch(
      /dictionary \(user, stdio: .*mcp-dictionary-server\.mjs stdio\): ready · 3 tools: dictionary__define, dictionary__draw, dictionary__environment/,
    );
    expect(run.stdout).toMatch(/broken \(user, stdio: .*\): failed — .*cannot open/);
  });
});
