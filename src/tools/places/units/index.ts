import { z } from "zod";
import { defineTool, type ToolContext } from "../../kit/define-tool.js";
import { convertCurrency, currencyCode, formatMoney } from "./currencies.js";
import { convertQuantity, significant, UnknownUnitError } from "./quantities.js";

async function moneyAnswer(context: ToolContext, value: number, from: string, to: string): Promise<string> {
  if (from === to) return `${formatMoney(value, from)} = ${formatMoney(value, to)}.`;
  const { result, rate, date } = await convertCurrency(context, value, from, to);
  return (
    `${formatMoney(value, from)} = ${formatMoney(result, to)} ` +
    `(1 ${from} = ${significant(rate)} ${to}; reference rate of ${date}, from Frankfurter).`
  );
}

export const unitTools = [
  defineTool({
    name: "convert_units",
    description:
      "Convert a value between units — length, mass, temperature, volume, speed, area, time, data, energy… " +
      "(offline) — or between currencies at the latest reference rate (Frankfurter, with the rate's date).",
    parameters: z.object({
      value: z.number(),
      from_unit: z.string().trim().min(1).describe('e.g. "km", "lb", "degF", "mph", "m^2", "GB", or "USD"'),
      to_unit: z.string().trim().min(1).describe('e.g. "mi", "kg", "degC", "km/h", "acre", "MiB", or "EUR"'),
    }),
    effect: "read",
    timeoutMs: 30_000,
    handler: async ({ value, from_unit: from, to_unit: to }, context) => {
      const strictFrom = currencyCode(from, false);
      const strictTo = currencyCode(to, false);
      if (strictFrom && strictTo) return moneyAnswer(context, value, strictFrom, strictTo);
      try {
        const { result, kind } = await convertQuantity(value, from, to);
        return `${value} ${from} = ${result} ${to}${kind ? ` (${kind})` : ""}.`;
      } catch (error) {
        const looseFrom = currencyCode(from, true);
        const looseTo = currencyCode(to, true);
        if (error instanceof UnknownUnitError && looseFrom && looseTo) {
          return moneyAnswer(context, value, looseFrom, looseTo);
        }
        throw error;
      }
    },
  }),
];
