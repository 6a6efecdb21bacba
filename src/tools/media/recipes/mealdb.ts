import { z } from "zod";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import { type ExternalService, http, type QueryParams } from "../../kit/http/index.js";

const MEALDB: ExternalService = {
  name: "TheMealDB",
  envVar: "MARVIN_MEALDB_URL",
  defaultUrl: "https://www.themealdb.com",
};

/** The free test key "1" is part of TheMealDB's public API path. */
const API = "/api/json/v1/1";

const text = z.string().nullish();

/** A meal as filter.php lists it: name, picture and id only. */
const mealSummary = z.object({ idMeal: z.string(), strMeal: z.string() });

/** A full meal: ingredients and measures sit in twenty numbered slots each, the unused ones "" or null. */
const fullMeal = z
  .object({
    idMeal: z.string(),
    strMeal: z.string(),
    strCategory: text,
    strArea: text,
    strInstructions: text,
    strTags: text,
    strYoutube: text,
    strSource: text,
  })
  .catchall(z.unknown());

/** TheMealDB answers `{"meals": null}` when nothing matches. */
const meals = <Item extends z.ZodType>(item: Item) =>
  z.object({ meals: z.array(item).nullable() }).transform((answer) => answer.meals ?? []);

interface Ingredient {
  name: string;
  /** "1/2 teaspoon"; "" when the recipe gives none. */
  measure: string;
}

export interface Meal {
  id: string;
  name: string;
  category: string;
  area: string;
  tags: string[];
  ingredients: Ingredient[];
  instructions: string;
  video: string;
  source: string;
}

export interface MealSummary {
  id: string;
  name: string;
}

const tidy = (value: unknown) => (typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "");

function ingredientsOf(raw: Record<string, unknown>): Ingredient[] {
  const ingredients: Ingredient[] = [];
  for (let slot = 1; slot <= 20; slot++) {
    const name = tidy(raw[`strIngredient${slot}`]);
    if (name) ingredients.push({ name, measure: tidy(raw[`strMeasure${slot}`]) });
  }
  return ingredients;
}

function toMeal(raw: z.output<typeof fullMeal>): Meal {
  return {
    id: raw.idMeal,
    name: raw.strMeal.trim(),
    category: tidy(raw.strCategory),
    area: tidy(raw.strArea),
    tags: tidy(raw.strTags)
      .split(",")
      .map((tag) => tag.trim())
      .filter(Boolean),
    ingredients: ingredientsOf(raw),
    instructions: (raw.strInstructions ?? "").replace(/\r\n?/g, "\n").trim(),
    video: tidy(raw.strYoutube),
    source: tidy(raw.strSource),
  };
}

function ask<Schema extends z.ZodType>(context: ToolContext, file: string, query: QueryParams, schema: Schema) {
  return http(context).getJson(MEALDB, `${API}/${file}`, query, schema);
}

/** Full meals whose name contains `name`. */
export async function searchMealsByName(context: ToolContext, name: string): Promise<Meal[]> {
  return (await ask(context, "search.php", { s: name }, meals(fullMeal))).map(toMeal);
}

/** Meals with `ingredient` as a main ingredient (TheMealDB spells "chicken breast" as chicken_breast). */
export async function filterMealsByIngredient(context: ToolContext, ingredient: string): Promise<MealSummary[]> {
  const query = { i: ingredient.trim().toLowerCase().replace(/\s+/g, "_") };
  const found = await ask(context, "filter.php", query, meals(mealSummary));
  return found.map((meal) => ({ id: meal.idMeal, name: meal.strMeal.trim() }));
}

/** One meal by its id; a ToolError when TheMealDB has none. */
export async function lookupMeal(context: ToolContext, id: string): Promise<Meal> {
  const wanted = id.trim();
  if (!/^\d+$/.test(wanted)) {
    throw new ToolError(`'${id}' is not a TheMealDB recipe id (a number such as 52771). Find one with recipe_search.`);
  }
  const [found] = await ask(context, "lookup.php", { i: wanted }, meals(fullMeal));
  if (!found) throw new ToolError(`TheMealDB has no recipe with id ${wanted}. Find one with recipe_search.`);
  return toMeal(found);
}
