/**
 * dictionaryapi.dev (`/api/v2/entries/en/{word}`): an array of entries, one per etymology, with
 * optional `phonetic`, phonetics that may lack `text`, meanings by part of speech; an unknown word is
 * HTTP 404 with `{title, message, resolution}`.
 * MyMemory (`/get?q=&langpair=en|de`): always HTTP 200; `responseStatus` 200, 403 (bad language pair)
 * or 429 (quota), `quotaFinished`, and `matches` that is "" instead of a list on errors.
 */

export const DICTIONARY_HELLO = [
  {
    word: "hello",
    phonetic: "/həˈləʊ/",
    phonetics: [
      {
        audio: "https://api.dictionaryapi.dev/media/pronunciations/en/hello-au.mp3",
        sourceUrl: "https://commons.wikimedia.org/w/index.php?curid=75797336",
        license: { name: "BY-SA 4.0", url: "https://creativecommons.org/licenses/by-sa/4.0" },
      },
      {
        text: "/həˈləʊ/",
        audio: "https://api.dictionaryapi.dev/media/pronunciations/en/hello-uk.mp3",
        sourceUrl: "https://commons.wikimedia.org/w/index.php?curid=9021983",
        license: { name: "BY 3.0 US", url: "https://creativecommons.org/licenses/by/3.0/us" },
      },
    ],
    meanings: [
      {
        partOfSpeech: "noun",
        definitions: [{ definition: '"Hello!" or an equivalent greeting.', synonyms: [], antonyms: [] }],
        synonyms: ["greeting"],
        antonyms: [],
      },
      {
        partOfSpeech: "verb",
        definitions: [{ definition: 'To greet with "hello".', synonyms: [], antonyms: [] }],
        synonyms: [],
        antonyms: [],
      },
      {
        partOfSpeech: "interjection",
        definitions: [
          {
            definition: "A greeting (salutation) said when meeting someone or acknowledging someone's arrival.",
            synonyms: [],
            antonyms: [],
            example: "Hello, everyone.",
          },
          {
            definition: "A greeting used when answering the telephone.",
            synonyms: [],
            antonyms: [],
            example: "Hello? How may I help you?",
          },
        ],
        synonyms: ["hi", "howdy"],
        antonyms: ["bye", "goodbye"],
      },
    ],
    license: { name: "CC BY-SA 3.0", url: "https://creativecommons.org/licenses/by-sa/3.0" },
    sourceUrls: ["https://en.wiktionary.org/wiki/hello"],
  },
];

export const DICTIONARY_NOT_FOUND = {
  title: "No Definitions Found",
  message: "Sorry pal, we couldn't find definitions for the word you were looking for.",
  resolution: "You can try the search again at later time or head to the web instead.",
};

export const MYMEMORY_HELLO_DE = {
  responseData: { translatedText: "Hallo Welt!", match: 1 },
  quotaFinished: false,
  mtLangSupported: null,
  responseDetails: "",
  responseStatus: 200,
  responderId: null,
  exception_code: null,
  matches: [
    {
      id: "748312094",
      segment: "Hello World!",
      translation: "Hallo Welt!",
      source: "en-GB",
      target: "de-DE",
      quality: "74",
      reference: null,
      "usage-count": 2,
      subject: "All",
      "created-by": "MateCat",
      "last-updated-by": "MateCat",
      "create-date": "2023-04-19 16:02:43",
      "last-update-date": "2023-04-19 16:02:43",
      match: 1,
      penalty: 0,
    },
  ],
};

/** A translation with HTML entities, as MyMemory returns some memory matches. */
export const MYMEMORY_ENTITIES = {
  ...MYMEMORY_HELLO_DE,
  responseData: { translatedText: "C&#39;est l&#39;heure du &quot;thé&quot;.", match: 0.85 },
};

export const MYMEMORY_QUOTA = {
  responseData: {
    translatedText:
      "MYMEMORY WARNING: YOU USED ALL AVAILABLE FREE TRANSLATIONS FOR TODAY. NEXT AVAILABLE IN  10 HOURS 25 " +
      "MINUTES 34 SECONDS VISIT HTTPS://MYMEMORY.TRANSLATED.NET/DOC/USAGELIMITS.PHP TO TRANSLATE MORE",
  },
  quotaFinished: true,
  mtLangSupported: null,
  responseDetails:
    "MYMEMORY WARNING: YOU USED ALL AVAILABLE FREE TRANSLATIONS FOR TODAY. NEXT AVAILABLE IN  10 HOURS 25 MINUTES " +
    "34 SECONDS VISIT HTTPS://MYMEMORY.TRANSLATED.NET/DOC/USAGELIMITS.PHP TO TRANSLATE MORE",
  responseStatus: 429,
  responderId: null,
  exception_code: null,
  matches: "",
};

const INVALID_SOURCE =
  "'AUTODETECT' IS AN INVALID SOURCE LANGUAGE . EXAMPLE: LANGPAIR=EN|IT USING 2 LETTER ISO OR RFC3066 LIKE ZH-CN. " +
  "ALMOST ALL LANGUAGES SUPPORTED BUT SOME MAY HAVE NO CONTENT";

export const MYMEMORY_NO_AUTODETECT = {
  responseData: { translatedText: INVALID_SOURCE },
  quotaFinished: null,
  mtLangSupported: null,
  responseDetails: INVALID_SOURCE,
  responseStatus: "403",
  responderId: null,
  exception_code: null,
  matches: "",
};
