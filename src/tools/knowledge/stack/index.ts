import { z } from "zod";
import { truncateText } from "../../../shared/truncate.js";
import { defineTool } from "../../kit/define-tool.js";
import { htmlToText, inlineText } from "../../kit/html/index.js";
import { resultLimit } from "../../kit/lenient-parameters.js";
import { type Answer, fetchAnswers, fetchQuestion, type Question, searchQuestions } from "./stack-exchange.js";

const ANSWERS_READ = 10;
const ANSWERS_SHOWN = 5;
const ANSWER_CHARS = 4_000;
/** Below this many requests left today, results say so. */
const LOW_QUOTA = 20;

const SITE = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9.-]*$/, "a Stack Exchange site such as stackoverflow, serverfault, askubuntu or unix")
  .default("stackoverflow")
  .describe("stackoverflow, serverfault, superuser, askubuntu, unix, math… (default stackoverflow)");

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const plural = (count: number, word: string) => `${count.toLocaleString("en")} ${word}${count === 1 ? "" : "s"}`;

function quotaNote(remaining: number | undefined): string {
  if (remaining === undefined || remaining >= LOW_QUOTA) return "";
  return `\n(Stack Exchange allows only ${remaining} more requests from this address today.)`;
}

async function formatQuestion(question: Question, index: number): Promise<string> {
  const answers = `${plural(question.answer_count, "answer")}${question.accepted_answer_id ? ", one accepted" : ""}`;
  const facts = [`score ${question.score}`, answers];
  if (question.view_count !== undefined) facts.push(plural(question.view_count, "view"));
  facts.push(`asked ${day(question.creation_date)}`);
  if (question.tags.length) facts.push(`tags: ${question.tags.join(", ")}`);
  const title = await inlineText(question.title);
  return `${index + 1}. ${title} [question_id ${question.question_id}]\n   ${facts.join(" · ")}\n   ${question.link}`;
}

/** The accepted answer first, then the others by score. */
const acceptedFirst = (answers: Answer[]) =>
  [...answers].sort((a, b) => Number(b.is_accepted) - Number(a.is_accepted) || b.score - a.score);

async function formatAnswer(answer: Answer, index: number): Promise<string> {
  const author = answer.owner?.display_name ? ` by ${await inlineText(answer.owner.display_name)}` : "";
  const kind = answer.is_accepted ? "Accepted answer" : "Answer";
  const body = truncateText(await htmlToText(answer.body), ANSWER_CHARS);
  return `${index + 1}. ${kind} · score ${answer.score}${author} (${day(answer.creation_date)})\n${body}`;
}

export const stackTools = [
  defineTool({
    name: "stack_search",
    description:
      "Search Stack Overflow or another Stack Exchange site: question titles with score, answers, tags and " +
      "question_id. Read the answers with stack_answers.",
    parameters: z.object({
      query: z.string().trim().min(1),
      site: SITE,
      tagged: z.string().nullish().describe('Tags the questions must have, e.g. "python;pandas"'),
      sort: z.enum(["relevance", "votes", "creation", "activity"]).default("relevance"),
      max_results: resultLimit(30, 5),
    }),
    effect: "read",
    handler: async ({ query, site, tagged, sort, max_results }, context) => {
      const tags = (tagged ?? "").split(/[;,\s]+/).filter(Boolean);
      const search = { query, site, tags, sort, limit: max_results };
      const { items, quotaRemaining } = await searchQuestions(context, search);
      const filter = tags.length ? ` tagged ${tags.join(", ")}` : "";
      if (items.length === 0) return `No ${site} question matches '${query}'${filter}. Try other or fewer words.`;
      const list = await Promise.all(items.map(formatQuestion));
      return `${site} questions for '${query}'${filter}:\n${list.join("\n")}${quotaNote(quotaRemaining)}`;
    },
  }),
  defineTool({
    name: "stack_answers",
    description:
      "Read the answers to a Stack Exchange question (question_id from stack_search) as text: the accepted " +
      "answer first, then the highest scored.",
    parameters: z.object({ question_id: z.number().int().positive(), site: SITE }),
    effect: "read",
    handler: async ({ question_id, site }, context) => {
      const [question, answers] = await Promise.all([
        fetchQuestion(context, site, question_id),
        fetchAnswers(context, site, question_id, ANSWERS_READ),
      ]);
      if (!question) return `${site} has no question ${question_id}. Check the id and the site.`;
      const title = await inlineText(question.title);
      const heading = `"${title}" (${question.link})`;
      if (answers.items.length === 0) return `${heading} has no answers yet.${quotaNote(answers.quotaRemaining)}`;
      const shown = acceptedFirst(answers.items).slice(0, ANSWERS_SHOWN);
      const more = question.answer_count > shown.length ? ` (${shown.length} of ${question.answer_count})` : "";
      const texts = await Promise.all(shown.map(formatAnswer));
      return `Answers to ${heading}${more}:\n\n${texts.join("\n\n")}${quotaNote(answers.quotaRemaining)}`;
    },
  }),
];
