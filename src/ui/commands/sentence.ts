/** `text` ending in a full stop (or its own ., ! or ?), for joining messages into prose. */
export function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
