import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** A document from the working directory included in the system prompt. */
export interface ProjectDocument {
  name: string;
  content: string;
}

export interface ProjectContext {
  instructions?: ProjectDocument;
  documents: ProjectDocument[];
}

const MAX_DOCUMENT_CHARS = 40_000;

async function readOptional(path: string): Promise<string | undefined> {
  try {
    const text = await readFile(path, "utf8");
    return text.length > MAX_DOCUMENT_CHARS ? `${text.slice(0, MAX_DOCUMENT_CHARS)}\n[… truncated; read the file for the rest]` : text;
  } catch {
    return undefined;
  }
}

/**
 * Where per-project instructions may live, first match wins: `.marvin-instructions`,
 * `.marvin/instructions.md`, then `~/.marvin/instructions/<working dir path>.md` (the
 * absolute path without its leading slash, e.g. `~/.marvin/instructions/home/ada/app.md`).
 */
export function instructionCandidates(workingDir: string, home: string): string[] {
  const relative = workingDir.replace(/^[/\\]+/, "").replace(/[/\\]+$/, "");
  return [join(workingDir, ".marvin-instructions"), join(workingDir, ".marvin", "instructions.md"), join(home, ".marvin", "instructions", `${relative}.md`)];
}

/** Instructions and spec/ux/design documents of the working directory (seed 002 §6, items 8–9). */
export async function loadProjectContext(workingDir: string, home: string): Promise<ProjectContext> {
  let instructions: ProjectDocument | undefined;
  for (const path of instructionCandidates(workingDir, home)) {
    const content = await readOptional(path);
    if (content?.trim()) {
      instructions = { name: path, content };
      break;
    }
  }
  const documents: ProjectDocument[] = [];
  for (const name of ["spec.md", "ux.md", "design.md"]) {
    const content = await readOptional(join(workingDir, ".marvin", name));
    if (content?.trim()) documents.push({ name: `.marvin/${name}`, content });
  }
  return { instructions, documents };
}
