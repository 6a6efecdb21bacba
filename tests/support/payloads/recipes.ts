/**
 * TheMealDB /api/json/v1/1 answers as the real service sends them: every value a string, escaped
 * slashes ("https:\/\/…"), all twenty strIngredientN/strMeasureN slots present, the unused ones ""
 * or null, measures with stray spaces, instructions with "\r\n", and {"meals": null} for nothing found.
 */

type Meal = Record<string, string | null>;

/** A full meal record: `ingredients` fills the first slots, the rest are "" up to `emptyUntil`, then null. */
function meal(fields: Meal, ingredients: Array<[string, string]>, emptyUntil = 15): Meal {
  const record: Meal = { ...fields };
  for (let slot = 1; slot <= 20; slot++) {
    const filler = slot <= emptyUntil ? "" : null;
    record[`strIngredient${slot}`] = ingredients[slot - 1]?.[0] ?? filler;
  }
  for (let slot = 1; slot <= 20; slot++) {
    const filler = slot <= emptyUntil ? "" : null;
    record[`strMeasure${slot}`] = ingredients[slot - 1]?.[1] ?? filler;
  }
  return {
    ...record,
    strSource: fields.strSource ?? null,
    strImageSource: null,
    strCreativeCommonsConfirmed: null,
    dateModified: null,
  };
}

export const ARRABIATA = meal(
  {
    idMeal: "52771",
    strMeal: "Spicy Arrabiata Penne",
    strDrinkAlternate: null,
    strCategory: "Vegetarian",
    strArea: "Italian",
    strInstructions:
      "Bring a large pot of water to a boil. Add kosher salt to the boiling water, then add the pasta. Cook " +
      "according to the package instructions, about 9 minutes.\r\nIn a large skillet over medium-high heat, add the " +
      "olive oil and heat until the oil starts to shimmer. Add the garlic and cook, stirring, until fragrant, 1 to 2 " +
      "minutes.\r\nDrain the pasta and add it to the sauce. Garnish with Parmigiano-Reggiano flakes and more basil " +
      "and serve warm.",
    strMealThumb: "https://www.themealdb.com/images/media/meals/ustsqw1468250014.jpg",
    strTags: "Pasta,Curry",
    strYoutube: "https://www.youtube.com/watch?v=1IszT_guI08",
  },
  [
    ["penne rigate", "1 pound"],
    ["olive oil", "1/4 cup"],
    ["garlic", "3 cloves"],
    ["chopped tomatoes", "1 tin "],
    ["red chile flakes", "1/2 teaspoon"],
    ["italian seasoning", "1/2 teaspoon"],
    ["basil", "6 leaves"],
    ["Parmigiano-Reggiano", "spinkling"],
  ],
);

export const PASTA_SALAD = meal(
  {
    idMeal: "52777",
    strMeal: "Mediterranean Pasta Salad",
    strDrinkAlternate: null,
    strCategory: "Seafood",
    strArea: "Italian",
    strInstructions:
      "Bring a large saucepan of salted water to the boil\r\nAdd the pasta, stir once and cook for about 10 " +
      "minutes.\r\nAdd the sliced olives, drained mozzarella balls, and chunks of tuna.",
    strMealThumb: "https://www.themealdb.com/images/media/meals/wvqpwt1468339226.jpg",
    strTags: "Pasta,Baking",
    strYoutube: "https://www.youtube.com/watch?v=e52IL8zYmaE",
    strSource: "https://thelazydish.com/mediterranean-pasta-salad/",
  },
  [
    ["mozzarella balls", "200 g"],
    ["baby plum tomatoes", "250 g"],
    ["fresh basil", "1 bunch"],
    ["farfalle", "350 g"],
    ["extra virgin olive oil", "3  tablespoons"],
    ["Green Olives", "40 g"],
    ["tuna", "200 g"],
    ["salt", "to taste"],
    ["pepper", " "],
  ],
);

export const TERIYAKI_CASSEROLE = meal(
  {
    idMeal: "52772",
    strMeal: "Teriyaki Chicken Casserole",
    strDrinkAlternate: null,
    strCategory: "Chicken",
    strArea: "Japanese",
    strInstructions: "Preheat oven to 350\u00b0 F.\r\nPlace the chicken breasts in the prepared pan.",
    strMealThumb: "https://www.themealdb.com/images/media/meals/wvpsxx1468256321.jpg",
    strTags: "Meat,Casserole",
    strYoutube: "",
  },
  [
    ["soy sauce", "3/4 cup"],
    ["water", "1/2 cup"],
    ["brown sugar", "1/4 cup"],
    ["chicken breasts", "2"],
    ["stir-fry vegetables", "1 (12 oz.)"],
    ["brown rice", "3 cups"],
  ],
);

export const MEALDB_SEARCH_PASTA = { meals: [PASTA_SALAD, ARRABIATA] };

export const MEALDB_FILTER_CHICKEN = {
  meals: [
    {
      strMeal: "Brown Stew Chicken",
      strMealThumb: "https://www.themealdb.com/images/media/meals/sypxpx1515365095.jpg",
      idMeal: "52940",
    },
    {
      strMeal: "Teriyaki Chicken Casserole",
      strMealThumb: "https://www.themealdb.com/images/media/meals/wvpsxx1468256321.jpg",
      idMeal: "52772",
    },
  ],
};

export const MEALDB_NOTHING = { meals: null };

/** JSON as TheMealDB's PHP writes it: forward slashes escaped. */
export function mealDbText(body: unknown): string {
  return JSON.stringify(body).replaceAll("/", "\\/");
}
