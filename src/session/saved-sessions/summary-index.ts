import { z } from "zod";
import { readTextIfExists, writeJsonAtomic } from "../../state/atomic-file.js";

/** What a list shows of one conversation, as the index keeps it (dates as ISO strings). */
const storedSummary = z.object({
  title: z.string(),
  startedAt: z.string(),
  messageCount: z.number(),
  cwd: z.string(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  lastUserLine: z.string(),
});

export type StoredSummary = z.infer<typeof storedSummary>;

/** A session file only ever grows, so its size and time of change together name one version of it. */
export interface FileVersion {
  size: number;
  mtimeMs: number;
}

const indexEntry = z.object({ size: z.number(), mtimeMs: z.number(), summary: storedSummary });

type IndexEntry = z.infer<typeof indexEntry>;

const indexFile = z.object({ version: z.literal(1), sessions: z.record(z.string(), indexEntry) });

/** The entries of the index file; none when it is missing or damaged (it is only a cache: it is rebuilt). */
async function readIndex(path: string): Promise<Record<string, IndexEntry>> {
  try {
    const text = await readTextIfExists(path);
    const parsed = text === undefined ? undefined : indexFile.safeParse(JSON.parse(text));
    return parsed?.success ? parsed.data.sessions : {};
  } catch {
    return {};
  }
}

/**
 * The summaries of the session files in `versions`, from the index at `path` where it knows the file's current
 * version, else from `summarize` (which reads the whole file; undefined when it is unreadable). The index is
 * rewritten when anything changed, so a list of many large sessions reads only the ones changed since the last.
 */
export async function indexedSummaries(
  path: string,
  versions: ReadonlyMap<string, FileVersion>,
  summarize: (id: string) => Promise<StoredSummary | undefined>,
): Promise<Map<string, StoredSummary>> {
  const known = await readIndex(path);
  const sessions: Record<string, IndexEntry> = {};
  let changed = Object.keys(known).some((id) => !versions.has(id));
  await Promise.all(
    [...versions].map(async ([id, version]) => {
      const entry = known[id];
      if (entry && entry.size === version.size && entry.mtimeMs === version.mtimeMs) {
        sessions[id] = entry;
        return;
      }
      changed = true;
      const summary = await summarize(id);
      if (summary) sessions[id] = { ...version, summary };
    }),
  );
  // A failed write only costs the next list the same reading again.
  if (changed) await writeJsonAtomic(path, { version: 1, sessions }).catch(() => undefined);
  return new Map(Object.entries(sessions).map(([id, entry]) => [id, entry.summary]));
}
