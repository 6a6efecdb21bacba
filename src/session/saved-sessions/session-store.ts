import { appendFileSync, mkdirSync } from "node:fs";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Message } from "../../providers/types.js";
import { errorMessage } from "../../shared/error-message.js";
import { firstLine, type ParsedSession, parseSession, recordLine, type SessionRecord } from "./session-file.js";
import { isValidSessionId } from "./session-id.js";
import { SessionImages } from "./session-images.js";
import { type FileVersion, indexedSummaries, type StoredSummary } from "./summary-index.js";

/** Conversations kept per profile unless MARVIN_MAX_SESSIONS says otherwise; the oldest go first. */
const DEFAULT_MAX_SESSIONS = 1000;

const SUFFIX = ".jsonl";
const CHECKPOINTS_SUFFIX = ".checkpoints";
const IMAGES_SUFFIX = ".images";
/** The index of what `list()` shows of each session, beside them. */
const SUMMARIES_FILE = "summaries.json";

/** What a list or picker shows of one stored conversation. */
export interface SessionSummary {
  id: string;
  title: string;
  startedAt: Date;
  updatedAt: Date;
  messageCount: number;
  cwd: string;
  provider: string | null;
  model: string | null;
  /** The first line of the latest message the user sent. */
  lastUserLine: string;
}

export interface LoadedSession extends ParsedSession {
  /** The conversation as it stands, its images read back (see SessionImages). */
  messages: Message[];
  id: string;
  path: string;
  updatedAt: Date;
}

function lastUserLine(parsed: ParsedSession): string {
  for (let index = parsed.messages.length - 1; index >= 0; index--) {
    const message = parsed.messages[index]!;
    if (message.role === "user") return firstLine(message.content, 100);
  }
  return "";
}

function storedSummaryOf(session: ParsedSession): StoredSummary {
  return {
    title: session.start.title,
    startedAt: session.start.startedAt,
    messageCount: session.totalMessages,
    cwd: session.start.cwd,
    provider: session.state.provider,
    model: session.state.model,
    lastUserLine: lastUserLine(session),
  };
}

/** The conversations of one profile: `sessions/<id>.jsonl`, newest first by last change. */
export class SessionStore {
  private readonly images = new Map<string, SessionImages>();

  constructor(
    readonly dir: string,
    private readonly maxSessions = DEFAULT_MAX_SESSIONS,
  ) {}

  pathOf(id: string): string {
    if (!isValidSessionId(id)) throw new Error(`'${id}' is not a valid session id (letters, digits, . _ -)`);
    return join(this.dir, `${id}${SUFFIX}`);
  }

  /** The folder beside a conversation's file where its file checkpoints are kept (see `rewind`). */
  checkpointsDirOf(id: string): string {
    return `${this.pathOf(id).slice(0, -SUFFIX.length)}${CHECKPOINTS_SUFFIX}`;
  }

  /** The folder beside a conversation's file where its images are kept, each once (see SessionImages). */
  private imagesOf(id: string): SessionImages {
    let images = this.images.get(id);
    if (!images) {
      images = new SessionImages(`${this.pathOf(id).slice(0, -SUFFIX.length)}${IMAGES_SUFFIX}`);
      this.images.set(id, images);
    }
    return images;
  }

  /** Reads one conversation; undefined when there is none with this id. Throws when its file is unreadable. */
  async load(id: string): Promise<LoadedSession | undefined> {
    const parsed = await this.read(id);
    return parsed && { ...parsed, messages: await this.imagesOf(id).resolve(parsed.messages) };
  }

  /** One conversation's file as it is, its images named, not read (enough for a list). */
  private async read(id: string): Promise<(ParsedSession & { id: string; path: string; updatedAt: Date }) | undefined> {
    const path = this.pathOf(id);
    let text: string;
    let updatedAt: Date;
    try {
      [text, updatedAt] = await Promise.all([readFile(path, "utf8"), stat(path).then((info) => info.mtime)]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new Error(`Could not read session ${id}: ${errorMessage(error)}`);
    }
    const parsed = parseSession(text);
    if (!parsed) throw new Error(`Session ${id} (${path}) has no readable start line; it was left as it is.`);
    return { ...parsed, id, path, updatedAt };
  }

  private async exists(id: string): Promise<boolean> {
    return stat(this.pathOf(id)).then(
      (info) => info.isFile(),
      () => false,
    );
  }

  private async ids(): Promise<string[]> {
    try {
      const names = await readdir(this.dir);
      return names.filter((name) => name.endsWith(SUFFIX)).map((name) => name.slice(0, -SUFFIX.length));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  }

  /**
   * Every readable conversation, most recently changed first; unreadable files are left out. Only the files
   * changed since the last list are read (see indexedSummaries): sessions with images run to megabytes.
   */
  async list(): Promise<SessionSummary[]> {
    const versions = new Map<string, FileVersion>();
    await Promise.all(
      (await this.ids()).filter(isValidSessionId).map(async (id) => {
        const info = await stat(this.pathOf(id)).catch(() => undefined);
        if (info?.isFile()) versions.set(id, { size: info.size, mtimeMs: info.mtimeMs });
      }),
    );
    const summaries = await indexedSummaries(join(this.dir, SUMMARIES_FILE), versions, async (id) => {
      const session = await this.read(id).catch(() => undefined);
      return session && storedSummaryOf(session);
    });
    return [...summaries]
      .map(([id, summary]) => ({
        ...summary,
        id,
        startedAt: new Date(summary.startedAt),
        updatedAt: new Date(versions.get(id)!.mtimeMs),
      }))
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  }

  /**
   * The conversation `query` names: an exact id, a unique id prefix, or a number from `list()`
   * (1 = the most recent). Returns a sentence saying why when there is none or several.
   */
  async find(query: string): Promise<{ id: string } | { problem: string }> {
    const trimmed = query.trim();
    // An exact id needs only its own file; numbers and prefixes need the whole list.
    if (isValidSessionId(trimmed) && !/^\d{1,4}$/.test(trimmed) && (await this.exists(trimmed))) return { id: trimmed };
    const sessions = await this.list();
    if (/^\d{1,4}$/.test(trimmed)) {
      const chosen = sessions[Number(trimmed) - 1];
      if (chosen) return { id: chosen.id };
    }
    const exact = sessions.find((session) => session.id === trimmed);
    if (exact) return { id: exact.id };
    const matching = sessions.filter((session) => session.id.startsWith(trimmed));
    if (matching.length === 1) return { id: matching[0]!.id };
    if (matching.length > 1) {
      const ids = matching.slice(0, 5).map((session) => session.id);
      return { problem: `'${trimmed}' matches ${matching.length} sessions (${ids.join(", ")}…); give more of the id.` };
    }
    if (sessions.length === 0) return { problem: "There are no saved sessions yet." };
    return { problem: `No session '${trimmed}'. The 'sessions' command lists them.` };
  }

  /** The most recent conversation started in `cwd`, if any. */
  async latestIn(cwd: string): Promise<SessionSummary | undefined> {
    return (await this.list()).find((session) => session.cwd === cwd);
  }

  /**
   * Appends complete lines to a conversation's file (created owner-only if new). Synchronous on
   * purpose: a message is on disk before the next request starts, so `kill -9` cannot lose it.
   */
  private appendNow(id: string, lines: string): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    appendFileSync(this.pathOf(id), lines, { mode: 0o600 });
  }

  /**
   * Appends records to a conversation's file as appendNow does, the images of their messages written beside it
   * first and named in the file by reference.
   */
  appendRecordsNow(id: string, records: readonly SessionRecord[], before = ""): void {
    const images = this.imagesOf(id);
    const lines = records.map((record) => recordLine(images.storeNow(record))).join("");
    this.appendNow(id, before + lines);
  }

  /**
   * Removes the oldest conversations beyond the cap, never `keep`. Returns how many went, so
   * the caller can say so: sessions are never dropped silently.
   */
  async prune(keep: string): Promise<number> {
    const ids = await this.ids();
    if (ids.length <= this.maxSessions) return 0;
    const dated = await Promise.all(
      ids.map(async (id) => ({ id, time: (await stat(join(this.dir, `${id}${SUFFIX}`))).mtimeMs })),
    );
    const oldest = dated
      .filter((entry) => entry.id !== keep)
      .sort((a, b) => a.time - b.time)
      .slice(0, ids.length - this.maxSessions);
    await Promise.all(
      oldest.flatMap((entry) => [
        rm(join(this.dir, `${entry.id}${SUFFIX}`), { force: true }),
        rm(this.checkpointsDirOf(entry.id), { recursive: true, force: true }),
        rm(`${join(this.dir, entry.id)}${IMAGES_SUFFIX}`, { recursive: true, force: true }),
      ]),
    );
    return oldest.length;
  }
}

/** The cap from MARVIN_MAX_SESSIONS: a positive whole number, else the default. */
export function maxSessionsSetting(value: string | undefined): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : DEFAULT_MAX_SESSIONS;
}
