import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "../../../tests/support/command-layer-fixture.js";
import { describe, expect } from "../../../tests/support/fixtures.js";
import { userWords } from "../../../tests/support/llm-server.js";

describe("@path mentions", () => {
  test("attach a file of the working directory to what the model reads, not to what the person sees", async ({
    openLayer,
  }) => {
    const { layer, host, server, cwd } = await openLayer([{ text: "It says hello." }]);
    mkdirSync(join(cwd, "docs"));
    writeFileSync(join(cwd, "docs", "notes.md"), "hello from the notes\n");
    const result = await layer.handle("what does @docs/notes.md say?");
    if (result.type === "submitted") await result.done;
    const sent = userWords(server.requests[0]!.body.messages.at(-1)!.content);
    expect(sent).toBe('what does @docs/notes.md say?\n\n<file path="docs/notes.md">\nhello from the notes\n\n</file>');
    expect(host.submitted).toEqual(["session: what does @docs/notes.md say?"]);
    expect(host.systemMessages).toEqual(["Attached to the message: docs/notes.md (21 B)."]);
  });

  test("never attach a secret, a path outside the working directory, or a symlink leading out", async ({
    openLayer,
    tempDirs,
  }) => {
    const { layer, host, server, cwd } = await openLayer([{ text: "Fine." }]);
    const outside = await tempDirs.make("marvin-outside-");
    writeFileSync(join(outside, "private.txt"), "OUTSIDE-CONTENT");
    writeFileSync(join(cwd, ".env"), "API_KEY=SECRET-VALUE");
    writeFileSync(join(cwd, "server.pem"), "-----BEGIN PRIVATE KEY-----");
    symlinkSync(join(outside, "private.txt"), join(cwd, "link.txt"));
    symlinkSync(join(cwd, ".env"), join(cwd, "config.txt"));
    const line = `read @.env, @server.pem @../x.txt @${outside}/private.txt @link.txt @config.txt @alice @missing.md`;
    const result = await layer.handle(line);
    if (result.type === "submitted") await result.done;
    const sent = server.requests[0]!.body.messages.at(-1)!.content ?? "";
    expect(sent).not.toMatch(/SECRET-VALUE|PRIVATE KEY|OUTSIDE-CONTENT|<file/);
    expect(host.systemMessages).toEqual([
      "@.env is not attached: it looks like it holds secrets (keys, tokens, logins).",
      "@server.pem is not attached: it looks like it holds secrets (keys, tokens, logins).",
      "@../x.txt is not attached: only files inside the working directory can be attached.",
      `@${outside}/private.txt is not attached: only files inside the working directory can be attached.`,
      "@link.txt is not attached: only files inside the working directory can be attached.",
      "@config.txt is not attached: it leads to a file that looks like it holds secrets.",
      "@missing.md is not attached: there is no such file in the working directory.",
    ]);
  });
});
