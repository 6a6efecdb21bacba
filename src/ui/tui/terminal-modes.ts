const CSI = "\x1b[";
const ALTERNATE_SCREEN = { on: `${CSI}?1049h`, off: `${CSI}?1049l` };
const BRACKETED_PASTE = { on: `${CSI}?2004h`, off: `${CSI}?2004l` };
/** Button presses (and so the wheel) reported as SGR sequences; Shift+drag still selects text. */
const MOUSE = { on: `${CSI}?1000h${CSI}?1006h`, off: `${CSI}?1006l${CSI}?1000l` };
const CURSOR = { show: `${CSI}?25h`, hide: `${CSI}?25l` };
const CLEAR_SCREEN = `${CSI}2J${CSI}H`;

interface TerminalModesOptions {
  /** Report the mouse wheel (default true). */
  mouse?: boolean;
}

/**
 * The terminal settings of the full-screen UI: alternate screen, raw keyboard, bracketed
 * paste, mouse wheel, hidden cursor. `leave` puts everything back; it also runs when the
 * process exits some other way, so the shell is never left in raw mode.
 */
export class TerminalModes {
  private active = false;
  private readonly restoreOnExit = () => this.leave();

  constructor(
    private readonly stdin: NodeJS.ReadStream,
    private readonly stdout: NodeJS.WriteStream,
    private readonly options: TerminalModesOptions = {},
  ) {}

  enter(): void {
    if (this.active) return;
    this.active = true;
    process.on("exit", this.restoreOnExit);
    if (this.stdin.isTTY) this.stdin.setRawMode(true);
    this.stdin.setEncoding("utf8");
    this.stdin.resume();
    const mouse = this.options.mouse === false ? "" : MOUSE.on;
    this.stdout.write(ALTERNATE_SCREEN.on + CLEAR_SCREEN + BRACKETED_PASTE.on + mouse + CURSOR.hide);
  }

  leave(): void {
    if (!this.active) return;
    this.active = false;
    process.off("exit", this.restoreOnExit);
    const mouse = this.options.mouse === false ? "" : MOUSE.off;
    this.stdout.write(mouse + BRACKETED_PASTE.off + CURSOR.show + ALTERNATE_SCREEN.off);
    if (this.stdin.isTTY) this.stdin.setRawMode(false);
    this.stdin.pause();
  }
}

/**
 * Waits for one key press while the UI is not drawn (after a `!command` ran on the terminal,
 * so its output can be read). Returns what was typed without a leading Enter: other keys
 * (typed ahead while the command ran) are for the UI once it is back.
 */
export function waitForKey(stdin: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve) => {
    const wasRaw = Boolean(stdin.isTTY && stdin.isRaw);
    const done = (typed: string) => {
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      stdin.off("error", onEnd);
      stdin.pause();
      if (stdin.isTTY) stdin.setRawMode(wasRaw);
      resolve(typed.replace(/^\r\n?|^\n/, ""));
    };
    const onData = (data: Buffer | string) => done(String(data));
    const onEnd = () => done("");
    stdin.on("data", onData);
    stdin.once("end", onEnd);
    stdin.once("error", onEnd);
    if (stdin.isTTY) stdin.setRawMode(true);
    stdin.resume();
  });
}
