import { createHash } from "node:crypto";
import { lstat, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { readTextIfExists, writeFileAtomic, writeJsonAtomic } from "../../state/atomic-file.js";
import { ensurePrivateDir } from "../../state/private-dir.js";
import { missingAncestors } from "../../workspace/missing-dirs.js";

/** How much earlier content a conversation keeps; a change past a limit cannot be rewound. */
interface CheckpointLimits {
  /** The largest file whose earlier content is kept. */
  fileBytes: number;
  /** Earlier contents kept per conversation in all. */
  sessionBytes: number;
}

/** The limits the README states. */
const DEFAULT_LIMITS: CheckpointLimits = { fileBytes: 2 * 1024 * 1024, sessionBytes: 100 * 1024 * 1024 };

const fileChange = z.object({
  path: z.string(),
  /** sha256 of the content before the turn first changed the file; null: it did not exist. */
  before: z.string().nullable(),
  /** Permissions of the file before, to give them back. */
  mode: z.number().optional(),
  /** Folders the first write created, deepest first: removed again (when empty) with the file. */
  createdDirs: z.array(z.string()),
  /** sha256 of what Marvin last wrote there; null: Marvin deleted it. */
  after: z.string().nullable(),
  /** The earlier content was over a size cap and is not kept: this change cannot be rewound. */
  notKept: z.boolean().optional(),
});

/** One file a turn changed: what it was before, and what Marvin left. */
export type FileChange = z.infer<typeof fileChange>;

const turn = z.object({
  /** The user message the turn answered, numbered as `messageCount` counts. */
  message: z.number(),
  files: z.array(fileChange),
});

/** The files one user message's turn changed. */
export type CheckpointTurn = z.infer<typeof turn>;

const index = z.object({ version: z.literal(1), turns: z.array(turn) });

type CheckpointIndex = z.infer<typeof index>;

export function contentHash(content: Uint8Array | string): string {
  return createHash("sha256").update(content).digest("hex");
}

/**
 * The checkpoints of one conversation, in a private folder beside its session file:
 * `index.json` (which files each user message's turn changed) and `blobs/<sha256>` (their
 * earlier contents, each kept once). Every change is written atomically before the tool goes on.
 */
export class CheckpointStore {
  private loaded: CheckpointIndex | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly dir: string,
    private readonly limits = DEFAULT_LIMITS,
  ) {}

  /** Keeps what `path` held before the turn of `message` first changes it (null: nothing was there). */
  before(message: number, path: string, content: Buffer | null): Promise<void> {
    return this.serially(async (checkpoints) => {
      let current = checkpoints.turns.find((entry) => entry.message === message);
      if (current?.files.some((file) => file.path === path)) return;
      if (!current) {
        current = { message, files: [] };
        checkpoints.turns.push(current);
      }
      current.files.push(await this.keep(checkpoints, path, content));
      await this.save(checkpoints);
    });
  }

  /** Notes what Marvin wrote to `path` in the turn of `message` (null: deleted it). */
  after(message: number, path: string, content: string | null): Promise<void> {
    return this.serially(async (checkpoints) => {
      const change = checkpoints.turns
        .find((entry) => entry.message === message)
        ?.files.find((file) => file.path === path);
      if (!change) return;
      change.after = content === null ? null : contentHash(content);
      await this.save(checkpoints);
    });
  }

  /** Every turn that changed files, oldest first. */
  turns(): Promise<readonly CheckpointTurn[]> {
    return this.serially(async (checkpoints) => checkpoints.turns.map((entry) => structuredClone(entry)));
  }

  /** The kept content with this hash. */
  content(hash: string): Promise<Buffer> {
    return readFile(this.blobPath(hash));
  }

  /** Forgets the turns of `message` and later ones, and the contents only they used. */
  forgetFrom(message: number): Promise<void> {
    return this.serially(async (checkpoints) => {
      const kept = checkpoints.turns.filter((entry) => entry.message < message);
      if (kept.length === checkpoints.turns.length) return;
      checkpoints.turns = kept;
      await this.save(checkpoints);
      const used = new Set(kept.flatMap((entry) => entry.files.map((file) => file.before)));
      const blobs = await readdir(join(this.dir, "blobs")).catch(() => []);
      await Promise.all(
        blobs.filter((name) => !used.has(name)).map((name) => rm(this.blobPath(name), { force: true })),
      );
    });
  }

  private async keep(checkpoints: CheckpointIndex, path: string, content: Buffer | null): Promise<FileChange> {
    if (content === null) return { path, before: null, createdDirs: await missingAncestors(path), after: null };
    const hash = contentHash(content);
    const change: FileChange = { path, before: hash, createdDirs: [], after: hash };
    change.mode = (await lstat(path).catch(() => undefined))?.mode;
    if (change.mode !== undefined) change.mode &= 0o7777;
    if (await this.hasBlob(hash)) return change;
    const tooLarge =
      content.length > this.limits.fileBytes ||
      (await this.keptBytes(checkpoints)) + content.length > this.limits.sessionBytes;
    if (tooLarge) return { ...change, notKept: true };
    await ensurePrivateDir(join(this.dir, "blobs"));
    await writeFileAtomic(this.blobPath(hash), content);
    return change;
  }

  private async keptBytes(checkpoints: CheckpointIndex): Promise<number> {
    const hashes = new Set(checkpoints.turns.flatMap((entry) => entry.files.map((file) => file.before)));
    let total = 0;
    for (const hash of hashes) if (hash) total += (await lstat(this.blobPath(hash)).catch(() => undefined))?.size ?? 0;
    return total;
  }

  private hasBlob(hash: string): Promise<boolean> {
    return lstat(this.blobPath(hash)).then(
      (stats) => stats.isFile(),
      () => false,
    );
  }

  private blobPath(hash: string): string {
    return join(this.dir, "blobs", hash);
  }

  private serially<T>(work: (checkpoints: CheckpointIndex) => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => work(await this.load()));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async load(): Promise<CheckpointIndex> {
    if (this.loaded) return this.loaded;
    const text = await readTextIfExists(join(this.dir, "index.json")).catch(() => undefined);
    let parsed: CheckpointIndex | undefined;
    try {
      parsed = text === undefined ? undefined : index.parse(JSON.parse(text));
    } catch {
      parsed = undefined; // a damaged index: earlier checkpoints are lost, new ones are kept
    }
    this.loaded = parsed ?? { version: 1, turns: [] };
    return this.loaded;
  }

  private async save(checkpoints: CheckpointIndex): Promise<void> {
    await ensurePrivateDir(this.dir);
    await writeJsonAtomic(join(this.dir, "index.json"), checkpoints);
  }
}
