import { describe, expect, it } from "vitest";
import { requireWorkingDir } from "../../kit/require-working-dir.js";

describe("requireWorkingDir", () => {
  it("returns the working dir or tells the model to call set_working_dir", () => {
    expect(requireWorkingDir({ workingDir: "/home/ada/app" })).toBe("/home/ada/app");
    expect(() => requireWorkingDir({ workingDir: null })).toThrow(/set_working_dir/);
  });
});
