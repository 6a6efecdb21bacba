import { createInterface } from "node:readline/promises";
import type { CliArgs } from "../cli/args.js";
import { buildSession } from "../cli/build-session.js";
import { configPaths } from "../state/paths.js";
import { COLOR_PALETTE, createPlainRenderer, PLAIN_PALETTE } from "./plain/renderer.js";

export interface InteractiveEnvironment {
  env: Record<string, string | undefined>;
  home: string;
  cwd: string;
}

const EXIT_WORDS = new Set(["quit", "exit"]);

/** The readline front end: one prompt loop over the session. */
export async function runInteractive(args: CliArgs, environment: InteractiveEnvironment): Promise<number> {
  const colors = process.stdout.isTTY && !environment.env.NO_COLOR;
  const palette = colors ? COLOR_PALETTE : PLAIN_PALETTE;
  const readline = createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) });
  const built = await buildSession(args, {
    ...environment,
    notice: (text) => process.stdout.write(`${palette.system(`[System] ${text}`)}\n`),
    confirmCommand: async (command) => /^y(es)?$/i.test((await readline.question(`Run \`${command}\`? [y/N] `)).trim()),
  }).catch((error: Error) => {
    process.stderr.write(`Error: ${error.message}\n`);
    return undefined;
  });
  if (!built) {
    readline.close();
    return 1;
  }
  const { session } = built;
  session.subscribe(createPlainRenderer(process.stdout, palette));
  readline.on("SIGINT", () => {
    if (session.busy) session.abort();
    else readline.close();
  });
  let closed = false;
  readline.on("close", () => {
    closed = true;
  });
  try {
    let next = args.prompt;
    while (!closed) {
      const input = next ?? (await readline.question("> ").catch(() => undefined));
      next = undefined;
      if (input === undefined) break;
      const text = input.trim();
      if (!text) continue;
      if (EXIT_WORDS.has(text.toLowerCase())) break;
      await session.submit(text);
      if (session.exitRequested !== undefined) break;
    }
  } finally {
    readline.close();
    await built.flush();
    await session.usage.persistLifetime(configPaths(environment.home).usage).catch(() => undefined);
    await session.close();
  }
  return 0;
}
