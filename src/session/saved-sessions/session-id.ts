import { randomBytes } from "node:crypto";

/** Session ids are file names: letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
export function isValidSessionId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(id) && !id.includes("..");
}

/** A new id that sorts by time and reads well: `20261124-143005-9f2c`. */
export function newSessionId(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  const date = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `${date}-${time}-${randomBytes(2).toString("hex")}`;
}
