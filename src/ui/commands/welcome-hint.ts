/**
 * How the welcome line of both UIs ends. The benchmarks wait for it to know a UI is up, and the UI tests pin it,
 * so rewording the line breaks a test rather than leaving a benchmark waiting.
 */
export const WELCOME_HINT = "Type /help for commands, /exit to leave.";
