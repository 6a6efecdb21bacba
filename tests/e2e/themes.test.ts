import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll } from "vitest";
import { test as base, describe, expect } from "../support/fixtures.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";
import { TmuxMarvin, tmuxAvailable } from "../support/tmux.js";

beforeAll(async () => {
  if (!(await tmuxAvailable())) throw new Error("tmux is needed for the TUI end-to-end tests: apt-get install -y tmux");
});

/** Any foreground or background colour (basic, bright, 256-colour or 24-bit), not the terminal's default (39, 49). */
const ANY_COLOUR = /\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m/;

/** `text` drawn in the colour `code` selects (tmux may put other SGR sequences between them). */
const painted = (code: string, text: string) =>
  new RegExp(`\\x1b\\[${code}m(?:\\x1b\\[[0-9;]*m)*${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
const READY = /^ 🔌 .*○ ready[\s\S]*\n>$/;

/** The styled screen row that shows `text` (the first one). */
async function styledRow(marvin: TmuxMarvin, text: string): Promise<string> {
  const row = (await marvin.styled()).split("\n").find((line) => line.includes(text));
  if (row === undefined) throw new Error(`no row shows ${text}:\n${await marvin.text()}`);
  return row;
}

/**
 * `open(env, args)`: the built marvin, full-screen in tmux (256 colours, as TERM says), against a scripted
 * server that answers every message; stopped after the test. Waits for the prompt.
 */
const test = base.extend<{ open: (env?: Record<string, string>, args?: string[]) => Promise<TmuxMarvin> }>({
  open: async ({ home, llm }, use) => {
    const terminals: TmuxMarvin[] = [];
    await use(async (env = {}, args = []) => {
      const server = await llm(Array.from({ length: 5 }, (_, index) => ({ text: `Answer number ${index + 1}.` })));
      const marvin = await TmuxMarvin.start({
        env: { ...serverEnv(server.url, home, env), TERM: "xterm-256color" },
        args,
        cwd: home,
      });
      terminals.push(marvin);
      if (!args.includes("--plain")) await marvin.waitFor(READY);
      return marvin;
    });
    for (const terminal of terminals) await terminal.kill();
  },
});

async function writeUserTheme(home: string, name: string, theme: unknown): Promise<string> {
  const dir = join(home, ".config", "local-finder", "themes");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.json`), JSON.stringify(theme));
  return join(dir, `${name}.json`);
}

describe("themes in the full-screen UI (tmux)", () => {
  test("MARVIN_THEME=light draws with the light theme's colours", async ({ open }) => {
    const dark = await open();
    await dark.submit("hello there");
    await dark.waitFor("Answer number 1.");
    expect(await styledRow(dark, "hello there")).toMatch(painted("36", "hello there"));

    const light = await open({ MARVIN_THEME: "light" });
    await light.submit("hello there");
    await light.waitFor("Answer number 1.");
    expect(await styledRow(light, "hello there")).toMatch(painted("38;5;24", "hello there")); // #005f87
    expect(await styledRow(light, "Answer number 1.")).toMatch(painted("38;5;22", "Answer")); // #005f00
    expect(await light.styled()).not.toContain("\x1b[36m");
  });

  test("/theme NAME recolours the lines already on screen, without a restart", async ({ open }) => {
    const marvin = await open();
    await marvin.submit("first question");
    await marvin.waitFor("Answer number 1.");
    expect(await styledRow(marvin, "first question")).toMatch(painted("36", "first question"));
    await marvin.submit("/theme dracula");
    await marvin.waitFor("Theme: dracula.");
    expect(await styledRow(marvin, "first question")).toMatch(painted("38;5;117", "first question")); // #8be9fd
    expect(await styledRow(marvin, "Answer number 1.")).toMatch(painted("38;5;84", "Answer")); // #50fa7b
    expect(await styledRow(marvin, "Theme: dracula.")).toMatch(painted("38;5;228", "[System]")); // #f1fa8c
    await marvin.submit("second question");
    await marvin.waitFor("Answer number 2.");
    expect(await styledRow(marvin, "second question")).toMatch(painted("38;5;117", "second question"));
  });

  test("NO_COLOR wins over MARVIN_THEME: no colour at all, bold and inverse video still there", async ({ open }) => {
    const marvin = await open({ NO_COLOR: "1", MARVIN_THEME: "dracula" });
    await marvin.submit("**bold** question");
    await marvin.waitFor("Answer number 1.");
    await marvin.submit("/theme gruvbox");
    await marvin.waitFor("NO_COLOR is set: no theme shows colour");
    const styled = await marvin.styled();
    expect(styled).not.toMatch(ANY_COLOUR);
    expect(styled).toContain("\x1b[7m"); // the status bar
    expect(styled).toContain("\x1b[1m"); // headers
  });

  test("a user theme of the home's themes folder is listed in the picker, previewed, and applied", async ({
    open,
    home,
  }) => {
    const file = await writeUserTheme(home, "sunset", { extend: "dark", tokens: { you: "#ff8700" } });
    const marvin = await open();
    await marvin.submit("my question");
    await marvin.waitFor("Answer number 1.");
    await marvin.submit("/theme");
    await marvin.waitFor("Theme · ↑/↓ preview · Enter keeps it · Esc goes back");
    await marvin.press("Up"); // from dark, the first, round to the last: sunset
    await marvin.waitFor(new RegExp(` sunset +${file.slice(0, 30)}`));
    await marvin.waitForStyled(painted("38;5;208", "my question"));
    await marvin.press("Escape");
    await marvin.waitFor("Theme: dark (unchanged).");
    expect(await styledRow(marvin, "my question")).toMatch(painted("36", "my question"));
    await marvin.submit("/theme sunset");
    await marvin.waitFor("Theme: sunset.");
    expect(await styledRow(marvin, "my question")).toMatch(painted("38;5;208", "my question"));
  });
  test("/theme <Tab> completes the name of a user theme, before any /theme read the folder", async ({ open, home }) => {
    await writeUserTheme(home, "sunset", { extend: "dark", tokens: { you: "#ff8700" } });
    const marvin = await open();
    await marvin.type("/theme sun");
    await marvin.press("Tab");
    await marvin.waitFor(/\n> \/theme sunset ?$/);
  });
});

describe("themes in the plain UI", () => {
  test("on a terminal it colours with the theme; /theme switches it", async ({ open }) => {
    const marvin = await open({ MARVIN_THEME: "light" }, ["--plain"]);
    await marvin.waitFor("Type /help for commands");
    const welcome = await styledRow(marvin, "Type /help for commands");
    expect(welcome).toMatch(painted("38;5;94", "[System] Marvin")); // #875f00
    await marvin.submit("/theme nord");
    await marvin.waitFor("Theme: nord.");
    await marvin.submit("a question");
    await marvin.waitFor("Answer number 1.");
    expect(await styledRow(marvin, "Answer number 1.")).toMatch(painted("38;5;144", "Answer")); // #a3be8c
  });

  test("/theme lists the built-in and user themes, the one in use marked", async ({ home, llm }) => {
    const file = await writeUserTheme(home, "sunset", { tokens: { you: "orange" } });
    const server = await llm([]);
    const run = await runMarvin(["--plain"], {
      env: serverEnv(server.url, home, { MARVIN_THEME: "nord" }),
      cwd: home,
      stdin: "/theme\n/theme sunrise\n",
    });
    expect(run.stdout).toMatch(/^\* nord +Nord$/m);
    expect(run.stdout).toMatch(/^ {2}dark +the terminal's own colours \(default\)$/m);
    expect(run.stdout).toContain(`Theme ${file}: tokens.you: "orange" is not a colour`);
    expect(run.stdout).toMatch(/^ {2}sunset +.*sunset\.json$/m);
    expect(run.stdout).toContain("The output is not a terminal: it shows no colours.");
    expect(run.stdout).toContain('No theme is named "sunrise". Themes: dark, light, high-contrast');
    expect(run.stdout).not.toMatch(ANY_COLOUR);
    expect(server.requests).toHaveLength(0);
  });
});
