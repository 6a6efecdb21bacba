import { lstat, readFile, readlink, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../tests/support/fixtures.js";
import { loadOAuthTokens, saveOAuthTokens } from "./oauth-tokens.js";

const SPOTIFY = {
  access_token: "BQD",
  token_type: "Bearer",
  refresh_token: "AQA",
  scope: "x",
  expires_at: 1_800_000_000,
};

describe("OAuth tokens in tokens.json", () => {
  test("are saved per service, owner-only, keeping the other services' entries", async ({ home }) => {
    const path = join(home, "tokens.json");
    await writeFile(path, JSON.stringify({ google: { access_token: "ya29", expires_at: 1 } }), { mode: 0o644 });
    await saveOAuthTokens(path, "spotify", SPOTIFY);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({
      google: { access_token: "ya29", expires_at: 1 },
      spotify: SPOTIFY,
    });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await loadOAuthTokens(path, "spotify")).toEqual(SPOTIFY);
    expect(await loadOAuthTokens(path, "dropbox")).toBeUndefined();
  });

  test("are missing, not an error, when the file is absent or unreadable", async ({ home }) => {
    const path = join(home, "tokens.json");
    expect(await loadOAuthTokens(path, "spotify")).toBeUndefined();
    await writeFile(path, "{not json");
    expect(await loadOAuthTokens(path, "spotify")).toBeUndefined();
  });

  test("replace a symlink instead of writing through it", async ({ home, tempDirs }) => {
    const outside = join(await tempDirs.make("marvin-outside-"), "victim.json");
    await writeFile(outside, "{}");
    const path = join(home, "tokens.json");
    await symlink(outside, path);
    expect(await readlink(path)).toBe(outside);
    await saveOAuthTokens(path, "spotify", SPOTIFY);
    expect((await lstat(path)).isSymbolicLink()).toBe(false);
    expect(await readFile(outside, "utf8")).toBe("{}");
  });
});
