import { existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { z } from "zod";
import { truncateText } from "../../../shared/truncate.js";
import { ensureInsideDir, resolveInsideDir } from "../../../workspace/own-dirs.js";
import { isInside } from "../../../workspace/sandbox.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { directoryInside, realWorkingDir } from "../../kit/require-working-dir.js";
import type { ChildAllowance } from "../../kit/tool-services.js";
import { childCost, childMarvinStart, claimCaps, nestingDepth, withChildCaps } from "../agents/child-marvin.js";
import { launchReview, MAX_REVIEW_DEPTH, ReviewJob, reviewerEnv, reviewerLlm } from "./review-process.js";
import { buildReviewPrompt } from "./review-prompt.js";
import {
  costSummary,
  newReviewId,
  REVIEWS_SUBDIR,
  type ReviewRecord,
  readRecord,
  readText,
  recordedReviewIds,
  statusFromFiles,
  writeRecord,
} from "./review-record.js";

const MAX_OUTPUT_CHARS = 30_000;
const LOG_TAIL_LINES = 15;
/** The reviewer's stdout carries the non-interactive protocol's `  🔧 tools` lines: not part of the report. */
const TOOL_MARKER_LINES = /^ {2}🔧 .*\n?/gm;

function sessionReviews(context: ToolContext): ReviewJob[] {
  return context.jobs.list().filter((job): job is ReviewJob => job instanceof ReviewJob);
}

const displayPath = (root: string, path: string) => relative(root, path).split(sep).join("/") || ".";

const reviewParameters = z.object({
  working_dir: z.string().default(".").describe("Directory to review"),
  ref_dir: z.string().default("ref").describe("Folder of reference documents (specs) inside it, if present"),
  focus: z.string().default("all").describe("What to look at: all, security, performance, tests, error handling…"),
  max_rounds: z.number().int().min(1).max(10).default(4).describe("Passes the reviewer makes over the code"),
  context: z.string().default("").describe("Anything the reviewer should know (recent changes, known issues)"),
});

type ReviewArguments = z.infer<typeof reviewParameters>;

const reviewCodebase = defineTool({
  name: "review_codebase",
  effect: "write",
  description:
    "Start a background code review of the working dir (or a subdirectory) by a separate read-only Marvin, which " +
    "writes a report. Returns at once; follow it and read the report with review_status.",
  codingOnly: true,
  parameters: reviewParameters,
  handler: async (args, context) => {
    // Enlisted before anything is awaited: child agents started in one answer share what the spending caps leave.
    const allowance = context.childSpending?.enlist();
    try {
      return await startReview(args, context, allowance);
    } catch (error) {
      allowance?.withdraw();
      throw error;
    }
  },
});

/** Starts the reviewer with its share of the spending caps; what it spent counts once it has exited. */
async function startReview(args: ReviewArguments, context: ToolContext, allowance: ChildAllowance | undefined) {
  const root = await realWorkingDir(context);
  const depth = nestingDepth(context.env);
  if (depth >= MAX_REVIEW_DEPTH) {
    throw new ToolError(
      `Not starting a review: this Marvin is already a nested agent (MARVIN_DEPTH=${depth}), and reviews may nest ` +
        `at most ${MAX_REVIEW_DEPTH} levels deep so agents cannot spawn each other without end. Review the code ` +
        `yourself with tree, code_grep and read_file.`,
    );
  }
  const directory = await directoryInside(root, args.working_dir);
  const busy = sessionReviews(context).find((job) => job.running && job.record.directory === directory);
  if (busy)
    throw new ToolError(
      `Review ${busy.id} of ${displayPath(root, directory)} is still running (${busy.status()}). Check it with ` +
        `review_status.`,
    );
  const reviewsDir = await ensureInsideDir(root, REVIEWS_SUBDIR);
  const { entryPoint, provider: parent } = childMarvinStart(context, "reviewer");
  const now = new Date();
  const id = await newReviewId(reviewsDir, now);
  const caps = await claimCaps(allowance, "Not starting a review");
  const env = reviewerEnv(context.env, parent.credentialVariables);
  const refPath = join(directory, args.ref_dir);
  const refDir =
    args.ref_dir.trim() && existsSync(refPath) && isInside(directory, refPath) ? args.ref_dir.trim() : undefined;
  const job = launchReview({
    entryPoint,
    id,
    directory,
    focus: args.focus,
    prompt: buildReviewPrompt({
      directory,
      focus: args.focus,
      refDir,
      maxRounds: args.max_rounds,
      context: args.context,
    }),
    outputFile: join(reviewsDir, `${id}.md`),
    logFile: join(reviewsDir, `${id}.log`),
    llm: reviewerLlm(context.env, parent),
    env: caps ? withChildCaps(env, caps) : env,
    now,
    onExit: () =>
      void readText(join(reviewsDir, `${id}.log`)).then((log) => allowance?.settle(childCost(log)?.session_cost)),
  });
  await writeRecord(reviewsDir, job.record);
  context.jobs.add(job);
  return (
    `Started review ${id} of ${displayPath(root, directory)} in the background (pid ${job.record.pid}).\n` +
    `The report is written to ${displayPath(root, job.record.outputFile)}. Check on it with ` +
    `review_status({"job_id":"${id}"}); you can keep working meanwhile.`
  );
}

async function findRecord(
  context: ToolContext,
  reviewsDir: string,
  jobId: string | undefined,
): Promise<{ record: ReviewRecord; job?: ReviewJob } | string> {
  const inSession = sessionReviews(context);
  const id = jobId?.trim() || inSession.at(-1)?.id || (await recordedReviewIds(reviewsDir)).at(-1);
  if (!id) return "No code review has been started in this working dir yet. Start one with review_codebase.";
  const job = inSession.find((candidate) => candidate.id === id);
  const record = job?.record ?? (await readRecord(reviewsDir, id));
  if (!record) {
    const known = await recordedReviewIds(reviewsDir);
    throw new ToolError(
      `No review '${id}'. ` +
        (known.length
          ? `Known reviews: ${known.join(", ")}.`
          : "No review has been started here yet; use review_codebase."),
    );
  }
  return { record, job };
}

const reviewStatus = defineTool({
  name: "review_status",
  effect: "read",
  description: "Status of a background code review started with review_codebase, and its report so far.",
  codingOnly: true,
  parameters: z.object({
    job_id: z
      .string()
      .nullable()
      .default(null)
      .describe("Review id (review-YYYYMMDD-HHMMSS); default: the latest review"),
  }),
  handler: async ({ job_id }, context) => {
    const root = await realWorkingDir(context);
    const reviewsDir = await resolveInsideDir(root, REVIEWS_SUBDIR);
    const found = await findRecord(context, reviewsDir, job_id ?? undefined);
    if (typeof found === "string") return found;
    const { record, job } = found;
    const status = job?.status() ?? (await statusFromFiles(record, new Date()));
    const [raw, log] = await Promise.all([readText(record.outputFile), readText(record.logFile)]);
    const output = raw.replace(TOOL_MARKER_LINES, "");
    const cost = costSummary(log);
    const lines = [
      `${record.id} (code review of ${displayPath(root, record.directory)}, focus: ${record.focus}): ` +
        `${status}.${cost ? ` Cost: ${cost}.` : ""}`,
    ];
    lines.push(`Report file: ${displayPath(root, record.outputFile)}`);
    const running = /^running/.test(status);
    lines.push(
      "",
      output.trim()
        ? truncateText(output.trim(), MAX_OUTPUT_CHARS)
        : running
          ? "(no report text yet; the reviewer is still reading the code)"
          : "(the reviewer wrote no report)",
    );
    const errors = log.split("\n").filter((line) => line.trim() && !line.startsWith("MARVIN_COST:"));
    if (!running && /^(failed|stopped)/.test(status) && errors.length)
      lines.push("", `Reviewer log (last lines):\n${errors.slice(-LOG_TAIL_LINES).join("\n")}`);
    return lines.join("\n");
  },
});

export const reviewTools = [reviewCodebase, reviewStatus];
