import { lstat, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { errorMessage } from "../../../shared/error-message.js";
import { notRegularFile } from "../../../workspace/regular-file.js";
import { resolveInside } from "../../../workspace/sandbox.js";
import { readEditableText } from "../../../workspace/text-file.js";
import { ToolError } from "../../kit/define-tool.js";
import { FileEdits } from "../../kit/file-edits.js";
import type { ToolServices } from "../../kit/tool-services.js";
import type { Written } from "./after-write.js";
import { FILE_TOOLS_BLOCKED } from "./blocked-names.js";
import { describeOperation, type PatchOperation, PatchParseError, parseCodexPatch } from "./codex-patch.js";
import { applyUpdateChunks } from "./codex-update.js";
import { commitFileChanges, type FileChange } from "./file-transaction.js";

const FORMAT_REMINDER =
  "Format: '*** Begin Patch', then operations ('*** Add File: <path>' + '+' lines, '*** Delete File: <path>', " +
  "'*** Update File: <path>' [+ '*** Move to: <path>'] + '@@' hunks of ' ', '-', '+' lines), then '*** End Patch'. " +
  "Paths are relative to the working dir.";

type Summary = { added: string[]; modified: string[]; deleted: string[] };

/** The tree as the patch leaves it, kept in memory until every operation has succeeded. */
class StagedTree {
  readonly changes = new Map<string, FileChange>();
  readonly summary: Summary = { added: [], modified: [], deleted: [] };

  constructor(private readonly root: string) {}

  resolve(path: string): Promise<string> {
    return resolveInside(this.root, path, { write: true, blocked: FILE_TOOLS_BLOCKED });
  }

  /** Current text of a file, staged or on disk; undefined when missing. */
  async read(real: string, shown: string): Promise<string | undefined> {
    const staged = this.changes.get(real);
    if (staged) return staged.content ?? undefined;
    return readEditableText(real, shown);
  }

  /** What is at `real`; anything but a regular file or a directory (a FIFO, a device) is refused, naming `shown`. */
  async kind(real: string, shown: string): Promise<"file" | "directory" | "missing"> {
    const staged = this.changes.get(real);
    if (staged) return staged.content === null ? "missing" : "file";
    const stats = await stat(real).catch(() => undefined);
    if (stats && !stats.isFile() && !stats.isDirectory()) throw notRegularFile(shown, stats);
    return !stats ? "missing" : stats.isDirectory() ? "directory" : "file";
  }

  stage(real: string, shown: string, content: string | null): void {
    this.changes.delete(real);
    this.changes.set(real, { shown, content });
  }
}

/** The path of `path` itself when it is a symlink (deleting it removes the link, never its target). */
async function symlinkAt(tree: StagedTree, path: string): Promise<string | undefined> {
  const location = join(await tree.resolve(dirname(path)), basename(path));
  if (tree.changes.has(location)) return undefined;
  return (await lstat(location).catch(() => undefined))?.isSymbolicLink() ? location : undefined;
}

async function stageOperation(tree: StagedTree, operation: PatchOperation): Promise<void> {
  const real = await tree.resolve(operation.path);
  if (operation.kind === "add") {
    if ((await tree.kind(real, operation.path)) === "directory")
      throw new ToolError(`${operation.path} is a directory.`);
    tree.stage(real, operation.path, operation.content);
    tree.summary.added.push(operation.path);
    return;
  }
  if (operation.kind === "delete") {
    const link = await symlinkAt(tree, operation.path);
    if (link !== undefined) {
      tree.stage(link, operation.path, null);
      tree.summary.deleted.push(operation.path);
      return;
    }
    const kind = await tree.kind(real, operation.path);
    if (kind === "missing") throw new ToolError(`${operation.path} does not exist, so it cannot be deleted.`);
    if (kind === "directory") throw new ToolError(`${operation.path} is a directory; Delete File removes files only.`);
    tree.stage(real, operation.path, null);
    tree.summary.deleted.push(operation.path);
    return;
  }
  const content = await tree.read(real, operation.path);
  if (content === undefined)
    throw new ToolError(`${operation.path} does not exist. To create it use '*** Add File: ${operation.path}'.`);
  const updated = applyUpdateChunks(content, operation.chunks, operation.path);
  if (operation.moveTo === undefined) {
    tree.stage(real, operation.path, updated);
    tree.summary.modified.push(operation.path);
    return;
  }
  const destination = await tree.resolve(operation.moveTo);
  if ((await tree.kind(destination, operation.moveTo)) === "directory")
    throw new ToolError(`Cannot move to ${operation.moveTo}: it is a directory.`);
  tree.stage(destination, operation.moveTo, updated);
  if (destination !== real) tree.stage(real, operation.path, null);
  tree.summary.modified.push(operation.moveTo);
}

function formatSummary({ added, modified, deleted }: Summary): string {
  const lines = [
    ...added.map((path) => `A ${path}`),
    ...modified.map((path) => `M ${path}`),
    ...deleted.map((path) => `D ${path}`),
  ];
  return `Success. Updated the following files:\n${lines.join("\n")}`;
}

/**
 * Applies a Codex `*** Begin Patch` text inside `root`, all-or-nothing: every operation is
 * checked and computed in memory first; if one fails, nothing is written and the error names it.
 */
export async function applyCodexPatch(services: ToolServices, root: string, patchText: string): Promise<Written> {
  let operations: PatchOperation[];
  try {
    operations = parseCodexPatch(patchText);
  } catch (error) {
    if (error instanceof PatchParseError)
      throw new ToolError(`Invalid patch: ${error.message}\nNo files were modified.\n${FORMAT_REMINDER}`);
    throw error;
  }
  if (operations.length === 0)
    throw new ToolError(`No files were modified: the patch contains no operations.\n${FORMAT_REMINDER}`);
  const tree = new StagedTree(root);
  for (const [index, operation] of operations.entries()) {
    try {
      await stageOperation(tree, operation);
    } catch (error) {
      const reason = errorMessage(error);
      throw new ToolError(
        `Operation ${index + 1} of ${operations.length} (${describeOperation(operation)}) failed: ${reason}\n` +
          "No files were modified: the patch is applied all-or-nothing. Fix that operation and send the whole " +
          "patch again.",
      );
    }
  }
  const targets = [...tree.changes].map(([real, { shown }]) => ({ real, shown }));
  const edits = await FileEdits.begin(services, targets);
  await commitFileChanges(tree.changes);
  const written = new Map([...tree.changes].map(([real, { content }]) => [real, content]));
  const files = [...tree.changes].filter(([, change]) => change.content !== null).map(([real]) => real);
  return { text: formatSummary(tree.summary), files, details: await edits.finish(written) };
}
