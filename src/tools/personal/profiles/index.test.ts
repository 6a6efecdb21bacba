import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { userWords } from "../../../../tests/support/llm-server.js";

const root = (home: string) => join(home, ".config", "local-finder");
const profileDir = (home: string, name: string) => join(root(home), "profiles", name);

describe("switch_profile", () => {
  test("creates a new profile with default preferences, makes it active and remembers it", async ({
    harnesses,
    home,
  }) => {
    const { call, session } = await harnesses.open({ home });
    const outcome = await call("switch_profile", { profile_name: "work" });
    expect(outcome).toEqual({
      isError: false,
      result: "Switched to profile 'work' (new profile created). Profiles: main, work.",
    });
    expect(session.profileName).toBe("work");
    expect(await readFile(join(root(home), "last_profile"), "utf8")).toBe("work\n");
    expect(await readFile(join(profileDir(home, "work"), "preferences.yaml"), "utf8")).toContain(
      "# Marvin preferences",
    );
    expect((await call("switch_profile", { profile_name: "main" })).result).toBe(
      "Switched to profile 'main'. Profiles: main, work.",
    );
  });

  test("reloads the profile's state: the next request sees its preferences, places and history", async ({
    harnesses,
    llm,
    home,
  }) => {
    await mkdir(profileDir(home, "ada"), { recursive: true });
    await writeFile(join(profileDir(home, "ada"), "preferences.yaml"), "dietary: [pescatarian]\n");
    await writeFile(
      join(profileDir(home, "ada"), "saved_places.json"),
      JSON.stringify([
        { label: "studio", name: "", address: "5 Art Lane", phone: "", website: "", lat: 0, lng: 0, notes: "" },
      ]),
    );
    await writeFile(
      join(profileDir(home, "ada"), "chat_log.json"),
      JSON.stringify([{ role: "you", text: "remember my studio", time: "07:30" }]),
    );
    const server = await llm([{ text: "hello Ada" }]);
    const { call, session } = await harnesses.open({ home, llmUrl: server.url });
    expect((await call("switch_profile", { profile_name: "ada" })).result).toBe(
      "Switched to profile 'ada'. Profiles: ada, main.",
    );
    await session.submit("hi");
    const [system, ...rest] = server.requests[0]!.body.messages;
    expect(system!.content).toContain("Active profile: ada");
    expect(system!.content).toContain("- pescatarian");
    expect(system!.content).toContain("- studio: 5 Art Lane");
    expect(system!.content).toContain("[07:30] you: remember my studio");
    expect(userWords(rest.at(-1)!.content)).toBe("hi");
    expect(JSON.parse(await readFile(join(profileDir(home, "ada"), "chat_log.json"), "utf8")).at(-1)).toMatchObject({
      role: "assistant",
      text: "hello Ada",
    });
  });

  test("says so when the profile is already active", async ({ harnesses, home }) => {
    const { call } = await harnesses.open({ home });
    expect((await call("switch_profile", { profile_name: "main" })).result).toBe("Profile 'main' is already active.");
  });

  test("refuses names that are not a safe directory name, creating nothing", async ({ harnesses, home }) => {
    const { call, session } = await harnesses.open({ home });
    const outcome = await call("switch_profile", { profile_name: "../../etc" });
    expect(outcome.result).toBe(
      "Invalid profile name '../../etc': use letters, digits, '.', '_' or '-' (max 64 characters).",
    );
    expect(session.profileName).toBe("main");
    expect(await readdir(join(root(home), "profiles"))).toEqual(["main"]);
  });
});

describe("update_preferences", () => {
  const COMMENTED = "# Ada's preferences\ndietary: [vegetarian] # strict\nbudget: moderate # per person\n";

  test("keeps every preference when one answer sets several at once", async ({ harnesses, home }) => {
    const { call } = await harnesses.open({ home });
    const settings = { budget: "cheap", units: "imperial", has_car: "false", cuisine: "thai" };
    await Promise.all(Object.entries(settings).map(([key, value]) => call("update_preferences", { key, value })));
    const text = await readFile(join(profileDir(home, "main"), "preferences.yaml"), "utf8");
    for (const [key, value] of Object.entries(settings)) expect(text).toMatch(new RegExp(`^${key}: ${value}`, "m"));
  });

  test("sets, adds and removes values in preferences.yaml, keeping the comments", async ({ harnesses, home }) => {
    await mkdir(profileDir(home, "main"), { recursive: true });
    await writeFile(join(profileDir(home, "main"), "preferences.yaml"), COMMENTED);
    const { call } = await harnesses.open({ home });
    expect((await call("update_preferences", { key: "budget", value: "cheap" })).result).toBe(
      "Preferences of 'main' updated: budget set to \"cheap\".",
    );
    expect((await call("update_preferences", { key: "dietary", action: "add", value: "gluten-free" })).result).toBe(
      "Preferences of 'main' updated: added gluten-free to dietary.",
    );
    expect((await call("update_preferences", { key: "dietary", action: "remove", value: "vegetarian" })).result).toBe(
      "Preferences of 'main' updated: removed vegetarian from dietary.",
    );
    const text = await readFile(join(profileDir(home, "main"), "preferences.yaml"), "utf8");
    expect(text).toContain("# Ada's preferences");
    expect(text).toContain("# strict");
    expect(text).toContain("budget: cheap # per person");
    expect(text).toContain("gluten-free");
    expect(text).not.toContain("vegetarian");
  });

  test("writes to the active profile, creating its file from the defaults", async ({ harnesses, home }) => {
    const { call } = await harnesses.open({ home });
    await call("switch_profile", { profile_name: "kid" });
    await call("update_preferences", { key: "max_distance_km", value: "3" });
    const text = await readFile(join(profileDir(home, "kid"), "preferences.yaml"), "utf8");
    expect(text).toContain("max_distance_km: 3");
    expect(text).toContain("spice_tolerance: medium");
  });

  test("rejects an unknown action with the allowed ones", async ({ harnesses, home }) => {
    const { call } = await harnesses.open({ home });
    const outcome = await call("update_preferences", { key: "budget", action: "append", value: "x" });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("- action:");
    expect(outcome.result).toContain('"set" | "add" | "remove"');
  });

  test("refuses to overwrite a preferences file it cannot parse", async ({ harnesses, home }) => {
    await mkdir(profileDir(home, "main"), { recursive: true });
    await writeFile(join(profileDir(home, "main"), "preferences.yaml"), "dietary: [unclosed\n");
    const { call } = await harnesses.open({ home });
    const outcome = await call("update_preferences", { key: "budget", value: "cheap" });
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toContain("is not valid YAML; fix it");
  });
});
