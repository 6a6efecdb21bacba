import { isInside } from "../../../workspace/sandbox.js";
import type { SandboxLayout } from "./layout.js";

/** Why the sandbox made a command fail, in a line the model can act on. */
interface SandboxRefusal {
  kind: "write" | "network" | "secret" | "home";
  line: string;
}

/** EBUSY: renaming onto .git/config, a file bound read-only, is refused so. */
const WRITE_REFUSED = /Read-only file system|EROFS|Operation not permitted|Device or resource busy|EBUSY/;
/** What programs say without a network; curl's "Couldn't connect to server" is its word for ENETUNREACH. */
const NETWORK_REFUSED =
  /Network is unreachable|ENETUNREACH|Connection refused|ECONNREFUSED|Couldn't connect to server|Could not resolve host|Temporary failure in name resolution|EAI_AGAIN|getaddrinfo|Name or service not known|unable to access 'http/i;

/** How a read in the hidden home fails. */
const MISSING = /No such file or directory|ENOENT|not found|does not exist/i;

/** Whether `text` names a path in `home` that the sandbox hides (one not in a readable or writable folder). */
function namesHiddenHomePath(text: string, home: string, layout: SandboxLayout): boolean {
  const visible = [...layout.readable, ...layout.writable];
  return [...text.matchAll(/(?:^|[\s'"=:`])(~|\/[^\s'"`:]*)\/([^\s'"`:]+)/g)].some(([, base, rest]) => {
    const path = `${base === "~" ? home : base}/${rest}`;
    return isInside(home, path) && !visible.some((folder) => isInside(folder, path));
  });
}

/** `~/x` for a path under the home, else the path. */
function shown(path: string, home: string): string {
  return path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
}

/**
 * The sandbox's part in a failed command, judged from its output (and the command, for secrets):
 * a write outside the writable folders, the missing network, or a hidden secrets folder.
 */
export function sandboxRefusal(
  command: string,
  output: string,
  layout: SandboxLayout,
  home: string,
): SandboxRefusal | undefined {
  const secret = layout.secrets.find((path) =>
    [path, shown(path, home)].some((form) => command.includes(form) || output.includes(form)),
  );
  if (secret) {
    return {
      kind: "secret",
      line:
        `Sandbox: ${shown(secret, home)} holds secrets and is hidden from commands; do not try to read it — ` +
        "ask the user if the task really needs it.",
    };
  }
  if (
    layout.emptied.some((folder) => isInside(folder, home)) &&
    MISSING.test(output) &&
    namesHiddenHomePath(`${command}\n${output}`, home, layout)
  ) {
    return {
      kind: "home",
      line:
        "Sandbox: the home folder is hidden from commands but for the working dir, toolchains on PATH and git's " +
        "settings; ask the user to add what the task needs to MARVIN_SANDBOX_READABLE, or to run the command.",
    };
  }
  if (WRITE_REFUSED.test(output)) {
    const writable = layout.writable.filter((path) => path !== layout.tempDir);
    const where = writable.length ? `only ${writable.join(", ")} and $TMPDIR are` : "only $TMPDIR is";
    return {
      kind: "write",
      line:
        `Sandbox: ${where} writable (git's hooks, config and other controls in .git read-only); write inside ` +
        "the working dir or $TMPDIR, or ask the user to run it or to add the folder to MARVIN_SANDBOX_WRITABLE.",
    };
  }
  if (!layout.network && NETWORK_REFUSED.test(output)) {
    return {
      kind: "network",
      line:
        "Sandbox: commands have no network (not even 127.0.0.1); work offline, or ask the user to allow it " +
        "(MARVIN_SANDBOX_NETWORK=on) or to run the command.",
    };
  }
  return undefined;
}
