import { mkdir, realpath, stat } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import { ToolError, type ToolContext } from "../define-tool.js";
import { resolveInside, treeListing } from "../files/sandbox.js";

/** How the notes root is named in sandbox messages. */
export const NOTES_LABEL = "Notes folder";

/**
 * Where notes live: `~/Notes/` for the person at the terminal, `<working dir>/.marvin/notes/`
 * in coding mode, so coding agents never carry knowledge across runs through ~/Notes (seed 004 §6.11).
 */
export function notesRootPath(context: Pick<ToolContext, "home" | "workingDir" | "mode">): string {
  if (context.mode.codingMode && context.workingDir) return join(context.workingDir, ".marvin", "notes");
  return join(context.home, "Notes");
}

/** The real path of the notes root, or undefined when it does not exist yet (nothing written so far). */
export async function existingNotesRoot(context: Pick<ToolContext, "home" | "workingDir" | "mode">): Promise<string | undefined> {
  const root = notesRootPath(context);
  const info = await stat(root).catch(() => undefined);
  if (!info) return undefined;
  if (!info.isDirectory()) throw new ToolError(`${root} exists but is not a folder, so notes cannot be kept there. Move that file away first.`);
  return realpath(root);
}

/** The real path of the notes root, created when missing. */
export async function ensureNotesRoot(context: Pick<ToolContext, "home" | "workingDir" | "mode">): Promise<string> {
  await mkdir(notesRootPath(context), { recursive: true });
  return (await existingNotesRoot(context))!;
}

/** `requested` inside the notes root (symlinks resolved), or a ToolError with the notes tree. */
export function resolveNote(root: string, requested: string, options: { write?: boolean } = {}): Promise<string> {
  return resolveInside(root, requested, { ...options, label: NOTES_LABEL });
}

/** A note's path as the model should write it: relative to the root, with '/' separators. */
export function shownNotePath(root: string, real: string): string {
  return relative(root, real).split(sep).join("/") || ".";
}

/** Notes are markdown: a name without an extension gets `.md`. */
export function withNoteExtension(path: string): string {
  const trimmed = path.trim();
  return trimmed === "" || trimmed.endsWith("/") || extname(trimmed) !== "" ? trimmed : `${trimmed}.md`;
}

/** "No note X" with the notes tree, so the model can pick an existing name. */
export async function noteNotFound(root: string, shown: string): Promise<ToolError> {
  return new ToolError(`No note at ${shown} in ${root}. Create new notes with write_note.\n\nNotes there:\n${await treeListing(root)}`);
}

export function noNotesYet(context: Pick<ToolContext, "home" | "workingDir" | "mode">): ToolError {
  return new ToolError(`There are no notes yet: ${notesRootPath(context)} does not exist. write_note creates it with the first note.`);
}
