/**
 * Pages in the shape of DuckDuckGo's HTML endpoint (html.duckduckgo.com/html/): every result link is a
 * `//duckduckgo.com/l/?uddg=<url-encoded target>&rut=<hash>` redirect, titles and snippets carry `<b>`
 * highlighting and HTML entities, and ads (`result--ad`, `y.js` links) come first.
 */

const redirect = (target: string) =>
  `//duckduckgo.com/l/?uddg=${encodeURIComponent(target)}&amp;rut=9f1c0e4d2b7a1e3c5d8f0a6b4c2e1d3f5a7b9c0d`;

const result = (target: string, title: string, display: string, snippet: string) => `
<div class="result results_links results_links_deep web-result ">
  <div class="links_main links_deep result__body">
    <h2 class="result__title">
      <a rel="nofollow" class="result__a" href="${redirect(target)}">${title}</a>
    </h2>
    <div class="result__extras">
      <div class="result__extras__url">
        <span class="result__icon">
          <a rel="nofollow" href="${redirect(target)}"><img class="result__icon__img" width="16" height="16" alt=""
            src="//external-content.duckduckgo.com/ip3/${display}.ico" name="i15" /></a>
        </span>
        <a class="result__url" href="${redirect(target)}">${display}</a>
      </div>
    </div>
    <a class="result__snippet" href="${redirect(target)}">${snippet}</a>
    <div class="clear"></div>
  </div>
</div>`;

const AD = `
<div class="result results_links results_links_deep result--ad result--ad--small">
  <div class="links_main links_deep result__body">
    <h2 class="result__title">
      <a rel="nofollow" class="result__a"
        href="https://duckduckgo.com/y.js?ad_domain=pythonhosting.example&amp;ad_provider=bingv7aa&amp;ad_type=txad">
        Python Hosting - 50% Off Today</a>
    </h2>
    <a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=pythonhosting.example">Deploy in seconds.</a>
  </div>
</div>`;

const page = (query: string, body: string) => `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
  "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
  <meta http-equiv="content-type" content="text/html; charset=UTF-8">
  <title>${query} at DuckDuckGo</title>
  <link rel="stylesheet" href="/dist/h.7d4a2f1c.css" type="text/css">
</head>
<body class="body--html">
  <div class="header">
    <form action="/html/" method="post" id="search_form" name="x">
      <input type="text" name="q" value="${query}" autocomplete="off" id="search_form_input_homepage">
    </form>
  </div>
  <div id="links" class="results">${body}
  </div>
</body>
</html>`;

export const DUCKDUCKGO_PYTHON_PAGE = page(
  "python release",
  AD +
    result(
      "https://www.python.org/downloads/release/python-3140/",
      "<b>Python</b> <b>Release</b> <b>Python</b> 3.14.0 | <b>Python</b>.org",
      "www.python.org/downloads/release/python-3140/",
      "<b>Python</b> 3.14.0 is the newest major <b>release</b> of the <b>Python</b> programming language, " +
        "and it contains many new features &amp; optimizations compared to <b>Python</b> 3.13.",
    ) +
    result(
      "https://docs.python.org/3/whatsnew/3.14.html?highlight=t-strings&lang=en",
      "What&#x27;s new in <b>Python</b> 3.14 &mdash; <b>Python</b> 3.14.0 documentation",
      "docs.python.org/3/whatsnew/3.14.html",
      "This article explains the new features in <b>Python</b> 3.14, compared to 3.13. " +
        "<b>Python</b> 3.14 was <b>released</b> on 7 October 2025.",
    ) +
    result(
      "https://www.python.org/downloads/release/python-3140/",
      "<b>Python</b> 3.14.0 (duplicate listing)",
      "www.python.org/downloads/release/python-3140/",
      "The same page again.",
    ) +
    result(
      "https://en.wikipedia.org/wiki/History_of_Python",
      "History of <b>Python</b> - Wikipedia",
      "en.wikipedia.org/wiki/History_of_Python",
      "The programming language <b>Python</b> was conceived in the late 1980s, and its implementation was started " +
        "in December 1989 by Guido van Rossum at CWI in the Netherlands.",
    ),
);

export const DUCKDUCKGO_NO_RESULTS_PAGE = page(
  "xyzzyplughqwertz",
  `
    <div class="result results_links results_links_deep result--no-result">
      <div class="no-results">No  results.</div>
    </div>`,
);

export const DUCKDUCKGO_CHALLENGE_PAGE = `<!DOCTYPE html>
<html lang="en-US"><head><meta charset="utf-8"><title>DuckDuckGo</title></head>
<body>
  <div class="anomaly-modal__modal" data-testid="anomaly-modal">
    <div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>
    <div class="anomaly-modal__description">Please complete the following challenge to confirm this search was
      made by a human.</div>
    <form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html&amp;cc=sre" method="POST"></form>
  </div>
</body></html>`;

/** For other domains' fixture pages built from the same markup (the movie and game fallbacks). */
export { page as duckDuckGoPage, result as duckDuckGoResult };
