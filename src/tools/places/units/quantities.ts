import type { Unit } from "mathjs";
import { ToolError } from "../../kit/define-tool.js";

/** Names people and models use that math.js spells differently; exact spelling first (MB is not Mb). */
const SYMBOL_ALIASES: Record<string, string> = {
  C: "degC",
  F: "degF",
  KB: "kB",
  µg: "ug",
  µm: "um",
  µs: "us",
};

const WORD_ALIASES: Record<string, string> = {
  "°c": "degC",
  celsius: "degC",
  "degrees celsius": "degC",
  "°f": "degF",
  fahrenheit: "degF",
  "degrees fahrenheit": "degF",
  mph: "mi/h",
  kph: "km/h",
  kmh: "km/h",
  "km/hr": "km/h",
  "mi/hr": "mi/h",
  ha: "hectare",
  hectares: "hectare",
  pound: "lb",
  pounds: "lb",
  tsp: "teaspoon",
  tbsp: "tablespoon",
  kilocalories: "kcal",
  "sq ft": "ft^2",
  "sq m": "m^2",
  "sq km": "km^2",
  "sq mi": "mi^2",
};

/** math.js lacks these; created once on the private instance. */
const EXTRA_UNITS = {
  knot: { definition: "1852 m/h", aliases: ["knots", "kn", "kt"] },
  nauticalmile: { definition: "1852 m", aliases: ["nmi", "nauticalmiles"] },
  calorie: { definition: "4.184 J", aliases: ["cal", "calories"], prefixes: "short" },
};

/** Quantity names for math.js dimension vectors (mass, length, time, current, temperature, …, bit). */
const KINDS: Record<string, string> = {
  "010000000": "length",
  "020000000": "area",
  "030000000": "volume",
  "100000000": "mass",
  "001000000": "time",
  "000010000": "temperature",
  "000000001": "data",
  "01-1000000": "speed",
  "12-2000000": "energy",
  "12-3000000": "power",
  "1-1-2000000": "pressure",
};

type UnitFactory = (value: number, name: string) => Unit;
let factory: Promise<UnitFactory> | undefined;

/** math.js is large; it is loaded on the first conversion, not at start-up. */
function unitFactory(): Promise<UnitFactory> {
  factory ??= import("mathjs").then(({ create, unitDependencies, createUnitDependencies }) => {
    // Only units: the rest of math.js (matrices, the expression parser) stays out of the bundle.
    const math = create({ unitDependencies: unitDependencies!, createUnitDependencies: createUnitDependencies! });
    math.createUnit(EXTRA_UNITS);
    return (value, name) => math.unit(value, name);
  });
  return factory;
}

/** The unit text as math.js spells it: aliases, "m²"/"m2"/"square meters" as m^2, British "metre". */
function normalizeUnit(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, " ");
  const alias = SYMBOL_ALIASES[trimmed] ?? WORD_ALIASES[trimmed.toLowerCase()];
  if (alias) return alias;
  return trimmed
    .replace(/metre/gi, "meter")
    .replace(/²/g, "^2")
    .replace(/³/g, "^3")
    .replace(/^(?:square|sq\.?) (.+)$/i, "$1^2")
    .replace(/^(?:cubic|cu\.?) (.+)$/i, "$1^3")
    .replace(/^([a-z]+)([23])$/i, "$1^$2");
}

function kindOf(unit: Unit): string | undefined {
  return KINDS[unit.dimensions.join("")];
}

/** Eight significant digits, without trailing noise (211.99999999999997 → 212). */
export const significant = (value: number) => Number(value.toPrecision(8));

interface QuantityConversion {
  result: number;
  kind: string | undefined;
}

/** Whether math.js failed only because it does not know a unit's name. */
export class UnknownUnitError extends ToolError {}

async function parse(value: number, text: string): Promise<Unit> {
  const make = await unitFactory();
  try {
    return make(value, normalizeUnit(text));
  } catch {
    throw new UnknownUnitError(
      `'${text}' is not a unit Marvin knows. Use symbols or names such as km, mi, kg, lb, degC, degF, l, gal, ` +
        "km/h, mph, m^2, acre, h, min, GB, MiB — or three-letter currency codes such as EUR and USD.",
    );
  }
}

/** `value` `from` in `to`, offline. */
export async function convertQuantity(value: number, from: string, to: string): Promise<QuantityConversion> {
  const source = await parse(value, from);
  const target = await parse(1, to);
  if (!source.equalBase(target)) {
    const what = (unit: Unit, text: string) => `${text}${kindOf(unit) ? ` (${kindOf(unit)})` : ""}`;
    throw new ToolError(`${what(source, from)} and ${what(target, to)} measure different things; they do not convert.`);
  }
  const targetName = normalizeUnit(to);
  return { result: significant(source.toNumber(targetName)), kind: kindOf(source) };
}
