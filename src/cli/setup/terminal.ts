import { createInterface } from "node:readline/promises";
import { safeText } from "../../ui/terminal-text.js";

/** Setup ran out of input (Ctrl+D, Ctrl+C): nothing more is asked. */
export class SetupStopped extends Error {
  override readonly name = "SetupStopped";
}

interface Streams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

/** Plain prompts for `marvin setup`, which runs before any UI: one line of text, or a hidden one for keys. */
export class SetupTerminal {
  constructor(readonly streams: Streams) {}

  /** Prints a line; what servers said in it (errors, model names) cannot move the cursor or retitle the window. */
  say(text: string): void {
    this.streams.stdout.write(`${safeText(text)}\n`);
  }

  /** A typed line, trimmed; `fallback` when the person just presses Enter. */
  async ask(question: string, fallback = ""): Promise<string> {
    const lines = createInterface({ input: this.streams.stdin, output: this.streams.stdout, terminal: true });
    const closed = new Promise<never>((_, reject) => lines.once("close", () => reject(new SetupStopped())));
    closed.catch(() => undefined);
    lines.on("SIGINT", () => lines.close());
    try {
      const answer = await Promise.race([lines.question(question), closed]);
      return answer.trim() || fallback;
    } finally {
      lines.close();
    }
  }

  /** A line typed or pasted without showing it: nothing is echoed, only how many characters arrived. */
  async askHidden(question: string): Promise<string> {
    const { stdin, stdout } = this.streams;
    stdout.write(question);
    const wasRaw = stdin.isRaw;
    stdin.setRawMode(true);
    stdin.resume();
    try {
      const value = await new Promise<string>((resolve, reject) => {
        let typed = "";
        const onData = (chunk: Buffer) => {
          // A terminal left in bracketed-paste mode wraps a paste in ESC [200~ … ESC [201~: not part of the key.
          for (const char of chunk.toString("utf8").replace(/\u001b\[20[01]~/g, "")) {
            if (char === "\r" || char === "\n") return finish(() => resolve(typed));
            if (char === "\u0003" || char === "\u0004") return finish(() => reject(new SetupStopped()));
            if (char === "\u007f" || char === "\b") typed = typed.slice(0, -1);
            else if (char >= " ") typed += char;
          }
        };
        const finish = (settle: () => void) => {
          stdin.off("data", onData);
          settle();
        };
        stdin.on("data", onData);
      });
      stdout.write(value ? ` (${value.length} characters, not shown)\n` : "\n");
      return value.trim();
    } finally {
      stdin.setRawMode(wasRaw);
      stdin.pause();
    }
  }

  /** A number from 1 to `count`, asked again until one is given; `fallback` on Enter. */
  async choose(question: string, count: number, fallback: number): Promise<number> {
    for (;;) {
      const answer = await this.ask(`${question} [${fallback}]: `, String(fallback));
      const number = Number(answer);
      if (Number.isInteger(number) && number >= 1 && number <= count) return number;
      this.say(`Type a number from 1 to ${count}.`);
    }
  }
}
