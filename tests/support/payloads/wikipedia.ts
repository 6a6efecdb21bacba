/**
 * Answers in the shape of Wikipedia's APIs: the Action API (`/w/api.php`, `formatversion=2`) for
 * search and plain-text extracts, and the REST API (`/api/rest_v1/page/summary/{title}`).
 * Search snippets mark matches with `<span class="searchmatch">` and carry HTML entities; a refused
 * query is an `error` object inside an HTTP 200 answer; a missing page is `"missing": true`.
 */

export const WIKI_SEARCH_LOVELACE = {
  batchcomplete: true,
  continue: { sroffset: 3, continue: "-||" },
  query: {
    searchinfo: { totalhits: 1287 },
    search: [
      {
        ns: 0,
        title: "Ada Lovelace",
        pageid: 974,
        size: 87_163,
        wordcount: 9_412,
        snippet:
          'Augusta <span class="searchmatch">Ada</span> King, Countess of <span class="searchmatch">Lovelace</span> ' +
          "(née Byron; 10 December 1815 – 27 November 1852) was an English mathematician &amp; writer",
        timestamp: "2026-10-30T08:12:45Z",
      },
      {
        ns: 0,
        title: "Ada Lovelace Day",
        pageid: 21_822_413,
        size: 9_044,
        wordcount: 812,
        snippet:
          '<span class="searchmatch">Ada</span> <span class="searchmatch">Lovelace</span> Day is an ' +
          "international celebration of the achievements of women in science, technology, engineering and maths",
        timestamp: "2026-09-14T17:01:02Z",
      },
      {
        ns: 0,
        title: "Analytical engine",
        pageid: 2_426,
        size: 41_970,
        wordcount: 4_530,
        snippet:
          "Babbage&#039;s analytical engine &quot;weaves algebraic patterns&quot;, wrote " +
          '<span class="searchmatch">Ada</span> <span class="searchmatch">Lovelace</span>',
        timestamp: "2026-08-02T11:45:19Z",
      },
    ],
  },
};

export const WIKI_SEARCH_NOTHING = {
  batchcomplete: true,
  query: { searchinfo: { totalhits: 0, suggestion: "ada lovelace", suggestionsnippet: "ada lovelace" }, search: [] },
};

export const WIKI_SEARCH_REFUSED = {
  error: {
    code: "nosrsearch",
    info: 'The "srsearch" parameter must be set.',
    docref:
      "See https://en.wikipedia.org/w/api.php for API usage. Subscribe to the mediawiki-api-announce mailing list " +
      "at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; " +
      "for notice of API deprecations and breaking changes.",
  },
  servedby: "mw-api-ext.eqiad.main-6d8f9c7b5-x2x9k",
};

export const WIKI_SUMMARY_LOVELACE = {
  type: "standard",
  title: "Ada Lovelace",
  displaytitle: '<span class="mw-page-title-main">Ada Lovelace</span>',
  namespace: { id: 0, text: "" },
  wikibase_item: "Q7259",
  titles: {
    canonical: "Ada_Lovelace",
    normalized: "Ada Lovelace",
    display: '<span class="mw-page-title-main">Ada Lovelace</span>',
  },
  pageid: 974,
  thumbnail: {
    source: "https://upload.wikimedia.org/wikipedia/commons/thumb/0/0b/Ada_Byron_daguerreotype.jpg/330px-Ada.jpg",
    width: 320,
    height: 404,
  },
  lang: "en",
  dir: "ltr",
  revision: "1254110348",
  tid: "4f1c1a6e-96a4-11ef-9f6e-7d2b9b0c1f3a",
  timestamp: "2026-10-30T08:12:45Z",
  description: "English mathematician (1815–1852)",
  description_source: "local",
  content_urls: {
    desktop: {
      page: "https://en.wikipedia.org/wiki/Ada_Lovelace",
      revisions: "https://en.wikipedia.org/wiki/Ada_Lovelace?action=history",
      edit: "https://en.wikipedia.org/wiki/Ada_Lovelace?action=edit",
      talk: "https://en.wikipedia.org/wiki/Talk:Ada_Lovelace",
    },
    mobile: {
      page: "https://en.m.wikipedia.org/wiki/Ada_Lovelace",
      revisions: "https://en.m.wikipedia.org/wiki/Special:History/Ada_Lovelace",
      edit: "https://en.m.wikipedia.org/wiki/Ada_Lovelace?action=edit",
      talk: "https://en.m.wikipedia.org/wiki/Talk:Ada_Lovelace",
    },
  },
  extract:
    "Augusta Ada King, Countess of Lovelace was an English mathematician and writer chiefly known for her work " +
    "on Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine.",
  extract_html:
    "<p><b>Augusta Ada King, Countess of Lovelace</b> was an English mathematician and writer chiefly known for " +
    "her work on Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine.</p>",
};

export const WIKI_SUMMARY_DISAMBIGUATION = {
  type: "disambiguation",
  title: "Mercury",
  displaytitle: '<span class="mw-page-title-main">Mercury</span>',
  namespace: { id: 0, text: "" },
  wikibase_item: "Q302",
  titles: { canonical: "Mercury", normalized: "Mercury", display: "Mercury" },
  pageid: 19_694,
  lang: "en",
  dir: "ltr",
  revision: "1249931402",
  tid: "0c7e4a52-8a11-11ef-8b7a-3b0f2c6b8d21",
  timestamp: "2026-10-11T19:20:07Z",
  description: "Topics referred to by the same term",
  description_source: "local",
  content_urls: {
    desktop: {
      page: "https://en.wikipedia.org/wiki/Mercury",
      revisions: "https://en.wikipedia.org/wiki/Mercury?action=history",
      edit: "https://en.wikipedia.org/wiki/Mercury?action=edit",
      talk: "https://en.wikipedia.org/wiki/Talk:Mercury",
    },
  },
  extract: "Mercury commonly refers to:Mercury (planet), the nearest planet to the Sun\nMercury (element)",
  extract_html: "<p><b>Mercury</b> commonly refers to:</p><ul><li>Mercury (planet)</li></ul>",
};

export const WIKI_SEARCH_MERCURY = {
  batchcomplete: true,
  query: {
    searchinfo: { totalhits: 25_114 },
    search: [
      { ns: 0, title: "Mercury", pageid: 19_694, wordcount: 310, snippet: '<span class="searchmatch">Mercury</span>' },
      {
        ns: 0,
        title: "Mercury (planet)",
        pageid: 19_694_001,
        wordcount: 14_120,
        snippet: '<span class="searchmatch">Mercury</span> is the first planet from the Sun',
      },
      {
        ns: 0,
        title: "Mercury (element)",
        pageid: 18_617_142,
        wordcount: 9_805,
        snippet: '<span class="searchmatch">Mercury</span> is a chemical element; it has symbol Hg',
      },
    ],
  },
};

export const WIKI_NOT_FOUND = {
  type: "https://mediawiki.org/wiki/HyperSwitch/errors/not_found",
  title: "Not found.",
  method: "get",
  detail: "Page or revision not found.",
  uri: "/en.wikipedia.org/v1/page/summary/Xyzzy_Plugh",
};

const LOVELACE_TEXT = [
  "Augusta Ada King, Countess of Lovelace (née Byron; 10 December 1815 – 27 November 1852) was an English " +
    "mathematician and writer chiefly known for her work on Charles Babbage's Analytical Engine.",
  "Ada Byron was the only legitimate child of poet Lord Byron and reformer Anne Isabella Milbanke.",
  "",
  "",
  "== Biography ==",
  "",
  "",
  "=== Childhood ===",
  'Lord Byron expected his child to be a "glorious boy" and was disappointed when Lady Byron gave birth to a girl.',
  "",
  "",
  "=== First Computer Program ===",
  "In 1842–43 Ada translated an article by the Italian military engineer Luigi Menabrea about the Analytical " +
    "Engine, supplementing it with seven long notes, labelled A to G. Note G describes an algorithm for the " +
    "engine to compute Bernoulli numbers; it is considered the first published algorithm ever specifically " +
    "tailored for implementation on a computer.",
  "",
  "",
  "== Legacy ==",
  "Ada Lovelace Day is an annual event celebrated on the second Tuesday of October.",
].join("\n");

export const WIKI_EXTRACT_LOVELACE = {
  batchcomplete: true,
  query: {
    normalized: [{ fromencoded: false, from: "ada lovelace", to: "Ada lovelace" }],
    redirects: [{ from: "Ada lovelace", to: "Ada Lovelace" }],
    pages: [{ pageid: 974, ns: 0, title: "Ada Lovelace", extract: LOVELACE_TEXT }],
  },
};

export const WIKI_EXTRACT_MISSING = {
  batchcomplete: true,
  query: { pages: [{ ns: 0, title: "Xyzzy Plugh", missing: true }] },
};
