import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONFORMANCE_DATA } from "../../../../tests/support/run-marvin.js";
import {
  appendNote,
  formatList,
  listValue,
  parseTicketFile,
  renderNewTicket,
  setFrontMatterField,
  utcTimestamp,
} from "./ticket-file.js";

const EXAMPLES = join(CONFORMANCE_DATA, "tickets", "example-tickets-dir");
const example = (id: string) => readFileSync(join(EXAMPLES, `${id}.md`), "utf8");

describe("parseTicketFile", () => {
  it("reads tk's front matter as strings and inline lists, and the first '# ' title", () => {
    const { fields, title } = parseTicketFile(example("md-gg89"));
    expect(fields).toEqual({
      id: "md-gg89",
      status: "open",
      deps: ["md-qx2u"],
      links: ["md-qx2u"],
      created: "2026-11-22T10:49:36Z",
      type: "feature",
      priority: "2",
      assignee: "Grace Hopper",
      parent: "md-icgn",
    });
    expect(title).toBe("Implement apply_patch tool");
    expect(parseTicketFile(example("md-icgn")).fields.tags).toEqual(["core", "agent"]);
    expect(parseTicketFile(example("md-qx2u")).fields["external-ref"]).toBe("gh-42");
  });

  it("keeps ID-like scalars verbatim and falls back to tk's line reading for invalid YAML", () => {
    expect(parseTicketFile("---\nid: 0001\ncreated: 2026-01-01T00:00:00Z\n---\n# T\n").fields).toMatchObject({
      id: "0001",
      created: "2026-01-01T00:00:00Z",
    });
    const broken = parseTicketFile(
      "---\nid: x-1\nassignee: Bob: the builder\ndeps: [a, b]\n---\n# Broken but readable\n",
    );
    expect(broken.fields).toMatchObject({ id: "x-1", deps: ["a", "b"] });
    expect(broken.title).toBe("Broken but readable");
  });

  it("takes the title only after the front matter", () => {
    expect(parseTicketFile("---\nid: a\n---\nbody\n# Real title\n# Second\n").title).toBe("Real title");
    expect(parseTicketFile("# No front matter\n").title).toBe("No front matter");
  });
});

describe("listValue", () => {
  it("reads lists as tk does: brackets and spaces stripped, split on commas", () => {
    expect(listValue(["a", " b "])).toEqual(["a", "b"]);
    expect(listValue("[a, b,c]")).toEqual(["a", "b", "c"]);
    expect(listValue("[]")).toEqual([]);
    expect(listValue(undefined)).toEqual([]);
  });
});

describe("writing", () => {
  it("renders a new ticket byte for byte as tk create wrote md-icgn", () => {
    const text = renderNewTicket({
      id: "md-icgn",
      created: "2026-11-22T10:49:34Z",
      type: "epic",
      priority: 1,
      title: "Build agent loop",
      description: "Top-level epic for the agent loop.",
      assignee: "Ada Lovelace",
      tags: ["core", "agent"],
    });
    expect(text).toBe(example("md-icgn"));
  });

  it("reproduces md-saxv and md-gg89 from create plus in-place field updates", () => {
    const saxv = renderNewTicket({
      id: "md-saxv",
      created: "2026-11-22T10:49:37Z",
      type: "chore",
      priority: 3,
      title: "Write release notes",
      assignee: "Ada Lovelace",
    });
    expect(setFrontMatterField(saxv, "deps", formatList(["md-gg89", "md-qx2u"]))).toBe(example("md-saxv"));

    let gg89 = renderNewTicket({
      id: "md-gg89",
      created: "2026-11-22T10:49:36Z",
      type: "feature",
      priority: 2,
      title: "Implement apply_patch tool",
      assignee: "Grace Hopper",
      parent: "md-icgn",
    });
    gg89 = setFrontMatterField(gg89, "deps", "[md-qx2u]");
    gg89 = setFrontMatterField(gg89, "links", "[md-qx2u]");
    expect(gg89).toBe(example("md-gg89"));
  });

  it("appends notes exactly as tk add-note does, the Notes heading once", () => {
    const final = example("md-qx2u");
    const beforeNotes = final.slice(0, final.indexOf("\n## Notes\n"));
    let text = beforeNotes;
    text = appendNote(text, "First pass done; Anthropic ping events handled.", "2026-11-22T10:49:37Z");
    text = appendNote(text, "Multi-line note\nsecond line\n", "2026-11-22T10:49:37Z");
    expect(text).toBe(final);
    expect(text.match(/^## Notes$/gm)).toHaveLength(1);
  });

  it("inserts a missing field right after the opening fence and never touches the body", () => {
    const text = "---\nid: a-1\n---\n# T\n\nstatus: not a field\n";
    expect(setFrontMatterField(text, "status", "closed")).toBe(
      "---\nstatus: closed\nid: a-1\n---\n# T\n\nstatus: not a field\n",
    );
    expect(setFrontMatterField("---\r\nid: a-1\r\nstatus: open\r\n---\r\n", "status", "closed")).toBe(
      "---\r\nid: a-1\r\nstatus: closed\r\n---\r\n",
    );
  });

  it("formats timestamps like date -u +%Y-%m-%dT%H:%M:%SZ", () => {
    expect(utcTimestamp(new Date("2026-11-22T10:49:37.123Z"))).toBe("2026-11-22T10:49:37Z");
  });
});
