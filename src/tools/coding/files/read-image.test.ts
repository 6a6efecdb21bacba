import { readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import { fixtureImage, PNG_BASE64 } from "../../../../tests/support/images.js";
import { createTestSession } from "../../../../tests/support/test-session.js";
import type { AgentEvent } from "../../../agent/events.js";
import { createAuditLog } from "../../../session/listeners/audit-log.js";
import { fileTools } from "./index.js";

const test = base.extend<{ work: string }>({
  work: async ({ tempDirs }, use) => {
    const work = await tempDirs.make("marvin-read-image-");
    await writeFile(join(work, "pic.png"), fixtureImage("tiny.png"));
    await use(work);
  },
});

const readPicture = { toolCalls: [{ name: "read_file", arguments: { path: "pic.png" } }] };

describe("read_file on an image", () => {
  test("without a model that reads images: what can be told of it, as text", async ({ harnesses, work }) => {
    const harness = await harnesses.open({ home: join(work, "home"), codingMode: true, workingDir: work });
    expect(await harness.call("read_file", { path: "pic.png" })).toEqual({
      result: "pic.png is an image (PNG, 2×3, 97 B); this model cannot read images, so read_file cannot show it.",
      isError: false,
    });
  });

  test("reaches a vision model's next request as an image; events, audit log and saved session stay lean", async ({
    llm,
    tempDirs,
    work,
  }) => {
    const server = await llm([readPicture, { text: "A black picture." }]);
    const home = await tempDirs.make("marvin-home-");
    const session = createTestSession({
      home,
      llmUrl: server.url,
      codingMode: true,
      workingDir: work,
      tools: fileTools,
      record: { id: "pictures" },
    });
    await session.start();
    const ends: AgentEvent[] = [];
    session.subscribe((event) => event.type === "tool_end" && ends.push(event));
    const audit = createAuditLog(join(home, "audit.jsonl"), () => undefined);
    session.subscribe(audit.listener);
    try {
      expect((await session.submit("what is in pic.png?")).reason).toBe("done");
      const sent = server.requests[1]!.body.messages.slice(-2) as unknown[];
      expect(sent).toEqual([
        {
          role: "tool",
          tool_call_id: expect.any(String),
          content: "pic.png is an image (PNG, 2×3, 97 B); here it is.",
        },
        {
          role: "user",
          content: [
            { type: "text", text: "The images the tool results above returned:" },
            { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_BASE64()}` } },
          ],
        },
      ]);
      await audit.flush();
      expect(JSON.stringify(ends)).not.toContain(PNG_BASE64());
      expect(await readFile(join(home, "audit.jsonl"), "utf8")).not.toContain(PNG_BASE64());
      // The session file names the image; the image itself is kept once beside it.
      const saved = await readFile(session.sessions!.pathOf("pictures"), "utf8");
      expect(saved).not.toContain(PNG_BASE64());
      const kept = join(dirname(session.sessions!.pathOf("pictures")), "pictures.images");
      expect(await readdir(kept)).toHaveLength(1);
      const resumed = await session.sessions!.load("pictures");
      const tool = resumed!.messages.find((message) => message.role === "tool");
      expect(tool).toMatchObject({ images: [{ mediaType: "image/png", data: PNG_BASE64() }] });
    } finally {
      await session.close();
    }
  });
});
