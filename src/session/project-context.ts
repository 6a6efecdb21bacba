import { lstat, realpath } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { errorMessage } from "../shared/error-message.js";
import { readTextInside } from "../workspace/read-inside.js";
import { readRegularFile } from "../workspace/regular-file.js";

/** A document from the working directory included in the system prompt. */
interface ProjectDocument {
  name: string;
  content: string;
}

export interface ProjectContext {
  instructions?: ProjectDocument;
  /** AGENTS.md (else CLAUDE.md) of the repository root and each folder down to the working dir, outermost first. */
  agentInstructions: ProjectDocument[];
  documents: ProjectDocument[];
  /** Files that were there but not loaded (a symlink leading out, a FIFO…), for the person at the terminal. */
  warnings: string[];
}

const MAX_DOCUMENT_CHARS = 40_000;
/** Instruction files inside the working dir, first match wins. */
const PROJECT_INSTRUCTION_FILES = [".marvin-instructions", ".marvin/instructions.md"];
const PROJECT_DOCUMENTS = [".marvin/spec.md", ".marvin/ux.md", ".marvin/design.md"];
/** The instruction files other coding agents read, in each folder: the first one found counts. */
const AGENT_INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"];

function capped(text: string): string {
  if (text.length <= MAX_DOCUMENT_CHARS) return text;
  return `${text.slice(0, MAX_DOCUMENT_CHARS)}\n[… truncated; read the file for the rest]`;
}

/** `~/.marvin/instructions/<working dir path>.md`: the absolute path without its leading slash. */
function homeInstructionsPath(workingDir: string, home: string): string {
  const relative = workingDir.replace(/^[/\\]+/, "").replace(/[/\\]+$/, "");
  return join(home, ".marvin", "instructions", `${relative}.md`);
}

/**
 * Where per-project instructions may live, first match wins: `.marvin-instructions`,
 * `.marvin/instructions.md`, then `~/.marvin/instructions/<working dir path>.md` (the
 * absolute path without its leading slash, e.g. `~/.marvin/instructions/home/ada/app.md`).
 */
export function instructionCandidates(workingDir: string, home: string): string[] {
  return [...PROJECT_INSTRUCTION_FILES.map((name) => join(workingDir, name)), homeInstructionsPath(workingDir, home)];
}

/** Reads the files of one working dir (or repository) through the sandbox; whatever is refused becomes a warning. */
class ProjectReader {
  readonly warnings: string[] = [];

  constructor(private readonly root: string) {}

  async read(relativePath: string): Promise<string | undefined> {
    try {
      return await readTextInside(this.root, relativePath);
    } catch (error) {
      const reason = errorMessage(error).split("\n")[0];
      this.warnings.push(`Not loading ${relativePath} into the system prompt: ${reason}`);
      return undefined;
    }
  }
}

/** The user's own per-project instructions in the home directory (not the working dir's, so no sandbox). */
async function readHomeInstructions(path: string): Promise<string | undefined> {
  return (await readRegularFile(path).catch(() => undefined))?.toString("utf8");
}

const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** The folders from the repository root holding `workingDir` down to it; only `workingDir` outside a repository. */
async function foldersFromRepositoryRoot(workingDir: string): Promise<string[]> {
  const folders: string[] = [];
  for (let dir = workingDir; ; dir = dirname(dir)) {
    folders.unshift(dir);
    if (await exists(join(dir, ".git"))) return folders;
    if (dirname(dir) === dir) return [workingDir];
  }
}

/**
 * AGENTS.md, or CLAUDE.md where a folder has none, of every folder from the repository root down to the working
 * dir. They are read through the sandbox of the repository root: one leading out of the repository is skipped.
 */
async function loadAgentInstructions(workingDir: string, warnings: string[]): Promise<ProjectDocument[]> {
  const folders = await foldersFromRepositoryRoot(workingDir);
  const reader = new ProjectReader(folders[0]!);
  const documents: ProjectDocument[] = [];
  for (const folder of folders) {
    for (const name of AGENT_INSTRUCTION_FILES) {
      const path = join(folder, name);
      const refusedBefore = reader.warnings.length;
      const content = await reader.read(relative(folders[0]!, path));
      if (content === undefined && reader.warnings.length === refusedBefore) continue; // none here: try the next
      if (content?.trim()) documents.push({ name: path, content: capped(content) });
      break;
    }
  }
  warnings.push(...reader.warnings);
  return documents;
}

/**
 * Instructions (Marvin's own, and AGENTS.md/CLAUDE.md) and spec/ux/design documents of the working directory
 * (seed 002 §6, items 8–9).
 * The working dir's files are read through the sandbox: a symlink leading out, or anything that
 * is not a regular file, is skipped with a warning and never reaches the model.
 */
export async function loadProjectContext(workingDir: string, home: string): Promise<ProjectContext> {
  const gone = (await realpath(workingDir).catch(() => undefined)) === undefined;
  if (gone) return { instructions: undefined, agentInstructions: [], documents: [], warnings: [] };
  const reader = new ProjectReader(workingDir);
  let instructions: ProjectDocument | undefined;
  for (const name of PROJECT_INSTRUCTION_FILES) {
    const content = await reader.read(name);
    if (content?.trim()) {
      instructions = { name: join(workingDir, name), content: capped(content) };
      break;
    }
  }
  if (!instructions) {
    const path = homeInstructionsPath(workingDir, home);
    const content = await readHomeInstructions(path);
    if (content?.trim()) instructions = { name: path, content: capped(content) };
  }
  const documents: ProjectDocument[] = [];
  for (const name of PROJECT_DOCUMENTS) {
    const content = await reader.read(name);
    if (content?.trim()) documents.push({ name, content: capped(content) });
  }
  const warnings = [...reader.warnings];
  const agentInstructions = await loadAgentInstructions(workingDir, warnings);
  return { instructions, agentInstructions, documents, warnings };
}
