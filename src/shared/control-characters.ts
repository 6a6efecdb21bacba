/** C0 and C1 control characters and DEL, but not tab and line feed, which text may hold. */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Line breaks of every kind, and tabs: where a one-line text gets a space. */
const BREAKS = /[\t\n\r\u000b\u000c\u0085\u2028\u2029]+/g;

/**
 * Text that may run over several lines, with LF as its only line break (CRLF and a bare CR become
 * LF) and no other control character: what may go into a file or a message body.
 */
export function withoutControlCharacters(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(CONTROL_CHARACTERS, "");
}

/** Text for one line (a title, a header value): line breaks and tabs become a space, other control characters go. */
export function singleLine(text: string): string {
  return text.replace(BREAKS, " ").replace(CONTROL_CHARACTERS, "").trim();
}
