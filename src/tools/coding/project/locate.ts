import { realpath } from "node:fs/promises";
import { relative, sep } from "node:path";
import { resolveInside } from "../../../workspace/sandbox.js";
import type { ToolContext } from "../../kit/define-tool.js";
import { requireWorkingDir } from "../../kit/require-working-dir.js";

/** A path inside the working dir: real root, real target, and the target relative to the root (posix, "." for the
 * root). */
export async function locate(
  context: ToolContext,
  requested: string,
): Promise<{ root: string; absolute: string; relative: string }> {
  const root = await realpath(requireWorkingDir(context)).catch(() => requireWorkingDir(context));
  const absolute = await resolveInside(root, requested, { blocked: [".tickets"] });
  return { root, absolute, relative: relative(root, absolute).split(sep).join("/") || "." };
}
