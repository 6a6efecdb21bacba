/**
 * Milliseconds a `Retry-After` header value asks a client to wait (RFC 9110 §10.2.3): either
 * delay-seconds ("120", fractions accepted) or an HTTP-date, counted from `now` (a date in
 * the past means 0). Undefined when the value is absent, blank, negative or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: Date = new Date()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // A negative or malformed number is no date, whatever Date.parse makes of it.
  if (/^[-+.\d\s]+$/.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}

/**
 * The wait a response's headers ask for, in milliseconds: `retry-after-ms` (sent by OpenAI
 * and some proxies, more precise) wins over the standard `retry-after`.
 */
export function retryAfterFromHeaders(headers: Headers | undefined, now: Date = new Date()): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get("retry-after-ms")?.trim();
  if (milliseconds && /^\d+(\.\d+)?$/.test(milliseconds)) return Number(milliseconds);
  return parseRetryAfter(headers.get("retry-after"), now);
}
