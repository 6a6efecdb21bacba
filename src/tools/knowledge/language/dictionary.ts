import { z } from "zod";
import type { ToolContext } from "../../kit/define-tool.js";
import { type ExternalService, http, type RequestOptions, ServiceError } from "../../kit/http/index.js";

const DICTIONARY: ExternalService = {
  name: "Free Dictionary API",
  envVar: "MARVIN_DICTIONARY_URL",
  defaultUrl: "https://api.dictionaryapi.dev",
};

const words = z.array(z.string()).default([]);

const entry = z.object({
  word: z.string(),
  phonetic: z.string().optional(),
  phonetics: z.array(z.object({ text: z.string().optional() })).default([]),
  meanings: z.array(
    z.object({
      partOfSpeech: z.string(),
      definitions: z.array(z.object({ definition: z.string(), example: z.string().optional(), synonyms: words })),
      synonyms: words,
      antonyms: words,
    }),
  ),
  sourceUrls: words,
});

export type DictionaryEntry = z.output<typeof entry>;

/** The entries (one per etymology) for an English word; empty when the dictionary does not know it (HTTP 404). */
export async function lookUpWord(
  context: Pick<ToolContext, "env" | "signal">,
  word: string,
  request?: RequestOptions,
): Promise<DictionaryEntry[]> {
  const path = `/api/v2/entries/en/${encodeURIComponent(word)}`;
  try {
    return await http(context).getJson(DICTIONARY, path, undefined, z.array(entry), request);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return [];
    throw error;
  }
}
