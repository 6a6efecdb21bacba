/**
 * Stack Exchange API 2.3 wrappers: `items`, `has_more`, `quota_max`, `quota_remaining`, sometimes
 * `backoff`. Titles and names are HTML-encoded (`&#39;`, `&quot;`, `&amp;`), dates are Unix seconds,
 * bodies (with `filter=withbody`) are HTML. Errors are `error_id`/`error_message`/`error_name` with an
 * HTTP 400. The real API gzips every body; the tests serve these gzipped too.
 */

const OWNER = {
  account_id: 1_165_580,
  reputation: 1_066_011,
  user_id: 1_144_035,
  user_type: "registered",
  profile_image: "https://i.sstatic.net/I4fiW.jpg?s=256",
  display_name: "Martijn Pieters",
  link: "https://stackoverflow.com/users/1144035/martijn-pieters",
};

export const SE_SEARCH_FLATTEN = {
  items: [
    {
      tags: ["python", "list", "multidimensional-array", "flatten"],
      owner: { ...OWNER, display_name: "Emma", user_id: 24_046, reputation: 3_271 },
      is_answered: true,
      view_count: 4_189_207,
      accepted_answer_id: 952_952,
      answer_count: 32,
      score: 5_531,
      last_activity_date: 1_745_925_051,
      creation_date: 1_244_493_305,
      last_edit_date: 1_702_138_440,
      question_id: 952_914,
      content_license: "CC BY-SA 4.0",
      link: "https://stackoverflow.com/questions/952914/how-do-i-make-a-flat-list-out-of-a-list-of-lists",
      title: "How do I make a flat list out of a list of lists?",
    },
    {
      tags: ["python", "itertools"],
      owner: { ...OWNER, display_name: "J&#246;rg &quot;jo&quot; M&#252;ller" },
      is_answered: false,
      view_count: 311,
      answer_count: 0,
      score: -1,
      last_activity_date: 1_700_000_000,
      creation_date: 1_699_912_800,
      question_id: 77_481_230,
      content_license: "CC BY-SA 4.0",
      link: "https://stackoverflow.com/questions/77481230/why-doesn-t-chain-from-iterable-flatten-strings",
      title: "Why doesn&#39;t chain.from_iterable &quot;flatten&quot; strings &amp; bytes?",
    },
  ],
  has_more: true,
  quota_max: 300,
  quota_remaining: 287,
};

export const SE_SEARCH_NOTHING = { items: [], has_more: false, quota_max: 300, quota_remaining: 12 };

export const SE_QUESTION_FLATTEN = { ...SE_SEARCH_FLATTEN, items: [SE_SEARCH_FLATTEN.items[0]], has_more: false };

export const SE_ANSWERS_FLATTEN = {
  items: [
    {
      owner: { ...OWNER, display_name: "Boris Verkhovskiy" },
      is_accepted: false,
      score: 2_030,
      last_activity_date: 1_700_111_000,
      creation_date: 1_244_493_700,
      answer_id: 952_946,
      question_id: 952_914,
      content_license: "CC BY-SA 4.0",
      body:
        "<p>You can use <code>itertools.chain</code>:</p>\n\n" +
        '<pre class="lang-py prettyprint-override"><code>import itertools\n' +
        "merged = list(itertools.chain(*list2d))\n</code></pre>\n",
    },
    {
      owner: { ...OWNER, display_name: "Alex Martelli" },
      is_accepted: true,
      score: 7_012,
      last_activity_date: 1_745_925_051,
      creation_date: 1_244_493_447,
      last_edit_date: 1_702_138_440,
      answer_id: 952_952,
      question_id: 952_914,
      content_license: "CC BY-SA 4.0",
      body:
        "<p>A list of lists named <code>xss</code> can be flattened using a nested " +
        '<a href="https://docs.python.org/3/tutorial/datastructures.html#list-comprehensions" rel="nofollow ' +
        'noreferrer">list comprehension</a>:</p>\n<pre><code>flat_list = [\n    x\n    for xs in xss\n' +
        "    for x in xs\n]\n</code></pre>\n<p>It&#39;s faster than <code>sum(xss, [])</code> &amp; clearer.</p>\n",
    },
  ],
  has_more: false,
  quota_max: 300,
  quota_remaining: 285,
};

export const SE_NO_ANSWERS = { items: [], has_more: false, quota_max: 300, quota_remaining: 284 };

export const SE_BAD_PARAMETER = { error_id: 400, error_message: "site is required", error_name: "bad_parameter" };

export const SE_THROTTLED = {
  error_id: 502,
  error_message: "too many requests from this IP, more requests available in 82216 seconds",
  error_name: "throttle_violation",
};
