import { z } from "zod";
import type { ToolContext } from "../../kit/define-tool.js";
import { inlineText } from "../../kit/html/index.js";
import { type ExternalService, http, type RequestOptions, ServiceError } from "../../kit/http/index.js";

const MYMEMORY: ExternalService = {
  name: "MyMemory",
  envVar: "MARVIN_MYMEMORY_URL",
  defaultUrl: "https://api.mymemory.translated.net",
};

/** MyMemory takes at most 500 bytes of text per request. */
const MAX_CHUNK_BYTES = 500;
/** Longer texts are refused rather than spending the small free daily allowance on one call. */
export const MAX_TEXT_BYTES = 5_000;

/**
 * MyMemory answers HTTP 200 even for errors: `responseStatus` (a number, sometimes a string) says
 * 403 for a bad language pair and 429 when the daily quota is used up (`quotaFinished`), with the
 * message in `responseDetails` and as the "translation"; `matches` is "" then instead of a list.
 */
const answer = z.object({
  responseData: z.object({ translatedText: z.string().nullable() }),
  responseStatus: z.union([z.number(), z.string()]),
  responseDetails: z.string().nullish(),
  quotaFinished: z.boolean().nullish(),
});

/** "autodetect" as the source lets MyMemory guess the language. */
export const AUTODETECT = "autodetect";

function failure(status: number, details: string, source: string): ServiceError {
  const said = details.trim() || `status ${status}`;
  if (status === 429 || /USED ALL AVAILABLE FREE TRANSLATIONS/i.test(said)) {
    const message = `MyMemory's free daily translation allowance is used up: ${said}`;
    return new ServiceError(message, { service: MYMEMORY.name, kind: "rate-limited", status: 429 });
  }
  if (source === AUTODETECT && /INVALID SOURCE LANGUAGE/i.test(said)) {
    const message =
      "MyMemory could not detect the source language. Give source_language as a two-letter ISO 639-1 code " +
      `(e.g. "en"). MyMemory said: ${said}`;
    return new ServiceError(message, { service: MYMEMORY.name, kind: "status", status });
  }
  return new ServiceError(`MyMemory refused the translation: ${said}`, {
    service: MYMEMORY.name,
    kind: "status",
    status,
  });
}

/** Sentences packed into pieces of at most MAX_CHUNK_BYTES (a longer sentence is cut between words). */
export function chunks(text: string): string[] {
  const pieces: string[] = [];
  let current = "";
  const add = (part: string) => {
    const joined = current ? `${current} ${part}` : part;
    if (Buffer.byteLength(joined) <= MAX_CHUNK_BYTES) {
      current = joined;
      return;
    }
    if (current) pieces.push(current);
    current = part;
  };
  for (const sentence of text.trim().split(/(?<=[.!?。！？])\s+/)) {
    if (Buffer.byteLength(sentence) <= MAX_CHUNK_BYTES) add(sentence);
    else for (const word of sentence.split(/\s+/)) add(word);
  }
  if (current) pieces.push(current);
  return pieces;
}

async function translateChunk(
  context: Pick<ToolContext, "env" | "signal">,
  text: string,
  source: string,
  target: string,
  request?: RequestOptions,
): Promise<string> {
  const query = { q: text, langpair: `${source}|${target}` };
  const result = await http(context).getJson(MYMEMORY, "/get", query, answer, request);
  const status = Number(result.responseStatus);
  if (status !== 200 || result.quotaFinished) {
    throw failure(status, result.responseDetails || result.responseData.translatedText || "", source);
  }
  return inlineText(result.responseData.translatedText ?? "");
}

/** `text` translated from `source` (a language code or AUTODETECT) into `target`, piece by piece. */
export async function translate(
  context: Pick<ToolContext, "env" | "signal">,
  text: string,
  source: string,
  target: string,
  request?: RequestOptions,
): Promise<string> {
  const translated: string[] = [];
  for (const piece of chunks(text)) translated.push(await translateChunk(context, piece, source, target, request));
  return translated.join(" ");
}
