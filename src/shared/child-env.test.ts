import { describe, expect, it } from "vitest";
import { ORDINARY_VALUE_SAMPLES, SECRET_VALUE_SAMPLES } from "../../tests/support/secrets.js";
import { childEnvWith, toolChildEnv } from "./child-env.js";
import { isSecretValue } from "./secret-values.js";

describe("credentials recognised by their value", () => {
  it("takes URLs with a password, well-known key and token shapes and random-looking words for secrets", () => {
    for (const [name, value] of Object.entries(SECRET_VALUE_SAMPLES)) expect(isSecretValue(value), name).toBe(true);
  });

  it("leaves paths, colour settings, hashes, ids, URLs without a password and long names alone", () => {
    for (const [name, value] of Object.entries(ORDINARY_VALUE_SAMPLES)) expect(isSecretValue(value), name).toBe(false);
  });

  it("keeps every such value out of a tool's environment, and only the ones named out of a provider's", () => {
    const parent = { HOME: "/home/u", ...ORDINARY_VALUE_SAMPLES, ...SECRET_VALUE_SAMPLES };
    expect(toolChildEnv(parent)).toEqual({ HOME: "/home/u", ...ORDINARY_VALUE_SAMPLES });
    expect(childEnvWith(parent, ["DATABASE_URL"])).toEqual({
      HOME: "/home/u",
      ...ORDINARY_VALUE_SAMPLES,
      DATABASE_URL: SECRET_VALUE_SAMPLES.DATABASE_URL,
    });
  });
});
