/** A URL's scheme and its `user:password@` part (the part up to the last `@` before the host ends). */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*(?:@[^\s/?#@]*)*@/gi;

/**
 * `text` (a URL, or a message naming URLs) as it may be shown: every URL's `user:password@` part written as
 * `***@`, so `https://me:secret@proxy.example/v1` is shown as `https://***@proxy.example/v1`.
 */
export function hideUrlCredentials(text: string): string {
  return text.replace(USERINFO, "$1***@");
}
