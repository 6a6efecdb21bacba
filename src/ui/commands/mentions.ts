import { stat } from "node:fs/promises";
import { relative } from "node:path";
import { errorMessage } from "../../shared/error-message.js";
import { ToolError } from "../../shared/tool-error.js";
import { readRegularFile } from "../../workspace/regular-file.js";
import { resolveInside } from "../../workspace/sandbox.js";
import { looksSecret } from "../../workspace/secret-files.js";

/** `@word` at the start of the message or after white space. */
const MENTION = /(?<=^|\s)@([^\s@]+)/g;
/** Punctuation a sentence puts after a mention: `look at @a.ts, then…`. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]'"]+$/;
/** Larger files are left to read_file, which reads them in parts. */
const MAX_ATTACHED_BYTES = 100_000;

/** What the files a message mentions add to it. */
interface Attachments {
  /** `<file path="…">` blocks for the model, "" when nothing was attached. */
  text: string;
  /** One line per mention that was attached or refused, for the person. */
  notes: string[];
}

/** Attached, refused, or no such file. */
type Outcome = { block: string; note: string } | { note: string } | "missing";

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

const refusal = (mention: string, why: string) => ({ note: `@${mention} is not attached: ${why}.` });

/** Reads one mentioned file through the sandbox. */
async function attach(root: string, mention: string): Promise<Outcome> {
  const refused = (why: string) => refusal(mention, why);
  if (looksSecret(mention)) return refused("it looks like it holds secrets (keys, tokens, logins)");
  let real: string;
  try {
    real = await resolveInside(root, mention);
  } catch (error) {
    if (error instanceof ToolError) return refused("only files inside the working directory can be attached");
    throw error;
  }
  const info = await stat(real).catch(() => undefined);
  if (!info) return "missing";
  if (looksSecret(relative(root, real))) return refused("it leads to a file that looks like it holds secrets");
  if (info.isDirectory()) return refused("it is a directory; mention the files in it");
  if (info.size > MAX_ATTACHED_BYTES)
    return refused(`it is ${size(info.size)}, over ${size(MAX_ATTACHED_BYTES)}; ask Marvin to read it instead`);
  const bytes = await readRegularFile(real, mention);
  if (bytes.includes(0)) return refused("it is not a text file");
  const shown = relative(root, real) || mention;
  return {
    block: `<file path="${shown}">\n${bytes.toString("utf8")}\n</file>`,
    note: `${shown} (${size(bytes.length)})`,
  };
}

/**
 * The mention, else the mention without the punctuation after it (`@a.ts,`); undefined when it names no file
 * and does not look like a path either (`@alice`, `@web_search`).
 */
async function attachWord(root: string, word: string): Promise<Exclude<Outcome, "missing"> | undefined> {
  const bare = word.replace(TRAILING_PUNCTUATION, "") || word;
  let outcome = await attach(root, word);
  if (outcome === "missing" && bare !== word) outcome = await attach(root, bare);
  if (outcome !== "missing") return outcome;
  return /[./]/.test(bare) ? refusal(bare, "there is no such file in the working directory") : undefined;
}

/**
 * The files a message mentions as `@path`, read through the workspace sandbox from `root` (the working
 * directory): a path outside it, a file that looks like it holds secrets, a directory, a binary or a
 * file over 100 KB is refused with a note. A word that names nothing (`@alice`, `@web_search`) is left alone.
 */
export async function attachMentions(message: string, root: string): Promise<Attachments> {
  const words = [...new Set([...message.matchAll(MENTION)].map((match) => match[1]!))];
  const blocks: string[] = [];
  const attached: string[] = [];
  const notes: string[] = [];
  for (const word of words) {
    const outcome = await attachWord(root, word).catch((error: unknown) => ({
      note: `@${word} is not attached: ${errorMessage(error)}`,
    }));
    if (!outcome) continue;
    if ("block" in outcome) {
      blocks.push(outcome.block);
      attached.push(outcome.note);
    } else {
      notes.push(outcome.note);
    }
  }
  if (attached.length) notes.unshift(`Attached to the message: ${attached.join(", ")}.`);
  return { text: blocks.join("\n\n"), notes };
}
