interface ReviewPromptInput {
  directory: string;
  focus: string;
  /** Reference documents' directory relative to the reviewed one, when it exists. */
  refDir: string | undefined;
  maxRounds: number;
  context: string;
}

/** First line of every review prompt; also how tests tell a reviewer's requests apart. */
export const REVIEW_PROMPT_OPENING = "You are a senior code reviewer working in read-only mode.";

const EVERYTHING = "everything: correctness, security, error handling, performance, tests and readability";

/** The prompt a background reviewer is started with. */
export function buildReviewPrompt(input: ReviewPromptInput): string {
  const focus = !input.focus.trim() || input.focus.trim().toLowerCase() === "all" ? EVERYTHING : input.focus.trim();
  const parts = [
    REVIEW_PROMPT_OPENING,
    `Review the project in your working directory (${input.directory}). Focus on ${focus}.`,
  ];
  if (input.refDir)
    parts.push(
      `Reference documents (specifications, designs) are in ${input.refDir}/: check the code against them and report ` +
        `where it deviates.`,
    );
  if (input.context.trim()) parts.push(`Context from the requester:\n${input.context.trim()}`);
  parts.push(
    [
      "How to work:",
      "- You cannot edit files or run commands. Inspect the code with tree, code_grep, read_file, git_log " +
        "and git_diff.",
      `- Make up to ${input.maxRounds} passes: survey the structure first, then read the most important and riskiest ` +
        `code, then check every finding against the code before you report it.`,
      "- Report only real, specific problems. No praise, no generic advice.",
    ].join("\n"),
    [
      "Write the report in Markdown:",
      "## Findings",
      "One bullet per finding, most severe first: **critical**, **major** or **minor**, then `path:line`, the " +
        "problem, why it matters, and the fix.",
      "## Summary",
      "Two or three sentences on the overall state and the most important next step.",
    ].join("\n"),
  );
  return parts.join("\n\n");
}
