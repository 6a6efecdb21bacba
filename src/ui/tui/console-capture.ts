import { format } from "node:util";

const METHODS = ["log", "info", "warn", "error", "debug"] as const;

/**
 * Routes console output (a library's stray warning) into `sink` while the full-screen UI
 * owns the terminal, where a direct write would tear the screen. Returns the restore function.
 */
export function captureConsole(sink: (text: string) => void): () => void {
  const saved = METHODS.map((method) => [method, console[method]] as const);
  for (const method of METHODS) {
    console[method] = (...args: unknown[]) => sink(format(...args));
  }
  return () => {
    for (const [method, original] of saved) console[method] = original;
  };
}
