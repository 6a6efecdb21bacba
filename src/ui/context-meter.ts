/** `950`, `2.1k`, `128k`. */
export function formatTokens(tokens: number): string {
  return tokens < 1000 ? String(tokens) : `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}k`;
}

/**
 * `context 12k/128k (9%) · cache 85%`: the tokens the latest request carried against the size where
 * the conversation is compacted, the share of input the providers served from their caches, and "price unknown"
 * once a model Marvin has no price for answered.
 */
export function contextMeterLine(
  tokens: number,
  limit: number,
  cacheShare: number | undefined,
  priceUnknown = false,
): string {
  const used = `context ${formatTokens(tokens)}/${formatTokens(limit)} (${Math.round((tokens / limit) * 100)}%)`;
  const cache = cacheShare === undefined ? [] : [`cache ${Math.round(cacheShare * 100)}%`];
  return [used, ...cache, ...(priceUnknown ? ["price unknown"] : [])].join(" · ");
}
