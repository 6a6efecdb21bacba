import { readFileSync } from "node:fs";
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { loadTickets } from "../../src/tools/kit/tickets/ticket-store.js";
import { dependencyTree } from "../../src/tools/tickets/ticket-views.js";
import { test as base, describe, expect } from "../support/fixtures.js";
import { CONFORMANCE_DATA } from "../support/run-marvin.js";
import type { ToolHarness } from "../support/tool-harness.js";

const TICKETS = join(CONFORMANCE_DATA, "tickets");
const EXAMPLES = join(TICKETS, "example-tickets-dir");

/** transcript.txt as command → output (the text between `$ command` and the next blank-line-separated `$`). */
function transcript(): Map<string, string[]> {
  const blocks = new Map<string, string[]>();
  const text = readFileSync(join(TICKETS, "transcript.txt"), "utf8");
  for (const block of text.split(/\n(?=\$ )/)) {
    const [command, ...output] = block.replace(/\n+$/, "").split("\n");
    const key = command!.slice(2);
    // Commands run twice (ready, blocked) differ before/after the close; keep the first.
    if (!blocks.has(key)) blocks.set(key, output);
  }
  return blocks;
}

const recorded = transcript();
function expected(command: string): string[] {
  const output = recorded.get(command);
  if (!output) throw new Error(`transcript.txt has no '${command}'`);
  return output;
}

/** Lines of each `## Section` of a show output, sorted: tk's order there is awk hash order. */
function normaliseSections(lines: string[]): string[] {
  const start = lines.findIndex((line) => /^## (Blockers|Blocking|Children|Linked)$/.test(line));
  if (start < 0) return lines;
  const head = lines.slice(0, start);
  const sections = lines
    .slice(start)
    .join("\n")
    .split(/\n(?=## )/)
    .map((section) => {
      const [title, ...rest] = section.split("\n");
      return [title, ...rest.filter((line) => line !== "").sort()].join("\n");
    });
  return [...head, ...sections];
}

const test = base.extend<{
  /** marvin-demo, whose .tickets are the recorded examples as they were before the transcript's last write. */
  project: string;
  /** A coding session in `project`. */
  harness: ToolHarness;
}>({
  project: async ({ tempDirs }, use) => {
    const project = join(await tempDirs.make("marvin-tk-"), "marvin-demo");
    await cp(EXAMPLES, join(project, ".tickets"), { recursive: true });
    // The transcript's listings were taken before `tk close md-qx2u`, the last write; undo it.
    const qx2u = join(project, ".tickets", "md-qx2u.md");
    await writeFile(qx2u, (await readFile(qx2u, "utf8")).replace("status: closed", "status: in_progress"));
    await use(project);
  },
  harness: async ({ harnesses, home, project }, use) =>
    use(await harnesses.open({ home, workingDir: project, codingMode: true })),
});

describe("tk compatibility: the recorded example directory", () => {
  test("lists tickets exactly as tk ls does", async ({ project, harness }) => {
    const listing = (await harness.ok("ticket_list", {})).split("\n");
    expect(listing[0]).toBe(`4 tickets in ${join(project, ".tickets")}:`);
    expect(listing.slice(1)).toEqual(expected("tk ls"));
    expect((await harness.ok("ticket_list", { status: "open" })).split("\n").slice(1)).toEqual(
      expected("tk ls --status=open"),
    );
  });

  test("draws the dependency tree as tk dep tree does, each ticket at its deepest level", async ({
    project,
    harness,
  }) => {
    expect((await harness.ok("ticket_dep_tree", { ticket_id: "md-saxv" })).split("\n")).toEqual(
      expected("tk dep tree md-saxv"),
    );
    expect((await harness.ok("ticket_dep_tree", { ticket_id: "saxv" })).split("\n")[0]).toBe(
      "md-saxv [open] Write release notes",
    );
    const tickets = await loadTickets(join(project, ".tickets"));
    const saxv = tickets.find((ticket) => ticket.id === "md-saxv")!;
    expect(dependencyTree(saxv, tickets, true).split("\n")).toEqual(expected("tk dep tree --full md-saxv"));
  });

  test("shows tickets as tk show does: parent title, Blocking, Children, Linked", async ({ harness }) => {
    const shown = (await harness.ok("ticket_show", { ticket_id: "md-qx2u" })).replace(/\n$/, "").split("\n");
    expect(normaliseSections(shown)).toEqual(normaliseSections(expected("tk show md-qx2u")));
    expect((await harness.ok("ticket_show", { ticket_id: "icgn" })).replace(/\n$/, "").split("\n")).toEqual(
      expected("tk show md-icgn"),
    );
  });

  test("closes a ticket leaving the file byte for byte as tk close did", async ({ project, harness }) => {
    expect(await harness.ok("ticket_close", { ticket_id: "md-qx2u" })).toContain("Updated md-qx2u -> closed");
    const files = await readdir(join(project, ".tickets"));
    expect(files.sort()).toEqual(["md-gg89.md", "md-icgn.md", "md-qx2u.md", "md-saxv.md"]);
    for (const file of files) {
      expect(await readFile(join(project, ".tickets", file), "utf8"), file).toBe(
        readFileSync(join(EXAMPLES, file), "utf8"),
      );
    }
    const blocked = (await harness.ok("ticket_show", { ticket_id: "saxv" })).split("\n");
    expect(blocked.slice(blocked.indexOf("## Blockers"))).toEqual([
      "## Blockers",
      "",
      "- md-gg89 [open] Implement apply_patch tool",
      "",
    ]);
    expect((await harness.ok("ticket_list", { status: "closed" })).split("\n").slice(1)).toEqual([
      "md-qx2u  [closed] - Parse provider SSE streams",
    ]);
  });

  test("reports tk's errors: unknown ticket, invalid status, existing dependency", async ({ harness }) => {
    expect(await harness.failure("ticket_show", { ticket_id: "zzzz" })).toContain(
      expected("tk show zzzz")[0]!.replace("Error: ", ""),
    );
    expect(await harness.failure("ticket_list", { status: "bogus" })).toContain(
      "invalid status 'bogus'. Must be one of: open in_progress closed",
    );
    expect(await harness.ok("ticket_add_dep", { ticket_id: "md-saxv", depends_on: "md-qx2u" })).toContain(
      "Dependency already exists",
    );
    const ambiguous = await harness.failure("ticket_show", { ticket_id: "md-" });
    expect(ambiguous).toContain("ambiguous ID 'md-' matches multiple tickets");
    expect(ambiguous).toContain("md-gg89 (Implement apply_patch tool)");
  });
});
