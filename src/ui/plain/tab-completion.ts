import type { AsyncCompleter } from "node:readline";
import type { Completer } from "../commands/completion.js";

/**
 * Tab in the plain UI, through readline's completer: one choice is inserted (a finished word with a
 * space after it); with several, readline inserts what they share and lists them on a second Tab.
 * A choice with a summary (a command) is listed with it: readline only inserts the shared start,
 * which never reaches the summaries of two different names.
 */
export function tabCompleter(completer: Completer): AsyncCompleter {
  return (line, callback) => {
    completer.completeWhenReady(line, line.length).then(
      (found) => {
        if (!found) return callback(null, [[], line]);
        const word = line.slice(found.start, found.end);
        const [only] = found.items;
        if (found.items.length === 1 && only)
          return callback(null, [[only.value.endsWith("/") ? only.value : `${only.value} `], word]);
        const listed = found.items.map((item) => (item.detail ? `${item.value}  ${item.detail}` : item.value));
        callback(null, [listed, word]);
      },
      () => callback(null, [[], line]),
    );
  };
}
