import { rm } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { presentControls } from "./git-controls.js";

/** Removes the controls in `gitDirs` present now and not in `before`; returns their paths. */
async function removePlantedControls(gitDirs: readonly string[], before: ReadonlySet<string>): Promise<string[]> {
  const planted = gitDirs.flatMap((dir) => presentControls(dir)).filter(({ path }) => !before.has(path));
  for (const { path } of planted) await rm(path, { recursive: true, force: true });
  return planted.map(({ path }) => path);
}

/**
 * Takes note of git's controls in `gitDirs` now, before a command runs, and returns what removes
 * those the command created (bubblewrap can keep only existing paths read-only), with the line
 * that tells the model so; undefined when it created none.
 */
export function plantedControlsSweeper(gitDirs: readonly string[]): () => Promise<string | undefined> {
  const before = new Set(gitDirs.flatMap((dir) => presentControls(dir).map(({ path }) => path)));
  return async () => {
    const removed = await removePlantedControls(gitDirs, before);
    if (removed.length === 0) return undefined;
    const shown = removed.map((path) => {
      const project = gitDirs.find((dir) => path.startsWith(`${dir}/`));
      return project ? relative(dirname(project), path) : path;
    });
    return (
      `Sandbox: removed ${shown.join(", ")}: commands may not create git's controls (they tell git where to ` +
      "find its config, hooks and other git folders). Use git as it is set up, or ask the user to change it."
    );
  };
}
