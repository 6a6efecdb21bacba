import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll } from "vitest";
import { describe, expect, test } from "../support/fixtures.js";
import { fixtureImage, PNG_BASE64 } from "../support/images.js";
import { serverEnv } from "../support/run-marvin.js";
import { TmuxMarvin, tmuxAvailable } from "../support/tmux.js";

beforeAll(async () => {
  if (!(await tmuxAvailable())) throw new Error("tmux is needed for the TUI end-to-end tests: apt-get install -y tmux");
});

describe("images in the full-screen UI (tmux)", () => {
  test("@image sends the image itself; a model without vision gets nothing after /model", async ({ llm, home }) => {
    writeFileSync(join(home, "pic.png"), fixtureImage("tiny.png"));
    const server = await llm([{ text: "A dark little picture." }]);
    const env = { ...serverEnv(server.url, home), TERM: "xterm-256color" };
    const marvin = await TmuxMarvin.start({ env, cwd: home });
    try {
      await marvin.waitFor(/○ ready[\s\S]*\n>$/);
      await marvin.submit("what is in @pic.png?");
      await marvin.waitFor(/A dark little picture\.[\s\S]*○ ready|○ ready[\s\S]*A dark little picture\./);
      await marvin.waitFor("[System] Attached to the message: pic.png (PNG, 2×3, 97 B).");
      const parts = server.requests[0]!.body.messages.at(-1)!.content as unknown as Array<Record<string, unknown>>;
      expect(parts[1]).toEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${PNG_BASE64()}` } });

      await marvin.submit("/model openai-compat qwen3:8b");
      await marvin.waitFor("🔌 openai-compat · qwen3:8b");
      await marvin.submit("and @pic.png now?");
      const refused = await marvin.waitFor("qwen3:8b cannot read images, so nothing was sent.");
      expect(refused.match(/Attached to the message/g)).toHaveLength(1); // the first message's only
      expect(server.requests).toHaveLength(1);
    } finally {
      await marvin.kill();
    }
  });
});
