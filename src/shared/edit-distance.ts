/** Levenshtein distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Candidates close to `word`: small edit distance, or one containing the other. */
export function nearestNames(word: string, candidates: readonly string[], limit = 5): string[] {
  const lower = word.toLowerCase();
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(lower, candidate.toLowerCase()) }))
    .filter(
      ({ candidate, distance }) =>
        distance <= Math.max(2, Math.floor(word.length / 3)) || candidate.includes(lower) || lower.includes(candidate),
    )
    .sort((a, b) => a.distance - b.distance)
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}
