import { randomInt } from "node:crypto";
import { lstat, mkdir, readdir } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { writeFileAtomic } from "../../../state/atomic-file.js";
import { ensureInsideDir, OWN_DIRS, relativeInside, resolveInsideDir } from "../../../workspace/own-dirs.js";
import { readTextInside } from "../../../workspace/read-inside.js";
import { isDirectory } from "../../../workspace/regular-file.js";
import { type ToolContext, ToolError } from "../define-tool.js";
import { type FrontMatterValue, listValue, parseTicketFile, scalarValue } from "./ticket-file.js";

/** One ticket as read from `<dir>/<id>.md`. */
export interface Ticket {
  /** The file name without `.md`: what tk resolves IDs against. */
  id: string;
  path: string;
  text: string;
  fields: Record<string, FrontMatterValue>;
  title: string;
  status: string;
  deps: string[];
  links: string[];
  parent: string;
  tags: string[];
  priority: string;
  type: string;
}

export const TICKET_STATUSES = ["open", "in_progress", "closed"] as const;

/** tk's `closed` listing also counts `done` as closed. */
export function isClosed(ticket: Pick<Ticket, "status"> | undefined): boolean {
  return ticket?.status === "closed" || ticket?.status === "done";
}

type TicketsContext = Pick<ToolContext, "env" | "home" | "workingDir" | "mode">;

const projectOf = (context: TicketsContext) => (context.mode.codingMode && context.workingDir) || null;

/** Where `.tickets/` is, by path (see {@link locateTicketsDir}). */
async function ticketsDirPath(context: TicketsContext): Promise<string> {
  const project = projectOf(context);
  const override = context.env.TICKETS_DIR?.trim();
  if (override) return isAbsolute(override) ? override : resolve(project ?? context.home, override);
  if (!project) return join(context.home, ".tickets");
  // Whatever is at <working dir>/.tickets is the store (a symlink there is checked, never skipped).
  const own = join(project, OWN_DIRS.tickets);
  if (
    await lstat(own).then(
      () => true,
      () => false,
    )
  )
    return own;
  for (let dir = dirname(project); ; dir = dirname(dir)) {
    if (await isDirectory(join(dir, ".tickets"))) return join(dir, ".tickets");
    if (dirname(dir) === dir) return join(project, OWN_DIRS.tickets);
  }
}

/**
 * Where the ticket tools keep `.tickets/`:
 * - `TICKETS_DIR` when set (tk honours it too), relative paths taken from the directory below;
 * - in coding mode with a working dir: tk's own discovery, the nearest `.tickets` walking up from
 *   the working dir, else `<working dir>/.tickets` (so the file tools' `.tickets/` block points here);
 * - otherwise the personal store `~/.tickets`, which `tk` also finds when run anywhere in the home.
 * A folder inside the working dir goes through the sandbox (a `.tickets` symlink leading out of it is
 * refused); one found above it, or chosen with TICKETS_DIR elsewhere, is the user's own. With `create`,
 * the folder is made ready for a write: call it right before each one.
 */
export async function locateTicketsDir(context: TicketsContext, options: { create?: boolean } = {}): Promise<string> {
  const dir = await ticketsDirPath(context);
  const project = projectOf(context);
  const inside = project ? await relativeInside(project, dir) : undefined;
  if (project && inside !== undefined) {
    return options.create ? ensureInsideDir(project, inside) : resolveInsideDir(project, inside);
  }
  if (options.create) await mkdir(dir, { recursive: true });
  return dir;
}

function toTicket(id: string, path: string, text: string): Ticket {
  const { fields, title } = parseTicketFile(text);
  return {
    id,
    path,
    text,
    fields,
    title,
    status: scalarValue(fields.status),
    deps: listValue(fields.deps),
    links: listValue(fields.links),
    parent: scalarValue(fields.parent),
    tags: listValue(fields.tags),
    priority: scalarValue(fields.priority) || "2",
    type: scalarValue(fields.type) || "task",
  };
}

/** Every ticket in `dir`, in tk's glob (ID) order; an absent directory has none. */
export async function loadTickets(dir: string): Promise<Ticket[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  const files = names.filter((name) => name.endsWith(".md") && !name.startsWith(".")).sort();
  const tickets = await Promise.all(
    files.map(async (name) => {
      // Through the sandbox of the folder: a ticket that is a symlink leading out of it, or a FIFO, is skipped.
      const text = await readTextInside(dir, name).catch(() => undefined);
      return text === undefined ? undefined : toTicket(name.slice(0, -3), join(dir, name), text);
    }),
  );
  return tickets.filter((ticket): ticket is Ticket => ticket !== undefined);
}

function describe(ticket: Ticket): string {
  return `${ticket.id} (${ticket.title || "untitled"})`;
}

/**
 * tk's ID resolution: an exact file name wins, else the one file whose name contains the
 * string; several → ambiguous, none → not found. Case is only ignored when nothing matches as typed.
 */
export function resolveTicket(tickets: readonly Ticket[], requested: string, dir: string): Ticket {
  const wanted = requested.trim();
  if (wanted === "")
    throw new ToolError("A ticket ID is required, e.g. 'md-qx2u' or any unique part of it such as 'qx2u'.");
  const exact = tickets.find((ticket) => ticket.id === wanted);
  if (exact) return exact;
  let matches = tickets.filter((ticket) => ticket.id.includes(wanted));
  if (matches.length === 0)
    matches = tickets.filter((ticket) => ticket.id.toLowerCase().includes(wanted.toLowerCase()));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new ToolError(
      `ambiguous ID '${wanted}' matches multiple tickets: ${matches.map(describe).join(", ")}. Use more of the ID.`,
    );
  }
  if (tickets.length === 0)
    throw new ToolError(
      `ticket '${wanted}' not found: there are no tickets yet in ${dir}. Create one with create_ticket.`,
    );
  const known = tickets.slice(0, 20).map(describe).join(", ");
  throw new ToolError(
    `ticket '${wanted}' not found in ${dir}. Known tickets: ${known}${tickets.length > 20 ? ", …" : ""}. Use ` +
      `ticket_list to see them all.`,
  );
}

/**
 * tk's ID prefix: the first letter of every `-`/`_`-separated part of the directory name
 * (`marvin-demo` → `md`), or its first three characters when that gives fewer than two.
 */
function idPrefix(directoryName: string): string {
  const initials = directoryName
    .split(/[-_\s]+/)
    .filter((part) => part !== "")
    .map((part) => part[0])
    .join("");
  const prefix = initials.length >= 2 ? initials : directoryName.slice(0, 3);
  return prefix || "t";
}

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

function randomSuffix(): string {
  return Array.from({ length: 4 }, () => ID_ALPHABET[randomInt(ID_ALPHABET.length)]).join("");
}

/** A new `<prefix>-<4 chars>` ID not used in `dir` (tk itself does not check; Marvin never overwrites). */
export function newTicketId(dir: string, existing: readonly Ticket[]): string {
  const prefix = idPrefix(basename(dirname(dir)));
  const taken = new Set(existing.map((ticket) => ticket.id));
  for (let attempt = 0; attempt < 100; attempt++) {
    const id = `${prefix}-${randomSuffix()}`;
    if (!taken.has(id)) return id;
  }
  throw new ToolError(`Could not find a free ticket ID with prefix '${prefix}' in ${dir}.`);
}

export async function writeTicket(path: string, text: string): Promise<void> {
  await writeFileAtomic(path, text);
}
