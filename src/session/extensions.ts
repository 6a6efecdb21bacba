import type { Env } from "../shared/env.js";
import { errorMessage } from "../shared/error-message.js";
import { configPaths } from "../state/paths.js";
import { loadCustomTools } from "../tools/extensions/custom/index.js";
import { loadMcpSetup, type McpSetup, trustProjectConfig } from "../tools/extensions/mcp/config.js";
import { McpServers } from "../tools/extensions/mcp/manager.js";
import type { ToolRegistry } from "../tools/kit/registry.js";
import { loadCommandHooks } from "./hooks/command-hooks.js";
import { HookDispatcher } from "./hooks/hook-dispatcher.js";
import { loadModuleHooks } from "./hooks/module-hooks.js";

interface ExtensionPlaces {
  home: string;
  env: Env;
  /** Where hooks run and `.marvin/mcp.json` is looked for: the working dir, else the cwd. */
  projectDir: string;
  registry: ToolRegistry;
}

/** Where extension notices go, and what a hook's `send(text)` does; set once the session exists. */
interface ExtensionOutlets {
  notice(text: string): void;
  send(text: string): void;
}

const LITERAL_VARIABLES =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the mcp.json syntax, named to the user.
  "Its ${NAME} values stay as written: a project's file never reads your environment (put what a server " +
  "needs from it in your own ~/.config/local-finder/mcp.json).";

function untrustedNotice(untrusted: NonNullable<McpSetup["untrustedProject"]>): string {
  const why = untrusted.changed ? "has changed since you trusted it" : "is not trusted";
  const notice =
    `${untrusted.path} lists MCP servers, but this project ${why}, so none of them started (a cloned ` +
    "repository must not start programs by itself). Read the file, then type `!mcp trust` to trust it.";
  return untrusted.literalVariables ? `${notice} ${LITERAL_VARIABLES}` : notice;
}

/**
 * A session's extensions (seed 003): custom tools and module and command hooks from the user's
 * config dir, and MCP servers from the user's mcp.json and a trusted project's `.marvin/mcp.json`.
 * Nothing here is ever loaded from a working directory, except that trusted MCP configuration.
 */
export class Extensions {
  readonly hooks = new HookDispatcher();
  readonly mcp: McpServers;
  /** The project's `.marvin/mcp.json` when it was left out for want of trust. */
  untrustedProject: string | undefined;
  private outlets: ExtensionOutlets;

  private constructor(
    private readonly places: ExtensionPlaces,
    initialNotice: (text: string) => void,
  ) {
    this.outlets = { notice: initialNotice, send: () => undefined };
    this.mcp = new McpServers(places.registry, places.env, (text) => this.outlets.notice(text));
    this.hooks.connect({ notice: (text) => this.outlets.notice(text), send: (text) => this.outlets.send(text) });
  }

  /**
   * Loads custom tools (into the registry) and hooks, and starts the MCP servers in the
   * background. Problems go to `notice`; never throws.
   */
  static async load(places: ExtensionPlaces, notice: (text: string) => void): Promise<Extensions> {
    const extensions = new Extensions(places, notice);
    const paths = configPaths(places.home);
    const hookPlaces = { cwd: places.projectDir, env: places.env };
    const [tools, moduleProblems, commandProblems, setup] = await Promise.all([
      loadCustomTools(paths.toolsDir),
      loadModuleHooks(extensions.hooks, { ...hookPlaces, hooksDir: paths.hooksDir, configDir: paths.root }),
      loadCommandHooks(extensions.hooks, { ...hookPlaces, settingsPath: paths.hookCommands }),
      extensions.readMcpSetup(),
    ]);
    const problems = [...tools.problems, ...moduleProblems, ...commandProblems, ...setup.problems];
    for (const tool of tools.tools) {
      if (places.registry.has(tool.name))
        problems.push(`Custom tool ${tool.name} is left out: a tool of that name exists.`);
      else places.registry.register(tool);
    }
    if (setup.untrustedProject) problems.push(untrustedNotice(setup.untrustedProject));
    extensions.untrustedProject = setup.untrustedProject?.path;
    for (const problem of problems) notice(problem);
    extensions.mcp.start(setup.servers);
    return extensions;
  }

  /** Connects notices and `send` to the running session. */
  connect(outlets: ExtensionOutlets): void {
    this.outlets = outlets;
  }

  get projectDir(): string {
    return this.places.projectDir;
  }

  /** Awaited before each request: MCP servers still starting get their bounded chance to list their tools. */
  ready(): Promise<void> {
    return this.mcp.settled();
  }

  /** `!mcp trust`: trusts the project's `.marvin/mcp.json` as it is now and starts its servers. */
  async trustProject(): Promise<string> {
    const paths = configPaths(this.places.home);
    try {
      const file = await trustProjectConfig(paths.trustedProjects, this.places.projectDir);
      if (!file) return `${this.places.projectDir} has no .marvin/mcp.json: there is nothing to trust.`;
      const setup = await this.readMcpSetup();
      for (const problem of setup.problems) this.outlets.notice(problem);
      this.untrustedProject = undefined;
      const fresh = setup.servers.filter((server) => server.source === "project");
      this.mcp.start(fresh);
      const names = fresh.map((server) => server.name).join(", ") || "none";
      const trusted = `Trusted ${this.places.projectDir}: its MCP servers start now (${names}).`;
      const report = `${trusted} \`mcp\` shows how they are doing.`;
      return file.literalVariables ? `${report} ${LITERAL_VARIABLES}` : report;
    } catch (error) {
      return `Could not trust ${this.places.projectDir}: ${errorMessage(error)}`;
    }
  }

  /** Stops the MCP servers. */
  close(): Promise<void> {
    return this.mcp.close();
  }

  private readMcpSetup(): Promise<McpSetup> {
    const paths = configPaths(this.places.home);
    return loadMcpSetup({
      userConfig: paths.mcpConfig,
      trustedProjects: paths.trustedProjects,
      projectDir: this.places.projectDir,
      env: this.places.env,
    });
  }
}
