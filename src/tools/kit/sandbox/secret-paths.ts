import { join } from "node:path";
import type { Env } from "../../../shared/env.js";
import { configPaths } from "../../../state/paths.js";

/**
 * Folders and files under the home that hold keys, tokens, cloud logins and shell histories. The whole home
 * is hidden anyway; these stay hidden when a folder holding them is readable (a toolchain, the working dir).
 */
const HOME_SECRETS = [
  ".bash_history",
  ".zsh_history",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".kube",
  ".docker/config.json",
  ".config/gcloud",
  ".config/gh",
  ".netrc",
  ".git-credentials",
  ".npmrc",
  ".pypirc",
  ".copilot",
  ".codex",
];

/** Where a variable moves one of those (GNUPGHOME, GH_CONFIG_DIR…). */
const SECRET_LOCATION_VARIABLES = [
  "GNUPGHOME",
  "GH_CONFIG_DIR",
  "AWS_SHARED_CREDENTIALS_FILE",
  "AWS_CONFIG_FILE",
  "KUBECONFIG",
  "DOCKER_CONFIG",
  "CLOUDSDK_CONFIG",
  "AZURE_CONFIG_DIR",
  "COPILOT_HOME",
  "CODEX_HOME",
];

/** Marvin's own profiles (conversations, preferences, OAuth tokens, logins waiting for their code) and ChatGPT sign-in. */
function marvinSecrets(home: string): string[] {
  const paths = configPaths(home);
  return [paths.profilesDir, paths.codexSignIn];
}

/**
 * The paths a sandboxed command must not read: the usual secrets folders of `home`, where the
 * environment moves them, and Marvin's own profiles and sign-ins. They may not exist; the sandbox hides those that do.
 */
export function secretPaths(home: string, env: Env): string[] {
  const moved = SECRET_LOCATION_VARIABLES.flatMap((name) =>
    (env[name]?.trim() ?? "").split(":").filter((path) => path.startsWith("/")),
  );
  return [...HOME_SECRETS.map((path) => join(home, path)), ...moved, ...marvinSecrets(home)];
}
