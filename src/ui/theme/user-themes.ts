import { readdir, readFile } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { errorMessage } from "../../shared/error-message.js";
import { safeLabel } from "../terminal-text.js";
import { BUILTIN_THEMES } from "./builtin-themes.js";
import { type ThemeLooks, userLooks } from "./looks.js";
import { checkTheme } from "./theme-file.js";

/** A theme of the user's themes folder. */
interface UserTheme {
  name: string;
  file: string;
  description?: string;
  looks: ThemeLooks;
}

const THEME_NAME = /^[a-z0-9][a-z0-9_.-]*$/;

/** One theme file: its fields checked one by one; a wrong field keeps the look of the theme it extends. */
async function readUserTheme(file: string): Promise<{ theme?: UserTheme; problems: string[] }> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    return { problems: [`Theme ${file} is left out: ${errorMessage(error)}.`] };
  }
  const checked = checkTheme(raw);
  const { looks, problems } = userLooks(checked);
  const description = (raw as { description?: unknown }).description;
  return {
    theme: {
      name: basename(file, ".json").toLowerCase(),
      file,
      ...(typeof description === "string" ? { description } : {}),
      looks,
    },
    problems: [...checked.problems, ...problems].map(
      (problem) => `Theme ${file}: ${problem} (ignored; the rest is used).`,
    ),
  };
}

/**
 * The themes of `dir` (one `NAME.json` each), sorted by name, and the problems to show: a file that is not JSON
 * or is named like a built-in theme is left out, a wrong field keeps the look it would have without it. A missing
 * folder is no themes.
 */
export async function loadUserThemes(dir: string): Promise<{ themes: UserTheme[]; problems: string[] }> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((name) => extname(name) === ".json").sort();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    return { themes: [], problems: missing ? [] : [`Could not read ${dir}: ${errorMessage(error)}.`] };
  }
  const themes: UserTheme[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const name = basename(file, ".json").toLowerCase();
    if (!THEME_NAME.test(name)) {
      problems.push(`Theme ${safeLabel(join(dir, file))} is left out: name it with letters, digits, ., _ and - only.`);
      continue;
    }
    if (BUILTIN_THEMES.has(name)) {
      problems.push(`Theme ${join(dir, file)} is left out: ${name} is a built-in theme; rename the file.`);
      continue;
    }
    const read = await readUserTheme(join(dir, file));
    if (read.theme) themes.push(read.theme);
    problems.push(...read.problems);
  }
  return { themes, problems };
}
