/**
 * Payloads of the news services and web pages the web tools read, in the shapes the real services send:
 * duckduckgo.com's search page (the `vqd` token sits in an inline script) and its news.js JSON (unix-second
 * dates, `<b>`-highlighted excerpts, HTML entities in titles), GNews v4 and NewsAPI v2 answers (nulls,
 * "[Removed]" articles, `{"status":"error","code":…}` bodies), and article pages with navigation around
 * the content.
 */

export const DDG_VQD = "4-102943870284629384756102938475610293847";

/** duckduckgo.com/?q=…: a JavaScript app shell whose inline script carries the query's vqd token. */
export const duckDuckGoSearchShell = (query: string, vqd?: string) => `<!DOCTYPE html>
<html lang="en-US" class="no-js has-zcm">
<head>
  <meta http-equiv="content-type" content="text/html; charset=utf-8">
  <title>${query} at DuckDuckGo</title>
  <link rel="preload" href="/dist/s.b3c1a2f6.js" as="script">
</head>
<body class="body--serp">
  <div id="react-layout"></div>
  <script type="text/javascript">DDG.page = new DDG.Pages.SERP({ showSafeSearchInfo: false });</script>
  <script type="text/javascript">
    ${vqd ? `DDG.deep.initialize('/d.js?q=${encodeURIComponent(query)}&l=wt-wt&s=0&dl=en&ct=CH&vqd=${vqd}` : ""}${
      vqd ? "&bing_market=en-US&p_ent=&ex=-1&sp=0');" : ""
    }
    ${vqd ? `DDG.ready(function () { DDG.duckbar.future_signal_tab({signal:'high',from:'news'}); });vqd="${vqd}";` : ""}
  </script>
</body>
</html>`;

const NOW = Date.parse("2026-11-24T12:00:00Z") / 1000;

/** news.js?o=json&q=electric+trucks…: newest first is not guaranteed, titles carry entities. */
export const DDG_NEWS_ANSWER = {
  ads: [],
  next: `news.js?q=electric+trucks&o=json&noamp=1&l=wt-wt&vqd=${DDG_VQD}&p=-1&s=30`,
  query: "electric trucks",
  queryEncoded: "electric%20trucks",
  response_type: "news",
  results: [
    {
      date: NOW - 5 * 3600,
      excerpt:
        "The company said its <b>electric</b> <b>trucks</b> would reach a 1,000 km range by 2028, " +
        "up from about 500 km today.",
      image: "https://imgs.search.brave.example/rs:fit:1200:630/truck.jpg",
      relative_time: "5 hours ago",
      source: "Reuters",
      syndicate: "Bing",
      title: "Volvo sets 1,000 km target for <b>electric</b> <b>trucks</b>",
      url: "https://www.reuters.com/business/autos/volvo-electric-trucks-range-2026-11-24/?utm_source=ddg",
      use_relevance: 0,
    },
    {
      date: NOW - 30 * 3600,
      excerpt: "Charging depots along the A1 motorway open to heavy goods vehicles &amp; coaches.",
      image: null,
      relative_time: "1 day ago",
      source: "Swissinfo",
      syndicate: "Bing",
      title: "Switzerland&#x27;s first megawatt chargers open for trucks",
      url: "https://www.swissinfo.ch/eng/megawatt-chargers-trucks/88412345",
      use_relevance: 0,
    },
    {
      date: NOW - 2 * 3600,
      excerpt: "Order books for battery-electric heavy trucks doubled in the third quarter.",
      relative_time: "2 hours ago",
      source: "Electrive",
      syndicate: "Bing",
      title: "Orders for electric heavy trucks doubled",
      url: "https://www.electrive.com/2026/11/24/orders-electric-heavy-trucks-doubled/",
      use_relevance: 0,
    },
  ],
};

export const DDG_NEWS_EMPTY = { ads: [], query: "xyzzy", queryEncoded: "xyzzy", response_type: "news", results: [] };

/** GNews /api/v4/search: the Reuters story again (same address without the tracking parameter). */
export const GNEWS_ANSWER = {
  totalArticles: 2,
  articles: [
    {
      title: "Volvo sets 1,000 km target for electric trucks",
      description: "Volvo Trucks aims to double the range of its battery-electric models by 2028.",
      content: "Volvo Trucks said on Tuesday it aims to double the range... [2210 chars]",
      url: "https://www.reuters.com/business/autos/volvo-electric-trucks-range-2026-11-24/",
      image: "https://www.reuters.com/resizer/truck.jpg",
      publishedAt: "2026-11-24T07:02:11Z",
      source: { name: "Reuters", url: "https://www.reuters.com" },
    },
    {
      title: "Hydrogen trucks lose ground to batteries, study finds",
      description: null,
      content: "A study by the ICCT found... [1402 chars]",
      url: "https://www.theguardian.com/environment/2026/nov/23/hydrogen-trucks-batteries-study",
      image: null,
      publishedAt: "2026-11-23T18:45:00Z",
      source: { name: "The Guardian", url: "https://www.theguardian.com" },
    },
  ],
};

/** GNews' error body for a bad key (HTTP 401). */
export const GNEWS_BAD_KEY = { errors: ["Your API key is invalid."] };

/** NewsAPI /v2/everything: a near-identical title of a story GNews has, and an article taken down. */
export const NEWSAPI_ANSWER = {
  status: "ok",
  totalResults: 3,
  articles: [
    {
      source: { id: null, name: "Guardian" },
      author: null,
      title: "Hydrogen trucks lose ground to batteries, study finds - Guardian",
      description: "Battery trucks are cheaper to run on almost every route, researchers say.",
      url: "https://amp.theguardian.com/environment/2026/nov/23/hydrogen-trucks-batteries-study",
      urlToImage: null,
      publishedAt: "2026-11-23T18:47:00Z",
      content: null,
    },
    {
      source: { id: null, name: "[Removed]" },
      author: null,
      title: "[Removed]",
      description: "[Removed]",
      url: "https://removed.com",
      urlToImage: null,
      publishedAt: "1970-01-01T00:00:00Z",
      content: "[Removed]",
    },
    {
      source: { id: "the-verge", name: "The Verge" },
      author: "Andrew J. Hawkins",
      title: "Tesla Semi deliveries slip again",
      description: "The electric truck's volume production moves to late 2027.",
      url: "https://www.theverge.com/2026/11/20/tesla-semi-delay",
      urlToImage: "https://cdn.vox-cdn.com/semi.jpg",
      publishedAt: "2026-11-20T15:00:00Z",
      content: "Tesla says... [+2301 chars]",
    },
  ],
};

/** NewsAPI's error body for a bad key (HTTP 401). */
export const NEWSAPI_BAD_KEY = {
  status: "error",
  code: "apiKeyInvalid",
  message:
    "Your API key is invalid or incorrect. Check your key, or go to https://newsapi.org to create a free API key.",
};

/** An article page: navigation, the article, a sidebar and a footer, as a news site builds it. */
export const ARTICLE_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>The Aare in August | Bern Rivers Journal</title>
  <script>window.dataLayer = window.dataLayer || []; dataLayer.push({ event: "pageview" });</script>
  <style>.nav { display: flex }</style>
</head>
<body>
  <header class="site-header">
    <nav class="nav">
      <a href="/">Home</a> <a href="/rivers/">Rivers</a> <a href="/about">About us</a>
      <a href="#main">Skip to content</a>
    </nav>
  </header>
  <main id="main">
    <article>
      <h1>The Aare in August</h1>
      <p class="byline">By Anna Keller &middot; 12 August 2026</p>
      <p>Every summer thousands of people let the Aare carry them through Bern. The river is fed by glaciers,
        so even in August it is colder than most lakes: this year it peaked at <strong>21.4 &deg;C</strong>
        on 9 August, the warmest reading since measurements began at the Sch&ouml;nau station.</p>
      <p>Swimmers enter at Eichholz and leave at the Marzili, about two kilometres downstream. The city
        publishes the current temperature and flow on its <a href="https://www.bern.example/aare?src=journal">Aare
        page</a>, and lifeguards advise against swimming when the flow exceeds 220 cubic metres per second.</p>
      <h2>Safety first</h2>
      <ul>
        <li>Never swim alone.</li>
        <li>Know your exit before you enter.</li>
      </ul>
    </article>
  </main>
  <aside><h3>Most read</h3><a href="/rivers/emme">The Emme after the storm</a></aside>
  <footer><a href="https://social.example/@riversjournal">Follow us</a> &copy; 2026 Bern Rivers Journal</footer>
</body>
</html>`;

/** A page in windows-1252 that says so only in its <meta> (the server sends no charset). */
export const WINDOWS_1252_PAGE = Buffer.from(
  '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252">' +
    "<title>Caf\xe9 menu</title></head><body><h1>Caf\xe9 du Pont</h1><p>Cr\xe8me br\xfbl\xe9e \xe0 8 CHF</p>" +
    "</body></html>",
  "latin1",
);

/** A page whose content is written by JavaScript after loading, as single-page apps do. */
export const SCRIPT_RENDERED_PAGE = `<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>Loading…</title></head>
<body>
  <div id="app"><p class="spinner">Loading…</p></div>
  <noscript>This app needs JavaScript.</noscript>
  <script>
    setTimeout(function () {
      document.title = "Departures, Bern";
      var app = document.getElementById("app");
      app.innerHTML = '<h1>Departures</h1><ul class="board">' +
        '<li class="train">IC 8 to Brig, platform 7, 14:04</li>' +
        '<li class="train">S 1 to Fribourg, platform 12, 14:09</li></ul>' +
        '<a href="/timetable?from=Bern">Full timetable</a>';
    }, 50);
  </script>
</body>
</html>`;
