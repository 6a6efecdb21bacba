/** Accepts a base URL or a full `…/chat/completions` endpoint and returns the base. */
export function normalizeBaseUrl(url: string): string {
  let base = url.trim().replace(/\/+$/, "");
  base = base.replace(/\/chat\/completions$/, "");
  return base;
}
