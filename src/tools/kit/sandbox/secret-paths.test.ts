import { describe, expect, it } from "vitest";
import { secretPaths } from "./secret-paths.js";

describe("secret paths", () => {
  it("hide the ChatGPT sign-ins: codex's (also where CODEX_HOME moves it) and Marvin's own", () => {
    const paths = secretPaths("/home/me", { CODEX_HOME: "/srv/codex" });
    expect(paths).toEqual(
      expect.arrayContaining([
        "/home/me/.codex",
        "/srv/codex",
        "/home/me/.config/local-finder/codex-auth.json",
        "/home/me/.config/local-finder/profiles",
      ]),
    );
  });
});
