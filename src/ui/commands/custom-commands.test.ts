import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../../tests/support/fixtures.js";
import { expandCustomCommand, loadCustomCommands, matchCustomCommand } from "./custom-commands.js";

describe("custom commands", () => {
  test("loads markdown templates, expands $ARGUMENTS, and reports unusable files", async ({ home }) => {
    const dir = join(home, "commands");
    await mkdir(dir);
    await writeFile(join(dir, "Explain.md"), "# Explain code\nExplain $ARGUMENTS simply. Then $ARGUMENTS again.\n");
    await writeFile(join(dir, "standup.md"), "---\ndescription: Daily standup notes\n---\nWrite my standup notes.");
    await writeFile(join(dir, "bad name.md"), "text");
    await writeFile(join(dir, "empty.md"), "---\ndescription: nothing\n---\n");
    await writeFile(join(dir, "notes.txt"), "not a command");
    await writeFile(join(dir, "model.md"), "Pick a model for me.");
    const { commands, problems } = await loadCustomCommands(dir);
    expect(commands.map(({ name, description }) => [name, description])).toEqual([
      ["explain", "Explain code"],
      ["standup", "Daily standup notes"],
    ]);
    expect(problems).toEqual([
      "Custom command bad name.md is left out: name it with letters, digits, _ and - only.",
      "Custom command empty.md is left out: it is empty.",
      "Custom command model.md is left out: /model is a built-in command; rename the file.",
    ]);
    const explain = matchCustomCommand("/Explain  src/a.ts ", commands);
    expect(explain && expandCustomCommand(explain.command, explain.args)).toBe(
      "# Explain code\nExplain src/a.ts simply. Then src/a.ts again.",
    );
    const standup = matchCustomCommand("/standup yesterday was short", commands);
    expect(standup && expandCustomCommand(standup.command, standup.args)).toBe(
      "Write my standup notes.\n\nyesterday was short",
    );
    expect(matchCustomCommand("/etc/hosts is odd", commands)).toBeUndefined();
    expect(matchCustomCommand("/unknown", commands)).toBeUndefined();
    expect(await loadCustomCommands(join(home, "missing"))).toEqual({ commands: [], problems: [] });
  });
});
