import type { ProfilePaths } from "../state/paths.js";
import { configPaths } from "../state/paths.js";
import { ProfileStore } from "../state/profiles.js";
import { backupDirForWrite, backupDirsOf } from "./backup-dirs.js";
import { ChatLogKeeper } from "./chat-log-keeper.js";

/** The profile a session works in (`main` until `open` reads the active one), and its chat log. */
export class ActiveProfile {
  name = "main";
  readonly store: ProfileStore;
  readonly chatLog: ChatLogKeeper;

  constructor(
    home: string,
    private readonly notice: (text: string) => void,
    now?: () => Date,
  ) {
    this.store = new ProfileStore(configPaths(home));
    this.chatLog = new ChatLogKeeper(notice, now);
  }

  get paths(): ProfilePaths {
    return this.store.paths(this.name);
  }

  /** Takes the profile marked active; returns a warning when that mark could not be read. */
  async open(): Promise<string | undefined> {
    const active = await this.store.activeName();
    this.name = active.value;
    return active.warning;
  }

  /** Makes sure the profile exists and reads its chat log (interactive sessions show it). */
  async loadChatLog(): Promise<void> {
    await this.store.ensure(this.name);
    await this.chatLog.load(this.paths.chatLog);
  }

  /** Works in profile `name` from now on; `remember`: also the one the next session opens. */
  async switchTo(name: string, remember: boolean): Promise<{ created: boolean }> {
    const result = remember ? await this.store.setActive(name) : await this.store.ensure(name);
    this.name = name;
    await this.chatLog.load(this.paths.chatLog);
    return result;
  }

  /** The folders where context and history backups are written, newest location first. */
  backupDirs(workingDir: string | null): string[] {
    return backupDirsOf(this.store, this.name, workingDir);
  }

  /** Where a context backup goes now (see backupDirForWrite). */
  backupDirForWrite(workingDir: string | null): Promise<string> {
    return backupDirForWrite(this.store, this.name, workingDir, this.notice);
  }
}
