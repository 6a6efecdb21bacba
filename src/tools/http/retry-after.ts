/**
 * Milliseconds a Retry-After header asks to wait (delay-seconds or an HTTP-date), measured from
 * `now`; undefined when absent or unreadable.
 */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP-date names the day ("Wed, 21 Oct 2015 07:28:00 GMT"); Date.parse would also take "-5".
  if (!/^[A-Za-z]{3}/.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
