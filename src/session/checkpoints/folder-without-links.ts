import { constants, existsSync } from "node:fs";
import { type FileHandle, lstat, mkdir, open } from "node:fs/promises";
import { join, sep } from "node:path";

/** A folder on the way to a file to restore is a link now, or no folder: nothing is restored through it. */
export class LinkOnTheWay extends Error {}

/** A folder opened without following a link; `at(name)` names an entry of that very folder. */
interface OpenedFolder {
  at(name: string): string;
  close(): Promise<void>;
}

/** Linux names an open folder by its descriptor: what is reached through it stays in that folder. */
const OPEN_FOLDERS = existsSync("/proc/self/fd") ? "/proc/self/fd" : undefined;

const FOLDER_ONLY = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

async function refusal(path: string, via: string): Promise<LinkOnTheWay> {
  const link = (await lstat(via).catch(() => undefined))?.isSymbolicLink() ?? false;
  const what = link ? "is now a link, which Marvin did not make" : "is no longer a folder";
  return new LinkOnTheWay(`${path} ${what}: nothing is restored through it`);
}

/** Opens `name` in the folder `parent` (reached as `via`) without following a link; undefined when it is missing. */
async function openStep(via: string, path: string, create: boolean): Promise<FileHandle | undefined> {
  try {
    return await open(via, FOLDER_ONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw await refusal(path, via);
    if (!create) return undefined;
    await mkdir(via).catch((made: NodeJS.ErrnoException) => {
      if (made.code !== "EEXIST") throw made;
    });
    return openStep(via, path, false);
  }
}

/**
 * Opens `folder` a step at a time from the root, never following a link: checkpoints keep real
 * paths, so a link on the way now was put there since (by a command, say) and may lead anywhere.
 * On Linux each step, and every later use, goes through the folder opened before it, so a folder
 * swapped for a link meanwhile changes nothing; elsewhere each step is checked just before use.
 * Folders missing are made with `create`; without it, undefined when one is missing. A
 * LinkOnTheWay when a folder on the way is a link or not a folder.
 */
export async function openFolderWithoutLinks(folder: string, create: boolean): Promise<OpenedFolder | undefined> {
  let handle = await open(sep, constants.O_RDONLY | constants.O_DIRECTORY);
  let path: string = sep;
  const entry = (name: string) => (OPEN_FOLDERS ? `${OPEN_FOLDERS}/${handle.fd}/${name}` : join(path, name));
  try {
    for (const part of folder.split(sep).filter(Boolean)) {
      const next = await openStep(entry(part), join(path, part), create);
      if (!next) {
        await handle.close();
        return undefined;
      }
      await handle.close();
      handle = next;
      path = join(path, part);
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return { at: entry, close: () => handle.close() };
}
