/**
 * Splits text into segments the o200k tokenizer handles in linear time.
 *
 * The tokenizer's byte-pair merge is quadratic in the length of one pre-tokenizer piece
 * (a word, a punctuation run, a whitespace run), so 5 MB of one repeated character took
 * minutes. Segments are cut so that no piece is longer than a few times {@link MAX_RUN}
 * characters, and preferably where the pre-tokenizer would split anyway, which keeps the
 * count exact:
 * - after a newline that is followed by anything but whitespace or `/`;
 * - between a letter or digit and a space followed by an ASCII letter ("word| word");
 * - between a letter and punctuation other than `'` ("name|(", "文字|，").
 * A run of one class (non-space non-digit characters, or whitespace) longer than
 * MAX_RUN with no such place is cut anyway: each of those cuts can change the count by a
 * token or two, which only happens for machine-made runs ("=====…", "AAAA…", base64).
 */
const MAX_RUN = 128;
/** Segments grow to about this many characters before they are cut at the next safe place. */
const TARGET_SEGMENT = 8_192;
/** Where a segment is cut even without a safe place (e.g. "1 1 1 1…"). */
const MAX_SEGMENT = 32_768;

const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const NEWLINE = 10;
const SPACE = 32;

/** Character kinds, by what the pre-tokenizer does with them. */
const LETTER = 0;
const DIGIT = 1;
const WHITESPACE = 2;
const SLASH = 3;
const APOSTROPHE = 4;
const PUNCTUATION = 5;
/** Any other non-ASCII character: a letter, a mark, a symbol… (told apart only where it matters). */
const OTHER = 6;

const ASCII_KIND = Uint8Array.from({ length: 128 }, (_, code) => {
  if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return LETTER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === SPACE || (code >= 9 && code <= 13)) return WHITESPACE;
  if (code === 47) return SLASH;
  if (code === 39) return APOSTROPHE;
  return PUNCTUATION;
});

/** Whitespace outside ASCII, as the pre-tokenizer's `\s` sees it. */
function isWideSpace(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Fullwidth ！（），：；？ */
const FULLWIDTH_PUNCTUATION = new Set([0xff01, 0xff08, 0xff09, 0xff0c, 0xff1a, 0xff1b, 0xff1f]);

/** Common CJK punctuation (、。〈〉《》「」『』【】 and fullwidth forms): never part of a letter piece. */
function isCjkPunctuation(code: number): boolean {
  return (code >= 0x3001 && code <= 0x3003) || (code >= 0x3008 && code <= 0x3011) || FULLWIDTH_PUNCTUATION.has(code);
}

function kindOf(code: number): number {
  if (code < 128) return ASCII_KIND[code]!;
  if (isWideSpace(code)) return WHITESPACE;
  return isCjkPunctuation(code) ? PUNCTUATION : OTHER;
}

/** Whether the character ending at `index` is a letter or mark (non-ASCII: asks the regex engine). */
function isLetterAt(text: string, index: number, kind: number): boolean {
  if (kind !== OTHER) return kind === LETTER;
  const code = text.charCodeAt(index);
  const character = code >= 0xdc00 && code <= 0xdfff && index > 0 ? text.slice(index - 1, index + 1) : text[index]!;
  return LETTER_OR_MARK.test(character);
}

/**
 * True when no pre-tokenizer piece spans the boundary before `index`, given the kinds of
 * the characters on either side (see the rules at the top of this file).
 */
function isSafeCut(text: string, index: number, before: number, kind: number, previousKind: number): boolean {
  if (before === NEWLINE) return kind !== WHITESPACE && kind !== SLASH;
  if (text.charCodeAt(index) === SPACE) {
    const next = text.charCodeAt(index + 1);
    const wordFollows = next < 128 && ASCII_KIND[next] === LETTER;
    return wordFollows && (previousKind === DIGIT || isLetterAt(text, index - 1, previousKind));
  }
  return (kind === PUNCTUATION || kind === SLASH) && isLetterAt(text, index - 1, previousKind);
}

/** Moves a cut off the middle of a surrogate pair. */
function clampCut(text: string, index: number, start: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff && index - 1 > start ? index - 1 : index;
}

/** The segments of `text`, in order; joined they give `text` back. */
export function* tokenizerSegments(text: string): Generator<string> {
  let start = 0;
  let lastSafe = 0;
  let before = -1;
  let previousKind = OTHER;
  // Lengths of the runs ending here: non-space non-digit characters (every piece but
  // digits and whitespace lives in one), and whitespace or `/` (`[\r\n/]*` tails).
  let wordRun = 0;
  let spaceRun = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const kind = kindOf(code);
    // Cheap pre-check first: no rule allows a cut between two characters of one kind.
    if (index > start && kind !== previousKind && isSafeCut(text, index, before, kind, previousKind)) lastSafe = index;
    wordRun = kind === WHITESPACE || kind === DIGIT ? 0 : wordRun + 1;
    spaceRun = kind === WHITESPACE || kind === SLASH ? spaceRun + 1 : 0;
    before = code;
    previousKind = kind;
    if (wordRun > MAX_RUN || spaceRun > MAX_RUN) {
      if (lastSafe > start && index - lastSafe < MAX_RUN / 2) {
        yield text.slice(start, lastSafe);
        start = lastSafe;
        wordRun = Math.min(wordRun, index - start + 1);
        spaceRun = Math.min(spaceRun, index - start + 1);
        continue;
      }
      // A forced cut in a long run; a run of one repeated pattern is skipped at memcmp speed.
      const segment = text.slice(start, clampCut(text, index, start));
      do {
        yield segment;
        start += segment.length;
      } while (text.startsWith(segment, start));
      index = start - 1;
      lastSafe = start;
      wordRun = spaceRun = 0;
      before = text.charCodeAt(start - 1);
      previousKind = kindOf(before);
    } else if (index - start >= TARGET_SEGMENT && (lastSafe > start || index - start >= MAX_SEGMENT)) {
      const cut = lastSafe > start ? lastSafe : clampCut(text, index, start);
      yield text.slice(start, cut);
      start = cut;
      wordRun = Math.min(wordRun, index - start + 1);
      spaceRun = Math.min(spaceRun, index - start + 1);
    }
  }
  if (start < text.length) yield text.slice(start);
}
