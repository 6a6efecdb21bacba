import { spawn } from "node:child_process";
import { toolChildEnv } from "../../../shared/child-env.js";
import type { Env } from "../../../shared/env.js";
import { programOnPath } from "../../../shared/program-on-path.js";
import { withScratchDir } from "../../../shared/scratch-dir.js";
import { ToolError, type ToolProgress } from "../../kit/define-tool.js";

const YT_DLP_MISSING =
  "yt-dlp is not installed (or not on PATH). Install it (Debian/Ubuntu: sudo apt install yt-dlp; elsewhere: " +
  "pipx install yt-dlp), then try again.";

interface YtDlpRun {
  url: string;
  folder: string;
  audioOnly: boolean;
  env: Env;
  signal: AbortSignal;
  onProgress(update: ToolProgress): void;
}

function ytDlpArguments({ url, folder, audioOnly }: YtDlpRun): string[] {
  return [
    // Not the user's config, and above all not a yt-dlp.conf in the download folder, where the model can write:
    // a config line such as --exec runs a command.
    "--ignore-config",
    "--no-playlist",
    "--no-overwrites",
    "--newline",
    "--progress",
    // --print makes yt-dlp quiet and stop before downloading, unless --no-simulate says otherwise.
    "--no-simulate",
    "--print",
    "after_move:filepath",
    "--paths",
    folder,
    "--output",
    "%(title).150B [%(id)s].%(ext)s",
    // The best audio stream as it is: converting would need ffmpeg.
    ...(audioOnly ? ["--format", "bestaudio/best"] : []),
    "--",
    url,
  ];
}

/** Throws the install hint unless an executable yt-dlp is on the PATH of `env`. */
export async function requireYtDlp(env: Env): Promise<void> {
  if (!(await programOnPath(env, "yt-dlp"))) throw new ToolError(YT_DLP_MISSING);
}

const PROGRESS_LINE = /^\[download\]\s+([\d.]+)%\s+of\s+~?\s*([\d.]+\w+)/;

/**
 * Runs yt-dlp (without Marvin's credentials in its environment) and resolves with the path of the
 * saved file. Progress lines become tool progress; an error names yt-dlp's own last ERROR line.
 */
export function runYtDlp(run: YtDlpRun): Promise<string> {
  // Python imports plugins and sitecustomize.py from the working directory when PYTHONPATH has an empty
  // entry, so yt-dlp works in an empty folder of its own, never in the download folder.
  return withScratchDir("marvin-yt-dlp-", (workDir) => download(run, workDir));
}

function download(run: YtDlpRun, workDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("yt-dlp", ytDlpArguments(run), {
      cwd: workDir,
      env: toolChildEnv(run.env),
      stdio: ["ignore", "pipe", "pipe"],
      signal: run.signal,
    });
    const lines: string[] = [];
    const onLine = (line: string) => {
      const progress = PROGRESS_LINE.exec(line);
      if (progress) {
        const percent = Number(progress[1]);
        run.onProgress({ message: `Downloaded ${percent}% of ${progress[2]}`, fraction: percent / 100 });
      } else if (line.trim()) lines.push(line.trim());
    };
    for (const stream of [child.stdout, child.stderr]) {
      let pending = "";
      stream.setEncoding("utf8").on("data", (chunk: string) => {
        const parts = (pending + chunk).split(/\r?\n|\r/);
        pending = parts.pop() ?? "";
        parts.forEach(onLine);
      });
      stream.on("end", () => onLine(pending));
    }
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") reject(new ToolError(YT_DLP_MISSING));
      else if (error.name === "AbortError") reject(new ToolError("The yt-dlp download was stopped."));
      else reject(new ToolError(`yt-dlp could not be started: ${error.message}`));
    });
    child.on("close", (code) => {
      if (code === null) return;
      const saved = lines.filter((line) => line.startsWith(run.folder)).at(-1);
      if (code === 0 && saved) return resolve(saved);
      const problem = lines.filter((line) => line.startsWith("ERROR:")).at(-1) ?? lines.at(-1) ?? `exit code ${code}`;
      reject(new ToolError(`yt-dlp could not download ${run.url}: ${problem}`));
    });
  });
}
