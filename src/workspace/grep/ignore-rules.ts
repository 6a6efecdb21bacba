import { readTextInside } from "../read-inside.js";
import { type GlobPattern, globMatches, parseGlob } from "./glob.js";

/** Files read in every directory, as ripgrep reads them. */
export const IGNORE_FILE_NAMES = [".gitignore", ".ignore", ".rgignore"] as const;

interface Rule {
  /** Directory of the ignore file, relative to the root, with a trailing "/" ("" for the root). */
  base: string;
  pattern: GlobPattern;
}

function parseIgnoreFile(text: string, base: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const pattern = parseGlob(line, { braces: false });
    if (pattern) rules.push({ base, pattern });
  }
  return rules;
}

/**
 * An ignore file's text (`relativePath` posix, relative to the root), read through the sandbox:
 * one that is missing, a symlink leading out of the root, or not a regular file (a FIFO) is skipped.
 */
async function readIgnoreFile(root: string, relativePath: string): Promise<string | undefined> {
  return readTextInside(root, relativePath).catch(() => undefined);
}

/**
 * The .gitignore-style rules in force for one directory: its own ignore files plus those
 * of every ancestor up to the root. Later (deeper) rules win; `!` re-includes.
 */
export class IgnoreRules {
  private constructor(private readonly rules: readonly Rule[]) {}

  static readonly none = new IgnoreRules([]);

  /**
   * Rules a directory inherits (posix, relative to the root; "" = the root itself):
   * `.git/info/exclude` plus the ignore files of every ancestor, not its own.
   */
  static async inheritedBy(root: string, relativeDir: string): Promise<IgnoreRules> {
    const exclude = await readIgnoreFile(root, ".git/info/exclude");
    let rules = new IgnoreRules(exclude ? parseIgnoreFile(exclude, "") : []);
    const segments = relativeDir.split("/").filter(Boolean);
    for (let depth = 0; depth < segments.length; depth++)
      rules = await rules.descend(root, segments.slice(0, depth).join("/"));
    return rules;
  }

  /** Rules in force for the entries of `relativeDir`: inherited ones plus its own ignore files. */
  static async forDirectory(root: string, relativeDir: string): Promise<IgnoreRules> {
    return (await IgnoreRules.inheritedBy(root, relativeDir)).descend(root, relativeDir);
  }

  /**
   * Rules for the entries of `relativeDir` (posix, "" = root). `entryNames` (the directory
   * listing, when the caller has it) avoids opening ignore files that are not there.
   */
  async descend(root: string, relativeDir: string, entryNames?: ReadonlySet<string>): Promise<IgnoreRules> {
    const base = relativeDir ? `${relativeDir}/` : "";
    const added: Rule[] = [];
    for (const name of IGNORE_FILE_NAMES) {
      if (entryNames && !entryNames.has(name)) continue;
      const text = await readIgnoreFile(root, `${base}${name}`);
      if (text) added.push(...parseIgnoreFile(text, base));
    }
    return added.length ? new IgnoreRules([...this.rules, ...added]) : this;
  }

  /** True when the entry at `relativePath` (posix, relative to the root) is ignored. */
  ignores(relativePath: string, isDirectory: boolean): boolean {
    for (let index = this.rules.length - 1; index >= 0; index--) {
      const { base, pattern } = this.rules[index]!;
      if (!relativePath.startsWith(base)) continue;
      if (globMatches(pattern, relativePath.slice(base.length), isDirectory)) return !pattern.negated;
    }
    return false;
  }
}
