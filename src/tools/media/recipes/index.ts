import { z } from "zod";
import { loadPreferences } from "../../../state/preferences.js";
import { defineTool, type ToolContext } from "../../kit/define-tool.js";
import { type DietaryCheck, dietaryCheck } from "./dietary.js";
import { formatIngredientSearch, formatMeal, formatNameSearch } from "./format.js";
import { filterMealsByIngredient, lookupMeal, searchMealsByName } from "./mealdb.js";

/** The profile's dietary preferences, ready to check meals against. */
async function profileDiet(context: ToolContext): Promise<DietaryCheck> {
  const { value } = await loadPreferences(context.profiles.paths(context.profileName));
  return dietaryCheck(value);
}

export const recipeTools = [
  defineTool({
    name: "recipe_search",
    description:
      "Find recipes on TheMealDB by dish name or by main ingredient: names, category, cuisine and ids for " +
      "recipe_lookup. Recipes are checked against the profile's dietary preferences and flagged when they clash.",
    parameters: z.object({
      query: z.string().trim().min(1).describe('A dish ("arrabiata") or, with search_type "ingredient", "chicken"'),
      search_type: z.enum(["name", "ingredient"]).default("name"),
    }),
    effect: "read",
    handler: async ({ query, search_type }, context) => {
      const diet = await profileDiet(context);
      if (search_type === "ingredient") {
        return formatIngredientSearch(query, await filterMealsByIngredient(context, query), diet);
      }
      return formatNameSearch(query, await searchMealsByName(context, query), diet);
    },
  }),
  defineTool({
    name: "recipe_lookup",
    description:
      "A full TheMealDB recipe by id: ingredients with measures, instructions, video and source links, and " +
      "whether it suits the profile's dietary preferences.",
    parameters: z.object({ meal_id: z.string().describe("The id from recipe_search, e.g. 52771") }),
    effect: "read",
    handler: async ({ meal_id }, context) => formatMeal(await lookupMeal(context, meal_id), await profileDiet(context)),
  }),
];
