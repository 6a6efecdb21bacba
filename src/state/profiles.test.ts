import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../tests/support/fixtures.js";
import { configPaths, isValidProfileName, profilePaths } from "./paths.js";
import { DEFAULT_PREFERENCES_YAML } from "./preferences.js";
import { DEFAULT_PROFILE, ProfileStore } from "./profiles.js";

/** A profile store over `home`. */
const test = base.extend<{ store: ProfileStore }>({
  store: async ({ home }, use) => use(new ProfileStore(configPaths(home))),
});

const root = (home: string) => join(home, ".config", "local-finder");

describe("the on-disk layout shared with the original Marvin", () => {
  test("puts everything under ~/.config/local-finder", ({ home }) => {
    expect(configPaths(home)).toEqual({
      home,
      root: root(home),
      lastProfile: join(root(home), "last_profile"),
      lspConfig: join(root(home), "lsp.json"),
      usage: join(root(home), "usage.json"),
      profilesDir: join(root(home), "profiles"),
      alarms: join(root(home), "alarms"),
      mcpConfig: join(root(home), "mcp.json"),
      trustedProjects: join(root(home), "trusted_projects.json"),
      createdVenvs: join(root(home), "created_venvs.json"),
      codexSignIn: join(root(home), "codex-auth.json"),
      hooksDir: join(root(home), "hooks"),
      hookCommands: join(root(home), "hooks.json"),
      toolsDir: join(root(home), "tools"),
      commandsDir: join(root(home), "commands"),
      themesDir: join(root(home), "themes"),
    });
    const profile = profilePaths(configPaths(home), "ada");
    const dir = join(root(home), "profiles", "ada");
    expect(profile).toMatchObject({
      dir,
      preferences: join(dir, "preferences.yaml"),
      legacyPreferences: join(dir, "prefs.yaml"),
      savedPlaces: join(dir, "saved_places.json"),
      chatLog: join(dir, "chat_log.json"),
      inputHistory: join(dir, "history"),
      tokens: join(dir, "tokens.json"),
      ntfySubscriptions: join(dir, "ntfy_subscriptions.json"),
      calendar: join(dir, "calendar.ics"),
      sessions: join(dir, "sessions"),
    });
  });
});

describe("the active profile", () => {
  test("is main when last_profile is missing", async ({ store }) => {
    expect(DEFAULT_PROFILE).toBe("main");
    expect(await store.activeName()).toEqual({ value: "main" });
  });

  test("is read from last_profile, ignoring surrounding whitespace", async ({ home, store }) => {
    await mkdir(root(home), { recursive: true });
    await writeFile(join(root(home), "last_profile"), "ada\n");
    expect(await store.activeName()).toEqual({ value: "ada" });
  });

  test("falls back to main when last_profile holds something unsafe", async ({ home, store }) => {
    await mkdir(root(home), { recursive: true });
    await writeFile(join(root(home), "last_profile"), "../../etc");
    expect(await store.activeName()).toEqual({ value: "main" });
  });

  test("moves a directory in place of last_profile aside, says so, and uses main", async ({ home, store }) => {
    await mkdir(join(root(home), "last_profile", "inside"), { recursive: true });
    const active = await store.activeName();
    expect(active.value).toBe("main");
    const aside = (await readdir(root(home))).find((name) => name.startsWith("last_profile.corrupt-"));
    expect(aside).toBeDefined();
    expect(active.warning).toBe(
      `Could not read ${join(root(home), "last_profile")}: it is a directory, not a file. It was moved to ` +
        `${join(root(home), aside!)}; the profile 'main' is used.`,
    );
    await store.setActive("ada");
    expect(await store.activeName()).toEqual({ value: "ada" });
  });

  test("is written by setActive, which creates the profile when it is new", async ({ home, store }) => {
    expect(await store.setActive("bob")).toEqual({ created: true });
    expect(await readFile(join(root(home), "last_profile"), "utf8")).toBe("bob\n");
    expect(await store.activeName()).toEqual({ value: "bob" });
    expect(await store.setActive("bob")).toEqual({ created: false });
  });
});

describe("ensure", () => {
  test("creates the profile directory with default preferences", async ({ store }) => {
    expect(await store.ensure("main")).toEqual({ created: true });
    expect(await readFile(store.paths("main").preferences, "utf8")).toBe(DEFAULT_PREFERENCES_YAML);
    expect(await store.exists("main")).toBe(true);
  });

  test("never touches an existing profile", async ({ store }) => {
    await mkdir(store.paths("main").dir, { recursive: true });
    await writeFile(store.paths("main").preferences, "# mine\nbudget: cheap\n");
    expect(await store.ensure("main")).toEqual({ created: false });
    expect(await readFile(store.paths("main").preferences, "utf8")).toBe("# mine\nbudget: cheap\n");
  });

  test("refuses names that are not one safe path segment", async ({ home, store }) => {
    for (const name of ["", "../evil", "a/b", ".hidden", "x..y", "with space", "a".repeat(65), "a\\b"]) {
      expect(isValidProfileName(name)).toBe(false);
      await expect(store.ensure(name)).rejects.toThrow(
        `Invalid profile name '${name}': use letters, digits, '.', '_' or '-' (max 64 characters).`,
      );
    }
    expect(await readdir(home)).toEqual([]);
    for (const name of ["main", "Ada", "work-2", "kids_room", "v1.2", "a".repeat(64)])
      expect(isValidProfileName(name)).toBe(true);
  });
});

describe("list", () => {
  test("lists profile directories, sorted, skipping stray files and unsafe names", async ({ home, store }) => {
    expect(await store.list()).toEqual([]);
    await store.ensure("zoe");
    await store.ensure("adam");
    await writeFile(join(root(home), "profiles", "notes.txt"), "");
    await mkdir(join(root(home), "profiles", ".cache"));
    expect(await store.list()).toEqual(["adam", "zoe"]);
  });
});
