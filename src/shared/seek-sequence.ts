/**
 * Finds a block of lines in a file the way Codex does: exact first, then ignoring trailing
 * whitespace, then ignoring surrounding whitespace, then also folding typographic punctuation.
 */

const TYPOGRAPHIC: Record<string, string> = {};
for (const code of [0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212])
  TYPOGRAPHIC[String.fromCharCode(code)] = "-";
for (const code of [0x2018, 0x2019, 0x201a, 0x201b]) TYPOGRAPHIC[String.fromCharCode(code)] = "'";
for (const code of [0x201c, 0x201d, 0x201e, 0x201f]) TYPOGRAPHIC[String.fromCharCode(code)] = '"';
for (const code of [
  0x00a0, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x202f, 0x205f, 0x3000,
]) {
  TYPOGRAPHIC[String.fromCharCode(code)] = " ";
}
const TYPOGRAPHIC_PATTERN = new RegExp(`[${Object.keys(TYPOGRAPHIC).join("")}]`, "g");

const asciiFolded = (text: string) => text.trim().replace(TYPOGRAPHIC_PATTERN, (char) => TYPOGRAPHIC[char]!);

/** The loose passes of the ladder, strictest first (the exact pass comes before them). */
const NORMALISERS: ReadonlyArray<(text: string) => string> = [
  (text) => text.trimEnd(),
  (text) => text.trim(),
  asciiFolded,
];

function matchesExactlyAt(lines: readonly string[], pattern: readonly string[], at: number): boolean {
  for (let offset = 0; offset < pattern.length; offset++) {
    if (lines[at + offset] !== pattern[offset]) return false;
  }
  return true;
}

function matchesAt(
  lines: readonly string[],
  pattern: readonly string[],
  at: number,
  normalise: (text: string) => string,
): boolean {
  for (let offset = 0; offset < pattern.length; offset++) {
    if (normalise(lines[at + offset]!) !== normalise(pattern[offset]!)) return false;
  }
  return true;
}

/**
 * Index of the first occurrence of `pattern` in `lines` at or after `start`, or -1.
 * `endOfFile` pins the search to the tail of the file (never before `start`).
 */
export function seekSequence(
  lines: readonly string[],
  pattern: readonly string[],
  start: number,
  endOfFile = false,
): number {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return -1;
  const last = lines.length - pattern.length;
  const from = endOfFile ? Math.max(start, last) : start;
  for (let at = from; at <= last; at++) {
    if (matchesExactlyAt(lines, pattern, at)) return at;
  }
  for (const normalise of NORMALISERS) {
    for (let at = from; at <= last; at++) {
      if (matchesAt(lines, pattern, at, normalise)) return at;
    }
  }
  return -1;
}
