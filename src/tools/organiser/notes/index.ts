import { mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { truncateText } from "../../../shared/truncate.js";
import { readRegularFile } from "../../../workspace/regular-file.js";
import { writeTextFile } from "../../../workspace/text-file.js";
import { defineTool, ToolError } from "../../kit/define-tool.js";
import { FileEdits } from "../../kit/file-edits.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { searchNotes } from "./note-search.js";
import {
  ensureNotesRoot,
  existingNotesRoot,
  noNotesYet,
  noteNotFound,
  resolveNote,
  shownNotePath,
  withNoteExtension,
} from "./notes-root.js";

const MAX_NOTE_CHARS = 20_000;
const MAX_LISTED = 500;

const notePath = z.string().describe("In the notes folder, e.g. 'recipes/pasta' ('.md' added if no extension)");

type Kind = "file" | "directory" | "other" | undefined;

async function kindOf(path: string): Promise<Kind> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return undefined;
  return info.isFile() ? "file" : info.isDirectory() ? "directory" : "other";
}

/** The note a request names: the path as given when it exists, else with `.md` added. */
async function locateNote(root: string, requested: string, write = false): Promise<{ real: string; kind: Kind }> {
  const asGiven = await resolveNote(root, requested, { write });
  const kind = await kindOf(asGiven);
  const withExtension = withNoteExtension(requested);
  if (kind !== undefined || withExtension === requested.trim()) return { real: asGiven, kind };
  const real = await resolveNote(root, withExtension, { write });
  return { real, kind: await kindOf(real) };
}

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

export const noteTools = [
  defineTool({
    name: "write_note",
    effect: "write",
    description:
      "Save a note (markdown) in the user's notes folder: ~/Notes/, or <working dir>/.marvin/notes/ in coding mode. " +
      "Overwrites unless append is true. Subfolders are created as needed.",
    parameters: z.object({
      path: notePath,
      content: z.string(),
      append: z.boolean().default(false),
    }),
    handler: async ({ path, content, append }, context) => {
      if (path.trim() === "" || path.trim().endsWith("/"))
        throw new ToolError(`Give the note a file name, e.g. '${path.trim()}ideas.md'.`);
      const root = await ensureNotesRoot(context);
      const { real, kind } = await locateNote(root, path, true);
      const shown = shownNotePath(root, real);
      if (kind === "directory" || kind === "other")
        throw new ToolError(
          `${shown} is ${kind === "directory" ? "a folder" : "not a regular file"}; choose a file name such as ` +
            `'${shown}/note.md'.`,
        );
      const existing = append && kind === "file" ? (await readRegularFile(real, shown)).toString("utf8") : "";
      const separator = existing && !existing.endsWith("\n") ? "\n" : "";
      const edits = await FileEdits.begin(context, [{ real, shown }]);
      await writeTextFile(real, existing + separator + content);
      const details = await edits.wrote(real, existing + separator + content);
      if (append && kind === "file")
        return { text: `Appended ${content.length} characters to ${shown} (${root}).`, details };
      const verb = kind === "file" ? "Replaced" : "Saved";
      return { text: `${verb} note ${shown} (${content.length} characters) in ${root}.`, details };
    },
  }),
  defineTool({
    name: "read_note",
    effect: "read",
    description: "Read a note from the notes folder. For long notes use file_read_lines with a line range.",
    parameters: z.object({ path: notePath }),
    handler: async ({ path }, context) => {
      const root = await existingNotesRoot(context);
      if (!root) throw noNotesYet(context);
      const { real, kind } = await locateNote(root, path);
      const shown = shownNotePath(root, real);
      if (kind === undefined) throw await noteNotFound(root, shown);
      if (kind === "directory")
        throw new ToolError(`${shown} is a folder, not a note. List it with notes_ls({"path": "${shown}"}).`);
      const text = (await readRegularFile(real, shown)).toString("utf8");
      if (text === "") return `(${shown} is empty)`;
      if (text.length <= MAX_NOTE_CHARS) return text;
      return (
        `${truncateText(text, MAX_NOTE_CHARS)}\nThe note is long; read the rest with file_read_lines({"path": ` +
        `"${shown}", "start": …}).`
      );
    },
  }),
  defineTool({
    name: "notes_ls",
    effect: "read",
    description: "List notes and folders in the notes folder (or a subfolder of it). Folders end with '/'.",
    parameters: z.object({ path: z.string().default("").describe("Subfolder; empty for the top") }),
    handler: async ({ path }, context) => {
      const root = await existingNotesRoot(context);
      if (!root) return noNotesYet(context).message;
      const real = await resolveNote(root, path);
      const shown = shownNotePath(root, real);
      const kind = await kindOf(real);
      if (kind === undefined) throw await noteNotFound(root, shown);
      if (kind !== "directory")
        throw new ToolError(`${shown} is a note, not a folder. Read it with read_note({"path": "${shown}"}).`);
      const entries = await readdir(real, { withFileTypes: true });
      entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name));
      const lines = await Promise.all(
        entries.slice(0, MAX_LISTED).map(async (entry) => {
          if (entry.isDirectory()) return `${entry.name}/`;
          const size = (await stat(join(real, entry.name)).catch(() => undefined))?.size;
          return size === undefined ? entry.name : `${entry.name} (${formatSize(size)})`;
        }),
      );
      const where = shown === "." ? root : `${shown}/ in ${root}`;
      if (lines.length === 0) return `${where} is empty.`;
      const more = entries.length > MAX_LISTED ? `\n… and ${entries.length - MAX_LISTED} more` : "";
      return `${where} (${entries.length} entr${entries.length === 1 ? "y" : "ies"}):\n${lines.join("\n")}${more}`;
    },
  }),
  defineTool({
    name: "notes_mkdir",
    effect: "write",
    description: "Create a folder (and any missing parents) inside the notes folder.",
    parameters: z.object({ path: z.string().describe("Folder path relative to the notes folder, e.g. 'travel/2026'") }),
    handler: async ({ path }, context) => {
      if (path.trim() === "") throw new ToolError("Give the folder a name, e.g. 'projects'.");
      const root = await ensureNotesRoot(context);
      const real = await resolveNote(root, path, { write: true });
      const shown = shownNotePath(root, real);
      const kind = await kindOf(real);
      if (kind === "directory") return `Folder ${shown}/ already exists in ${root}.`;
      if (kind !== undefined)
        throw new ToolError(`${shown} already exists and is a note, not a folder. Pick another name.`);
      await mkdir(real, { recursive: true });
      return `Created folder ${shown}/ in ${root}.`;
    },
  }),
  defineTool({
    name: "search_notes",
    effect: "read",
    description:
      "Search the notes (file names and text, case-insensitive, literal) and list matching lines as path:line: text.",
    parameters: z.object({
      query: z.string().describe("Text to look for"),
      path: z.string().default("").describe("Subfolder to search; empty for all notes"),
      max_results: resultLimit(500, 50),
    }),
    handler: async ({ query, path, max_results }, context) => {
      if (query.trim() === "") throw new ToolError("The query is empty. Give a word or phrase to look for.");
      const root = await existingNotesRoot(context);
      if (!root) throw noNotesYet(context);
      const real = await resolveNote(root, path);
      const base = shownNotePath(root, real);
      if ((await kindOf(real)) !== "directory")
        throw new ToolError(`${base} is not a folder in ${root}. Leave path empty to search every note.`);
      const result = await searchNotes(real, query.trim(), max_results, context.signal);
      const prefix = base === "." ? "" : `${base}/`;
      if (result.matches.length === 0)
        return `No notes mention "${query.trim()}" (${result.filesSearched} files searched in ${root}).`;
      const lines = result.matches.map((match) =>
        match.line ? `${prefix}${match.path}:${match.line}: ${match.text}` : `${prefix}${match.path}: ${match.text}`,
      );
      const more = result.truncated ? `\n… more matches not shown; raise max_results or narrow the query.` : "";
      return (
        `${result.matches.length} match${result.matches.length === 1 ? "" : "es"} for "${query.trim()}" in ` +
        `${root}:\n${lines.join("\n")}${more}`
      );
    },
  }),
];
