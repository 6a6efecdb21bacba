import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "../../../tests/support/command-layer-fixture.js";
import { describe, expect } from "../../../tests/support/fixtures.js";
import { fixtureImage } from "../../../tests/support/images.js";
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

describe("images in messages", () => {
  const dataUrl = (bytes: Buffer, type: string) => `data:${type};base64,${bytes.toString("base64")}`;

  test("@image and a pasted image path go as image parts, typed by their bytes, not their names", async ({
    openLayer,
  }) => {
    const { layer, host, server, cwd } = await openLayer([{ text: "A red and a black picture." }]);
    writeFileSync(join(cwd, "photo.dat"), fixtureImage("tiny.png"));
    writeFileSync(join(cwd, "shot.jpg"), fixtureImage("tiny.jpg"));
    writeFileSync(join(cwd, "fake.png"), "only text\n");
    const result = await layer.handle("compare @photo.dat with 'shot.jpg', and fake.png. Then @shot.jpg again.");
    if (result.type === "submitted") await result.done;
    const content = server.requests[0]!.body.messages.at(-1)!.content as unknown as Array<Record<string, unknown>>;
    expect(content.slice(1)).toEqual([
      { type: "image_url", image_url: { url: dataUrl(fixtureImage("tiny.png"), "image/png") } },
      { type: "image_url", image_url: { url: dataUrl(fixtureImage("tiny.jpg"), "image/jpeg") } },
    ]);
    expect(userWords(content[0]!.text as string)).toBe(
      "compare @photo.dat with 'shot.jpg', and fake.png. Then @shot.jpg again.",
    );
    expect(host.systemMessages).toEqual([
      "Attached to the message: photo.dat (PNG, 2×3, 97 B), shot.jpg (JPEG, 3×2, 761 B).",
    ]);
  });

  test("a model that cannot read images gets nothing, and is named with the way out", async ({ openLayer }) => {
    const { layer, host, server, cwd } = await openLayer([{ text: "never asked" }], {
      OPENAI_COMPAT_MODEL: "llama3.1:8b",
    });
    writeFileSync(join(cwd, "pic.png"), fixtureImage("tiny.png"));
    const result = await layer.handle("what is in @pic.png?");
    const outcome = result.type === "submitted" ? await result.done : undefined;
    expect(server.requests).toHaveLength(0);
    expect(outcome?.error).toContain(
      "llama3.1:8b cannot read images, so nothing was sent. Switch with /model to one that does",
    );
    expect(host.submitted).toEqual(["session: what is in @pic.png?"]);
    expect(host.systemMessages).toEqual([]); // only the refusal: the image was not attached to anything
  });

  test("MARVIN_VISION=on sends images to a model its name does not tell about; an image over 5 MB stays out", async ({
    openLayer,
  }) => {
    const { layer, host, server, cwd } = await openLayer([{ text: "Seen." }], {
      OPENAI_COMPAT_MODEL: "my-local-model",
      MARVIN_VISION: "on",
    });
    writeFileSync(join(cwd, "small.png"), fixtureImage("tiny.png"));
    writeFileSync(join(cwd, "huge.png"), Buffer.concat([fixtureImage("tiny.png"), Buffer.alloc(6 * 1024 * 1024)]));
    const result = await layer.handle("look at @small.png and @huge.png");
    if (result.type === "submitted") await result.done;
    const content = server.requests[0]!.body.messages.at(-1)!.content as unknown as Array<Record<string, unknown>>;
    expect(content.map((part) => part.type)).toEqual(["text", "image_url"]);
    expect(host.systemMessages).toContain(
      "@huge.png is not attached: it is a 6.0 MB image, over 5.0 MB, the most a model takes.",
    );
  });
});
