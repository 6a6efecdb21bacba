import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import { errorMessage } from "../shared/error-message.js";
import { ensureInsideDir, MARVIN_GITIGNORE, OWN_DIRS, relativeInside, resolveInsideDir } from "./own-dirs.js";

const test = base.extend<{
  /** The working dir. */
  project: string;
  /** A folder outside it. */
  outside: string;
  /** The message with which `ensureInsideDir(project, relativeDir)` is refused, or "accepted". */
  refusal: (relativeDir: string) => Promise<string>;
}>({
  project: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-own-dirs-")),
  outside: async ({ tempDirs }, use) => use(await tempDirs.make("marvin-outside-")),
  refusal: async ({ project }, use) =>
    use((relativeDir) =>
      ensureInsideDir(project, relativeDir).then(
        () => "accepted",
        (error: unknown) => errorMessage(error),
      ),
    ),
});

describe("ensureInsideDir", () => {
  test("creates the folder and returns its real path", async ({ project }) => {
    expect(await ensureInsideDir(project, OWN_DIRS.notes)).toBe(join(project, ".marvin", "notes"));
    expect((await stat(join(project, ".marvin", "notes"))).isDirectory()).toBe(true);
    expect(await ensureInsideDir(project, OWN_DIRS.tickets)).toBe(join(project, ".tickets"));
  });

  test("refuses a folder that is a symlink leading outside the working dir, saying what to do", async ({
    project,
    outside,
    refusal,
  }) => {
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

  test(
    "refuses every folder under a .marvin that leads out, and a dangling link out, creating " + "nothing there",
    async ({ project, outside, refusal }) => {
      await symlink(outside, join(project, ".marvin"));
      for (const relativeDir of [OWN_DIRS.logs, OWN_DIRS.reviews, OWN_DIRS.memories])
        expect(await refusal(relativeDir)).toContain("leading outside the working dir");
      await symlink(join(outside, "not-yet"), join(project, ".tickets"));
      expect(await refusal(OWN_DIRS.tickets)).toContain(`to ${join(outside, "not-yet")}`);
      expect(await readdir(outside)).toEqual([]);
    },
  );

  test("checks at every call, so a link made after the folder was first used is caught", async ({
    project,
    outside,
    refusal,
  }) => {
    await ensureInsideDir(project, OWN_DIRS.logs);
    await rm(join(project, ".marvin", "logs"), { recursive: true });
    await symlink(outside, join(project, ".marvin", "logs"));
    expect(await refusal(OWN_DIRS.logs)).toContain("leading outside the working dir");
  });

  test("accepts a symlink that stays inside the working dir", async ({ project }) => {
    await mkdir(join(project, "docs", "tickets"), { recursive: true });
    await symlink("docs/tickets", join(project, ".tickets"));
    expect(await ensureInsideDir(project, OWN_DIRS.tickets)).toBe(join(project, "docs", "tickets"));
  });

  test("says when the folder's place is taken by a file", async ({ project, refusal }) => {
    await writeFile(join(project, ".tickets"), "");
    expect(await refusal(OWN_DIRS.tickets)).toBe(
      `.tickets in ${project} exists but is not a folder, so Marvin cannot keep its files there. Move it away first.`,
    );
  });

  test(
    "writes .marvin/.gitignore for the runtime files when it makes a folder under .marvin, never " + "overwriting one",
    async ({ project }) => {
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

  test("never writes .marvin/.gitignore through a symlink planted in its place", async ({ project, outside }) => {
    await mkdir(join(project, ".marvin"));
    await symlink(join(outside, "planted"), join(project, ".marvin", ".gitignore"));
    await ensureInsideDir(project, OWN_DIRS.notes);
    expect(await readdir(outside)).toEqual([]);
  });
});

describe("resolveInsideDir", () => {
  test("checks without creating anything", async ({ project, outside }) => {
    expect(await resolveInsideDir(project, OWN_DIRS.notes)).toBe(join(project, ".marvin", "notes"));
    await expect(stat(join(project, ".marvin"))).rejects.toThrow();
    await symlink(outside, join(project, ".marvin"));
    await expect(resolveInsideDir(project, OWN_DIRS.notes)).rejects.toThrow("leading outside the working dir");
  });
});

describe("relativeInside", () => {
  test("gives the path relative to the working dir only for folders inside it", async ({ project, outside }) => {
    expect(await relativeInside(project, join(project, "tasks"))).toBe("tasks");
    expect(await relativeInside(project, project)).toBe(".");
    expect(await relativeInside(project, join(outside, "tasks"))).toBeUndefined();
    expect(await relativeInside(project, `${project}-sibling`)).toBeUndefined();
  });
});
