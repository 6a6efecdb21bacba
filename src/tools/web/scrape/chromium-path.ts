import type { Env } from "../../../shared/env.js";
import { isExecutable, programOnPath } from "../../../shared/program-on-path.js";
import { ToolError } from "../../define-tool.js";

const PROGRAM_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

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
  const found = await programOnPath(PROGRAM_NAMES, env);
  if (found) return found;
  throw new ToolError(
    "scrape_page needs Chromium (or Chrome), and none is installed: looked for chromium, chromium-browser and " +
      "google-chrome on PATH. Install it (Debian/Ubuntu: sudo apt install chromium) or set MARVIN_CHROMIUM_PATH " +
      "to the browser's binary. browse_web reads pages that need no JavaScript.",
  );
}
