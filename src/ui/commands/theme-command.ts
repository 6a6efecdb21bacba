import { preview } from "../../shared/truncate.js";
import { safeLabel } from "../terminal-text.js";
import type { ColourMode } from "../theme/colour.js";
import type { ThemeChoice, ThemeEntry } from "../theme/theme-choice.js";

const COLOURLESS_NOTES: Partial<Record<ColourMode, string>> = {
  monochrome: "NO_COLOR is set: no theme shows colour, only bold, underline and the like.",
  plain: "The output is not a terminal: it shows no colours.",
};

/** One line per theme, the one in use marked, as `/theme` lists them. */
function themeRow(entry: ThemeEntry, current: string): string {
  const mark = entry.name === current ? "*" : " ";
  const about = entry.file ? `${entry.description ? `${entry.description} · ` : ""}${entry.file}` : entry.description;
  return `${mark} ${entry.name.padEnd(18)} ${preview(safeLabel(about), 80)}`;
}

/** What a theme entry shows in a picker: where it comes from. */
export function themeDetail(entry: ThemeEntry): string {
  return safeLabel(entry.file ?? entry.description);
}

/** `theme [NAME]`: lists the themes (the one in use marked), or switches to one for this conversation. */
export async function themeCommand(themes: ThemeChoice, name: string | undefined): Promise<string> {
  const colourless = COLOURLESS_NOTES[themes.mode];
  const note = colourless ? [colourless] : [];
  if (name === undefined) {
    const { entries, problems } = await themes.list();
    return [
      "Themes (* in use; /theme NAME switches for this conversation, MARVIN_THEME=NAME chooses at start):",
      ...entries.map((entry) => themeRow(entry, themes.name)),
      ...problems,
      ...note,
    ].join("\n");
  }
  const { found, problems } = await themes.use(name);
  const outcome = found
    ? `Theme: ${themes.name}.`
    : `No theme is named "${safeLabel(name)}". Themes: ${themes.names.join(", ")}.`;
  return [...problems, outcome, ...note].join("\n");
}
