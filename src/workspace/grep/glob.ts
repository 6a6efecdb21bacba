/**
 * Gitignore-style globs, as ripgrep's `--glob` and `.gitignore` files use them:
 * a pattern without a slash matches the name at any depth, one with a slash is
 * anchored to its base directory; `*` and `?` never cross `/`, `**` does.
 */
export interface GlobPattern {
  /** Leading `!`: an exclusion (glob filter) or a re-inclusion (.gitignore). */
  negated: boolean;
  /** Trailing `/`: matches directories only. */
  directoryOnly: boolean;
  /** Matches the entry's path relative to the base (anchored) or its name (not anchored). */
  anchored: boolean;
  regex: RegExp;
}

function closingBracket(glob: string, start: number): number {
  let index = start + 1;
  if (glob[index] === "!" || glob[index] === "^") index++;
  if (glob[index] === "]") index++;
  while (index < glob.length && glob[index] !== "]") index++;
  return index < glob.length ? index : -1;
}

function characterClass(body: string): string {
  const negated = body.startsWith("!") || body.startsWith("^");
  const members = (negated ? body.slice(1) : body).replace(/\\/g, "\\\\").replace(/\]/g, "\\]");
  return negated ? `[^/${members}]` : `[${members}]`;
}

const escapeLiteral = (character: string) => character.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** Regex source for a glob body (no `!`, no trailing `/`). Braces `{a,b}` expand when `braces` is set. */
function globToRegexSource(glob: string, braces = true): string {
  let source = "";
  let braceDepth = 0;
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index]!;
    if (character === "*") {
      if (glob[index + 1] === "*") {
        const atSegmentStart = index === 0 || glob[index - 1] === "/";
        let end = index;
        while (glob[end] === "*") end++;
        const atSegmentEnd = end === glob.length || glob[end] === "/";
        if (atSegmentStart && atSegmentEnd) {
          if (glob[end] === "/") {
            source += "(?:.*/)?";
            index = end;
          } else {
            source += ".*";
            index = end - 1;
          }
          continue;
        }
        index = end - 1;
      }
      source += "[^/]*";
    } else if (character === "?") {
      source += "[^/]";
    } else if (character === "[") {
      const close = closingBracket(glob, index);
      if (close < 0) source += "\\[";
      else {
        source += characterClass(glob.slice(index + 1, close));
        index = close;
      }
    } else if (character === "\\" && index + 1 < glob.length) {
      source += escapeLiteral(glob[++index]!);
    } else if (braces && character === "{") {
      braceDepth++;
      source += "(?:";
    } else if (braces && character === "}" && braceDepth > 0) {
      braceDepth--;
      source += ")";
    } else if (braces && character === "," && braceDepth > 0) {
      source += "|";
    } else {
      source += escapeLiteral(character);
    }
  }
  return source + ")".repeat(braceDepth);
}

/** Parses one glob line (`!` negation, trailing `/`, anchoring by an inner slash). */
export function parseGlob(line: string, options: { braces?: boolean } = {}): GlobPattern | undefined {
  let text = line;
  const negated = text.startsWith("!");
  if (negated) text = text.slice(1);
  else if (text.startsWith("\\!") || text.startsWith("\\#")) text = text.slice(1);
  const directoryOnly = text.endsWith("/") && !text.endsWith("\\/");
  if (directoryOnly) text = text.replace(/\/+$/, "");
  if (text === "") return undefined;
  const anchored = text.includes("/");
  if (text.startsWith("/")) text = text.slice(1);
  return { negated, directoryOnly, anchored, regex: new RegExp(`^${globToRegexSource(text, options.braces)}$`) };
}

/** True when `pattern` matches the entry at `relativePath` (posix, relative to the pattern's base). */
export function globMatches(pattern: GlobPattern, relativePath: string, isDirectory: boolean): boolean {
  if (pattern.directoryOnly && !isDirectory) return false;
  if (pattern.anchored) return pattern.regex.test(relativePath);
  const slash = relativePath.lastIndexOf("/");
  return pattern.regex.test(slash < 0 ? relativePath : relativePath.slice(slash + 1));
}

/** Splits a glob filter on commas and spaces outside braces: "*.ts, *.tsx" → ["*.ts", "*.tsx"]. */
export function splitGlobList(filter: string): string[] {
  const parts: string[] = [];
  let current = "";
  let depth = 0;
  for (const character of filter) {
    if (character === "{") depth++;
    if (character === "}") depth = Math.max(0, depth - 1);
    if (depth === 0 && (character === "," || character === " ")) {
      if (current) parts.push(current);
      current = "";
    } else current += character;
  }
  if (current) parts.push(current);
  return parts;
}

/**
 * ripgrep's `--glob` overrides: the last matching glob decides (include, or exclude
 * with `!`), and they win over ignore files. When some include globs exist, a file
 * matching none of them is excluded; directories are still walked.
 */
export class GlobOverrides {
  private readonly patterns: GlobPattern[];
  private readonly hasIncludes: boolean;

  constructor(globs: readonly string[]) {
    this.patterns = globs
      .map((glob) => parseGlob(glob))
      .filter((pattern): pattern is GlobPattern => pattern !== undefined);
    this.hasIncludes = this.patterns.some((pattern) => !pattern.negated);
  }

  /** "include" overrides ignore files, "exclude" skips the entry, undefined leaves it to them. */
  decide(relativePath: string, isDirectory: boolean): "include" | "exclude" | undefined {
    for (let index = this.patterns.length - 1; index >= 0; index--) {
      const pattern = this.patterns[index]!;
      if (globMatches(pattern, relativePath, isDirectory)) return pattern.negated ? "exclude" : "include";
    }
    return this.hasIncludes && !isDirectory ? "exclude" : undefined;
  }
}

const MATCH_ALL = new Set(["", "*", "**", "**/*"]);

/** A tool's `glob_filter` as search globs: none for the filters that mean "every file". */
export function globFilters(filter: string): string[] {
  return MATCH_ALL.has(filter.trim()) ? [] : splitGlobList(filter);
}
