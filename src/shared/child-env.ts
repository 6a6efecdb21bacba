import type { Env } from "./env.js";
import { isSecretValue } from "./secret-values.js";

/**
 * Variables that point git at another repository, index or config (`git rev-parse
 * --local-env-vars`). A parent that runs inside a git hook, or a user's shell with
 * GIT_DIR set, would otherwise make every git call in a child act on the wrong
 * repository (seed 004 §6.8).
 */
const REPOSITORY_ENV_VARS = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_COMMON_DIR",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_GRAFT_FILE",
  "GIT_NO_REPLACE_OBJECTS",
  "GIT_REPLACE_REF_BASE",
  "GIT_PREFIX",
  "GIT_SHALLOW_FILE",
  "GIT_CONFIG",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_NAMESPACE",
] as const;

/** Credential words anywhere in a name: GROQ_API_KEY, AWS_SESSION_TOKEN, PGPASSWORD, AZURE_CLIENT_SECRET… */
const SECRET_FRAGMENTS = /TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY/;
/** Short credential words only as a whole part between underscores: NEWSAPI_KEY, MYSQL_PWD, AZURE_DEVOPS_EXT_PAT. */
const SECRET_WORDS = /(?:^|_)(?:KEY|KEYS|PWD|PAT|AUTH)(?:_|$)/;
/** Settings and tokens of the Copilot runtime, all of them. */
const SECRET_PREFIXES = ["COPILOT_"];
/** Ordinary variables the patterns would catch: the shell's directories, the ssh-agent socket git needs. */
const NOT_SECRETS = new Set(["PWD", "OLDPWD", "SSH_AUTH_SOCK"]);

/** True when a variable of this name may hold a credential (matched generously, case-insensitively). */
export function isSecretVariable(name: string): boolean {
  const upper = name.toUpperCase();
  if (NOT_SECRETS.has(upper)) return false;
  if (SECRET_FRAGMENTS.test(upper) || SECRET_WORDS.test(upper)) return true;
  return SECRET_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

function isRepositoryOverride(name: string): boolean {
  if ((REPOSITORY_ENV_VARS as readonly string[]).includes(name)) return true;
  return name.startsWith("GIT_CONFIG_KEY_") || name.startsWith("GIT_CONFIG_VALUE_");
}

/** True when a variable may carry a credential: by its name, or by its value (`DATABASE_URL=postgres://u:pw@…`). */
function isSecret(name: string, value: string): boolean {
  return isSecretVariable(name) || isSecretValue(value);
}

function filtered(env: Env, drop: (name: string, value: string) => boolean): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !drop(name, value)) result[name] = value;
  return result;
}

/**
 * The environment of every process a tool starts (run_command, git, rg): no credential of
 * any kind, named as one or shaped like one, so none can reach the model or the audit log, and
 * no git repository override.
 */
export function toolChildEnv(env: Env): Record<string, string> {
  return filtered(env, (name, value) => isRepositoryOverride(name) || isSecret(name, value));
}

/**
 * The environment of a process that talks to an LLM provider (a review child, the Copilot
 * runtime): like a tool's, plus the named credential variables of that provider and no other.
 */
export function childEnvWith(env: Env, credentials: readonly string[]): Record<string, string> {
  const keep = new Set(credentials);
  return filtered(env, (name, value) => isRepositoryOverride(name) || (isSecret(name, value) && !keep.has(name)));
}
