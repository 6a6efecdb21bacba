import { isClosed, type Ticket } from "../kit/tickets/ticket-store.js";

/** What `tk ls` prints for one ticket: `printf "%-8s [%s] - %s%s"`. */
export function listLine(ticket: Ticket): string {
  const deps = ticket.deps.length ? ` <- [${ticket.deps.join(", ")}]` : "";
  return `${ticket.id.padEnd(8)} [${ticket.status}] - ${ticket.title}${deps}`;
}

function summaryLine(id: string, byId: ReadonlyMap<string, Ticket>): string {
  const ticket = byId.get(id);
  return ticket ? `- ${ticket.id} [${ticket.status}] ${ticket.title}` : `- ${id} [missing] (no such ticket)`;
}

function indexById(tickets: readonly Ticket[]): Map<string, Ticket> {
  return new Map(tickets.map((ticket) => [ticket.id, ticket]));
}

/** The file text with the parent's title after the `parent:` line, as `tk show` prints it. */
function annotateParent(ticket: Ticket, byId: ReadonlyMap<string, Ticket>): string {
  const parent = byId.get(ticket.parent);
  if (!parent) return ticket.text;
  return ticket.text.replace(
    /^(parent:[^\r\n]*?)(\r?)$/m,
    (_line, field: string, ending: string) => `${field}  # ${parent.title}${ending}`,
  );
}

/**
 * `tk show`: the file as written, then the computed sections that have entries —
 * Blockers (unclosed deps), Blocking (unclosed tickets depending on this one), Children, Linked.
 */
export function showTicket(ticket: Ticket, tickets: readonly Ticket[]): string {
  const byId = indexById(tickets);
  const others = tickets.filter((other) => other.id !== ticket.id);
  const sections: Array<[string, string[]]> = [
    ["Blockers", ticket.deps.filter((id) => !isClosed(byId.get(id)))],
    ["Blocking", others.filter((other) => !isClosed(other) && other.deps.includes(ticket.id)).map((other) => other.id)],
    ["Children", others.filter((other) => other.parent === ticket.id).map((other) => other.id)],
    ["Linked", ticket.links],
  ];
  let output = annotateParent(ticket, byId);
  if (output !== "" && !output.endsWith("\n")) output += "\n";
  for (const [name, ids] of sections) {
    if (ids.length) output += `\n## ${name}\n\n${ids.map((id) => summaryLine(id, byId)).join("\n")}\n`;
  }
  return output;
}

/** Ticket IDs reachable from `start` through deps, `start` included. */
function reachable(start: string, byId: ReadonlyMap<string, Ticket>): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length) {
    const id = pending.pop()!;
    if (seen.has(id) || !byId.has(id)) continue;
    seen.add(id);
    pending.push(...byId.get(id)!.deps);
  }
  return seen;
}

/** Bounds the path enumeration of a pathological graph (tk's awk has no bound at all). */
const MAX_PATH_STEPS = 200_000;

/** The deepest level each ticket reaches on any cycle-free dependency path from `root`. */
function maxDepths(root: string, byId: ReadonlyMap<string, Ticket>): Map<string, number> {
  const depths = new Map<string, number>();
  let steps = 0;
  const visit = (id: string, depth: number, path: Set<string>): void => {
    if (!byId.has(id) || path.has(id) || ++steps > MAX_PATH_STEPS) return;
    if ((depths.get(id) ?? -1) < depth) depths.set(id, depth);
    path.add(id);
    for (const dep of byId.get(id)!.deps) visit(dep, depth + 1, path);
    path.delete(id);
  };
  visit(root, 0, new Set());
  return depths;
}

/**
 * `tk dep tree`: the root, then its deps drawn with box characters. Each ticket appears once,
 * at the deepest level where it occurs (`full`: on every path); siblings are ordered by how
 * deep their subtree goes, then by ID; cycles are cut.
 */
export function dependencyTree(root: Ticket, tickets: readonly Ticket[], full = false): string {
  const byId = indexById(tickets);
  const depths = maxDepths(root.id, byId);
  const subtreeDepth = new Map<string, number>();
  for (const id of depths.keys())
    subtreeDepth.set(id, Math.max(...[...reachable(id, byId)].map((other) => depths.get(other) ?? 0)));
  const printed = new Set<string>([root.id]);
  const lines = [`${root.id} [${root.status}] ${root.title}`];

  const printChildren = (id: string, depth: number, prefix: string, path: Set<string>): void => {
    const children = [...new Set(byId.get(id)!.deps)]
      .filter(
        (child) =>
          byId.has(child) && !path.has(child) && (full || (!printed.has(child) && depths.get(child) === depth + 1)),
      )
      .sort((a, b) => (subtreeDepth.get(a) ?? 0) - (subtreeDepth.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
    children.forEach((child, index) => {
      const last = index === children.length - 1;
      const ticket = byId.get(child)!;
      lines.push(`${prefix}${last ? "└── " : "├── "}${ticket.id} [${ticket.status}] ${ticket.title}`);
      printed.add(child);
      path.add(child);
      printChildren(child, depth + 1, `${prefix}${last ? "    " : "│   "}`, path);
      path.delete(child);
    });
  };
  printChildren(root.id, 0, "", new Set([root.id]));
  return lines.join("\n");
}

/** Every distinct dependency cycle reachable from `start`, each as `a -> b -> a`. */
export function dependencyCycles(start: string, tickets: readonly Ticket[]): string[] {
  const byId = indexById(tickets);
  const state = new Map<string, "active" | "done">();
  const stack: string[] = [];
  const cycles = new Map<string, string>();
  const visit = (id: string): void => {
    if (!byId.has(id) || state.get(id) === "done") return;
    if (state.get(id) === "active") {
      const members = stack.slice(stack.indexOf(id));
      const key = [...members].sort().join(",");
      if (!cycles.has(key)) cycles.set(key, [...members, id].join(" -> "));
      return;
    }
    state.set(id, "active");
    stack.push(id);
    for (const dep of byId.get(id)!.deps) visit(dep);
    stack.pop();
    state.set(id, "done");
  };
  visit(start);
  return [...cycles.values()];
}

/** The dependency path `from` → … → `to`, if `to` is reachable from `from`; for refusing cycles. */
export function dependencyPath(from: string, to: string, tickets: readonly Ticket[]): string[] | undefined {
  const byId = indexById(tickets);
  const previous = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const id = queue.shift()!;
    if (id === to) {
      const path: string[] = [];
      for (let step: string | null | undefined = to; step; step = previous.get(step)) path.unshift(step);
      return path;
    }
    for (const dep of byId.get(id)?.deps ?? []) {
      if (!previous.has(dep)) {
        previous.set(dep, id);
        queue.push(dep);
      }
    }
  }
  return undefined;
}
