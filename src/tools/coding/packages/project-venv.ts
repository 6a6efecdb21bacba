import { lstat, realpath } from "node:fs/promises";
import { join } from "node:path";
import type { Env } from "../../../shared/env.js";
import { programOnPath } from "../../../shared/program-on-path.js";
import type { CreatedVenvs } from "../../../state/created-venvs.js";
import { isInside } from "../../../workspace/sandbox.js";
import { ToolError } from "../../kit/define-tool.js";

export const VENV_DIR = ".venv";

/** The installer found on PATH: uv when present, else python3's venv and pip. */
export type Installer = { kind: "uv"; uv: string; python?: string } | { kind: "pip"; python: string };

export async function findInstaller(env: Env): Promise<Installer> {
  const [uv, python] = await Promise.all([programOnPath(env, "uv"), programOnPath(env, "python3")]);
  if (uv) return { kind: "uv", uv, python };
  if (python) return { kind: "pip", python };
  throw new ToolError(
    "Python is not installed: neither uv nor python3 is on PATH, so packages cannot be installed. Ask the user to " +
      "install uv, or python3 with its venv module (Debian: apt install python3 python3-venv).",
  );
}

/** Where the project's virtual environment is, and whether it must be created first. */
export interface ProjectVenv {
  dir: string;
  python: string;
  exists: boolean;
}

/**
 * The project's `.venv`. One already there must be one Marvin created (`createdVenvs` knows it), with
 * the start-up files of its site-packages as Marvin's last install left them: pip and uv run its
 * interpreter, which runs every `.pth` file there, so a `.venv` that came with a cloned repository, or
 * one a command changed since, would run whatever it says under an innocent "pip install", with the
 * network open for the index.
 */
export async function projectVenv(root: string, createdVenvs: CreatedVenvs): Promise<ProjectVenv> {
  const dir = join(root, VENV_DIR);
  const python = join(dir, "bin", "python");
  const info = await lstat(dir).catch(() => undefined);
  if (!info) return { dir, python, exists: false };
  const refuse = (why: string) =>
    new ToolError(
      `Not installing into ${VENV_DIR}: ${why}. Ask the user to remove it (Marvin then creates a fresh one and ` +
        "installs into that) or to install the packages themselves.",
    );
  if (!info.isDirectory()) throw refuse("it is not a directory");
  if (!(await lstat(join(dir, "pyvenv.cfg")).catch(() => undefined)))
    throw refuse("it has no pyvenv.cfg, so it is not a virtual environment");
  const interpreter = await realpath(python).catch(() => undefined);
  if (!interpreter) throw refuse(`${VENV_DIR}/bin/python is missing or a broken link`);
  if (isInside(root, interpreter))
    throw refuse(`its interpreter ${interpreter} is a file inside the working dir, not an installed Python`);
  const recognition = await createdVenvs.recognise(dir);
  if (recognition === "unknown")
    throw refuse(
      "Marvin did not create it, so it may have come with the project, and Python would run the .pth files of " +
        "its site-packages during the install",
    );
  if (recognition === "startup-files-changed")
    throw refuse(
      "the .pth or sitecustomize files of its site-packages changed since Marvin's last install, and Python " +
        "would run them during the install",
    );
  return { dir, python, exists: true };
}
