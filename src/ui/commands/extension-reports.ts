import type { Extensions } from "../../session/extensions.js";
import type { CustomCommand } from "./custom-commands.js";
import { COMMAND_HELP, helpRow } from "./help.js";

const NO_SERVERS =
  "No MCP servers are configured. Add them to ~/.config/local-finder/mcp.json (or a project's .marvin/mcp.json) " +
  'as {"mcpServers": {"NAME": {"command": …, "args": […]}}} or {"url": …}.';

/** `mcp`: every server with its state and tools. */
export function mcpReport(extensions: Extensions | undefined): string {
  const servers = extensions?.mcp.status() ?? [];
  const lines = servers.map((server) => {
    const head = `  ${server.name} (${server.source}, ${server.target}): ${server.state}`;
    if (server.problem) return `${head} — ${server.problem}`;
    if (server.state !== "ready") return head;
    const tools = server.tools.length ? server.tools.join(", ") : "no tools";
    return `${head} · ${server.tools.length} tool${server.tools.length === 1 ? "" : "s"}: ${tools}`;
  });
  const untrusted = extensions?.untrustedProject;
  const trustHint = untrusted
    ? [`${untrusted} is not trusted: its servers did not start. \`!mcp trust\` trusts it.`]
    : [];
  if (lines.length === 0) return [NO_SERVERS, ...trustHint].join("\n");
  return [`MCP servers (${lines.length}):`, ...lines, ...trustHint].join("\n");
}

/** `help`: the commands, then the custom commands when there are any. */
export function helpText(commands: readonly CustomCommand[]): string {
  if (commands.length === 0) return COMMAND_HELP;
  const custom = commands.map((command) => helpRow(`/${command.name}`, command.description));
  return `${COMMAND_HELP}\nCustom commands:\n${custom.join("\n")}`;
}
