import { realpath, stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { z } from "zod";
import { isInside, treeListing } from "../../../workspace/sandbox.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";

function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return path;
}

/** The real path of an existing directory, or a ToolError saying what is wrong. */
async function existingDirectory(requested: string, context: ToolContext): Promise<string> {
  const expanded = expandHome(requested.trim(), context.home);
  const absolute = isAbsolute(expanded) ? expanded : resolve(context.workingDir ?? context.home, expanded);
  const info = await stat(absolute).catch(() => undefined);
  if (!info)
    throw new ToolError(
      `${absolute} does not exist. Give an existing directory (absolute, or relative to ` +
        `${context.workingDir ?? context.home}).`,
    );
  if (!info.isDirectory()) throw new ToolError(`${absolute} is a file, not a directory. Give the project's directory.`);
  return realpath(absolute);
}

export const workingDirTools = [
  defineTool({
    name: "set_working_dir",
    effect: "session",
    description:
      "Set the project directory that file, search, git and shell tools work in. Paths given to those tools are " +
      "relative to it.",
    codingOnly: true,
    parameters: z.object({
      path: z.string().min(1).describe("Directory: absolute, ~/…, or relative to the current working dir"),
    }),
    handler: async ({ path }, context) => {
      const target = await existingDirectory(path, context);
      const current = context.workingDir && (await realpath(context.workingDir).catch(() => context.workingDir!));
      // A non-interactive caller chose the sandbox with --working-dir: the agent may narrow it, never leave it.
      if (context.mode.nonInteractive && current && !isInside(current, target)) {
        throw new ToolError(
          `In a non-interactive run the working dir is fixed by the caller (${current}); set_working_dir can only ` +
            `move into one of its subdirectories.`,
        );
      }
      context.setWorkingDir(target);
      context.diagnostics.warmUp({ codingMode: context.mode.codingMode, workingDir: target });
      return `Working dir set to ${target}\n\nProject structure:\n${await treeListing(target)}`;
    },
  }),
  defineTool({
    name: "get_working_dir",
    effect: "read",
    description: "Show the current working directory of the coding tools.",
    codingOnly: true,
    parameters: z.object({}),
    handler: async (_args, context) =>
      context.workingDir
        ? `Working dir: ${context.workingDir}`
        : "No working dir is set. Call set_working_dir with the project directory.",
  }),
];
