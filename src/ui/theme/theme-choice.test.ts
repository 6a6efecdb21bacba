import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../tests/support/fixtures.js";
import { COLOR_THEME } from "../tui/theme.js";
import { BUILTIN_THEMES } from "./builtin-themes.js";
import { TOKEN_NAMES } from "./definition.js";
import { ThemeChoice } from "./theme-choice.js";
import { checkTheme } from "./theme-file.js";

/** `writeTheme(name, content)`: a file of the themes folder of the temporary home. */
const test = base.extend<{ writeTheme: (name: string, content: unknown) => Promise<string> }>({
  writeTheme: async ({ home }, use) => {
    const dir = join(home, ".config", "local-finder", "themes");
    await use(async (name, content) => {
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${name}.json`);
      await writeFile(file, typeof content === "string" ? content : JSON.stringify(content));
      return file;
    });
  },
});

const COLOUR_CODE = /\x1b\[(?:3|4|9|10)\d(?:;[\d;]+)?m/;

describe("the built-in themes", () => {
  test.each([...BUILTIN_THEMES])("%s is a valid theme that sets every token", (_name, definition) => {
    const checked = checkTheme(definition);
    expect(checked.problems).toEqual([]);
    expect(Object.keys(checked.looks).sort()).toEqual([...TOKEN_NAMES].sort());
  });

  test("dark, the default, draws exactly what Marvin always drew", async ({ home }) => {
    const { themes, notices } = await ThemeChoice.start({ TERM: "xterm-256color" }, home);
    expect(notices).toEqual([]);
    expect(themes.name).toBe("dark");
    const { theme } = themes;
    expect(theme.you("a")).toBe("\x1b[36ma\x1b[39m");
    expect(theme.assistant("a")).toBe("\x1b[32ma\x1b[39m");
    expect(theme.heading("a")).toBe("\x1b[1m\x1b[32ma\x1b[39m\x1b[22m");
    expect(theme.link("a")).toBe("\x1b[4m\x1b[34ma\x1b[39m\x1b[24m");
    expect(theme.comment("a")).toBe("\x1b[2m\x1b[90ma\x1b[39m\x1b[22m");
    expect(theme.muted("a")).toBe("\x1b[2ma\x1b[22m");
    expect(theme.text("a")).toBe("a");
    expect(theme.code("")).toBe("");
    for (const name of TOKEN_NAMES) expect(theme[name]("x")).toBe(COLOR_THEME[name]("x"));
  });
});

describe("choosing a theme", () => {
  test("MARVIN_THEME picks one, drawn with as many colours as the terminal shows", async ({ home }) => {
    const truecolor = await ThemeChoice.start({ MARVIN_THEME: "dracula", COLORTERM: "truecolor" }, home);
    expect(truecolor.themes.theme.you("a")).toBe("\x1b[38;2;139;233;253ma\x1b[39m");
    const indexed = await ThemeChoice.start({ MARVIN_THEME: "Dracula", TERM: "xterm-256color" }, home);
    expect(indexed.themes.name).toBe("dracula");
    expect(indexed.themes.theme.you("a")).toBe("\x1b[38;5;117ma\x1b[39m");
    const basic = await ThemeChoice.start({ MARVIN_THEME: "dracula", TERM: "xterm" }, home);
    expect(basic.themes.theme.you("a")).toMatch(/^\x1b\[9[0-7]ma\x1b\[39m$/);
  });

  test("an unknown MARVIN_THEME says so in one line naming the themes, and the default is used", async ({ home }) => {
    const { themes, notices } = await ThemeChoice.start({ MARVIN_THEME: "solarised" }, home);
    expect(themes.name).toBe("dark");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^MARVIN_THEME: no theme is named "solarised" \(dark, light, .*solarized-dark.*\); using dark\.$/,
    );
  });

  test("NO_COLOR wins over MARVIN_THEME: attributes only", async ({ home }) => {
    const { themes } = await ThemeChoice.start({ MARVIN_THEME: "light", NO_COLOR: "1", COLORTERM: "truecolor" }, home);
    expect(themes.name).toBe("light");
    for (const name of TOKEN_NAMES) expect(themes.theme[name]("x")).not.toMatch(COLOUR_CODE);
    expect(themes.theme.heading("x")).toBe("\x1b[1mx\x1b[22m");
    expect(themes.theme.diffAddedWord("x")).toBe("\x1b[7mx\x1b[27m");
  });

  test("switching tells the listeners and changes every style", async ({ home }) => {
    const { themes } = await ThemeChoice.start({ TERM: "xterm-256color" }, home);
    const before = themes.theme;
    let heard = 0;
    themes.onChange(() => (heard += 1));
    expect(await themes.use("light")).toEqual({ found: true, problems: [] });
    expect(heard).toBe(1);
    expect(themes.theme).not.toBe(before);
    expect(themes.theme.you("a")).toBe("\x1b[38;5;24ma\x1b[39m");
    expect((await themes.use("nope")).found).toBe(false);
    expect(themes.name).toBe("light");
  });
});

describe("user themes", () => {
  test("a theme file extends a built-in one and is listed beside them", async ({ home, writeTheme }) => {
    const file = await writeTheme("Sunset", {
      description: "warm",
      extend: "light",
      tokens: { you: "#ff8700", heading: { color: 208, bold: true, italic: true } },
    });
    const { themes, notices } = await ThemeChoice.start({ MARVIN_THEME: "sunset", TERM: "xterm-256color" }, home);
    expect(notices).toEqual([]);
    expect(themes.name).toBe("sunset");
    expect(themes.theme.you("a")).toBe("\x1b[38;5;208ma\x1b[39m");
    expect(themes.theme.heading("a")).toBe("\x1b[1m\x1b[3m\x1b[38;5;208ma\x1b[39m\x1b[23m\x1b[22m");
    expect(themes.theme.assistant("a")).toBe("\x1b[38;5;22ma\x1b[39m"); // light's
    const { entries } = await themes.list();
    expect(entries.find((entry) => entry.name === "sunset")).toMatchObject({ file, description: "warm" });
  });

  test("a file whose name is not a theme name is left out, its name shown without escape sequences", async ({
    home,
    writeTheme,
  }) => {
    const file = await writeTheme("evil\x1b[2Jname", { tokens: {} });
    const { notices } = await ThemeChoice.start({ MARVIN_THEME: "nord", TERM: "xterm" }, home);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("evilname.json is left out: name it with letters");
    expect(notices[0]).not.toContain("\x1b");
    expect(file).toContain("\x1b");
  });

  test("bad fields are named with the file and left out; the rest of the theme is used", async ({
    home,
    writeTheme,
  }) => {
    const file = await writeTheme("broken", {
      extend: "nord",
      tokens: { you: "#12", colour: "red", system: { color: "blue", blink: true }, tool: "bright-magenta" },
    });
    const { themes, notices } = await ThemeChoice.start({ MARVIN_THEME: "broken", TERM: "xterm" }, home);
    expect(themes.name).toBe("broken");
    expect(notices).toEqual([
      expect.stringMatching(new RegExp(`^Theme ${file}: tokens\\.you: "#12" is not a colour: use "#rrggbb"`)),
      expect.stringMatching(new RegExp(`^Theme ${file}: tokens\\.colour: not a token; the tokens are text, muted`)),
      expect.stringMatching(new RegExp(`^Theme ${file}: tokens\\.system: Unrecognized key: "blink"`)),
    ]);
    for (const notice of notices) expect(notice).toMatch(/\(ignored; the rest is used\)\.$/);
    expect(themes.theme.tool("a")).toBe("\x1b[95ma\x1b[39m");
    const nord = await ThemeChoice.start({ MARVIN_THEME: "nord", TERM: "xterm" }, home);
    expect(themes.theme.you("a")).toBe(nord.themes.theme.you("a"));
  });

  test("a file that is not JSON is left out, saying why", async ({ home, writeTheme }) => {
    const file = await writeTheme("half", '{"tokens": {"you": "red"');
    const { themes, notices } = await ThemeChoice.start({ MARVIN_THEME: "half" }, home);
    expect(themes.name).toBe("dark");
    expect(notices[0]).toMatch(new RegExp(`^Theme ${file} is left out: .*JSON`));
    expect(notices[1]).toMatch(/^MARVIN_THEME: no theme is named "half"/);
  });

  test("a file named like a built-in theme is left out, saying so", async ({ home, writeTheme }) => {
    const file = await writeTheme("nord", { tokens: { you: "red" } });
    const { themes, notices } = await ThemeChoice.start({ MARVIN_THEME: "nord", TERM: "xterm" }, home);
    expect(notices).toEqual([`Theme ${file} is left out: nord is a built-in theme; rename the file.`]);
    expect(themes.theme.you("a")).not.toBe("\x1b[31ma\x1b[39m");
    expect((await themes.list()).entries.filter((entry) => entry.name === "nord")).toHaveLength(1);
  });

  test("extending a theme that is not built in extends the default, saying so", async ({ home, writeTheme }) => {
    const file = await writeTheme("orphan", { extend: "mine", tokens: { you: "red" } });
    const { themes, notices } = await ThemeChoice.start({ MARVIN_THEME: "orphan" }, home);
    expect(notices).toEqual([
      expect.stringMatching(new RegExp(`^Theme ${file}: extend: "mine" is not a built-in theme`)),
    ]);
    expect(themes.theme.you("a")).toBe("\x1b[31ma\x1b[39m");
    expect(themes.theme.assistant("a")).toBe("\x1b[32ma\x1b[39m");
  });
});
