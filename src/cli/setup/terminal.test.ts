import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { SetupTerminal } from "./terminal.js";

describe("setup's terminal", () => {
  it("prints what a server answered without its escape sequences", () => {
    const stdout = new PassThrough();
    const terminal = new SetupTerminal({
      stdin: new PassThrough() as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
    });
    terminal.say("openai-compat  http://127.0.0.1 — does not work: 500 \u001b]0;owned\u0007\u001b[2Jboom");
    expect(String(stdout.read())).toBe("openai-compat  http://127.0.0.1 — does not work: 500 boom\n");
  });
});
