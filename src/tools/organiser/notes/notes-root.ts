import { mkdir, realpath, stat } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import { ensureInsideDir, OWN_DIRS, resolveInsideDir } from "../../../workspace/own-dirs.js";
import { resolveInside, treeListing } from "../../../workspace/sandbox.js";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";

/** How the notes root is named in sandbox messages. */
const NOTES_LABEL = "Notes folder";

type NotesContext = Pick<ToolContext, "home" | "workingDir" | "mode">;

/**
 * Where notes live: `~/Notes/` for the person at the terminal, `<working dir>/.marvin/notes/`
 * in coding mode, so coding agents never carry knowledge across runs through ~/Notes (seed 004 §6.11).
 */
function notesRootPath(context: NotesContext): string {
  const project = projectOf(context);
  return project ? join(project, OWN_DIRS.notes) : join(context.home, "Notes");
}

/** The working dir whose `.marvin/notes` holds the notes, if any. */
function projectOf(context: NotesContext): string | undefined {
  return context.mode.codingMode && context.workingDir ? context.workingDir : undefined;
}

/**
 * The real path of the notes root, or undefined when it does not exist yet (nothing written so far).
 * In a working dir it goes through the sandbox: `.marvin/notes` leading out of it is refused.
 */
export async function existingNotesRoot(context: NotesContext): Promise<string | undefined> {
  const project = projectOf(context);
  const root = project ? await resolveInsideDir(project, OWN_DIRS.notes) : notesRootPath(context);
  const info = await stat(root).catch(() => undefined);
  if (!info) return undefined;
  if (!info.isDirectory())
    throw new ToolError(
      `${root} exists but is not a folder, so notes cannot be kept there. Move that file away first.`,
    );
  return realpath(root);
}

/** The real path of the notes root, created when missing (checked by the sandbox at every write in a working dir). */
export async function ensureNotesRoot(context: NotesContext): Promise<string> {
  const project = projectOf(context);
  if (project) return ensureInsideDir(project, OWN_DIRS.notes);
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
  return new ToolError(
    `No note at ${shown} in ${root}. Create new notes with write_note.\n\nNotes there:\n${await treeListing(root)}`,
  );
}

export function noNotesYet(context: NotesContext): ToolError {
  return new ToolError(
    `There are no notes yet: ${notesRootPath(context)} does not exist. write_note creates it with the first note.`,
  );
}
