/**
 * After another program wrote to the terminal, Marvin cannot know where the cursor is. A full
 * row of spaces then a carriage return leaves it at the start of a line: the same one if it was
 * already there (the terminal holds the wrap until the next character), else the next one.
 * This is zsh's PROMPT_SP trick.
 */
export function freshLine(stdout: NodeJS.WriteStream): void {
  stdout.write(`${" ".repeat(stdout.columns || 80)}\r`);
}
