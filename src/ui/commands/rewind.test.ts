import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { RecordingHost } from "../../../tests/support/command-layer-fixture.js";
import { describe, expect, test } from "../../../tests/support/fixtures.js";
import { scriptedEnv } from "../../../tests/support/test-session.js";
import { CommandLayer } from "./command-layer.js";

const create = (content: string) => ({ toolCalls: [{ name: "create_file", arguments: { path: "a.txt", content } }] });
const change = (from: string, to: string) => ({
  toolCalls: [{ name: "apply_patch", arguments: { path: "a.txt", old_str: from, new_str: to } }],
});

describe("rewind and undo commands", () => {
  test("files only keeps the conversation, conversation only keeps the files, Enter cancels", async ({
    tempDirs,
    llm,
    harnesses,
  }) => {
    const root = await tempDirs.make("marvin-rewind-");
    const [home, work] = [join(root, "home"), join(root, "work")];
    await mkdir(work, { recursive: true });
    const server = await llm([create("1\n"), { text: "ok 1" }, change("1", "2"), { text: "ok 2" }]);
    const harness = await harnesses.open({
      home,
      llmUrl: server.url,
      codingMode: true,
      workingDir: work,
      record: { id: "r1" },
    });
    const host = new RecordingHost();
    const env = scriptedEnv(server.url, home);
    const layer = new CommandLayer(
      { session: harness.session, env, home, cwd: work, providerName: "openai-compat" },
      host,
    );
    for (const line of ["first", "second"]) {
      const result = await layer.handle(line);
      if (result.type === "submitted") await result.done;
    }
    const file = () => readFile(join(work, "a.txt"), "utf8");
    expect(await file()).toBe("2\n");

    host.answers.push("");
    await layer.handle("rewind");
    expect(host.lastSystem).toBe("Rewind cancelled.");

    host.answers.push("f");
    await layer.handle("rewind 2");
    expect(host.lastSystem).toBe("Restored a.txt.");
    expect(await file()).toBe("1\n");
    expect(harness.session.userMessages().map((entry) => entry.text)).toEqual(["first", "second"]);

    host.answers.push("c");
    await layer.handle("rewind 1");
    expect(host.lastSystem).toBe('The conversation is back to before "first".');
    expect(await file()).toBe("1\n");
    expect(harness.session.userMessages()).toEqual([]);
    expect(await harness.session.sessions?.load("r1")).toMatchObject({ messages: [], totalMessages: 0 });

    await layer.handle("undo");
    expect(host.lastSystem).toMatch(/^Nothing to undo: Marvin has not changed a file in this conversation\./);
    await layer.handle("rewind");
    expect(host.lastSystem).toBe("Nothing to rewind yet: you have not sent a message in this conversation.");
    await layer.close();
  });

  test("undo and rewind cover what the ticket tools wrote to .tickets/; their results carry its diff", async ({
    tempDirs,
    llm,
    harnesses,
  }) => {
    const root = await tempDirs.make("marvin-rewind-");
    const [home, work] = [join(root, "home"), join(root, "work")];
    await mkdir(work, { recursive: true });
    const server = await llm([
      { toolCalls: [{ name: "create_ticket", arguments: { title: "Fix the gate" } }] },
      { text: "Created." },
      { toolCalls: [{ name: "ticket_add_note", arguments: { ticket_id: "-", note: "Hinges ordered." } }] },
      { text: "Noted." },
    ]);
    const harness = await harnesses.open({ home, llmUrl: server.url, codingMode: true, workingDir: work, record: {} });
    const host = new RecordingHost();
    const env = scriptedEnv(server.url, home);
    const layer = new CommandLayer(
      { session: harness.session, env, home, cwd: work, providerName: "openai-compat" },
      host,
    );
    const diffs: string[] = [];
    harness.session.subscribe((event) => {
      if (event.type === "tool_end") diffs.push((event.details as { diff?: string } | undefined)?.diff ?? "");
    });
    for (const line of ["make a ticket", "note the hinges"]) {
      const result = await layer.handle(line);
      if (result.type === "submitted") await result.done;
    }
    const tickets = join(work, ".tickets");
    const [name] = await readdir(tickets);
    expect(diffs[0]).toContain(`--- /dev/null\n+++ b/.tickets/${name}\n`);
    expect(diffs[0]).toContain("\n+# Fix the gate\n");
    expect(diffs[1]).toContain(`--- a/.tickets/${name}\n+++ b/.tickets/${name}\n`);
    expect(diffs[1]).toContain("\n+Hinges ordered.\n");
    expect(await readFile(join(tickets, name!), "utf8")).toContain("Hinges ordered.");

    await layer.handle("undo");
    expect(host.lastSystem).toContain(`\nRestored .tickets/${name}.`);
    expect(await readFile(join(tickets, name!), "utf8")).not.toContain("Hinges ordered.");
    host.answers.push("f");
    await layer.handle("rewind 1");
    expect(await readdir(tickets)).toEqual([]);
    await layer.close();
  });
});
