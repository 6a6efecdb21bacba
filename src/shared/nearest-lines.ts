/** Finds where in a file some text that did not match was most probably meant to be. */

const MAX_BIGRAMS = 200;

function bigrams(text: string): Map<string, number> {
  const compact = text.replace(/\s+/g, " ").trim().toLowerCase();
  const counts = new Map<string, number>();
  const end = Math.min(compact.length - 1, MAX_BIGRAMS);
  for (let index = 0; index < end; index++) {
    const pair = compact.slice(index, index + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

function total(counts: Map<string, number>): number {
  let sum = 0;
  for (const count of counts.values()) sum += count;
  return sum;
}

/** Similarity to one fixed line: Dice coefficient of character bigrams (1 = same, 0 = nothing shared). */
function similarityTo(reference: string): (line: string) => number {
  const referenceGrams = bigrams(reference);
  const referenceTotal = total(referenceGrams);
  return (line) => {
    const grams = bigrams(line);
    const sum = referenceTotal + total(grams);
    if (sum === 0) return reference.trim() === line.trim() ? 1 : 0;
    let shared = 0;
    for (const [pair, count] of grams) shared += Math.min(count, referenceGrams.get(pair) ?? 0);
    return (2 * shared) / sum;
  };
}

interface NearestMatch {
  /** 0-based index of the first file line of the best window. */
  start: number;
  similarity: number;
}

/**
 * The window of `fileLines` that looks most like `wanted`, anchored on the wanted line
 * with the most text (cheap enough for files of 100,000 lines). Undefined when nothing is similar.
 */
export function findNearestLines(fileLines: readonly string[], wanted: readonly string[]): NearestMatch | undefined {
  let anchor = 0;
  for (let index = 1; index < wanted.length; index++) {
    if (wanted[index]!.trim().length > wanted[anchor]!.trim().length) anchor = index;
  }
  const anchorText = wanted[anchor]?.trim() ?? "";
  if (anchorText === "") return undefined;
  const similarityOf = similarityTo(anchorText);
  let best: NearestMatch | undefined;
  for (let index = 0; index < fileLines.length; index++) {
    const similarity = similarityOf(fileLines[index]!);
    if (similarity > (best?.similarity ?? 0.3)) best = { start: Math.max(0, index - anchor), similarity };
  }
  return best;
}

/** Lines as "  12 | text", the first one numbered `firstLineNumber` (1-based). */
export function numberedLines(firstLineNumber: number, lines: readonly string[]): string {
  const width = String(firstLineNumber + lines.length - 1).length;
  return lines.map((line, index) => `${String(firstLineNumber + index).padStart(width)} | ${line}`).join("\n");
}

/** Lines `from`..`to` (0-based, inclusive, clamped) as "  12 | text". */
export function numberedExcerpt(fileLines: readonly string[], from: number, to: number): string {
  const first = Math.max(0, from);
  const last = Math.min(fileLines.length - 1, to);
  return numberedLines(first + 1, fileLines.slice(first, last + 1));
}

/** A ready-to-show hint: the nearest lines with numbers, or a note that nothing is close. */
export function nearestLinesHint(fileLines: readonly string[], wanted: readonly string[]): string {
  const match = findNearestLines(fileLines, wanted);
  if (!match) return "No similar lines were found in the file; read it again (read_file) to see its current content.";
  const excerpt = numberedExcerpt(fileLines, match.start - 2, match.start + wanted.length + 1);
  return `The nearest lines in the file (${Math.round(match.similarity * 100)}% similar), as they are now:\n${excerpt}`;
}
