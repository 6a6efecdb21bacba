import { stat } from "node:fs/promises";
import { relative } from "node:path";
import { errorMessage } from "../../shared/error-message.js";
import { describeImage, type ImageData, imageTypeOf, MAX_IMAGE_BYTES } from "../../shared/image.js";
import { ToolError } from "../../shared/tool-error.js";
import { openRegularFile, readRegularFile } from "../../workspace/regular-file.js";
import { resolveInside } from "../../workspace/sandbox.js";
import { looksSecret } from "../../workspace/secret-files.js";

/** `@word` at the start of the message or after white space. */
const MENTION = /(?<=^|\s)@([^\s@]+)/g;
/** A pasted path to an image (terminals quote one with spaces): attached when it names an image file. */
const IMAGE_PATH = /(?<=^|\s)(['"]?)([^\s'"@][^\s'"]*\.(?:png|jpe?g|gif|webp))\1(?=[\s.,;:!?)]|$)/gi;
/** Punctuation a sentence puts after a mention: `look at @a.ts, then…`. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]'"]+$/;
/** Larger files are left to read_file, which reads them in parts. */
const MAX_ATTACHED_BYTES = 100_000;

/** What the files a message mentions add to it. */
interface Attachments {
  /** `<file path="…">` blocks for the model, "" when nothing was attached. */
  text: string;
  /** The images mentioned, or pasted as paths. */
  images: ImageData[];
  /** "Attached to the message: …", for the person once the message is sent; undefined when nothing was. */
  attached?: string;
  /** One line per mention that was refused, for the person. */
  notes: string[];
}

/** Attached (as text or as an image), refused, or no such file. */
type Outcome = { block: string; note: string } | { image: ImageData; note: string } | { note: string } | "missing";

function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** The image type the file's first bytes show, whatever its name says. */
async function imageTypeOfFile(real: string, shown: string) {
  const handle = await openRegularFile(real, shown);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    return imageTypeOf(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
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
  const shown = relative(root, real) || mention;
  const imageType = await imageTypeOfFile(real, mention);
  if (imageType) {
    if (info.size > MAX_IMAGE_BYTES)
      return refused(`it is a ${size(info.size)} image, over ${size(MAX_IMAGE_BYTES)}, the most a model takes`);
    const bytes = await readRegularFile(real, mention);
    const note = `${shown} (${describeImage(bytes, imageType)})`;
    return { image: { mediaType: imageType, data: bytes.toString("base64") }, note };
  }
  if (info.size > MAX_ATTACHED_BYTES)
    return refused(`it is ${size(info.size)}, over ${size(MAX_ATTACHED_BYTES)}; ask Marvin to read it instead`);
  const bytes = await readRegularFile(real, mention);
  if (bytes.includes(0)) return refused("it is not a text file");
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

/** A pasted image path: attached when it names an image; refused only when it leads somewhere not allowed. */
async function attachPastedImage(root: string, path: string): Promise<Exclude<Outcome, "missing"> | undefined> {
  const outcome = await attach(root, path);
  if (outcome === "missing" || "block" in outcome) return undefined;
  return "image" in outcome ? outcome : { note: outcome.note.slice(1) }; // it was not written as a mention
}

/**
 * The files a message mentions as `@path`, read through the workspace sandbox from `root` (the working
 * directory): a path outside it, a file that looks like it holds secrets, a directory, a binary or a
 * file over 100 KB is refused with a note. A word that names nothing (`@alice`, `@web_search`) is left alone.
 * An image (png, jpeg, gif or webp by its bytes, up to 5 MB) mentioned, or pasted as a bare path, is attached
 * as an image.
 */
export async function attachMentions(message: string, root: string): Promise<Attachments> {
  const mentioned = [...new Set([...message.matchAll(MENTION)].map((match) => match[1]!))];
  const pasted = [...new Set([...message.matchAll(IMAGE_PATH)].map((match) => match[2]!))].filter(
    (path) => !mentioned.includes(path),
  );
  const outcomes = [
    ...mentioned.map((word) => ({ word, read: () => attachWord(root, word) })),
    ...pasted.map((word) => ({ word, read: () => attachPastedImage(root, word) })),
  ];
  const blocks: string[] = [];
  const images: ImageData[] = [];
  const attached: string[] = [];
  const notes: string[] = [];
  for (const { word, read } of outcomes) {
    const outcome = await read().catch((error: unknown) => ({
      note: `@${word} is not attached: ${errorMessage(error)}`,
    }));
    if (!outcome) continue;
    if ("block" in outcome) blocks.push(outcome.block);
    if ("image" in outcome) images.push(outcome.image);
    if ("block" in outcome || "image" in outcome) attached.push(outcome.note);
    else notes.push(outcome.note);
  }
  const summary = attached.length ? { attached: `Attached to the message: ${attached.join(", ")}.` } : {};
  return { text: blocks.join("\n\n"), images, notes, ...summary };
}
