import { join } from "node:path";
import { z } from "zod";
import type { Env } from "../../../shared/env.js";
import { errorMessage } from "../../../shared/error-message.js";
import { readStateText } from "../../../state/atomic-file.js";
import { ProjectTrust } from "../../../state/project-trust.js";

const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;
const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** One entry of `mcpServers`, as Claude Code, Gemini CLI, Cursor and others write it; unknown keys are ignored. */
const serverEntry = z.looseObject({
  type: z.string().optional(),
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().min(1).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Milliseconds a tool call may take (Gemini CLI's name). */
  timeout: z.number().positive().optional(),
  /** Milliseconds the server may take to start and list its tools. */
  startupTimeout: z.number().positive().optional(),
  disabled: z.boolean().optional(),
});

const configFile = z.looseObject({ mcpServers: z.record(z.string(), z.unknown()).optional() });

type Transport =
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: "http"; url: string; headers: Record<string, string> };

export interface McpServerConfig {
  /** The name tools are prefixed with (`<name>__<tool>`): letters, digits, `_` and `-` only. */
  name: string;
  /** Where it was configured: the user's config or a trusted project. */
  source: "user" | "project";
  transport: Transport;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
}

/** What becomes of a value as it is read: `${NAME}` expanded (the user's file) or nothing (a project's). */
type Expand = (value: string) => string;

/**
 * `${NAME}` in a value of the user's own file becomes the variable from Marvin's environment
 * (empty when unset). A project's file gets no expansion: it was written by whoever wrote the
 * repository, and `${OPENAI_API_KEY}` in its args or URL would hand them the key.
 */
function expanderFor(source: McpServerConfig["source"], env: Env): Expand {
  if (source === "project") return (value) => value;
  return (value) => value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? "");
}

function expandAll(values: Record<string, string> | undefined, expand: Expand): Record<string, string> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [key, expand(value)]));
}

/** Server names become tool-name prefixes, which providers limit to `[A-Za-z0-9_-]`. */
export function toolNamePart(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

function toServer(
  name: string,
  raw: unknown,
  source: McpServerConfig["source"],
  expand: Expand,
  baseDir: string,
): McpServerConfig | string | undefined {
  const parsed = serverEntry.safeParse(raw);
  if (!parsed.success) return `server '${name}': ${parsed.error.issues[0]?.message ?? "not an object"}`;
  const entry = parsed.data;
  if (entry.disabled) return undefined;
  const common = {
    name: toolNamePart(name),
    source,
    startupTimeoutMs: entry.startupTimeout ?? DEFAULT_STARTUP_TIMEOUT_MS,
    toolTimeoutMs: entry.timeout ?? DEFAULT_TOOL_TIMEOUT_MS,
  };
  if (entry.type === "sse") return `server '${name}': the old SSE transport is not supported; use Streamable HTTP`;
  if (entry.url) {
    return {
      ...common,
      transport: { kind: "http", url: expand(entry.url), headers: expandAll(entry.headers, expand) },
    };
  }
  if (!entry.command) return `server '${name}': give either "command" (stdio) or "url" (Streamable HTTP)`;
  const cwd = entry.cwd ? join(baseDir, expand(entry.cwd)) : undefined;
  const stdio: Transport = {
    kind: "stdio",
    command: expand(entry.command),
    args: (entry.args ?? []).map(expand),
    env: expandAll(entry.env, expand),
    ...(cwd ? { cwd } : {}),
  };
  return { ...common, transport: stdio };
}

interface ParsedConfig {
  servers: McpServerConfig[];
  problems: string[];
}

/** The servers of one mcp.json text; every unusable entry is a problem that names the file. */
function parseConfig(
  path: string,
  text: string,
  source: McpServerConfig["source"],
  env: Env,
  baseDir: string,
): ParsedConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { servers: [], problems: [`${path} is not valid JSON (${errorMessage(error)}); no server from it starts.`] };
  }
  const file = configFile.safeParse(raw);
  if (!file.success) return { servers: [], problems: [`${path} must hold a JSON object with "mcpServers".`] };
  const servers: McpServerConfig[] = [];
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(file.data.mcpServers ?? {})) {
    const server = toServer(name, entry, source, expanderFor(source, env), baseDir);
    if (typeof server === "string") problems.push(`${path}: ${server}.`);
    else if (server) servers.push(server);
  }
  return { servers, problems };
}

async function readConfig(path: string): Promise<{ text?: string; problem?: string }> {
  const read = await readStateText(path);
  if ("problem" in read) return { problem: `${path}: ${read.problem}.` };
  return read.value === undefined ? {} : { text: read.value };
}

/** Where a project keeps its own MCP servers. */
function projectConfigPath(projectDir: string): string {
  return join(projectDir, ".marvin", "mcp.json");
}

/** What the configuration files say: the servers to start and what the person must be told. */
export interface McpSetup extends ParsedConfig {
  /** A project configuration exists but is not trusted (or changed since): its servers are left out. */
  untrustedProject?: { path: string; changed: boolean } & ProjectFileFacts;
}

/** What the trust notice tells of a project's file besides its servers. */
interface ProjectFileFacts {
  /** The file holds `${…}`, which stays as written (see `expanderFor`). */
  literalVariables: boolean;
}

function projectFileFacts(text: string): ProjectFileFacts {
  return { literalVariables: text.includes("${") };
}

interface SetupPlaces {
  userConfig: string;
  trustedProjects: string;
  /** The project directory (working dir or cwd); undefined when there is none. */
  projectDir?: string;
  env: Env;
}

/**
 * Reads the user's mcp.json and, when the user trusts it, the project's `.marvin/mcp.json` (a
 * project server replaces a user server of the same name). Never throws.
 */
export async function loadMcpSetup(places: SetupPlaces): Promise<McpSetup> {
  const setup: McpSetup = { servers: [], problems: [] };
  const add = (parsed: ParsedConfig) => {
    const names = new Set(parsed.servers.map((server) => server.name));
    setup.servers = [...setup.servers.filter((server) => !names.has(server.name)), ...parsed.servers];
    setup.problems.push(...parsed.problems);
  };
  try {
    const user = await readConfig(places.userConfig);
    if (user.problem) setup.problems.push(user.problem);
    if (user.text) add(parseConfig(places.userConfig, user.text, "user", places.env, places.projectDir ?? "."));
    if (!places.projectDir) return setup;
    const path = projectConfigPath(places.projectDir);
    const project = await readConfig(path);
    if (project.problem) setup.problems.push(project.problem);
    if (project.text === undefined) return setup;
    const trust = await new ProjectTrust(places.trustedProjects).state(places.projectDir, project.text);
    if (trust.warning) setup.problems.push(trust.warning);
    if (trust.state === "trusted") add(parseConfig(path, project.text, "project", places.env, places.projectDir));
    else setup.untrustedProject = { path, changed: trust.state === "changed", ...projectFileFacts(project.text) };
  } catch (error) {
    setup.problems.push(`Could not read the MCP configuration: ${errorMessage(error)}`);
  }
  return setup;
}

/** Trusts the project's current `.marvin/mcp.json`; undefined when there is none. */
export async function trustProjectConfig(
  trustedProjects: string,
  projectDir: string,
): Promise<ProjectFileFacts | undefined> {
  const project = await readConfig(projectConfigPath(projectDir));
  if (project.text === undefined) return undefined;
  await new ProjectTrust(trustedProjects).trust(projectDir, project.text);
  return projectFileFacts(project.text);
}
