import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../tests/support/fixtures.js";
import type { ToolHarness, ToolHarnessOptions } from "../../../tests/support/tool-harness.js";

const test = base.extend<{
  /** The test's temp folder, holding `home`. */
  root: string;
  home: string;
  open: (options?: Partial<ToolHarnessOptions>) => Promise<ToolHarness>;
}>({
  root: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-tickets-")),
  home: async ({ root }, use) => {
    await mkdir(join(root, "ada"));
    await use(join(root, "ada"));
  },
  open: async ({ harnesses, home }, use) => use((options = {}) => harnesses.open({ home, ...options })),
});

function createdId(output: string): string {
  const id = /^Created ticket (\S+):/.exec(output)?.[1];
  if (!id) throw new Error(`no ticket id in: ${output}`);
  return id;
}

/** Reads a ticket the way tk's awk scripts do (FS=": ", `---` toggles, lists stripped and split). */
function readLikeTk(text: string): { fields: Record<string, string>; lists: Record<string, string[]>; title: string } {
  const fields: Record<string, string> = {};
  let inFront = false;
  let title = "";
  for (const line of text.split("\n")) {
    if (line === "---") {
      inFront = !inFront;
      continue;
    }
    if (inFront) {
      const [key, value = ""] = line.split(": ");
      fields[key!] = value;
    } else if (line.startsWith("# ") && title === "") title = line.slice(2);
  }
  const list = (value = "") =>
    value
      .replace(/[[\] ]/g, "")
      .split(",")
      .filter(Boolean);
  return { fields, lists: { deps: list(fields.deps), links: list(fields.links), tags: list(fields.tags) }, title };
}

async function ticketFile(dir: string, id: string): Promise<string> {
  return readFile(join(dir, `${id}.md`), "utf8");
}

describe("ticket tools outside coding mode (~/.tickets)", () => {
  test("creates tickets in ~/.tickets in tk's layout, readable by tk's parsing rules", async ({ home, open }) => {
    await writeFile(join(home, ".gitconfig"), "[user]\n\tname = Ada Lovelace\n");
    const harness = await open();
    const epic = createdId(
      await harness.ok("create_ticket", {
        title: "Plan the move",
        ticket_type: "epic",
        priority: 1,
        tags: "home, move",
      }),
    );
    expect(epic).toMatch(/^ada-[a-z0-9]{4}$/);
    const output = await harness.ok("create_ticket", {
      title: "Book movers",
      description: "Three quotes.\nCompare prices.\n\n",
      parent: epic.slice(-4),
    });
    const child = createdId(output);
    expect(output).toContain(`child of ${epic} (Plan the move)`);
    expect(output).toContain(join(home, ".tickets"));

    const text = await ticketFile(join(home, ".tickets"), child);
    expect(text).toMatch(
      new RegExp(
        `^---\\nid: ${child}\\nstatus: open\\ndeps: \\[\\]\\nlinks: \\[\\]\\ncreated: ` +
          `\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\ntype: task\\npriority: 2\\n` +
          `assignee: Ada Lovelace\\nparent: ${epic}\\n---\\n# Book movers\\n\\nThree quotes.\\nCompare prices.\\n\\n$`,
      ),
    );
    const tk = readLikeTk(await ticketFile(join(home, ".tickets"), epic));
    expect(tk.title).toBe("Plan the move");
    expect(tk.fields).toMatchObject({ id: epic, status: "open", type: "epic", priority: "1", tags: "[home, move]" });
    expect(tk.lists.tags).toEqual(["home", "move"]);
  });

  test("omits the assignee when git has no user.name, and refuses empty titles", async ({ home, open }) => {
    const harness = await open();
    const id = createdId(await harness.ok("create_ticket", { title: "Water plants" }));
    expect(await ticketFile(join(home, ".tickets"), id)).not.toContain("assignee:");
    expect(await harness.failure("create_ticket", { title: "  " })).toContain("The title is empty");
    expect(await harness.failure("create_ticket", { title: "x", parent: "nope" })).toContain("ticket 'nope' not found");
  });

  test("starts, notes, closes, and reports what closing unblocked", async ({ home, open }) => {
    const harness = await open();
    const first = createdId(await harness.ok("create_ticket", { title: "Renew passport" }));
    const second = createdId(await harness.ok("create_ticket", { title: "Book flights" }));
    expect(await harness.ok("ticket_add_dep", { ticket_id: second, depends_on: first })).toBe(
      `Added dependency: ${second} -> ${first}`,
    );
    expect(await harness.ok("ticket_start", { ticket_id: first })).toBe(`Updated ${first} -> in_progress`);
    expect(await harness.ok("ticket_add_note", { ticket_id: first, note: "Photos taken." })).toBe(
      `Note added to ${first}`,
    );
    expect(await harness.ok("ticket_add_note", { ticket_id: first, note: "Form sent\nwith fee." })).toBe(
      `Note added to ${first}`,
    );
    expect(await harness.ok("ticket_close", { ticket_id: first })).toBe(
      `Updated ${first} -> closed\nNow unblocked: ${second} (Book flights)`,
    );

    const text = await ticketFile(join(home, ".tickets"), first);
    expect(readLikeTk(text).fields.status).toBe("closed");
    expect(text).toMatch(
      /\n\n\n## Notes\n\n\*\*\d{4}-[\d-]+T[\d:]+Z\*\*\n\nPhotos taken\.\n\n\*\*[\dTZ:-]+\*\*\n\nForm sent\nwith fee\.\n$/,
    );
    const listed = await harness.ok("ticket_list", {});
    expect(listed).toContain(`${second} [open] - Book flights <- [${first}]`);
    expect(await harness.ok("ticket_list", { status: "in_progress" })).toMatch(
      /^No tickets match status=in_progress \(2 tickets/,
    );
  });

  test("says where tickets would live when there are none", async ({ home, open }) => {
    const harness = await open();
    expect(await harness.ok("ticket_list", {})).toBe(
      `No tickets yet in ${join(home, ".tickets")}. Create one with create_ticket.`,
    );
    expect(await harness.failure("ticket_show", { ticket_id: "x" })).toContain("there are no tickets yet");
  });
});

describe("ticket resolution and tk's feature scenarios", () => {
  async function seed(dir: string, tickets: Array<[string, string, string[]?, string?]>): Promise<void> {
    await mkdir(dir, { recursive: true });
    for (const [id, title, deps = [], extra = ""] of tickets) {
      const text =
        `---\nid: ${id}\nstatus: open\ndeps: [${deps.join(", ")}]\nlinks: []\ncreated: ` +
        `2026-01-01T00:00:00Z\ntype: task\npriority: 2\n${extra}---\n# ${title}\n\n`;
      await writeFile(join(dir, `${id}.md`), text);
    }
  }

  test("matches IDs exactly first, then by any unique part", async ({ home, open }) => {
    await seed(join(home, ".tickets"), [
      ["abc", "Short ID ticket"],
      ["abc-1234", "Long ID ticket"],
      ["abc-5678", "Other"],
    ]);
    const harness = await open();
    expect(await harness.ok("ticket_show", { ticket_id: " abc " })).toContain("# Short ID ticket");
    expect(await harness.ok("ticket_show", { ticket_id: "c-12" })).toContain("id: abc-1234");
    expect(await harness.failure("ticket_show", { ticket_id: "abc-" })).toContain(
      "ambiguous ID 'abc-' matches multiple tickets: abc-1234 (Long ID ticket), abc-5678 (Other)",
    );
  });

  test("orders dep-tree children by subtree depth, then ID (ticket_dependencies.feature)", async ({ home, open }) => {
    await seed(join(home, ".tickets"), [
      ["task-0001", "Root", ["task-0010", "task-0005", "task-0008", "task-0020", "task-0015"]],
      ["task-0005", "Shallow A"],
      ["task-0008", "Shallow B"],
      ["task-0010", "Shallow C"],
      ["task-0015", "Deep A", ["task-0025"]],
      ["task-0020", "Deep B", ["task-0025"]],
      ["task-0025", "Deepest"],
    ]);
    const harness = await open();
    expect((await harness.ok("ticket_dep_tree", { ticket_id: "task-0001" })).split("\n")).toEqual([
      "task-0001 [open] Root",
      "├── task-0005 [open] Shallow A",
      "├── task-0008 [open] Shallow B",
      "├── task-0010 [open] Shallow C",
      "├── task-0015 [open] Deep A",
      "│   └── task-0025 [open] Deepest",
      "└── task-0020 [open] Deep B",
    ]);
  });

  test("cuts dependency cycles written by other tools and names them", async ({ home, open }) => {
    await seed(join(home, ".tickets"), [
      ["task-0001", "Main", ["task-0002"]],
      ["task-0002", "Dependency", ["task-0003"]],
      ["task-0003", "Another", ["task-0001"]],
    ]);
    const harness = await open();
    const tree = await harness.ok("ticket_dep_tree", { ticket_id: "0002" });
    expect(tree.split("\n").slice(0, 3)).toEqual([
      "task-0002 [open] Dependency",
      "└── task-0003 [open] Another",
      "    └── task-0001 [open] Main",
    ]);
    expect(tree).toContain("Dependency cycle: task-0002 -> task-0003 -> task-0001 -> task-0002");
  });

  test("refuses self-dependencies and new cycles without changing any file", async ({ home, open }) => {
    await seed(join(home, ".tickets"), [
      ["task-0001", "Main", ["task-0002"]],
      ["task-0002", "Dependency"],
    ]);
    const before = await ticketFile(join(home, ".tickets"), "task-0002");
    const harness = await open();
    expect(await harness.failure("ticket_add_dep", { ticket_id: "0002", depends_on: "0002" })).toContain(
      "cannot depend on itself",
    );
    expect(await harness.failure("ticket_add_dep", { ticket_id: "0002", depends_on: "0001" })).toContain(
      "task-0002 -> task-0001 -> task-0002",
    );
    expect(await ticketFile(join(home, ".tickets"), "task-0002")).toBe(before);
    expect(await harness.failure("ticket_add_dep", { ticket_id: "0001", depends_on: "nonexistent" })).toContain(
      "ticket 'nonexistent' not found",
    );
  });

  test("keeps unknown fields and the body when rewriting", async ({ home, open }) => {
    await seed(join(home, ".tickets"), [
      ["x-0001", "Keep me", [], "external-ref: JIRA-9\ncustom: value # with comment\n"],
    ]);
    const path = join(home, ".tickets", "x-0001.md");
    await writeFile(path, `${await readFile(path, "utf8")}Body line\nstatus: in the body\n`);
    const harness = await open();
    await harness.ok("ticket_start", { ticket_id: "0001" });
    const text = await readFile(path, "utf8");
    expect(text).toContain("status: in_progress\n");
    expect(text).toContain("external-ref: JIRA-9\ncustom: value # with comment\n");
    expect(text.endsWith("Body line\nstatus: in the body\n")).toBe(true);
  });

  test("filters the list by tags, all of them", async ({ home, open }) => {
    await seed(join(home, ".tickets"), [
      ["t-0001", "Both", [], "tags: [home, urgent]\n"],
      ["t-0002", "Home only", [], "tags: [home]\n"],
    ]);
    const harness = await open();
    const listed = await harness.ok("ticket_list", { tags: "home,urgent" });
    expect(listed).toContain("t-0001");
    expect(listed).not.toContain("t-0002");
    expect(await harness.ok("ticket_list", { tags: "home" })).toContain("t-0002");
  });
});

describe("where tickets live in coding mode", () => {
  test("uses the project's .tickets, found by walking up from the working dir like tk", async ({ root, open }) => {
    const project = join(root, "marvin-demo");
    await mkdir(join(project, "src", "deep"), { recursive: true });
    const harness = await open({ codingMode: true, workingDir: project });
    const id = createdId(await harness.ok("create_ticket", { title: "First ticket" }));
    expect(id).toMatch(/^md-[a-z0-9]{4}$/);
    expect(await readdir(join(project, ".tickets"))).toEqual([`${id}.md`]);

    const nested = await open({ codingMode: true, workingDir: join(project, "src", "deep") });
    expect(await nested.ok("ticket_list", {})).toContain(`${id}  [open] - First ticket`);
  });

  test("honours TICKETS_DIR, as tk does", async ({ root, open }) => {
    const other = join(root, "other-tickets");
    const harness = await open({ env: { TICKETS_DIR: other } });
    const id = createdId(await harness.ok("create_ticket", { title: "Elsewhere" }));
    expect(await readdir(other)).toEqual([`${id}.md`]);
  });
});
