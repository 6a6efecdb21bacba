import { z } from "zod";
import { defineTool, ToolError } from "../../kit/define-tool.js";
import { type DictionaryEntry, lookUpWord } from "./dictionary.js";
import { AUTODETECT, MAX_TEXT_BYTES, translate } from "./mymemory.js";

const DEFINITIONS_PER_MEANING = 5;
const SYNONYMS_SHOWN = 10;

function formatEntry(entry: DictionaryEntry, includeSynonyms: boolean): string {
  const pronunciation = entry.phonetic ?? entry.phonetics.find((phonetic) => phonetic.text)?.text;
  const lines = [pronunciation ? `${entry.word} ${pronunciation}` : entry.word];
  for (const meaning of entry.meanings) {
    lines.push(meaning.partOfSpeech);
    meaning.definitions.slice(0, DEFINITIONS_PER_MEANING).forEach((definition, index) => {
      lines.push(`  ${index + 1}. ${definition.definition}`);
      if (definition.example) lines.push(`     e.g. "${definition.example}"`);
    });
    if (!includeSynonyms) continue;
    const synonyms = [...new Set([...meaning.synonyms, ...meaning.definitions.flatMap((item) => item.synonyms)])];
    if (synonyms.length) lines.push(`  Synonyms: ${synonyms.slice(0, SYNONYMS_SHOWN).join(", ")}`);
    if (meaning.antonyms.length) lines.push(`  Antonyms: ${meaning.antonyms.slice(0, SYNONYMS_SHOWN).join(", ")}`);
  }
  return lines.join("\n");
}

let languageNames: Intl.DisplayNames | undefined;
/** Made when first needed: Intl's first use costs every start ~15 ms. */
function languageName(code: string): string | undefined {
  languageNames ??= new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
  return languageNames.of(code);
}

/** A language code MyMemory takes: ISO 639-1 ("de"), optionally with a region ("pt-BR", "zh-CN"). */
function checkedLanguage(code: string, parameter: string): { code: string; name: string } {
  const trimmed = code.trim();
  const [base = "", region] = trimmed.split("-");
  const valid = /^[a-z]{2}$/i.test(base) && (region === undefined || /^[a-z]{2,4}$/i.test(region));
  const name = valid ? languageName(trimmed) : undefined;
  if (!name) {
    throw new ToolError(
      `${parameter} '${code}' is not an ISO 639-1 language code. Use two letters such as en, de, fr, es, it, ja, ` +
        'zh (optionally with a region: "pt-BR", "zh-TW")' +
        (parameter === "source_language" ? ', or "auto" to let MyMemory detect it.' : "."),
    );
  }
  return { code: region ? `${base.toLowerCase()}-${region.toUpperCase()}` : base.toLowerCase(), name };
}

export const languageTools = [
  defineTool({
    name: "dictionary_lookup",
    description:
      "Look up an English word: pronunciation, definitions by part of speech with examples, and synonyms " +
      "(Free Dictionary API).",
    parameters: z.object({
      word: z.string().trim().min(1),
      include_synonyms: z.boolean().default(true),
    }),
    effect: "read",
    handler: async ({ word, include_synonyms }, context) => {
      const entries = await lookUpWord(context, word);
      if (entries.length === 0) {
        return `The dictionary has no definitions for '${word}'. Check the spelling, or try the base form.`;
      }
      const sources = [...new Set(entries.flatMap((entry) => entry.sourceUrls))];
      const text = entries.map((entry) => formatEntry(entry, include_synonyms)).join("\n\n");
      return sources.length ? `${text}\n\nSource: ${sources.join(", ")}` : text;
    },
  }),
  defineTool({
    name: "translate_text",
    description:
      "Translate text with MyMemory (free, with a small daily allowance). Languages are ISO 639-1 " +
      'codes such as en, de, fr, es; source "auto" lets MyMemory detect it.',
    parameters: z.object({
      text: z.string().trim().min(1),
      target_language: z.string().describe('e.g. "de", "fr", "pt-BR"'),
      source_language: z.string().default("auto").describe('"auto" (detect) or a code such as "en"'),
    }),
    effect: "read",
    handler: async ({ text, target_language, source_language }, context) => {
      const target = checkedLanguage(target_language, "target_language");
      const detect = source_language.trim().toLowerCase() === "auto";
      const source = detect ? undefined : checkedLanguage(source_language, "source_language");
      if (source && source.code === target.code) {
        throw new ToolError(`The text is already in ${target.name}: give a different target_language.`);
      }
      if (Buffer.byteLength(text) > MAX_TEXT_BYTES) {
        throw new ToolError(
          `The text is too long for one translation (${Buffer.byteLength(text)} bytes; MyMemory's free use allows ` +
            `${MAX_TEXT_BYTES}). Translate it in parts.`,
        );
      }
      const translated = await translate(context, text, source?.code ?? AUTODETECT, target.code);
      return `Translation (${source?.name ?? "detected language"} → ${target.name}):\n${translated}`;
    },
  }),
];
