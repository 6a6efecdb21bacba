import { StringDecoder } from "node:string_decoder";
import { useStdin } from "ink";
import { useEffect, useRef } from "react";
import { type InputEvent, KeyParser } from "../key-parser.js";

/** How long a lone ESC waits for the rest of an escape sequence before it counts as the Escape key. */
const ESCAPE_TIMEOUT_MS = 30;

/**
 * Raw terminal input as key, text, paste and wheel events. Reads stdin itself instead of
 * Ink's useInput, which cannot tell Backspace from Delete and knows no bracketed paste.
 */
export function useTerminalInput(handler: (event: InputEvent) => void): void {
  const { stdin } = useStdin();
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  useEffect(() => {
    const parser = new KeyParser();
    const decoder = new StringDecoder("utf8");
    let escapeTimer: ReturnType<typeof setTimeout> | undefined;
    const deliver = (events: InputEvent[]) => {
      for (const event of events) handlerRef.current(event);
    };
    const onData = (data: Buffer | string) => {
      clearTimeout(escapeTimer);
      deliver(parser.push(typeof data === "string" ? data : decoder.write(data)));
      if (parser.hasPending) escapeTimer = setTimeout(() => deliver(parser.flush()), ESCAPE_TIMEOUT_MS);
    };
    stdin.on("data", onData);
    return () => {
      stdin.off("data", onData);
      clearTimeout(escapeTimer);
    };
  }, [stdin]);
}
