import { describe, expect, it } from "vitest";
import { dietaryCheck } from "./dietary.js";

const meal = (category: string, ...names: string[]) => ({
  category,
  ingredients: names.map((name) => ({ name, measure: "" })),
});

describe("dietaryCheck", () => {
  it("reads a list or comma-separated text, and names what it cannot check", () => {
    expect(dietaryCheck({ dietary: ["Vegetarian", "low sodium"] })).toMatchObject({
      checked: ["Vegetarian"],
      unchecked: ["low sodium"],
    });
    expect(dietaryCheck({ dietary: "vegan, nut allergy" }).checked).toEqual(["vegan", "nut allergy"]);
    expect(dietaryCheck({}).checked).toEqual([]);
  });

  it("matches whole words, so look-alikes pass", () => {
    const diet = dietaryCheck({ dietary: ["vegetarian", "nut-free", "dairy-free", "vegan"] });
    const lookAlikes = meal(
      "Side",
      "minced garlic",
      "nutmeg",
      "coconut milk",
      "butternut squash",
      "eggplant",
      "hamburger buns",
    );
    expect(diet.conflicts(lookAlikes)).toEqual([]);
    const real = meal("Dessert", "Butter", "Eggs", "chopped walnuts", "Chicken Stock");
    expect(diet.conflicts(real)).toEqual([
      { preference: "vegetarian", reasons: ["Chicken Stock"] },
      { preference: "nut-free", reasons: ["chopped walnuts"] },
      { preference: "dairy-free", reasons: ["Butter"] },
      { preference: "vegan", reasons: ["Butter", "Eggs", "Chicken Stock"] },
    ]);
  });

  it("turns 'no X', 'X-free' and 'allergic to X' into an ingredient to avoid", () => {
    const diet = dietaryCheck({ dietary: ["no mushrooms", "sugar-free", "allergic to tomatoes"] });
    expect(diet.conflicts(meal("Beef", "Mushrooms", "brown sugar", "chopped tomatoes", "rice"))).toEqual([
      { preference: "no mushrooms", reasons: ["Mushrooms"] },
      { preference: "sugar-free", reasons: ["brown sugar"] },
      { preference: "allergic to tomatoes", reasons: ["chopped tomatoes"] },
    ]);
    expect(diet.ingredientConflicts("mushroom")).toEqual(["no mushrooms"]);
  });

  it("judges the category too, and knows gluten-free flours", () => {
    const diet = dietaryCheck({ dietary: ["pescatarian", "gluten free"] });
    expect(diet.conflicts(meal("Seafood", "rice flour", "prawns"))).toEqual([]);
    expect(diet.conflicts(meal("Lamb", "plain flour"))).toEqual([
      { preference: "pescatarian", reasons: ["category Lamb"] },
      { preference: "gluten free", reasons: ["plain flour"] },
    ]);
  });
});
