/**
 * Variables that point git at another repository, index or config (`git rev-parse
 * --local-env-vars`). A parent that runs inside a git hook, or a user's shell with
 * GIT_DIR set, would otherwise make every git call in a child act on the wrong
 * repository (seed 004 §6.8).
 */
export const REPOSITORY_ENV_VARS = [
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

/** A copy of `env` for a child process, without the repository-redirecting git variables. */
export function withoutRepositoryOverrides(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !(REPOSITORY_ENV_VARS as readonly string[]).includes(name) && !name.startsWith("GIT_CONFIG_KEY_") && !name.startsWith("GIT_CONFIG_VALUE_")) {
      result[name] = value;
    }
  }
  return result;
}
