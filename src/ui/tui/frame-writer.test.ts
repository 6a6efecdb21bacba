import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { FrameWriter, type ScreenOverlay } from "./frame-writer.js";

/** An overlay that paints given lines from row 1 down and can ask for a redraw. */
class RowsOverlay implements ScreenOverlay {
  lines: string[] = [];
  private repaint: (() => void) | undefined;

  compose(rows: string[]): string[] {
    const composed = [...rows];
    this.lines.forEach((line, index) => {
      composed[1 + index] = line;
    });
    return composed;
  }

  onRepaint(repaint: (() => void) | undefined): void {
    this.repaint = repaint;
  }

  paint(lines: string[]): void {
    this.lines = lines;
    this.repaint?.();
  }
}

/** A real stream standing in for the terminal, with a size like a TTY has. */
function terminal(columns = 40, rows = 5) {
  const stream = Object.assign(new PassThrough(), { columns, rows }) as unknown as NodeJS.WriteStream & PassThrough;
  const written: string[] = [];
  stream.on("data", (chunk: Buffer) => written.push(chunk.toString()));
  return { stream, written, flush: () => new Promise((resolve) => setImmediate(resolve)) };
}

describe("FrameWriter", () => {
  it("draws the first frame in full, then only the rows that changed, inside synchronized updates", async () => {
    const { stream, written, flush } = terminal();
    const frames = new FrameWriter(stream);
    frames.write("status\nline a\nline b");
    frames.write("status\nline a\nline B!");
    await flush();
    expect(written[0]).toBe(
      "\x1b[?2026h\x1b[2J\x1b[1;1H\x1b[0mstatus\x1b[0m\x1b[K\x1b[2;1H\x1b[0mline a\x1b[0m\x1b[K\x1b[3;1H\x1b[0mline " +
        "b\x1b[0m\x1b[K\x1b[?2026l",
    );
    expect(written[1]).toBe("\x1b[?2026h\x1b[3;1H\x1b[0mline B!\x1b[0m\x1b[K\x1b[?2026l");
  });

  it(
    "writes nothing for an unchanged frame, blanks rows that disappeared, and never goes past " + "the last row",
    async () => {
      const { stream, written, flush } = terminal(40, 2);
      const frames = new FrameWriter(stream);
      frames.write("one\ntwo\nthree");
      frames.write("one\ntwo\nthree");
      frames.write("one");
      await flush();
      expect(written).toHaveLength(2);
      expect(written[0]).not.toContain("three");
      expect(written[1]).toBe("\x1b[?2026h\x1b[2;1H\x1b[0m\x1b[0m\x1b[K\x1b[?2026l");
    },
  );

  it("reports the terminal's size and redraws everything after a resize", async () => {
    const { stream, written, flush } = terminal(40, 5);
    const frames = new FrameWriter(stream);
    let resized = 0;
    frames.on("resize", () => (resized += 1));
    frames.write("a\nb");
    Object.assign(stream, { columns: 20, rows: 3 });
    stream.emit("resize");
    expect([frames.columns, frames.rows, resized]).toEqual([20, 3, 1]);
    frames.write("a\nb");
    await flush();
    expect(written[1]).toContain("\x1b[2J\x1b[1;1H\x1b[0ma");
    frames.dispose();
    stream.emit("resize");
    expect(resized).toBe(1);
  });

  it("lays the overlay over Ink's frame and redraws when the overlay alone changes", async () => {
    const { stream, written, flush } = terminal(40, 4);
    const overlay = new RowsOverlay();
    const frames = new FrameWriter(stream, overlay);
    overlay.paint(["early"]);
    expect(written).toHaveLength(0);
    frames.write("status\n\n\n> ");
    overlay.paint(["chat line 1", "chat line 2"]);
    await flush();
    expect(frames.screen).toEqual(["status", "chat line 1", "chat line 2", "> "]);
    expect(written[1]).toBe(
      "\x1b[?2026h\x1b[2;1H\x1b[0mchat line 1\x1b[0m\x1b[K\x1b[3;1H\x1b[0mchat line 2\x1b[0m\x1b[K\x1b[?2026l",
    );
    frames.dispose();
    overlay.paint(["after dispose"]);
    expect(frames.screen[1]).toBe("chat line 1");
  });
});
