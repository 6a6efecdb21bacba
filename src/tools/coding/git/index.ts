import { gitReadTools } from "./read-tools.js";
import { gitWriteTools } from "./write-tools.js";

/**
 * The git domain (seed 000 §2.8): `git` run with execFile (no shell) in the working dir,
 * with GIT_DIR and the other repository-redirecting variables removed from its environment.
 */
export const gitTools = [...gitReadTools, ...gitWriteTools];
