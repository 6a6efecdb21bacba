import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../../shared/env.js";
import { configPaths, profilePaths } from "../../../state/paths.js";

/** Folders and files under the home that hold keys, tokens and cloud logins. */
const HOME_SECRETS = [
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
];

/** Marvin's own logins: every profile's OAuth tokens and the logins waiting for their code. */
function marvinTokenFiles(home: string): string[] {
  const paths = configPaths(home);
  let profiles: string[];
  try {
    profiles = readdirSync(paths.profilesDir);
  } catch {
    return [];
  }
  return profiles.flatMap((name) => {
    const profile = profilePaths(paths, name);
    return [profile.tokens, profile.pendingLogins];
  });
}

/**
 * The paths a sandboxed command must not read: the usual secrets folders of `home`, where the
 * environment moves them, and Marvin's own tokens. They may not exist; the sandbox hides those that do.
 */
export function secretPaths(home: string, env: Env): string[] {
  const moved = SECRET_LOCATION_VARIABLES.flatMap((name) =>
    (env[name]?.trim() ?? "").split(":").filter((path) => path.startsWith("/")),
  );
  return [...HOME_SECRETS.map((path) => join(home, path)), ...moved, ...marvinTokenFiles(home)];
}
