import { beforeAll } from "vitest";
import { describe, expect, test } from "../support/fixtures.js";
import { userWords } from "../support/llm-server.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";
import { TmuxMarvin, tmuxAvailable } from "../support/tmux.js";

beforeAll(async () => {
  if (!(await tmuxAvailable())) throw new Error("tmux is needed for the TUI end-to-end tests: apt-get install -y tmux");
});

describe("the --resume picker of the full-screen UI (tmux)", () => {
  test("lists saved conversations, narrows them as you type, and resumes the chosen one", async ({ llm, home }) => {
    const server = await llm([
      { text: "Bern has the Zytglogge." },
      { text: "Pasta needs salt." },
      { text: "And the bear park." },
    ]);
    const env = serverEnv(server.url, home);
    await runMarvin(["--plain"], { env, cwd: home, stdin: "sights in bern\n" });
    await runMarvin(["--plain"], { env, cwd: home, stdin: "cooking pasta\n" });

    const marvin = await TmuxMarvin.start({ env: { ...env, TERM: "xterm-256color" }, args: ["--resume"], cwd: home });
    try {
      const picker = await marvin.waitFor("Resume a conversation (2 of 2)");
      // The selected one marked, the others in line with it, each with its last message indented under it.
      expect(picker).toMatch(
        /\n▸ cooking pasta · just now · 2 messages\n {4}cooking pasta · .+\n {2}sights in bern · just now · 2 messages\n {4}sights/,
      );
      await marvin.type("bern");
      await marvin.waitFor("Resume a conversation (1 of 2)");
      expect(await marvin.text()).not.toContain("cooking pasta ·");
      await marvin.press("Enter");
      await marvin.waitFor('Resumed "sights in bern"');
      await marvin.submit("anything else?");
      await marvin.waitFor("And the bear park.");
      const sent = server.requests[2]!.body.messages.slice(1).map((message) => userWords(message.content));
      expect(sent).toEqual(["sights in bern", "Bern has the Zytglogge.", "anything else?"]);
    } finally {
      await marvin.kill();
    }
  });

  test("Esc leaves the picker for a new conversation, saved as a session of its own", async ({ llm, home }) => {
    const server = await llm([{ text: "Noted." }, { text: "Fresh start." }]);
    const env = serverEnv(server.url, home);
    await runMarvin(["--plain"], { env, cwd: home, stdin: "remember the milk\n" });
    const marvin = await TmuxMarvin.start({ env: { ...env, TERM: "xterm-256color" }, args: ["--resume"], cwd: home });
    try {
      await marvin.waitFor("Resume a conversation (1 of 1) · Esc: new conversation ·");
      await marvin.press("Escape");
      await marvin.waitFor(/\n>\s*$/);
      await marvin.submit("hello");
      await marvin.waitFor("Fresh start.");
      expect(userWords(server.requests[1]!.body.messages.at(-1)!.content)).toBe("hello");
      await marvin.submit("sessions");
      await marvin.waitFor(/ 1\. hello \(this one\)[\s\S]* 2\. remember the milk/);
    } finally {
      await marvin.kill();
    }
  });
});

describe("a resumed conversation in the full-screen UI (tmux)", () => {
  test("shows its last turns as chat: messages, rendered answers, tool lines, and what is left out", async ({
    llm,
    home,
  }) => {
    const story = Array.from({ length: 70 }, (_, index) => `Line ${index + 1} of the story.`).join("\n");
    const server = await llm([
      { text: story },
      { text: "Starting it.", toolCalls: [{ name: "timer_start", arguments: { name: "tea", duration_seconds: 180 } }] },
      { text: "Your **tea** timer runs." },
      { text: "Still running." },
    ]);
    const env = serverEnv(server.url, home);
    await runMarvin(["--plain"], { env, cwd: home, stdin: "tell me a story\nset a tea timer\n" });
    const marvin = await TmuxMarvin.start({ env: { ...env, TERM: "xterm-256color" }, args: ["--continue"], cwd: home });
    try {
      const screen = await marvin.waitFor(/Your tea timer runs\./);
      expect(screen).toMatch(/Resumed "tell me a story"[\s\S]*2 earlier messages are not shown\.\n/);
      expect(screen).toMatch(/You\n\s*set a tea timer\n[\s\S]*Marvin\n\s*Starting it\.\n/);
      expect(screen).toMatch(/✓ timer_start {2}"tea" · Countdown 'tea' started/);
      expect(screen).not.toContain("**tea**");
      expect(screen).not.toContain("Line 70 of the story.");
      await marvin.submit("still?");
      await marvin.waitFor("Still running.");
    } finally {
      await marvin.kill();
    }
  });
});

describe("message counts in the full-screen UI (tmux)", () => {
  test("the status bar, `sessions` and the resume line count a conversation alike", async ({ llm, home }) => {
    const server = await llm([
      { text: "Starting it.", toolCalls: [{ name: "timer_start", arguments: { name: "tea", duration_seconds: 180 } }] },
      { text: "Your tea timer runs." },
    ]);
    const env = { ...serverEnv(server.url, home), TERM: "xterm-256color" };
    const marvin = await TmuxMarvin.start({ env, cwd: home });
    try {
      await marvin.waitFor(/○ ready[\s\S]*\n>$/);
      await marvin.submit("set a tea timer");
      await marvin.waitFor(/│ 2 msgs │ .*○ ready/);
      await marvin.submit("sessions");
      await marvin.waitFor(/ 1\. set a tea timer \(this one\)\n .* · 2 messages · /);
      await marvin.submit("clear");
      await marvin.waitFor(/│ 0 msgs │ /);
      await marvin.submit("resume 1");
      await marvin.waitFor(/Resumed "set a tea timer" \(\S+, 2 messages\)/);
      await marvin.waitFor(/│ 2 msgs │ /);
    } finally {
      await marvin.kill();
    }
  });
});
