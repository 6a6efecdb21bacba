import { describe, expect } from "../../../../tests/support/fixtures.js";
import type { Handler } from "../../../../tests/support/local-http-server.js";
import {
  ARRABIATA,
  MEALDB_FILTER_CHICKEN,
  MEALDB_NOTHING,
  MEALDB_SEARCH_PASTA,
  mealDbText,
  PASTA_SALAD,
} from "../../../../tests/support/payloads/recipes.js";
import { type ServerFor, test as serviceTest } from "../../../../tests/support/service-fixtures.js";

/** TheMealDB's way of answering: JSON with escaped slashes. */
const mealDb =
  (body: unknown, status = 200, headers: Record<string, string> = {}): Handler =>
  (_request, response) => {
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(mealDbText(body));
  };

const url = (seen: string) => new URL(seen, "http://fixture");

const test = serviceTest.extend<{ setUp: ServerFor }>({
  setUp: async ({ withServer }, use) => use((handler, env) => withServer("MARVIN_MEALDB_URL", handler, env)),
});

describe("recipe_search", () => {
  test("finds recipes by name, with category, cuisine and id", async ({ setUp }) => {
    const { server, harness } = await setUp(mealDb(MEALDB_SEARCH_PASTA));
    expect(await harness.ok("recipe_search", { query: "pasta" })).toBe(
      [
        "TheMealDB recipes named like 'pasta':",
        "1. Mediterranean Pasta Salad (Seafood, Italian) — id 52777",
        "2. Spicy Arrabiata Penne (Vegetarian, Italian) — id 52771",
        "Full recipe: recipe_lookup with the id.",
      ].join("\n"),
    );
    expect(url(server.requests[0]!.url).pathname).toBe("/api/json/v1/1/search.php");
    expect(url(server.requests[0]!.url).searchParams.get("s")).toBe("pasta");
  });

  test("flags recipes that clash with the profile's dietary preferences", async ({ setUp }) => {
    const { harness } = await setUp(mealDb(MEALDB_SEARCH_PASTA));
    await harness.ok("update_preferences", {
      key: "dietary",
      action: "add",
      value: "vegetarian, no olives, low sodium",
    });
    expect(await harness.ok("recipe_search", { query: "pasta" })).toBe(
      [
        "TheMealDB recipes named like 'pasta' (checked against the dietary preferences vegetarian, no olives; " +
          "not checked automatically: low sodium):",
        "1. Mediterranean Pasta Salad (Seafood, Italian) — id 52777",
        "   ⚠ not vegetarian: category Seafood, tuna; not no olives: Green Olives",
        "2. Spicy Arrabiata Penne (Vegetarian, Italian) — id 52771",
        "Full recipe: recipe_lookup with the id.",
      ].join("\n"),
    );
  });

  test("finds recipes by main ingredient, and warns when the ingredient itself clashes", async ({ setUp }) => {
    const { server, harness } = await setUp(mealDb(MEALDB_FILTER_CHICKEN));
    expect(await harness.ok("recipe_search", { query: "Chicken Breast", search_type: "ingredient" })).toBe(
      [
        "TheMealDB recipes with Chicken Breast (2):",
        "1. Brown Stew Chicken — id 52940",
        "2. Teriyaki Chicken Casserole — id 52772",
      ].join("\n"),
    );
    expect(url(server.requests[0]!.url).pathname).toBe("/api/json/v1/1/filter.php");
    expect(url(server.requests[0]!.url).searchParams.get("i")).toBe("chicken_breast");
    await harness.ok("update_preferences", { key: "dietary", action: "add", value: "pescatarian" });
    const flagged = await harness.ok("recipe_search", { query: "chicken", search_type: "ingredient" });
    expect(flagged.split("\n")[1]).toBe("⚠ chicken does not suit the dietary preferences pescatarian.");
  });

  test('says so when TheMealDB answers {"meals": null}', async ({ setUp }) => {
    const { harness } = await setUp(mealDb(MEALDB_NOTHING));
    expect(await harness.ok("recipe_search", { query: "xyzzy" })).toBe(
      "TheMealDB has no recipe named like 'xyzzy'. Try one word of the dish, or search_type \"ingredient\".",
    );
    expect(await harness.ok("recipe_search", { query: "xyzzy", search_type: "ingredient" })).toBe(
      "TheMealDB has no recipe with 'xyzzy' as a main ingredient. Try a simpler name (\"chicken\").",
    );
  });

  test("hands on a server error", async ({ setUp }) => {
    const { server, harness } = await setUp(mealDb({ message: "Server Error" }, 500));
    expect(await harness.failure("recipe_search", { query: "pasta" })).toMatch(
      /^Error in recipe_search: TheMealDB answered HTTP 500 \(Internal Server Error\): "Server Error" — try again/,
    );
    expect(server.requests).toHaveLength(2);
  });

  test("says when TheMealDB limits requests", async ({ setUp }) => {
    const { harness } = await setUp(mealDb({ message: "Too Many Attempts." }, 429, { "retry-after": "120" }));
    expect(await harness.failure("recipe_search", { query: "pasta" })).toBe(
      "Error in recipe_search: TheMealDB is limiting how often Marvin may ask (HTTP 429) — try again in 2m 00s.",
    );
  });

  test("refuses an answer that is not a meal list", async ({ setUp }) => {
    const { harness } = await setUp(mealDb({ meals: "Invalid" }));
    expect(await harness.failure("recipe_search", { query: "pasta" })).toMatch(
      /^Error in recipe_search: TheMealDB sent an answer Marvin does not understand: meals: .*MARVIN_MEALDB_URL=/,
    );
  });

  test("gives up on a server that does not answer", async ({ setUp }) => {
    const { harness } = await setUp(() => undefined, { MARVIN_HTTP_TIMEOUT: "0.3" });
    expect(await harness.failure("recipe_search", { query: "pasta" })).toBe(
      "Error in recipe_search: TheMealDB took longer than 0.3 s to answer — try again in a minute, or ask for less.",
    );
  });
});

describe("recipe_lookup", () => {
  test("takes the id as a number, as models often send it", async ({ setUp }) => {
    const { server, harness } = await setUp(mealDb({ meals: [ARRABIATA] }));
    expect(await harness.ok("recipe_lookup", { meal_id: 52771 })).toMatch(/^Spicy Arrabiata Penne .* id 52771\n/);
    expect(url(server.requests[0]!.url).searchParams.get("i")).toBe("52771");
  });

  test("gives ingredients with measures, skipping the empty and null slots, and the instructions", async ({
    setUp,
  }) => {
    const { server, harness } = await setUp(mealDb({ meals: [ARRABIATA] }));
    expect(await harness.ok("recipe_lookup", { meal_id: "52771" })).toBe(
      [
        "Spicy Arrabiata Penne (Vegetarian, Italian) — id 52771",
        "Tags: Pasta, Curry",
        "Ingredients (8):",
        "- 1 pound penne rigate",
        "- 1/4 cup olive oil",
        "- 3 cloves garlic",
        "- 1 tin chopped tomatoes",
        "- 1/2 teaspoon red chile flakes",
        "- 1/2 teaspoon italian seasoning",
        "- 6 leaves basil",
        "- spinkling Parmigiano-Reggiano",
        "Instructions:",
        "Bring a large pot of water to a boil. Add kosher salt to the boiling water, then add the pasta. Cook " +
          "according to the package instructions, about 9 minutes.",
        "In a large skillet over medium-high heat, add the olive oil and heat until the oil starts to shimmer. Add " +
          "the garlic and cook, stirring, until fragrant, 1 to 2 minutes.",
        "Drain the pasta and add it to the sauce. Garnish with Parmigiano-Reggiano flakes and more basil and serve " +
          "warm.",
        "Video: https://www.youtube.com/watch?v=1IszT_guI08",
      ].join("\n"),
    );
    expect(url(server.requests[0]!.url).pathname).toBe("/api/json/v1/1/lookup.php");
    expect(url(server.requests[0]!.url).searchParams.get("i")).toBe("52771");
  });

  test("says whether the recipe suits the dietary preferences, and tidies stray spaces", async ({ setUp }) => {
    const { harness } = await setUp((request, response) => {
      const id = url(request.url).searchParams.get("i");
      response.writeHead(200, { "content-type": "application/json" });
      response.end(mealDbText({ meals: [id === "52777" ? PASTA_SALAD : ARRABIATA] }));
    });
    await harness.ok("update_preferences", { key: "dietary", action: "set", value: "vegan, gluten-free" });
    const salad = await harness.ok("recipe_lookup", { meal_id: "52777" });
    expect(salad).toContain(
      "⚠ Does not suit the dietary preferences — not vegan: category Seafood, mozzarella balls, tuna; " +
        "not gluten-free: farfalle",
    );
    expect(salad).toContain("- 3 tablespoons extra virgin olive oil\n- 40 g Green Olives");
    expect(salad).toContain("- to taste salt\n- pepper\nInstructions:");
    expect(salad).toContain("Source: https://thelazydish.com/mediterranean-pasta-salad/");
    await harness.ok("update_preferences", { key: "dietary", action: "set", value: "vegetarian" });
    expect((await harness.ok("recipe_lookup", { meal_id: "52771" })).split("\n")[2]).toBe(
      "Suits the dietary preferences vegetarian (by its ingredients)",
    );
  });

  test("says so when no recipe has the id", async ({ setUp }) => {
    const { harness } = await setUp(mealDb(MEALDB_NOTHING));
    expect(await harness.failure("recipe_lookup", { meal_id: "99999" })).toBe(
      "Error in recipe_lookup: TheMealDB has no recipe with id 99999. Find one with recipe_search.",
    );
  });

  test("refuses an id that is not a number without asking", async ({ setUp }) => {
    const { server, harness } = await setUp(mealDb(MEALDB_NOTHING));
    expect(await harness.failure("recipe_lookup", { meal_id: "arrabiata" })).toBe(
      "Error in recipe_lookup: 'arrabiata' is not a TheMealDB recipe id (a number such as 52771). " +
        "Find one with recipe_search.",
    );
    expect(server.requests).toHaveLength(0);
  });

  test("refuses a body that is not JSON, and a meal without its name", async ({ setUp }) => {
    let index = 0;
    const { harness } = await setUp((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(index++ === 0 ? "<html>Cloudflare</html>" : mealDbText({ meals: [{ idMeal: "1" }] }));
    });
    expect(await harness.failure("recipe_lookup", { meal_id: "52771" })).toMatch(
      /TheMealDB sent an answer Marvin does not understand: it sent a web page where JSON was expected/,
    );
    expect(await harness.failure("recipe_lookup", { meal_id: "52771" })).toMatch(
      /TheMealDB sent an answer Marvin does not understand: meals\.0\.strMeal: /,
    );
  });

  test("gives up on a server that does not answer", async ({ setUp }) => {
    const { harness } = await setUp(() => undefined, { MARVIN_HTTP_TIMEOUT: "0.3" });
    expect(await harness.failure("recipe_lookup", { meal_id: "52771" })).toMatch(/TheMealDB took longer than 0\.3 s/);
  });
});
