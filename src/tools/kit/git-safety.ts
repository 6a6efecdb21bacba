/**
 * `-c` settings for every git Marvin starts: the repository's own fsmonitor program never runs (it
 * only makes git faster), and a bare repository git comes across is not opened, since a cloned
 * repository can carry one, with its own config and executable hooks, in any folder.
 */
const EVERY_CALL = ["core.fsmonitor=false", "safe.bareRepository=explicit"];

/**
 * For git calls that only look, or that work on a stranger's clone: no hooks, no signature checks
 * (`gpg.program`), no submodule summary, so nothing the repository names runs.
 */
const LOOKING_ONLY = [
  ...EVERY_CALL,
  "core.hooksPath=/dev/null",
  "log.showSignature=false",
  "status.submoduleSummary=false",
];

/** `-c setting` for each setting. */
export const gitConfigArgs = (settings: readonly string[]) => settings.flatMap((setting) => ["-c", setting]);

/** git's arguments before the subcommand for a call that changes the repository with its hooks and filters. */
export const GIT_CHANGE_ARGS = gitConfigArgs(EVERY_CALL);

/** git's arguments before the subcommand for a call that runs nothing the repository names. */
export const GIT_LOOK_ARGS = ["--no-pager", ...gitConfigArgs(LOOKING_ONLY)];
