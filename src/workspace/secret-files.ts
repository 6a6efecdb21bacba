/** Folders whose every file holds keys or logins. */
const SECRET_FOLDERS = new Set([".ssh", ".gnupg", ".aws", ".docker", ".kube", ".password-store", ".codex"]);

/** File names (lower case) that hold credentials by convention. */
const SECRET_NAMES =
  /^(?:\.env(?:\..+)?|\.envrc|\.netrc|\.npmrc|\.pypirc|\.pgpass|\.git-credentials|credentials(?:\.\w+)?|secrets?\.\w+|id_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?|.+\.(?:pem|key|p12|pfx|jks|keystore|kdbx|gpg|asc))$/;

/** Templates that name the variables but hold no values. */
const TEMPLATE = /^\.env\.(?:example|sample|template|dist)$/;

/**
 * True when a path (posix or native, relative or absolute) looks like it holds secrets: `.env` files,
 * private keys and certificates, login files (.netrc, .npmrc, .git-credentials), anything under .ssh or
 * .aws. Marvin never attaches such a file to a message on its own.
 */
export function looksSecret(path: string): boolean {
  const segments = path.toLowerCase().split(/[\\/]/).filter(Boolean);
  const name = segments.at(-1) ?? "";
  if (TEMPLATE.test(name)) return false;
  return SECRET_NAMES.test(name) || segments.slice(0, -1).some((segment) => SECRET_FOLDERS.has(segment));
}
