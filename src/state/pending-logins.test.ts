import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../tests/support/fixtures.js";
import { clearPendingLogin, loadPendingLogin, savePendingLogin } from "./pending-logins.js";

const login = (state: string) => ({
  url: `https://accounts.spotify.com/authorize?state=${state}`,
  state,
  verifier: `verifier-of-${state}`,
  client_id: "client",
  redirect_uri: "http://127.0.0.1:8888/callback",
  expires_at: 1_800_000_000_000,
});

describe("pending logins in pending_logins.json", () => {
  test("are kept per service, owner-only, and cleared only by the login they belong to", async ({ home }) => {
    const path = join(home, "pending_logins.json");
    await savePendingLogin(path, "spotify", login("first"));
    await savePendingLogin(path, "google", login("other-service"));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await savePendingLogin(path, "spotify", login("second"));
    await clearPendingLogin(path, "spotify", "first");
    expect(await loadPendingLogin(path, "spotify")).toEqual(login("second"));
    await clearPendingLogin(path, "spotify", "second");
    expect(await loadPendingLogin(path, "spotify")).toBeUndefined();
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ google: login("other-service") });
  });

  test("are missing when the entry lacks what finishing needs", async ({ home }) => {
    const path = join(home, "pending_logins.json");
    const { verifier: _, ...withoutVerifier } = login("first");
    await writeFile(path, JSON.stringify({ spotify: withoutVerifier }));
    expect(await loadPendingLogin(path, "spotify")).toBeUndefined();
  });
});
