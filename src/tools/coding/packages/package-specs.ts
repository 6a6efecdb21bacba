import { stat } from "node:fs/promises";
import { resolveInside } from "../../../workspace/sandbox.js";
import { ToolError } from "../../kit/define-tool.js";

const MAX_SPEC_CHARS = 200;
const NAME = "[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?";
const VERSION = "(?:~=|===|==|!=|<=|>=|<|>)\\s*[A-Za-z0-9.*+!_-]+";
/**
 * A PEP 508 requirement without URL or environment marker: `requests`, `numpy>=1.26,<2`,
 * `uvicorn[standard]==0.30`. Nothing that starts with `-` (an option) or names a URL gets through.
 */
const REQUIREMENT = new RegExp(
  `^${NAME}\\s*(?:\\[\\s*${NAME}(?:\\s*,\\s*${NAME})*\\s*\\])?\\s*(?:${VERSION}(?:\\s*,\\s*${VERSION})*)?$`,
);

/**
 * What pip or uv is given for each package the model asked for: the requirement as it is, or the
 * absolute path of a `./`-relative wheel, sdist or project directory inside the working dir.
 */
export async function packageArguments(root: string, packages: readonly string[]): Promise<string[]> {
  return Promise.all(
    packages.map(async (raw) => {
      const spec = raw.trim();
      if (spec.startsWith("./")) {
        const path = await resolveInside(root, spec);
        if (!(await stat(path).catch(() => undefined)))
          throw new ToolError(`${spec} does not exist in the working dir (${root}).`);
        return path;
      }
      if (spec.length <= MAX_SPEC_CHARS && REQUIREMENT.test(spec)) return spec;
      throw new ToolError(
        `'${spec}' is not a package requirement install_packages takes: give a name with optional extras and ` +
          `version (requests, numpy>=1.26, uvicorn[standard]==0.30) or a ./path to a wheel, sdist or project ` +
          `inside the working dir. Options, URLs and environment markers are refused.`,
      );
    }),
  );
}
