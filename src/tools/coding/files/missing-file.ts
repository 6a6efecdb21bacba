import { readdir } from "node:fs/promises";
import { basename, dirname, posix } from "node:path";
import { nearestNames } from "../../../shared/edit-distance.js";
import { treeListing } from "../../../workspace/sandbox.js";
import { ToolError } from "../../kit/define-tool.js";

/** "X does not exist", with the nearest names in its folder, or the project tree when the folder is missing too. */
export async function fileNotFound(root: string, real: string, shown: string): Promise<ToolError> {
  const siblings = await readdir(dirname(real)).catch(() => undefined);
  if (!siblings) {
    return new ToolError(
      `${shown} does not exist, and neither does its folder.\nWorking dir: ${root}\n\nProject ` +
        `structure:\n${await treeListing(root)}`,
    );
  }
  const folder = posix.dirname(shown.replace(/\\/g, "/"));
  const near = nearestNames(basename(real), siblings).map((name) => (folder === "." ? name : `${folder}/${name}`));
  return new ToolError(`${shown} does not exist.${near.length ? ` Did you mean: ${near.join(", ")}?` : ""}`);
}
