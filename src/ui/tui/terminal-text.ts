const ESCAPE_SEQUENCES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;
const CONTROL_CHARACTERS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * Program output made safe to draw inside the chat area: escape sequences (colours, cursor
 * moves) and control characters removed, and a carriage return inside a line (progress bars)
 * keeps only what was written after it.
 */
export function terminalText(raw: string): string {
  return raw
    .replace(ESCAPE_SEQUENCES, "")
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => {
      const text = line.replace(/\r+$/, "");
      return text.slice(text.lastIndexOf("\r") + 1);
    })
    .join("\n")
    .replace(CONTROL_CHARACTERS, "")
    .replace(/\t/g, "    ");
}
