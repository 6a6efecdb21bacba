import { execFile } from "node:child_process";
import { basename } from "node:path";
import { toolChildEnv } from "../../shared/child-env.js";
import type { Env } from "../../shared/env.js";
import { errorMessage } from "../../shared/error-message.js";
import { raceTimeLimit } from "../../shared/time-limit.js";
import { importUserModules } from "../../shared/user-modules.js";
import type { HookDispatcher } from "./hook-dispatcher.js";
import { HOOK_EVENT_TYPES, type HookAnswer, type HookEvent, type HookEventType } from "./hook-events.js";

const DEFAULT_TIMEOUT_MS = 30_000;
const EXEC_TIMEOUT_MS = 30_000;
/** A factory still running after this is reported and left behind: start-up goes on. */
const FACTORY_TIMEOUT_MS = 5_000;

interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * What a hook module's default export receives (seed 003 "HookAPI"). `on` may be given
 * `{ timeoutMs }` (default 30 s); `exec` runs a program without a shell, with the same
 * secret-free environment tools get.
 */
interface HookApi {
  on(
    event: HookEventType,
    handler: (event: HookEvent) => HookAnswer | undefined | Promise<HookAnswer | undefined>,
    options?: { timeoutMs?: number },
  ): void;
  send(text: string): void;
  exec(command: string, args?: string[], options?: { timeoutMs?: number }): Promise<ExecResult>;
  readonly cwd: string;
  readonly configDir: string;
}

interface ModuleHookPlaces {
  hooksDir: string;
  configDir: string;
  cwd: string;
  env: Env;
}

function execProgram(command: string, args: string[], cwd: string, env: Env, timeoutMs: number): Promise<ExecResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: toolChildEnv(env), timeout: timeoutMs, maxBuffer: 10 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        const failure = error && typeof error.code !== "number" ? `${errorMessage(error)}\n` : "";
        resolve({ code, stdout, stderr: `${failure}${stderr}` });
      },
    );
  });
}

/**
 * Loads the module hooks of `~/.config/local-finder/hooks/` (never of a working directory):
 * each default export is a factory called with a `HookApi`. Returns problems to show.
 */
export async function loadModuleHooks(dispatcher: HookDispatcher, places: ModuleHookPlaces): Promise<string[]> {
  const problems: string[] = [];
  for (const loaded of await importUserModules(places.hooksDir)) {
    const label = `hook ${basename(loaded.file)}`;
    if ("problem" in loaded) {
      problems.push(`The ${label} was not loaded: ${loaded.problem}.`);
      continue;
    }
    const factory = loaded.exports.default;
    if (typeof factory !== "function") {
      problems.push(`The ${label} was not loaded: its default export must be a function (the hook factory).`);
      continue;
    }
    const api: HookApi = {
      on: (event, handler, options) => {
        if (!HOOK_EVENT_TYPES.includes(event)) {
          problems.push(`The ${label} listens to '${event}', which is not an event: ${HOOK_EVENT_TYPES.join(", ")}.`);
          return;
        }
        dispatcher.add(event, { label, timeoutMs: options?.timeoutMs ?? DEFAULT_TIMEOUT_MS, run: handler });
      },
      send: (text) => dispatcher.send(String(text)),
      exec: (command, args = [], options) =>
        execProgram(command, args, places.cwd, places.env, options?.timeoutMs ?? EXEC_TIMEOUT_MS),
      cwd: places.cwd,
      configDir: places.configDir,
    };
    const started = Promise.resolve()
      .then(() => factory(api))
      .then(
        () => undefined,
        (error: unknown) => `failed while starting: ${errorMessage(error)}`,
      );
    const problem = await raceTimeLimit(
      started,
      FACTORY_TIMEOUT_MS,
      () => `did not finish starting within ${FACTORY_TIMEOUT_MS / 1000} s`,
    );
    if (problem) problems.push(`The ${label} ${problem}.`);
  }
  return problems;
}
