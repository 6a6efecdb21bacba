/**
 * A URL with a password: `postgres://user:secret@db`, `redis://:secret@cache`. The user part may be
 * empty, the password may not.
 */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:[^\s/?#@]+@/i;

/**
 * Well-known shapes of keys and tokens, anywhere in a value (after a space, `=`, `,`…): OpenAI and
 * Anthropic (`sk-`), Stripe, GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), GitLab,
 * Slack, AWS access key ids, Google API keys, Hugging Face, npm, PyPI, SendGrid, JSON Web Tokens and
 * PEM private keys.
 */
const TOKEN_SHAPES = [
  /sk-[A-Za-z0-9_-]{20,}/,
  /(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/,
  /gh[pousr]_[A-Za-z0-9]{30,}/,
  /github_pat_[A-Za-z0-9_]{30,}/,
  /glpat-[A-Za-z0-9_-]{20,}/,
  /xox[abposr]-[A-Za-z0-9-]{10,}/,
  /(?:AKIA|ASIA)[A-Z0-9]{16}/,
  /AIza[A-Za-z0-9_-]{35}/,
  /hf_[A-Za-z0-9]{30,}/,
  /npm_[A-Za-z0-9]{36}/,
  /pypi-[A-Za-z0-9_-]{50,}/,
  /SG\.[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}/,
  /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
].map((shape) => new RegExp(`(?:^|[^A-Za-z0-9])${shape.source}`));

/** The least length of a value that is taken for a key by its look alone. */
const RANDOM_MIN_CHARS = 32;
/** One word of the base64 (or base64url) alphabet, `=` padding allowed: no path, list or sentence. */
const KEY_ALPHABET = /^[A-Za-z0-9+/_-]+={0,2}$/;
/** Runs that read as words or numbers: `Very`, `long`, `2024`. */
const WORDLIKE_RUNS = /[A-Z]?[a-z]{3,}|[0-9]{4,}/g;
/** Identifiers and names (`MyProjectServiceName2024`) are mostly such runs; random keys seldom are. */
const WORDLIKE_SHARE = 0.5;
/** Bits per character below which a word repeats too much to be random (`aaaaaaaa…`). */
const RANDOM_BITS_PER_CHAR = 3.5;

/** Shannon entropy of `text`, in bits per character. */
function bitsPerChar(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) bits -= (count / text.length) * Math.log2(count / text.length);
  return bits;
}

function wordlikeShare(text: string): number {
  let chars = 0;
  for (const run of text.matchAll(WORDLIKE_RUNS)) chars += run[0].length;
  return chars / text.length;
}

/**
 * A long random-looking word: upper and lower case letters and digits mixed, not made of words, with
 * high entropy. Hex (hashes, UUIDs, session ids) and absolute paths are left alone: most such values are
 * not secrets.
 */
function looksRandom(value: string): boolean {
  if (value.length < RANDOM_MIN_CHARS || !KEY_ALPHABET.test(value) || value.startsWith("/")) return false;
  if (!/[A-Z]/.test(value) || !/[a-z]/.test(value) || !/[0-9]/.test(value)) return false;
  return wordlikeShare(value) < WORDLIKE_SHARE && bitsPerChar(value) >= RANDOM_BITS_PER_CHAR;
}

/**
 * True when a variable's value may be a credential whatever its name: a URL with a password, a
 * well-known key or token shape, or a long random-looking word.
 */
export function isSecretValue(value: string): boolean {
  const trimmed = value.trim();
  if (URL_WITH_PASSWORD.test(trimmed)) return true;
  if (TOKEN_SHAPES.some((shape) => shape.test(trimmed))) return true;
  return looksRandom(trimmed);
}
