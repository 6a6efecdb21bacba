import { spawn } from "node:child_process";
import { basename } from "node:path";
import YAML from "yaml";
import type { Session } from "../../session/session.js";
import type { Env } from "../../shared/env.js";
import { errorMessage } from "../../shared/error-message.js";
import { programOnPath } from "../../shared/program-on-path.js";
import { readTextIfExists, writeFileAtomic } from "../../state/atomic-file.js";
import { DEFAULT_PREFERENCES_YAML } from "../../state/preferences.js";

/** Tried in this order, on PATH, when neither $VISUAL nor $EDITOR names an editor. */
const FALLBACK_EDITORS = ["nano", "vi", "vim"];

/** Exit status of `sh -c` when the program does not exist. */
const COMMAND_NOT_FOUND = 127;

/** What is wrong with the edited file, checked without touching it (loading it would set a broken file aside). */
function yamlMappingProblem(text: string): string | undefined {
  const document = YAML.parseDocument(text);
  const [error] = document.errors;
  if (error) return error.message.split("\n")[0]!.replace(/:$/, "");
  if (document.contents !== null && !YAML.isMap(document.contents)) return "it is not a mapping of keys to values";
  return undefined;
}

/** The editor may carry arguments (`code -w`), so it runs through the shell; the path is "$1", never spliced in. */
function runEditor(editor: string, path: string, env: Env): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", `${editor} "$1"`, "marvin-editor", path], {
      stdio: "inherit",
      env: env as NodeJS.ProcessEnv,
    });
    child.on("error", reject);
    child.on("close", (code) => resolve(code));
  });
}

/** $VISUAL, else $EDITOR, else the first of nano, vi and vim on PATH (by name: the shell finds it the same way). */
async function chooseEditor(env: Env): Promise<string | undefined> {
  const configured = env.VISUAL?.trim() || env.EDITOR?.trim();
  if (configured) return configured;
  for (const name of FALLBACK_EDITORS) {
    const found = await programOnPath(env, name);
    if (found) return basename(found);
  }
  return undefined;
}

/**
 * `preferences`: opens the active profile's preferences.yaml in $VISUAL or $EDITOR (else nano, vi or vim),
 * creating it from the legacy prefs.yaml or the defaults first. `release` hands the
 * terminal to the editor. Returns the message to show afterwards.
 */
export async function editPreferences(
  session: Session,
  env: Env,
  release: <T>(run: () => Promise<T>) => Promise<T>,
): Promise<string> {
  const paths = session.profiles.paths(session.profileName);
  await session.profiles.ensure(session.profileName);
  if ((await readTextIfExists(paths.preferences)) === undefined) {
    await writeFileAtomic(
      paths.preferences,
      (await readTextIfExists(paths.legacyPreferences)) ?? DEFAULT_PREFERENCES_YAML,
    );
  }
  const editor = await chooseEditor(env);
  if (!editor)
    return (
      "No editor found: set $VISUAL or $EDITOR (e.g. EDITOR=vim), or install nano or vi. The file is " +
      `${paths.preferences}.`
    );
  let code: number | null;
  try {
    code = await release(() => runEditor(editor, paths.preferences, env));
  } catch (error) {
    return `Could not start the editor '${editor}': ${errorMessage(error)}`;
  }
  if (code === COMMAND_NOT_FOUND)
    return (
      `The editor '${editor}' was not found. Set $VISUAL or $EDITOR to an installed editor (e.g. EDITOR=vim) ` +
      `and try again; the file is ${paths.preferences}.`
    );
  if (code !== 0)
    return (
      `The editor '${editor}' exited with code ${code ?? "unknown (killed)"}; ${paths.preferences} is as the ` +
      `editor left it.`
    );
  const problem = yamlMappingProblem((await readTextIfExists(paths.preferences)) ?? "");
  if (problem)
    return (
      `${paths.preferences} is not valid YAML now (${problem}). Run 'preferences' again to fix it; otherwise ` +
      `Marvin sets it aside and uses default preferences.`
    );
  return `Preferences saved (${paths.preferences}); they apply from your next message.`;
}
