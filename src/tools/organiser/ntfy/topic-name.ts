import { randomBytes } from "node:crypto";

/**
 * A topic nobody can guess: on a public ntfy server anyone who knows a topic's name can read
 * and write it. 18 random bytes give 144 bits, written with ntfy's allowed characters.
 */
export function unguessableTopic(): string {
  return `marvin-${randomBytes(18).toString("base64url")}`;
}
