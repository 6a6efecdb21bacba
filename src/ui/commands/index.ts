/**
 * The interactive command layer, shared by the full-screen TUI and the plain UI.
 * It holds no UI code: a front end builds one `CommandLayer` per session and passes it
 * every line the person submits.
 *
 * ```ts
 * const layer = new CommandLayer({ session, env, home, cwd, providerName, model }, host);
 * const history = await layer.loadInputHistoryLines();        // oldest first, for ↑/↓ and Ctrl+R
 * const result = await layer.handle(line);           // never throws
 * switch (result.type) {
 *   case "exit": ...                                 // quit / exit: close the session, end
 *   case "submitted": await result.done; ...         // went to the model (queued if busy); never rejects
 *   case "handled": ...                              // a command ran; its output went to the host
 * }
 * layer.prompt        // "$ " in shell mode, "> " otherwise
 * layer.shellMode     // for the status bar
 * layer.activeModel   // { provider, model }, known before the first request
 * layer.interrupt()   // Ctrl+C: stops a running !command, else the streaming answer; false if idle
 * new InterruptKey(() => layer.interrupt()).press(typed) // the whole Ctrl+C policy, see there
 * await layer.close() // on exit: stops a running command, flushes the history file
 * ```
 *
 * `host` (see `CommandHost`) is how the layer talks back: `system(text)` for system
 * messages, `terminal` (shell commands run on the terminal when true, so vim works),
 * `shellOutput(chunk)` for the output of shell commands run without one,
 * `releaseTerminal(run, options)` around the `preferences` editor and terminal commands,
 * and the optional `messageSubmitted(text, via)` / `stateChanged()` notifications.
 *
 * Lines (seed 002 §2.4; the word commands only when alone on the line, any case):
 * `!shell`/`!sh` shell mode · `!code` coding mode · `!COMMAND` a shell command in the
 * working directory (else the cwd) · `!pro PROMPT` one message on Copilot · `!model
 * [PROVIDER [MODEL]]` · `!v [N]` records N seconds (5) and sends the transcript · `!voice` continuous voice
 * input on/off (`voiceListening`, `stopVoice()` for Esc) · `!blender` Blender add-on status · `preferences` ·
 * `profiles` · `usage` · `cap [daily] [USD|off]` (also `!cap …`) · `saved` · `plan [approve|off]` · `init` ·
 * `lsp` · `help`/`!help` · `quit`/`exit`.
 * Anything else goes to the model. In shell mode every line is a shell command except `!…` commands and
 * `quit`/`exit`.
 * Every non-empty line is appended to the profile's `history` file.
 *
 * What stays in each UI: key handling (Ctrl+C goes through an `InterruptKey`, Ctrl+D exits), rendering
 * session events, and the run_command confirmation (`askApproval` given to buildSession).
 */
export { CommandLayer } from "./command-layer.js";
export type { CommandResult } from "./command-result.js";
export { COMMAND_HELP } from "./help.js";
export { EXIT_HINT, InterruptKey, type InterruptOutcome } from "./interrupt-key.js";
export type { ParsedInput } from "./parse.js";
export type { ActiveModel, CommandEnvironment, CommandHost } from "./types.js";
