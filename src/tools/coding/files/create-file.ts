import { lstat } from "node:fs/promises";
import { z } from "zod";
import { describeFileType, readRegularFile } from "../../../workspace/regular-file.js";
import { resolveInside } from "../../../workspace/sandbox.js";
import { createTextFile } from "../../../workspace/text-file.js";
import { defineTool, ToolError } from "../../kit/define-tool.js";
import { FileEdits } from "../../kit/file-edits.js";
import { requireWorkingDir } from "../../kit/require-working-dir.js";
import { reportWritten } from "./after-write.js";
import { FILE_TOOLS_BLOCKED } from "./blocked-names.js";
import { countLines } from "./text-lines.js";

async function alreadyExists(real: string, path: string): Promise<ToolError> {
  const stats = await lstat(real);
  if (stats.isDirectory()) return new ToolError(`${path} is an existing directory; choose a file name inside it.`);
  if (!stats.isFile()) {
    return new ToolError(
      `${path} already exists and is ${describeFileType(stats)}, not a regular file. Choose another name.`,
    );
  }
  const lines = countLines((await readRegularFile(real, path).catch(() => Buffer.alloc(0))).toString("utf8"));
  return new ToolError(
    `${path} already exists (${lines} lines). Use apply_patch to change it, or append_file to add to its end.`,
  );
}

export const createFileTool = defineTool({
  name: "create_file",
  effect: "write",
  description:
    "Create a new file in the working dir (parent folders are created). Fails if the file exists: edit existing " +
    "files with apply_patch. " +
    "For a long file, write the first part here and continue with append_file.",
  parameters: z.object({
    path: z.string().describe("e.g. 'src/util.ts'"),
    content: z.string().default(""),
  }),
  codingOnly: true,
  handler: async ({ path, content }, context) => {
    const root = requireWorkingDir(context);
    const real = await resolveInside(root, path, { write: true, blocked: FILE_TOOLS_BLOCKED });
    const edits = await FileEdits.begin(context, [{ real, shown: path }]);
    if (!(await createTextFile(real, content))) throw await alreadyExists(real, path);
    const text = `Created ${path} (${Buffer.byteLength(content)} bytes, ${countLines(content)} lines).`;
    return reportWritten(context, root, { text, files: [real], details: await edits.wrote(real, content) });
  },
});
