import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Creates a user for one test (no home, no login shell), named `prefix-` and random hex; needs root (CI
 * runs as root). useradd takes a lock on /etc/passwd, so test files running side by side may find it held.
 */
export async function addUser(prefix: string): Promise<string> {
  if (process.getuid?.() !== 0) throw new Error("Tests that run as a throwaway user need root (CI runs as root).");
  const user = `${prefix}-${randomBytes(4).toString("hex")}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await run("useradd", ["--no-create-home", "--shell", "/usr/sbin/nologin", user]);
      return user;
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

/** Deletes a user made by addUser, retrying while another test file holds the lock. */
export async function removeUser(user: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      await run("userdel", [user]);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}
