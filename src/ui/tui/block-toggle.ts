import type { ChatEntry } from "./chat-entry.js";

/** A part of the chat that folds to one line: a finished tool call, or the reasoning before an answer. */
interface Block {
  entry: ChatEntry;
  expanded: boolean;
  setExpanded: (expanded: boolean) => void;
}

/** The foldable blocks of the chat, in order; `live` (reasoning still streaming) is not one. */
function blocksOf(entries: readonly ChatEntry[], live: ChatEntry | undefined): Block[] {
  return entries.flatMap((entry): Block[] => {
    if (entry.kind === "reasoning" && entry !== live)
      return [{ entry, expanded: !entry.collapsed, setExpanded: (expanded) => (entry.collapsed = !expanded) }];
    if (entry.kind !== "tools") return [];
    return entry.calls
      .filter((call) => call.elapsedMs !== undefined)
      .map((call) => ({
        entry,
        expanded: call.expanded === true,
        setExpanded: (expanded: boolean) => (call.expanded = expanded),
      }));
  });
}

/**
 * Expands or collapses the latest block, or all of them (expanding all unless every one is
 * expanded already). Returns the entries that changed.
 */
export function toggleBlocks(
  entries: readonly ChatEntry[],
  scope: "latest" | "all",
  live: ChatEntry | undefined,
): ChatEntry[] {
  const blocks = blocksOf(entries, live);
  const chosen = scope === "latest" ? blocks.slice(-1) : blocks;
  const expand = chosen.some((block) => !block.expanded);
  for (const block of chosen) block.setExpanded(expand);
  return [...new Set(chosen.map((block) => block.entry))];
}
