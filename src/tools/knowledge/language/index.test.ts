import { describe, expect } from "../../../../tests/support/fixtures.js";
import { sendJson, sendText } from "../../../../tests/support/local-http-server.js";
import {
  DICTIONARY_HELLO,
  DICTIONARY_NOT_FOUND,
  MYMEMORY_ENTITIES,
  MYMEMORY_HELLO_DE,
  MYMEMORY_NO_AUTODETECT,
  MYMEMORY_QUOTA,
} from "../../../../tests/support/payloads/language.js";
import { type ServerFor, test as serviceTest } from "../../../../tests/support/service-fixtures.js";
import { lookUpWord } from "./dictionary.js";
import { chunks, translate } from "./mymemory.js";

const query = (url: string) => Object.fromEntries(new URL(url, "http://fixture").searchParams);

const test = serviceTest.extend<{ dictionary: ServerFor; myMemory: ServerFor }>({
  dictionary: async ({ withServer }, use) => use((handler, env) => withServer("MARVIN_DICTIONARY_URL", handler, env)),
  myMemory: async ({ withServer }, use) => use((handler, env) => withServer("MARVIN_MYMEMORY_URL", handler, env)),
});

describe("dictionary_lookup", () => {
  test("gives pronunciation, definitions by part of speech, examples, synonyms and source", async ({ dictionary }) => {
    const { server, harness } = await dictionary((_request, response) => sendJson(response, DICTIONARY_HELLO));
    expect(await harness.ok("dictionary_lookup", { word: "hello" })).toBe(
      [
        "hello /həˈləʊ/",
        "noun",
        '  1. "Hello!" or an equivalent greeting.',
        "  Synonyms: greeting",
        "verb",
        '  1. To greet with "hello".',
        "interjection",
        "  1. A greeting (salutation) said when meeting someone or acknowledging someone's arrival.",
        '     e.g. "Hello, everyone."',
        "  2. A greeting used when answering the telephone.",
        '     e.g. "Hello? How may I help you?"',
        "  Synonyms: hi, howdy",
        "  Antonyms: bye, goodbye",
        "",
        "Source: https://en.wiktionary.org/wiki/hello",
      ].join("\n"),
    );
    expect(server.requests[0]!.url).toBe("/api/v2/entries/en/hello");
    const plain = await harness.ok("dictionary_lookup", { word: "hello", include_synonyms: false });
    expect(plain).not.toContain("Synonyms");
  });

  test("says so when the dictionary answers 404 No Definitions Found", async ({ dictionary }) => {
    const { server, harness } = await dictionary((_request, response) => sendJson(response, DICTIONARY_NOT_FOUND, 404));
    expect(await harness.ok("dictionary_lookup", { word: "xyzzy plugh" })).toBe(
      "The dictionary has no definitions for 'xyzzy plugh'. Check the spelling, or try the base form.",
    );
    expect(server.requests[0]!.url).toBe("/api/v2/entries/en/xyzzy%20plugh");
  });

  test("hands on a server error", async ({ dictionary }) => {
    const { harness } = await dictionary((_request, response) =>
      sendText(response, "<html><body>502 Bad Gateway</body></html>", 502),
    );
    expect(await harness.failure("dictionary_lookup", { word: "hello" })).toMatch(
      /^Error in dictionary_lookup: Free Dictionary API answered HTTP 502 \(Bad Gateway\) — try again in a minute/,
    );
  });

  test("refuses entries without meanings", async ({ dictionary }) => {
    const { harness } = await dictionary((_request, response) => sendJson(response, [{ word: "hello" }]));
    expect(await harness.failure("dictionary_lookup", { word: "hello" })).toMatch(
      /^Error in dictionary_lookup: Free Dictionary API sent an answer Marvin does not understand: 0\.meanings: /,
    );
  });

  test("gives up on a server that does not answer in time", async ({ httpServers }) => {
    const server = await httpServers.start(() => undefined);
    const context = { env: { MARVIN_DICTIONARY_URL: server.origin }, signal: new AbortController().signal };
    await expect(lookUpWord(context, "hello", { timeoutMs: 200 })).rejects.toThrow(
      "Free Dictionary API took longer than 0.2 s to answer",
    );
  });
});

describe("translate_text", () => {
  test("translates with the language pair asked for", async ({ myMemory }) => {
    const { server, harness } = await myMemory((_request, response) => sendJson(response, MYMEMORY_HELLO_DE));
    const text = await harness.ok("translate_text", {
      text: "Hello World!",
      target_language: "DE",
      source_language: "en",
    });
    expect(text).toBe("Translation (English → German):\nHallo Welt!");
    expect(server.requests[0]!.url).toMatch(/^\/get\?/);
    expect(query(server.requests[0]!.url)).toEqual({ q: "Hello World!", langpair: "en|de" });
  });

  test("lets MyMemory detect the source with auto, and decodes entities", async ({ myMemory }) => {
    const { server, harness } = await myMemory((_request, response) => sendJson(response, MYMEMORY_ENTITIES));
    const text = await harness.ok("translate_text", { text: "It's tea time.", target_language: "fr" });
    expect(text).toBe(`Translation (detected language → French):\nC'est l'heure du "thé".`);
    expect(query(server.requests[0]!.url)).toMatchObject({ langpair: "autodetect|fr" });
  });

  test("says clearly when MyMemory cannot detect the language", async ({ myMemory }) => {
    const { harness } = await myMemory((_request, response) => sendJson(response, MYMEMORY_NO_AUTODETECT));
    expect(await harness.failure("translate_text", { text: "Hallo", target_language: "en" })).toMatch(
      /^Error in translate_text: MyMemory could not detect the source language\. Give source_language as a two-letter/,
    );
  });

  test("reports the used-up daily quota that arrives inside an HTTP 200", async ({ myMemory }) => {
    const { harness } = await myMemory((_request, response) => sendJson(response, MYMEMORY_QUOTA));
    expect(await harness.failure("translate_text", { text: "Hello", target_language: "es" })).toMatch(
      /^Error in translate_text: MyMemory's free daily translation allowance is used up: MYMEMORY WARNING: .*10 HOURS/,
    );
  });

  test("checks language codes before any request", async ({ myMemory }) => {
    const { server, harness } = await myMemory((_request, response) => sendJson(response, MYMEMORY_HELLO_DE));
    expect(await harness.failure("translate_text", { text: "Hello", target_language: "german" })).toMatch(
      /^Error in translate_text: target_language 'german' is not an ISO 639-1 language code\. Use two letters/,
    );
    expect(
      await harness.failure("translate_text", { text: "Hi", target_language: "de", source_language: "xx" }),
    ).toMatch(/source_language 'xx' is not an ISO 639-1 language code.*or "auto" to let MyMemory detect it\.$/);
    expect(await harness.failure("translate_text", { text: "Hi", target_language: "en", source_language: "en" })).toBe(
      "Error in translate_text: The text is already in English: give a different target_language.",
    );
    expect(server.requests).toHaveLength(0);
    await harness.ok("translate_text", { text: "Olá", target_language: "pt-br", source_language: "pt" });
    expect(query(server.requests[0]!.url)).toMatchObject({ langpair: "pt|pt-BR" });
  });

  test("sends a long text in pieces of at most 500 bytes, split between sentences", async ({ myMemory }) => {
    const { server, harness } = await myMemory((_request, response) => sendJson(response, MYMEMORY_HELLO_DE));
    const sentence = "This sentence is about fifty bytes long, roughly. ";
    const text = sentence.repeat(15);
    const translated = await harness.ok("translate_text", { text, target_language: "de", source_language: "en" });
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) expect(Buffer.byteLength(query(request.url).q!)).toBeLessThanOrEqual(500);
    expect(query(server.requests[1]!.url).q).toMatch(/^This sentence/);
    expect(translated).toBe("Translation (English → German):\nHallo Welt! Hallo Welt!");
    expect(chunks("word ".repeat(150)).every((piece) => Buffer.byteLength(piece) <= 500)).toBe(true);
  });

  test("refuses a malformed answer and hands on HTTP errors", async ({ myMemory }) => {
    const { harness } = await myMemory((request, response) =>
      query(request.url).q === "broken"
        ? sendJson(response, { responseStatus: 200 })
        : sendText(response, "Service Unavailable", 503, { "retry-after": "3600" }),
    );
    expect(await harness.failure("translate_text", { text: "broken", target_language: "de" })).toMatch(
      /^Error in translate_text: MyMemory sent an answer Marvin does not understand: responseData: /,
    );
    expect(await harness.failure("translate_text", { text: "down", target_language: "de" })).toMatch(
      /^Error in translate_text: MyMemory answered HTTP 503 \(Service Unavailable\) — try again in 1h 00m 00s\.$/,
    );
  });

  test("gives up on a server that does not answer in time", async ({ httpServers }) => {
    const server = await httpServers.start(() => undefined);
    const context = { env: { MARVIN_MYMEMORY_URL: server.origin }, signal: new AbortController().signal };
    await expect(translate(context, "Hello", "en", "de", { timeoutMs: 200 })).rejects.toThrow(
      "MyMemory took longer than 0.2 s to answer",
    );
  });
});
