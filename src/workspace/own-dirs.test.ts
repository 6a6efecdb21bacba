import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TempDirs } from "../../tests/support/test-session.js";
import { errorMessage } from "../shared/error-message.js";
import { ensureInsideDir, MARVIN_GITIGNORE, OWN_DIRS, relativeInside, resolveInsideDir } from "./own-dirs.js";

const dirs = new TempDirs();
let project: string;
let outside: string;

beforeEach(async () => {
  project = await dirs.make("marvin-own-dirs-");
  outside = await dirs.make("marvin-outside-");
});
afterEach(() => dirs.cleanup());

const refusal = (relativeDir: string) =>
  ensureInsideDir(project, relativeDir).then(
    () => "accepted",
    (error: unknown) => errorMessage(error),
  );

describe("ensureInsideDir", () => {
  it("creates the folder and returns its real path", async () => {
    expect(await ensureInsideDir(project, OWN_DIRS.notes)).toBe(join(project, ".marvin", "notes"));
    expect((await stat(join(project, ".marvin", "notes"))).isDirectory()).toBe(true);
    expect(await ensureInsideDir(project, OWN_DIRS.tickets)).toBe(join(project, ".tickets"));
  });

  it("refuses a folder that is a symlink leading outside the working dir, saying what to do", async () => {
    await mkdir(join(project, ".marvin"));
    await symlink(outside, join(project, ".marvin", "notes"));
    const message = await refusal(OWN_DIRS.notes);
    expect(message).toBe(
      `Refusing to use .marvin/notes/: it is a symbolic link (or lies under one) leading outside the working dir ` +
        `${project}, to ${outside}. ` +
        "Marvin keeps its own files inside the working dir: remove that link, or make .marvin/notes a real folder, " +
        "and try again.",
    );
  });

  it(
    "refuses every folder under a .marvin that leads out, and a dangling link out, creating " + "nothing there",
    async () => {
      await symlink(outside, join(project, ".marvin"));
      for (const relativeDir of [OWN_DIRS.logs, OWN_DIRS.reviews, OWN_DIRS.memories])
        expect(await refusal(relativeDir)).toContain("leading outside the working dir");
      await symlink(join(outside, "not-yet"), join(project, ".tickets"));
      expect(await refusal(OWN_DIRS.tickets)).toContain(`to ${join(outside, "not-yet")}`);
      expect(await readdir(outside)).toEqual([]);
    },
  );

  it("checks at every call, so a link made after the folder was first used is caught", async () => {
    await ensureInsideDir(project, OWN_DIRS.logs);
    await rm(join(project, ".marvin", "logs"), { recursive: true });
    await symlink(outside, join(project, ".marvin", "logs"));
    expect(await refusal(OWN_DIRS.logs)).toContain("leading outside the working dir");
  });

  it("accepts a symlink that stays inside the working dir", async () => {
    await mkdir(join(project, "docs", "tickets"), { recursive: true });
    await symlink("docs/tickets", join(project, ".tickets"));
    expect(await ensureInsideDir(project, OWN_DIRS.tickets)).toBe(join(project, "docs", "tickets"));
  });

  it("says when the folder's place is taken by a file", async () => {
    await writeFile(join(project, ".tickets"), "");
    expect(await refusal(OWN_DIRS.tickets)).toBe(
      `.tickets in ${project} exists but is not a folder, so Marvin cannot keep its files there. Move it away first.`,
    );
  });

  it(
    "writes .marvin/.gitignore for the runtime files when it makes a folder under .marvin, never " + "overwriting one",
    async () => {
      await ensureInsideDir(project, OWN_DIRS.reviews);
      expect(await readFile(join(project, ".marvin", ".gitignore"), "utf8")).toBe(MARVIN_GITIGNORE);
      expect(MARVIN_GITIGNORE.split("\n").filter((line) => line && !line.startsWith("#"))).toEqual([
        "/.gitignore",
        "/logs/",
        "/reviews/",
        "*.pid",
      ]);
      await writeFile(join(project, ".marvin", ".gitignore"), "mine\n");
      await ensureInsideDir(project, OWN_DIRS.logs);
      expect(await readFile(join(project, ".marvin", ".gitignore"), "utf8")).toBe("mine\n");
      await ensureInsideDir(project, OWN_DIRS.tickets);
      await expect(stat(join(project, ".tickets", ".gitignore"))).rejects.toThrow();
    },
  );

  it("never writes .marvin/.gitignore through a symlink planted in its place", async () => {
    await mkdir(join(project, ".marvin"));
    await symlink(join(outside, "planted"), join(project, ".marvin", ".gitignore"));
    await ensureInsideDir(project, OWN_DIRS.notes);
    expect(await readdir(outside)).toEqual([]);
  });
});

describe("resolveInsideDir", () => {
  it("checks without creating anything", async () => {
    expect(await resolveInsideDir(project, OWN_DIRS.notes)).toBe(join(project, ".marvin", "notes"));
    await expect(stat(join(project, ".marvin"))).rejects.toThrow();
    await symlink(outside, join(project, ".marvin"));
    await expect(resolveInsideDir(project, OWN_DIRS.notes)).rejects.toThrow("leading outside the working dir");
  });
});

describe("relativeInside", () => {
  it("gives the path relative to the working dir only for folders inside it", async () => {
    expect(await relativeInside(project, join(project, "tasks"))).toBe("tasks");
    expect(await relativeInside(project, project)).toBe(".");
    expect(await relativeInside(project, join(outside, "tasks"))).toBeUndefined();
    expect(await relativeInside(project, `${project}-sibling`)).toBeUndefined();
  });
});
