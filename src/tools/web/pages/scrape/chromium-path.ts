import { constants } from "node:fs";
import { access } from "node:fs/promises";
import type { Env } from "../../../../shared/env.js";
import { programOnPath } from "../../../../shared/program-on-path.js";
import { ToolError } from "../../../kit/define-tool.js";

const PROGRAM_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The browser scrape_page drives: MARVIN_CHROMIUM_PATH, else the first Chromium or Chrome on PATH. */
export async function chromiumPath(env: Env): Promise<string> {
  const configured = env.MARVIN_CHROMIUM_PATH?.trim();
  if (configured) {
    if (await isExecutable(configured)) return configured;
    throw new ToolError(
      `MARVIN_CHROMIUM_PATH=${configured} is not a program that can be run. Point it at a Chromium or Chrome ` +
        "binary, or unset it to use the one on PATH.",
    );
  }
  for (const name of PROGRAM_NAMES) {
    const found = await programOnPath(env, name);
    if (found) return found;
  }
  throw new ToolError(
    "scrape_page needs Chromium (or Chrome), and none is installed: looked for chromium, chromium-browser and " +
      "google-chrome on PATH. Install it (Debian/Ubuntu: sudo apt install chromium) or set MARVIN_CHROMIUM_PATH " +
      "to the browser's binary. browse_web reads pages that need no JavaScript.",
  );
}
