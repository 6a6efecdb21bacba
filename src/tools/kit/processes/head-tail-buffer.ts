/**
 * Keeps the first `headChars` and the last `tailChars` of a stream of text, counting
 * everything in between, so a command that prints gigabytes costs bounded memory.
 */
export class HeadTailBuffer {
  private head = "";
  private readonly tail: string[] = [];
  private tailLength = 0;
  /** Characters appended in total. */
  total = 0;

  constructor(
    private readonly headChars: number,
    private readonly tailChars: number,
  ) {}

  append(text: string): void {
    this.total += text.length;
    let rest = text;
    if (this.head.length < this.headChars) {
      const room = this.headChars - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (!rest) return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    while (this.tail.length > 1 && this.tailLength - this.tail[0]!.length >= this.tailChars)
      this.tailLength -= this.tail.shift()!.length;
  }

  /** Characters left out of {@link text}. */
  get cut(): number {
    return Math.max(0, this.total - this.head.length - this.tailChars);
  }

  /** The kept text; when something was cut, a note in the middle says how much. */
  text(): string {
    const tail = this.tail.join("");
    if (this.cut === 0) return this.head + tail;
    return (
      `${this.head}\n[… ${this.cut} characters cut from the middle of the output ` +
      `…]\n${tail.slice(-this.tailChars)}`
    );
  }
}
