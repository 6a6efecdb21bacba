import { errorMessage } from "../../shared/error-message.js";
import type { FileCheckpoints } from "../../tools/kit/tool-services.js";
import { CheckpointStore, type CheckpointTurn } from "./checkpoint-store.js";
import { changedSince, type FileRestore, restoreFile, restoresFor } from "./file-restore.js";

/** What restoring a set of turns would do: the files, and which of them someone changed since. */
export interface RestorePlan {
  /** The user message the restore goes back to (before it). */
  message: number;
  files: FileRestore[];
  /** Files changed by someone else after Marvin's last write: overwritten only when the person says so. */
  changed: FileRestore[];
}

/** What a restore did. */
export interface RestoreOutcome {
  restored: string[];
  /** Changed since Marvin's write, and the person chose to keep them. */
  kept: string[];
  /** Over a size cap when Marvin changed them: there was nothing to restore from. */
  notKept: string[];
  failed: string[];
}

/**
 * The checkpoints of the conversation in progress: the tools report every file they are about to
 * change (the session says which user message is being answered), and `rewind`/`undo` restore
 * them. The folder follows the conversation, so `clear` and `resume` switch to theirs.
 */
export class ConversationCheckpoints implements FileCheckpoints {
  /** The user message being answered, numbered as the session's `messageCount` counts. */
  message = 0;
  private store: CheckpointStore | undefined;

  constructor(private readonly dirOf: () => string) {}

  before(path: string, content: Buffer | null): Promise<void> {
    return this.current().before(this.message, path, content);
  }

  after(path: string, content: string | null): Promise<void> {
    return this.current().after(this.message, path, content);
  }

  /** Every turn of this conversation that changed files, oldest first. */
  turns(): Promise<readonly CheckpointTurn[]> {
    return this.current().turns();
  }

  /** Restoring the files changed since (and by) user message `message`. */
  async planFrom(message: number): Promise<RestorePlan> {
    const turns = (await this.turns()).filter((turn) => turn.message >= message);
    return this.plan(message, turns);
  }

  /** Restoring the files of the latest turn that changed files; undefined when none did. */
  async planLast(): Promise<RestorePlan | undefined> {
    const last = (await this.turns()).at(-1);
    return last && this.plan(last.message, [last]);
  }

  /**
   * Restores the plan's files (those changed since only with `overwrite`), then forgets the
   * turns it covered: their files are as before them.
   */
  async restore(plan: RestorePlan, overwrite: boolean): Promise<RestoreOutcome> {
    const store = this.current();
    const changed = new Set(plan.changed.map((file) => file.path));
    const outcome: RestoreOutcome = { restored: [], kept: [], notKept: [], failed: [] };
    for (const file of plan.files) {
      if (file.notKept) outcome.notKept.push(file.path);
      else if (changed.has(file.path) && !overwrite) outcome.kept.push(file.path);
      else
        await restoreFile(store, file).then(
          () => outcome.restored.push(file.path),
          (error: unknown) => outcome.failed.push(`${file.path} (${errorMessage(error)})`),
        );
    }
    await this.forgetFrom(plan.message);
    return outcome;
  }

  /** Forgets the turns of `message` and later (the conversation was cut back before it). */
  forgetFrom(message: number): Promise<void> {
    return this.current().forgetFrom(message);
  }

  private async plan(message: number, turns: readonly CheckpointTurn[]): Promise<RestorePlan> {
    const files = restoresFor(turns);
    return { message, files, changed: await changedSince(files.filter((file) => !file.notKept)) };
  }

  private current(): CheckpointStore {
    const dir = this.dirOf();
    if (this.store?.dir !== dir) this.store = new CheckpointStore(dir);
    return this.store;
  }
}
