import type { LoopResult } from "../../agent/loop.js";

/** What became of one typed line. */
export type CommandResult =
  /** A command ran (or was refused with a system message); nothing went to the model. */
  | { type: "handled" }
  /** `quit` / `exit`: the UI closes the session and ends. */
  | { type: "exit" }
  /**
   * The text went to the model (`session.submit`, queued if busy). `done` settles when its
   * answer is complete; it never rejects.
   */
  | { type: "submitted"; done: Promise<LoopResult> };
