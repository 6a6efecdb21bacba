import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { truncateText } from "../../shared/truncate.js";
import { defineTool, type ToolContext, ToolError } from "../kit/define-tool.js";
import { type EditDetails, FileEdits } from "../kit/file-edits.js";
import {
  appendNote,
  formatList,
  renderNewTicket,
  setFrontMatterField,
  utcTimestamp,
} from "../kit/tickets/ticket-file.js";
import {
  isClosed,
  loadTickets,
  locateTicketsDir,
  newTicketId,
  resolveTicket,
  TICKET_STATUSES,
  type Ticket,
  writeTicket,
} from "../kit/tickets/ticket-store.js";
import { gitUserName } from "./git-user-name.js";
import { dependencyCycles, dependencyPath, dependencyTree, listLine, showTicket } from "./ticket-views.js";

const TICKET_TYPES = ["task", "bug", "feature", "epic", "chore"] as const;
const MAX_OUTPUT_CHARS = 30_000;

const ticketId = z.string().describe("Ticket ID or a unique part of it");

async function openStore(context: ToolContext): Promise<{ dir: string; tickets: Ticket[] }> {
  const dir = await locateTicketsDir(context);
  return { dir, tickets: await loadTickets(dir) };
}

/**
 * Writes one ticket file as every writing tool does: its earlier content kept for `rewind` and `undo`, its diff
 * returned for the front ends. The tickets folder is checked (and created) again right before.
 */
async function saveTicket(context: ToolContext, id: string, text: string): Promise<EditDetails> {
  const dir = await locateTicketsDir(context, { create: true });
  const real = join(dir, `${id}.md`);
  const edits = await FileEdits.begin(context, [{ real, shown: join(basename(dir), `${id}.md`) }]);
  await writeTicket(real, text);
  return edits.wrote(real, text);
}

async function findTicket(
  context: ToolContext,
  requested: string,
): Promise<{ dir: string; tickets: Ticket[]; ticket: Ticket }> {
  const store = await openStore(context);
  return { ...store, ticket: resolveTicket(store.tickets, requested, store.dir) };
}

function splitTags(tags: string): string[] {
  return [
    ...new Set(
      tags
        .split(",")
        .map((tag) => tag.replace(/[[\]\r\n]/g, "").trim())
        .filter(Boolean),
    ),
  ];
}

/** Open tickets that `closed` was the last unclosed dependency of. */
function newlyReady(closed: Ticket, tickets: readonly Ticket[]): Ticket[] {
  const byId = new Map(tickets.map((ticket) => [ticket.id, ticket]));
  return tickets.filter(
    (ticket) =>
      !isClosed(ticket) &&
      ticket.deps.includes(closed.id) &&
      ticket.deps.every((id) => id === closed.id || isClosed(byId.get(id))),
  );
}

async function setStatus(
  context: ToolContext,
  requested: string,
  status: (typeof TICKET_STATUSES)[number],
): Promise<{ text: string; details: EditDetails }> {
  const { tickets, ticket } = await findTicket(context, requested);
  const details = await saveTicket(context, ticket.id, setFrontMatterField(ticket.text, "status", status));
  const lines = [`Updated ${ticket.id} -> ${status}`];
  if (status === "closed") {
    const ready = newlyReady(ticket, tickets);
    if (ready.length) lines.push(`Now unblocked: ${ready.map((other) => `${other.id} (${other.title})`).join(", ")}`);
  }
  return { text: lines.join("\n"), details };
}

export const ticketTools = [
  defineTool({
    name: "create_ticket",
    effect: "write",
    description: "Create a ticket in the personal task tracker (.tickets/, tk format); returns its ID.",
    parameters: z.object({
      title: z.string(),
      description: z.string().default("").describe("Details, acceptance criteria, context (markdown)"),
      ticket_type: z.enum(TICKET_TYPES).default("task"),
      priority: z.number().int().min(0).max(4).default(2).describe("0 = highest, 4 = lowest"),
      tags: z.string().default("").describe("Comma-separated, e.g. 'home,errands'"),
      parent: z.string().default("").describe("ID of its epic or parent ticket"),
    }),
    handler: async ({ title, description, ticket_type, priority, tags, parent }, context) => {
      const cleanTitle = title.replace(/\s+/g, " ").trim();
      if (!cleanTitle) throw new ToolError("The title is empty. Give the ticket a short title, e.g. 'Renew passport'.");
      const { dir, tickets } = await openStore(context);
      const parentTicket = parent.trim() ? resolveTicket(tickets, parent, dir) : undefined;
      const id = newTicketId(dir, tickets);
      const text = renderNewTicket({
        id,
        created: utcTimestamp(new Date()),
        type: ticket_type,
        priority,
        title: cleanTitle,
        description: description.replace(/\s+$/, ""),
        assignee: await gitUserName(dirname(dir), context.env, context.signal),
        parent: parentTicket?.id,
        tags: splitTags(tags),
      });
      const details = await saveTicket(context, id, text);
      const under = parentTicket ? `, child of ${parentTicket.id} (${parentTicket.title})` : "";
      return {
        text: `Created ticket ${id}: ${cleanTitle} (${ticket_type}, priority ${priority}${under}) in ${dir}`,
        details,
      };
    },
  }),
  defineTool({
    name: "ticket_start",
    effect: "write",
    description: "Mark a ticket as in progress.",
    parameters: z.object({ ticket_id: ticketId }),
    handler: ({ ticket_id }, context) => setStatus(context, ticket_id, "in_progress"),
  }),
  defineTool({
    name: "ticket_close",
    effect: "write",
    description: "Close a ticket (done). Reports tickets that this unblocks.",
    parameters: z.object({ ticket_id: ticketId }),
    handler: ({ ticket_id }, context) => setStatus(context, ticket_id, "closed"),
  }),
  defineTool({
    name: "ticket_add_note",
    effect: "write",
    description: "Add a timestamped note to a ticket (progress, findings, decisions). Multi-line text is fine.",
    parameters: z.object({ ticket_id: ticketId, note: z.string() }),
    handler: async ({ ticket_id, note }, context) => {
      const { ticket } = await findTicket(context, ticket_id);
      const details = await saveTicket(context, ticket.id, appendNote(ticket.text, note, utcTimestamp(new Date())));
      return { text: `Note added to ${ticket.id}`, details };
    },
  }),
  defineTool({
    name: "ticket_show",
    effect: "read",
    description: "Show a ticket in full, with its blockers, the tickets it blocks, children and links.",
    parameters: z.object({ ticket_id: ticketId }),
    handler: async ({ ticket_id }, context) => {
      const { tickets, ticket } = await findTicket(context, ticket_id);
      return truncateText(showTicket(ticket, tickets), MAX_OUTPUT_CHARS);
    },
  }),
  defineTool({
    name: "ticket_list",
    effect: "read",
    description: "List tickets (ID, [status], title, '<- [deps]' it waits on), optionally filtered.",
    parameters: z.object({
      status: z.string().default("").describe("open, in_progress or closed; empty for all"),
      tags: z.string().default("").describe("Comma-separated; a ticket must have all; empty for any"),
    }),
    handler: async ({ status, tags }, context) => {
      const wantedStatus = status.trim();
      if (wantedStatus && ![...TICKET_STATUSES, "done"].includes(wantedStatus)) {
        throw new ToolError(
          `invalid status '${wantedStatus}'. Must be one of: ${TICKET_STATUSES.join(" ")} (or empty for all).`,
        );
      }
      const wantedTags = splitTags(tags);
      const { dir, tickets } = await openStore(context);
      const shown = tickets.filter(
        (ticket) =>
          (!wantedStatus || ticket.status === wantedStatus || (wantedStatus === "closed" && isClosed(ticket))) &&
          wantedTags.every((tag) => ticket.tags.includes(tag)),
      );
      if (tickets.length === 0) return `No tickets yet in ${dir}. Create one with create_ticket.`;
      const filters = [wantedStatus && `status=${wantedStatus}`, wantedTags.length && `tags=${wantedTags.join(",")}`]
        .filter(Boolean)
        .join(", ");
      if (shown.length === 0) return `No tickets match ${filters} (${tickets.length} tickets in ${dir}).`;
      const heading =
        `${shown.length} ticket${shown.length === 1 ? "" : "s"}${filters ? ` (${filters})` : ""} ` + `in ${dir}:`;
      return truncateText(`${heading}\n${shown.map(listLine).join("\n")}`, MAX_OUTPUT_CHARS);
    },
  }),
  defineTool({
    name: "ticket_dep_tree",
    effect: "read",
    description:
      "Show the dependency tree of a ticket (what it depends on, recursively), with status and title; reports " +
      "dependency cycles.",
    parameters: z.object({ ticket_id: ticketId }),
    handler: async ({ ticket_id }, context) => {
      const { tickets, ticket } = await findTicket(context, ticket_id);
      const tree = dependencyTree(ticket, tickets);
      const notes = ticket.deps.length ? [] : ["(no dependencies)"];
      for (const cycle of dependencyCycles(ticket.id, tickets)) {
        notes.push(
          `Dependency cycle: ${cycle} (cut in the tree above; none of these can become ready until one dependency ` +
            `is removed).`,
        );
      }
      return truncateText([tree, ...notes].join("\n"), MAX_OUTPUT_CHARS);
    },
  }),
  defineTool({
    name: "ticket_add_dep",
    effect: "write",
    description: "Record that ticket_id depends on (is blocked by) depends_on.",
    parameters: z.object({
      ticket_id: ticketId,
      depends_on: ticketId.describe("The ticket that must be done first (ID or unique part)"),
    }),
    handler: async ({ ticket_id, depends_on }, context) => {
      const { dir, tickets, ticket } = await findTicket(context, ticket_id);
      const dependency = resolveTicket(tickets, depends_on, dir);
      if (dependency.id === ticket.id)
        throw new ToolError(`A ticket cannot depend on itself (${ticket.id}). Give two different tickets.`);
      if (ticket.deps.includes(dependency.id))
        return `Dependency already exists: ${ticket.id} already depends on ${dependency.id}.`;
      const loop = dependencyPath(dependency.id, ticket.id, tickets);
      if (loop) {
        throw new ToolError(
          `Adding ${ticket.id} -> ${dependency.id} would create a dependency cycle ` +
            `(${[ticket.id, ...loop].join(" -> ")}), ` +
            "so neither could ever become ready. Nothing was changed; remove the reverse dependency first if the " +
            "order has changed.",
        );
      }
      const text = setFrontMatterField(ticket.text, "deps", formatList([...ticket.deps, dependency.id]));
      const details = await saveTicket(context, ticket.id, text);
      return { text: `Added dependency: ${ticket.id} -> ${dependency.id}`, details };
    },
  }),
];
