/** `$0.0123`: four decimals under a dollar, two above. */
function usdText(cost: number): string {
  return `$${cost < 1 ? cost.toFixed(4) : cost.toFixed(2)}`;
}

/**
 * What a session has cost, honestly: "price unknown" when every call went to models Marvin has no price for,
 * `$0.0123 + price unknown` when some did, else the amount.
 */
export function sessionCostText(cost: number, unpricedModels: readonly string[], format = usdText): string {
  if (unpricedModels.length === 0) return format(cost);
  return cost > 0 ? `${format(cost)} + price unknown` : "price unknown";
}
