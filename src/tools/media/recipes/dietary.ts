import type { Preferences } from "../../../state/preferences.js";
import type { Meal } from "./mealdb.js";

/** Why a meal does not suit one dietary preference: "vegetarian: category Chicken, chicken breasts". */
export interface DietaryConflict {
  preference: string;
  reasons: string[];
}

export interface DietaryCheck {
  /** The preferences Marvin can check against an ingredient list. */
  checked: string[];
  /** The ones it cannot (e.g. "low sodium"), to be named so the model judges them itself. */
  unchecked: string[];
  conflicts(meal: Pick<Meal, "category" | "ingredients">): DietaryConflict[];
  /** Which preferences an ingredient alone breaks ("chicken" for a vegetarian). */
  ingredientConflicts(ingredient: string): string[];
}

const MEAT = [
  "beef",
  "chicken",
  "pork",
  "lamb",
  "mutton",
  "goat",
  "veal",
  "bacon",
  "ham",
  "sausage",
  "chorizo",
  "salami",
  "prosciutto",
  "pancetta",
  "turkey",
  "duck",
  "steak",
  "mince",
  "venison",
  "rabbit",
  "lard",
  "suet",
  "gelatine",
  "gelatin",
  "liver",
  "kidney",
  "oxtail",
  "meat",
];
const SHELLFISH = ["prawn", "shrimp", "crab", "lobster", "mussel", "clam", "oyster", "scallop", "squid", "crayfish"];
const FISH = [
  "fish",
  "salmon",
  "tuna",
  "cod",
  "haddock",
  "anchovy",
  "anchovies",
  "sardine",
  "mackerel",
  "trout",
  "monkfish",
  "herring",
  "kipper",
  ...SHELLFISH,
];
const DAIRY = [
  "milk",
  "butter",
  "cheese",
  "cream",
  "yogurt",
  "yoghurt",
  "ghee",
  "parmesan",
  "parmigiano",
  "mozzarella",
  "cheddar",
  "ricotta",
  "mascarpone",
  "feta",
  "buttermilk",
  "creme fraiche",
  "custard",
];
/** Plant ingredients named after dairy ones. */
const PLANT_DAIRY =
  /\b(coconut|almond|soy|soya|oat|rice|peanut|cocoa|nut)\s+(milk|butter|cream|yogurt|yoghurt)\b|\bcream of tartar\b|\bbutter ?beans?\b|\bbutternut\b/;
const ANIMAL = [...DAIRY, "egg", "honey"];
const GLUTEN = [
  "flour",
  "wheat",
  "bread",
  "breadcrumbs",
  "pasta",
  "spaghetti",
  "penne",
  "farfalle",
  "linguine",
  "lasagne",
  "macaroni",
  "noodles",
  "barley",
  "rye",
  "couscous",
  "bulgur",
  "semolina",
  "pastry",
  "soy sauce",
  "beer",
  "tortilla",
  "biscuits",
  "rigatoni",
  "tagliatelle",
  "fusilli",
];
const GLUTEN_FREE_KINDS =
  /\b(rice|corn|almond|coconut|gluten[- ]free|chickpea|buckwheat|potato)\s*(flour|noodles|pasta)\b|\bcornflour\b|\brice noodles\b/;
const NUTS = [
  "nuts",
  "almond",
  "cashew",
  "walnut",
  "pecan",
  "hazelnut",
  "pistachio",
  "peanut",
  "macadamia",
  "pine nuts",
  "brazil nut",
];
const PORK = ["pork", "bacon", "ham", "lard", "prosciutto", "pancetta", "chorizo", "salami", "gelatine", "gelatin"];
const ALCOHOL = ["wine", "beer", "rum", "brandy", "sherry", "vodka", "whisky", "whiskey", "cognac", "marsala", "sake"];

const MEAT_CATEGORIES = ["Beef", "Chicken", "Lamb", "Pork", "Goat"];

interface Rule {
  /** Categories TheMealDB files the meal under that rule it out. */
  categories: string[];
  words: string[];
  /** Ingredients that contain a listed word but are fine ("coconut milk"). */
  except?: RegExp;
}

const RULES: Record<string, Rule> = {
  vegetarian: { categories: [...MEAT_CATEGORIES, "Seafood"], words: [...MEAT, ...FISH] },
  vegan: { categories: [...MEAT_CATEGORIES, "Seafood"], words: [...MEAT, ...FISH, ...ANIMAL], except: PLANT_DAIRY },
  pescatarian: { categories: MEAT_CATEGORIES, words: MEAT },
  "gluten-free": { categories: ["Pasta"], words: GLUTEN, except: GLUTEN_FREE_KINDS },
  "dairy-free": { categories: [], words: DAIRY, except: PLANT_DAIRY },
  "nut-free": { categories: [], words: NUTS },
  halal: { categories: ["Pork"], words: [...PORK, ...ALCOHOL] },
  kosher: { categories: ["Pork"], words: [...PORK, ...SHELLFISH] },
  "shellfish-free": { categories: [], words: SHELLFISH },
};

/** How people write the preferences in preferences.yaml, mapped to a rule. */
const ALIASES: Array<[RegExp, string]> = [
  [/^(vegetarian|veggie|no meat)$/, "vegetarian"],
  [/^(vegan|plant[- ]based)$/, "vegan"],
  [/^(pescatarian|pescetarian)$/, "pescatarian"],
  [/^(gluten[- ]?free|no gluten|coeliac|celiac|gluten allergy)$/, "gluten-free"],
  [/^(dairy[- ]?free|no dairy|lactose[- ]free|lactose intolerant|lactose intolerance|dairy allergy)$/, "dairy-free"],
  [/^(nut[- ]?free|no nuts|nut allergy|peanut allergy|tree nut allergy|allergic to nuts)$/, "nut-free"],
  [/^halal$/, "halal"],
  [/^kosher$/, "kosher"],
  [/^(shellfish[- ]free|no shellfish|shellfish allergy|allergic to shellfish)$/, "shellfish-free"],
];

/** "no mushrooms", "mushroom-free", "avoid mushrooms", "allergic to mushrooms" → "mushroom". */
const AVOIDED_INGREDIENT =
  /^(?:no|avoid|without|allergic to)\s+([a-z][a-z -]*?)$|^([a-z][a-z -]*?)(?:[- ]free| allergy)$/;

function ruleFor(preference: string): Rule | undefined {
  const key = preference.toLowerCase().trim();
  const alias = ALIASES.find(([pattern]) => pattern.test(key));
  if (alias) return RULES[alias[1]];
  const avoided = AVOIDED_INGREDIENT.exec(key);
  const word = (avoided?.[1] ?? avoided?.[2])?.replace(/(es|s)$/, "");
  return word ? { categories: [], words: [word] } : undefined;
}

const wordPattern = (word: string) => new RegExp(`\\b${word.replace(/[-/\\^$*+?.()|[\]{}]/g, "\\$&")}(e?s)?\\b`);

function breaks(rule: Rule, ingredient: string): boolean {
  const name = ingredient.toLowerCase();
  if (rule.except?.test(name)) return false;
  return rule.words.some((word) => wordPattern(word).test(name));
}

/** The profile's dietary preferences (`dietary:` in preferences.yaml, a list or comma-separated text). */
function dietaryPreferences(preferences: Preferences): string[] {
  const raw = preferences.dietary;
  const items = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : [];
  return items.map((item) => String(item).trim()).filter(Boolean);
}

export function dietaryCheck(preferences: Preferences): DietaryCheck {
  const rules = new Map<string, Rule>();
  const unchecked: string[] = [];
  for (const preference of dietaryPreferences(preferences)) {
    const rule = ruleFor(preference);
    if (rule) rules.set(preference, rule);
    else unchecked.push(preference);
  }
  return {
    checked: [...rules.keys()],
    unchecked,
    conflicts: (meal) =>
      [...rules].flatMap(([preference, rule]) => {
        const category = meal.category && rule.categories.includes(meal.category) ? [`category ${meal.category}`] : [];
        const reasons = [
          ...category,
          ...meal.ingredients.filter((item) => breaks(rule, item.name)).map((item) => item.name),
        ];
        return reasons.length ? [{ preference, reasons }] : [];
      }),
    ingredientConflicts: (ingredient) =>
      [...rules].filter(([, rule]) => breaks(rule, ingredient.replace(/_/g, " "))).map(([preference]) => preference),
  };
}
