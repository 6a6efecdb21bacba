import type { DietaryCheck, DietaryConflict } from "./dietary.js";
import type { Meal, MealSummary } from "./mealdb.js";

/** Lists longer than this are cut, with a count of the rest. */
const MAX_LISTED = 25;

function conflictText(conflicts: DietaryConflict[]): string {
  return conflicts.map(({ preference, reasons }) => `not ${preference}: ${reasons.join(", ")}`).join("; ");
}

/** One line on what the dietary check covered, or "" when the profile has no dietary preferences. */
function checkedLine(diet: DietaryCheck): string {
  const parts: string[] = [];
  if (diet.checked.length) parts.push(`checked against the dietary preferences ${diet.checked.join(", ")}`);
  if (diet.unchecked.length) parts.push(`not checked automatically: ${diet.unchecked.join(", ")}`);
  return parts.length ? `(${parts.join("; ")})` : "";
}

function capped(lines: string[]): string[] {
  if (lines.length <= MAX_LISTED) return lines;
  return [...lines.slice(0, MAX_LISTED), `… and ${lines.length - MAX_LISTED} more`];
}

function about(meal: Meal): string {
  const parts = [meal.category, meal.area].filter(Boolean).join(", ");
  return parts ? ` (${parts})` : "";
}

export function formatNameSearch(query: string, meals: Meal[], diet: DietaryCheck): string {
  if (meals.length === 0) {
    return `TheMealDB has no recipe named like '${query}'. Try one word of the dish, or search_type "ingredient".`;
  }
  const lines = meals.map((meal, index) => {
    const conflicts = diet.conflicts(meal);
    const warning = conflicts.length ? `\n   ⚠ ${conflictText(conflicts)}` : "";
    return `${index + 1}. ${meal.name}${about(meal)} — id ${meal.id}${warning}`;
  });
  const checked = checkedLine(diet);
  const heading = `TheMealDB recipes named like '${query}'${checked ? ` ${checked}` : ""}:`;
  return [heading, ...capped(lines), "Full recipe: recipe_lookup with the id."].join("\n");
}

export function formatIngredientSearch(ingredient: string, meals: MealSummary[], diet: DietaryCheck): string {
  if (meals.length === 0) {
    return `TheMealDB has no recipe with '${ingredient}' as a main ingredient. Try a simpler name ("chicken").`;
  }
  const notes: string[] = [];
  const broken = diet.ingredientConflicts(ingredient);
  if (broken.length) notes.push(`⚠ ${ingredient} does not suit the dietary preferences ${broken.join(", ")}.`);
  else if (diet.checked.length || diet.unchecked.length) {
    const all = [...diet.checked, ...diet.unchecked].join(", ");
    notes.push(`Not yet checked against the dietary preferences (${all}): recipe_lookup checks each recipe.`);
  }
  const lines = meals.map((meal, index) => `${index + 1}. ${meal.name} — id ${meal.id}`);
  return [`TheMealDB recipes with ${ingredient} (${meals.length}):`, ...notes, ...capped(lines)].join("\n");
}

function dietaryVerdict(meal: Meal, diet: DietaryCheck): string[] {
  const lines: string[] = [];
  const conflicts = diet.conflicts(meal);
  if (conflicts.length) lines.push(`⚠ Does not suit the dietary preferences — ${conflictText(conflicts)}`);
  else if (diet.checked.length)
    lines.push(`Suits the dietary preferences ${diet.checked.join(", ")} (by its ingredients)`);
  if (diet.unchecked.length) lines.push(`Check yourself against: ${diet.unchecked.join(", ")}`);
  return lines;
}

export function formatMeal(meal: Meal, diet: DietaryCheck): string {
  const ingredients = meal.ingredients.map(({ name, measure }) => `- ${measure ? `${measure} ` : ""}${name}`);
  return [
    `${meal.name}${about(meal)} — id ${meal.id}`,
    ...(meal.tags.length ? [`Tags: ${meal.tags.join(", ")}`] : []),
    ...dietaryVerdict(meal, diet),
    `Ingredients (${meal.ingredients.length}):`,
    ...ingredients,
    "Instructions:",
    meal.instructions || "(none given)",
    ...(meal.video ? [`Video: ${meal.video}`] : []),
    ...(meal.source ? [`Source: ${meal.source}`] : []),
  ].join("\n");
}
