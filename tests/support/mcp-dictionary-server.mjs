// A real MCP server built with the official SDK, for the tests: `node mcp-dictionary-server.mjs MODE`.
// stdio: serves on stdin/stdout · http: Streamable HTTP on 127.0.0.1, prints "listening URL" ·
// crash: writes an error to stderr and exits 3 before answering · hang: reads stdin, never answers.
// Arguments after MODE are only reported, by the `environment` tool, with what else the server was given.
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const ENTRIES = {
  marvin: "a paranoid android with a brain the size of a planet",
  towel: "the most massively useful thing an interstellar hitchhiker can have",
};
// A 1×1 transparent PNG.
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** `request`: the HTTP request this server answers (Streamable HTTP), whose URL and credentials it reports. */
function dictionaryServer(request) {
  const server = new McpServer({ name: "dictionary", version: "1.0.0" });
  server.registerTool(
    "define",
    {
      description: "Look a word up in the dictionary.",
      inputSchema: { word: z.string().describe("The word to look up") },
      annotations: { readOnlyHint: true },
    },
    async ({ word }) => {
      const entry = ENTRIES[word.toLowerCase()];
      if (!entry) return { content: [{ type: "text", text: `No entry for '${word}'.` }], isError: true };
      return { content: [{ type: "text", text: `${word}: ${entry}` }] };
    },
  );
  server.registerTool(
    "draw",
    { description: "Draw a word as a picture.", inputSchema: { word: z.string() } },
    async ({ word }) => ({
      content: [
        { type: "text", text: `Drew '${word}'.` },
        { type: "image", data: PIXEL, mimeType: "image/png" },
        { type: "resource", resource: { uri: `memo://${word}`, mimeType: "text/plain", text: `Notes on ${word}` } },
      ],
    }),
  );
  server.registerTool(
    "environment",
    {
      description: "Report what the server was given: environment, arguments, URL.",
      annotations: { readOnlyHint: true },
    },
    async () => {
      const secrets = Object.keys(process.env).filter((name) => /KEY|TOKEN|SECRET/.test(name));
      const given = request
        ? { url: request.url, authorization: request.headers.authorization ?? null }
        : { arguments: process.argv.slice(3) };
      const report = { greeting: process.env.DICTIONARY_GREETING ?? null, secrets, ...given };
      return { content: [{ type: "text", text: JSON.stringify(report) }] };
    },
  );
  return server;
}

async function serveHttp() {
  const httpServer = createServer(async (request, response) => {
    // Stateless: one server and transport per request, as the SDK's stateless example does.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = dictionaryServer(request);
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  httpServer.listen(0, "127.0.0.1", () => {
    process.stdout.write(`listening http://127.0.0.1:${httpServer.address().port}/mcp\n`);
  });
}

const mode = process.argv[2] ?? "stdio";
if (mode === "stdio") await dictionaryServer().connect(new StdioServerTransport());
else if (mode === "http") await serveHttp();
else if (mode === "crash") {
  process.stderr.write("dictionary: cannot open /nonexistent/words.db\n");
  process.exit(3);
} else if (mode === "hang") process.stdin.resume();
