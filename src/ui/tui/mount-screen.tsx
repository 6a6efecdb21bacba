import { render } from "ink";
import { ChatPane } from "./chat-pane.js";
import { App } from "./components/app.js";
import type { TuiController } from "./controller.js";
import { FrameWriter } from "./frame-writer.js";

export interface MountedScreen {
  /** What is on the screen now, one styled string per row. */
  readonly screen: readonly string[];
  /** Draws every row again (Ctrl+L, after something else wrote to the terminal). */
  redraw(): void;
  unmount(): void;
}

/**
 * Draws the TUI on a terminal: Ink renders the component tree in its debug mode (one whole
 * frame per render) into a FrameWriter, which lays the chat pane over it and writes what changed.
 * Input is read from `stdin` by the app itself; the caller owns the terminal modes.
 */
export function mountScreen(
  controller: TuiController,
  stdin: NodeJS.ReadStream,
  stdout: NodeJS.WriteStream,
  onCrash: (error: Error) => void = () => undefined,
): MountedScreen {
  const pane = new ChatPane(controller);
  const frames = new FrameWriter(stdout, pane);
  const instance = render(<App controller={controller} pane={pane} />, {
    stdout: frames as unknown as NodeJS.WriteStream,
    stdin,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  // A render that throws unmounts Ink with the error; the caller restores the terminal and reports it.
  instance
    .waitUntilExit()
    .catch((error: unknown) => onCrash(error instanceof Error ? error : new Error(String(error))));
  const warmUp = setImmediate(() => pane.warmUp());
  return {
    get screen() {
      return frames.screen;
    },
    redraw() {
      frames.invalidate();
      frames.redraw();
    },
    unmount() {
      clearImmediate(warmUp);
      instance.unmount();
      frames.dispose();
      pane.dispose();
    },
  };
}
