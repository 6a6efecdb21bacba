import type { Env } from "../../shared/env.js";
import { configPaths } from "../../state/paths.js";
import { safeLabel } from "../terminal-text.js";
import { type Theme, themeStyles } from "../tui/theme.js";
import { BUILTIN_THEMES, DEFAULT_THEME } from "./builtin-themes.js";
import { type ColourMode, colourModeFor } from "./colour.js";
import { builtinLooks, DEFAULT_LOOKS, type ThemeLooks } from "./looks.js";

/** A theme that can be chosen: built in, or a file of the user's themes folder. */
export interface ThemeEntry {
  name: string;
  description: string;
  /** The user's file it comes from. */
  file?: string;
  looks: ThemeLooks;
}

const BUILTIN_ENTRIES: readonly ThemeEntry[] = [...BUILTIN_THEMES].map(([name, definition]) => ({
  name,
  description: definition.description ?? "",
  looks: builtinLooks(name)!,
}));

/**
 * The theme of this conversation: which one is in use, the ones there are, switching between them. Every
 * screen reads `theme` when it draws, and listeners hear of a switch so they can draw again.
 */
export class ThemeChoice {
  private entries: readonly ThemeEntry[] = BUILTIN_ENTRIES;
  private current: { name: string; theme: Theme };
  private readonly listeners = new Set<() => void>();
  /** Whether the themes folder was read once: its names are known. */
  private folderRead = false;

  private constructor(
    readonly mode: ColourMode,
    private readonly themesDir: string,
  ) {
    this.current = { name: DEFAULT_THEME, theme: themeStyles(DEFAULT_LOOKS, mode) };
  }

  /**
   * The choice at start: `MARVIN_THEME`, else the default. Returns lines to show: problems of the theme file,
   * or the one line saying the name is unknown (the default is used then).
   */
  static async start(
    env: Env,
    home: string,
    mode: ColourMode = colourModeFor(env),
  ): Promise<{ themes: ThemeChoice; notices: string[] }> {
    const themes = new ThemeChoice(mode, configPaths(home).themesDir);
    const wanted = env.MARVIN_THEME?.trim();
    if (!wanted || wanted.toLowerCase() === DEFAULT_THEME) return { themes, notices: [] };
    const { found, problems } = await themes.use(wanted);
    if (found) return { themes, notices: problems };
    return {
      themes,
      notices: [
        ...problems,
        `MARVIN_THEME: no theme is named "${safeLabel(wanted)}" (${themes.names.join(", ")}); using ${DEFAULT_THEME}.`,
      ],
    };
  }

  get name(): string {
    return this.current.name;
  }

  get theme(): Theme {
    return this.current.theme;
  }

  /** The names there are, as of the last look at the themes folder. */
  get names(): readonly string[] {
    return this.entries.map((entry) => entry.name);
  }

  /**
   * The names there are for completion: the first call also reads the themes folder in the background and calls
   * `changed` when the user themes are known (a start with the default theme does not read it).
   */
  namesForCompletion(changed: () => void): readonly string[] {
    if (!this.folderRead) void this.list().then(changed, () => undefined);
    return this.names;
  }

  /** Built-in and user themes, read afresh from the themes folder, with the problems of its files. */
  async list(): Promise<{ entries: readonly ThemeEntry[]; problems: string[] }> {
    this.folderRead = true;
    // Loaded only when needed: checking theme files takes zod, which a start with the default theme does without.
    const { loadUserThemes } = await import("./user-themes.js");
    const { themes, problems } = await loadUserThemes(this.themesDir);
    this.entries = [...BUILTIN_ENTRIES, ...themes.map((theme) => ({ ...theme, description: theme.description ?? "" }))];
    return { entries: this.entries, problems };
  }

  /** Switches to a theme by name (any case), read afresh; `found` is false when there is none of that name. */
  async use(name: string): Promise<{ found: boolean; problems: string[] }> {
    const { problems } = await this.list();
    return { found: this.show(name), problems };
  }

  /** Switches to a theme of the last `list()` at once (a picker previewing); false when there is none of that name. */
  show(name: string): boolean {
    const entry = this.entries.find((candidate) => candidate.name === name.toLowerCase());
    if (!entry) return false;
    this.current = { name: entry.name, theme: themeStyles(entry.looks, this.mode) };
    for (const listener of this.listeners) listener();
    return true;
  }

  /** Calls `listener` after every switch; returns how to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
