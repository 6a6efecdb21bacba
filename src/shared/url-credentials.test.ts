import { describe, expect, it } from "vitest";
import { hideUrlCredentials } from "./url-credentials.js";

describe("hideUrlCredentials", () => {
  it("hides a user and password, a user alone, and an unescaped @ in the password", () => {
    expect(hideUrlCredentials("http://user:secret@127.0.0.1:8080/v1")).toBe("http://***@127.0.0.1:8080/v1");
    expect(hideUrlCredentials("https://token@host.example")).toBe("https://***@host.example");
    expect(hideUrlCredentials("https://me:p@ss@host.example/x")).toBe("https://***@host.example/x");
  });

  it("hides every URL's credentials in a message and leaves the rest as it is", () => {
    expect(hideUrlCredentials("Cannot reach a at HTTP://a:b@x/v1; is https://c:d@y/ up? mail me@example.com")).toBe(
      "Cannot reach a at HTTP://***@x/v1; is https://***@y/ up? mail me@example.com",
    );
    expect(hideUrlCredentials("https://host.example/path?to=a@b")).toBe("https://host.example/path?to=a@b");
  });
});
