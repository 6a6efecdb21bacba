import { constants } from "node:fs";
import { lstat, mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { notRegularFile } from "../../../workspace/regular-file.js";
import { resolveInside } from "../../../workspace/sandbox.js";
import { readEditableText, writeTextFile } from "../../../workspace/text-file.js";
import { defineTool, ToolError } from "../../kit/define-tool.js";
import { FileEdits } from "../../kit/file-edits.js";
import { requireWorkingDir } from "../../kit/require-working-dir.js";
import { reportWritten } from "./after-write.js";
import { FILE_TOOLS_BLOCKED } from "./blocked-names.js";

const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

/** Appends to `real` without ever following a symlink at the last step; returns the size before and after. */
async function appendText(
  real: string,
  shown: string,
  content: string,
): Promise<{ before: number; after: number; endedWithNewline: boolean }> {
  await mkdir(dirname(real), { recursive: true });
  const handle = await open(real, APPEND_FLAGS, 0o666);
  try {
    const opened = await handle.stat();
    // Swapped in since the check: never write into a FIFO (a write could block) or a device.
    if (!opened.isFile()) throw notRegularFile(shown, opened);
    const before = opened.size;
    let endedWithNewline = true;
    if (before > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, before - 1);
      endedWithNewline = last[0] === 0x0a;
    }
    await handle.writeFile(content, "utf8");
    return { before, after: (await handle.stat()).size, endedWithNewline };
  } finally {
    await handle.close();
  }
}

/**
 * A file with several hard links may share its bytes with a file outside the working dir:
 * write a fresh file (atomic rename) instead of appending to the shared inode.
 */
async function rewriteWithAppended(
  real: string,
  path: string,
  content: string,
): Promise<{ before: number; after: number; endedWithNewline: boolean }> {
  const current = (await readEditableText(real, path)) ?? "";
  await writeTextFile(real, current + content);
  const before = Buffer.byteLength(current);
  return {
    before,
    after: before + Buffer.byteLength(content),
    endedWithNewline: current === "" || current.endsWith("\n"),
  };
}

export const appendFileTool = defineTool({
  name: "append_file",
  effect: "write",
  description:
    "Append text to the end of a file in the working dir (created if missing). Use it to write a long file in parts " +
    "after create_file.",
  parameters: z.object({
    path: z.string(),
    content: z.string().default("").describe("Text to add at the end, usually ending with a newline"),
  }),
  codingOnly: true,
  handler: async ({ path, content }, context) => {
    const root = requireWorkingDir(context);
    const real = await resolveInside(root, path, { write: true, blocked: FILE_TOOLS_BLOCKED });
    const stats = await lstat(real).catch(() => undefined);
    if (stats?.isDirectory()) throw new ToolError(`${path} is a directory; append_file needs a file path.`);
    if (stats && !stats.isFile()) throw notRegularFile(path, stats);
    const edits = await FileEdits.begin(context, [{ real, shown: path }]);
    const { before, after, endedWithNewline } =
      stats && stats.nlink > 1 ? await rewriteWithAppended(real, path, content) : await appendText(real, path, content);
    const details = await edits.wrote(real, (edits.before(real) ?? "") + content);
    const note = endedWithNewline
      ? ""
      : " Note: the file did not end with a newline, so the appended text continues its last line.";
    const text = stats
      ? `Appended ${after - before} bytes to ${path} (now ${after} bytes).${note}`
      : `Created ${path} with ${after} bytes.`;
    return reportWritten(context, root, { text, files: [real], details });
  },
});
