import { execFile } from "node:child_process";
import { toolChildEnv } from "../../../shared/child-env.js";
import type { Env } from "../../../shared/env.js";
import { ToolError } from "../../kit/define-tool.js";

/** The crontab program and its leading arguments, from MARVIN_CRONTAB_COMMAND (split at spaces). */
export function crontabArgv(env: Env): string[] {
  const words = (env.MARVIN_CRONTAB_COMMAND ?? "").trim().split(/\s+/).filter(Boolean);
  return words.length ? words : ["crontab"];
}

/** The crontab program is not there: nothing can be scheduled, and nothing of Marvin's can be in a crontab. */
/** What tools that write the user's crontab are asked to be allowed for (ToolDef `approval`). */
export const CRONTAB_APPROVAL = "writes a line in your crontab, which runs later outside the sandbox";

export class CrontabMissing extends ToolError {}

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function run(env: Env, args: string[], input?: string): Promise<Outcome> {
  const [program, ...leading] = crontabArgv(env);
  return new Promise((resolve, reject) => {
    const child = execFile(
      program!,
      [...leading, ...args],
      { env: toolChildEnv(env), encoding: "utf8", timeout: 15_000, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        const failure = error as NodeJS.ErrnoException & { code?: string | number };
        if (failure.code === "ENOENT") {
          return reject(
            new CrontabMissing(
              `The program '${program}' is not installed, so Marvin cannot read or change the crontab. Install it ` +
                "(Debian/Ubuntu: sudo apt install cron), or point MARVIN_CRONTAB_COMMAND at a crontab program.",
            ),
          );
        }
        if (typeof failure.code === "number") return resolve({ code: failure.code, stdout, stderr });
        reject(new ToolError(`${program} could not run: ${error.message}`));
      },
    );
    child.stdin?.on("error", () => undefined); // a program that exits early must not crash Marvin
    child.stdin?.end(input ?? "");
  });
}

/** The user's crontab as `crontab -l` prints it; empty when the user has none. */
export async function readCrontab(env: Env): Promise<string> {
  const outcome = await run(env, ["-l"]);
  if (outcome.code === 0) return outcome.stdout;
  if (/no crontab for/i.test(outcome.stderr)) return "";
  const reason = outcome.stderr.trim() || `exit code ${outcome.code}`;
  throw new ToolError(`Could not read the crontab (${crontabArgv(env).join(" ")} -l): ${reason}`);
}

/** Installs `table` as the user's crontab; when crontab refuses it, the old one stays and this throws. */
export async function installCrontab(env: Env, table: string): Promise<void> {
  const outcome = await run(env, ["-"], table);
  if (outcome.code === 0) return;
  const reason = outcome.stderr.trim() || `exit code ${outcome.code}`;
  throw new ToolError(`crontab refused the new table, so the crontab was left as it was: ${reason}`);
}
