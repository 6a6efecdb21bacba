import { z } from "zod";
import { type ToolContext, ToolError } from "../../kit/define-tool.js";
import { type ExternalService, http, ServiceError } from "../../kit/http/index.js";

const FRANKFURTER: ExternalService = {
  name: "Frankfurter",
  envVar: "MARVIN_FRANKFURTER_URL",
  defaultUrl: "https://api.frankfurter.dev",
};

const latestAnswer = z.object({
  amount: z.number(),
  base: z.string(),
  /** The working day the reference rates were published for, "2026-05-08". */
  date: z.string(),
  rates: z.record(z.string(), z.number()),
});

const SYMBOLS: Record<string, string> = { "€": "EUR", $: "USD", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW" };

const isoCodes = new Set(Intl.supportedValuesOf("currency"));

/**
 * The ISO 4217 code `text` names. Strictly: a symbol or an upper-case code (so "CUP" is the Cuban
 * peso); loosely also lower case ("usd"), for text that is no unit.
 */
export function currencyCode(text: string, loosely: boolean): string | undefined {
  const trimmed = text.trim();
  if (SYMBOLS[trimmed]) return SYMBOLS[trimmed];
  const candidate = loosely ? trimmed.toUpperCase() : trimmed;
  return /^[A-Z]{3}$/.test(candidate) && isoCodes.has(candidate) ? candidate : undefined;
}

interface CurrencyConversion {
  result: number;
  rate: number;
  date: string;
}

function unknownPair(from: string, to: string): ToolError {
  return new ToolError(
    `Frankfurter has no exchange rate between ${from} and ${to}: it covers the currencies of the European ` +
      "Central Bank's reference rates (about 30, such as EUR, USD, GBP, JPY, CHF, CNY); others cannot be converted.",
  );
}

/** `amount` in `from` converted at the latest reference rate, with the date the rate is from. */
export async function convertCurrency(
  context: ToolContext,
  amount: number,
  from: string,
  to: string,
): Promise<CurrencyConversion> {
  let answer: z.output<typeof latestAnswer>;
  try {
    answer = await http(context).getJson(FRANKFURTER, "/v1/latest", { base: from, symbols: to }, latestAnswer);
  } catch (error) {
    if (error instanceof ServiceError && (error.status === 404 || error.status === 422)) throw unknownPair(from, to);
    throw error;
  }
  const rate = answer.rates[to];
  if (rate === undefined) throw unknownPair(from, to);
  return { result: (amount / answer.amount) * rate, rate: rate / answer.amount, date: answer.date };
}

/** The amount with the currency's usual decimals: "91.23 EUR", "15234 JPY". */
export function formatMoney(amount: number, code: string): string {
  const digits = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions();
  return `${amount.toFixed(digits.maximumFractionDigits ?? 2)} ${code}`;
}
