/** State of Ctrl+R (reverse incremental search through the input history). */
export interface ReverseSearchState {
  query: string;
  /** Index of the shown match in the history, or undefined when nothing matches. */
  match: number | undefined;
  /** The input line before the search started, restored on cancel. */
  original: string;
}

/** The newest entry before `before` containing `query` (case-insensitive). */
function findBackward(history: readonly string[], query: string, before: number): number | undefined {
  const needle = query.toLowerCase();
  for (let index = Math.min(before, history.length) - 1; index >= 0; index -= 1) {
    if (history[index]!.toLowerCase().includes(needle)) return index;
  }
  return undefined;
}

export function startSearch(original: string): ReverseSearchState {
  return { query: "", match: undefined, original };
}

/** The query changed: search again from the newest entry. */
export function updateQuery(history: readonly string[], state: ReverseSearchState, query: string): ReverseSearchState {
  return { ...state, query, match: query ? findBackward(history, query, history.length) : undefined };
}

/** Ctrl+R again: the next older match, staying on the current one when there is none. */
export function searchOlder(history: readonly string[], state: ReverseSearchState): ReverseSearchState {
  if (!state.query) return state;
  const next = findBackward(history, state.query, state.match ?? history.length);
  return next === undefined ? state : { ...state, match: next };
}

/** The text the search would put in the input line. */
export function searchResult(history: readonly string[], state: ReverseSearchState): string {
  return state.match === undefined ? state.original : history[state.match]!;
}
