import { type Loaded, writeJsonAtomic } from "./atomic-file.js";
import { withFileLock } from "./file-lock.js";

/**
 * Reads a JSON state file, lets `change` edit the value in place, and writes it back atomically,
 * all under `<path>.lock`: two tool calls (or two Marvins) changing it at once both keep their change.
 */
export function updateJsonState<T, R>(
  path: string,
  load: (path: string) => Promise<Loaded<T>>,
  change: (value: T) => R,
): Promise<{ result: R; warning?: string }> {
  return withFileLock(path, async () => {
    const { value, warning } = await load(path);
    const result = change(value);
    await writeJsonAtomic(path, value);
    return warning === undefined ? { result } : { result, warning };
  });
}
