/**
 * Notices from building the session (an untrusted project's MCP servers, a broken hook),
 * held back until the UI has shown its welcome, the recent conversation and a resumed one,
 * so they come last, by the prompt, and stay in sight. After `release` they pass straight on.
 */
export class HeldNotices {
  private held: string[] | undefined = [];
  private show: (text: string) => void = () => undefined;

  readonly notice = (text: string): void => {
    if (this.held) this.held.push(text);
    else this.show(text);
  };

  /** Shows the notices held so far, and every later one at once. */
  release(show: (text: string) => void): void {
    const held = this.held ?? [];
    this.held = undefined;
    this.show = show;
    for (const text of held) show(text);
  }
}
