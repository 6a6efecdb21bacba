/**
 * Semantic Scholar's Graph API (`/graph/v1/paper/search`) and arXiv's Atom feed (`/api/query`).
 * Semantic Scholar nulls what it lacks (abstract, venue ""), its openAccessPdf may carry an empty
 * URL with status CLOSED, and it leaves `data` out when nothing matches; its 429 body has a
 * `message`. arXiv wraps titles and abstracts over several indented lines, puts the total in
 * `opensearch:totalResults`, and reports a bad query as an entry titled "Error".
 */

export const S2_SEARCH_TRANSFORMER = {
  total: 58_204,
  offset: 0,
  next: 2,
  data: [
    {
      paperId: "204e3073870fae3d05bcbc2f6a8e263d9b72e776",
      externalIds: {
        DBLP: "journals/corr/VaswaniSPUJGKP17",
        ArXiv: "1706.03762",
        MAG: "2963403868",
        CorpusId: 13756489,
      },
      url: "https://www.semanticscholar.org/paper/204e3073870fae3d05bcbc2f6a8e263d9b72e776",
      title: "Attention is All you Need",
      abstract:
        "The dominant sequence transduction models are based on complex recurrent or convolutional neural networks " +
        "in an encoder-decoder configuration. We propose a new simple network architecture, the Transformer.",
      venue: "Neural Information Processing Systems",
      year: 2017,
      citationCount: 151_026,
      openAccessPdf: { url: "", status: "CLOSED", license: null, disclaimer: "Notice: Paper or abstract available." },
      authors: [
        { authorId: "40348417", name: "Ashish Vaswani" },
        { authorId: "1846258", name: "Noam M. Shazeer" },
        { authorId: "3877127", name: "Niki Parmar" },
        { authorId: "39328010", name: "Jakob Uszkoreit" },
        { authorId: "145024664", name: "Llion Jones" },
        { authorId: "19177000", name: "Aidan N. Gomez" },
        { authorId: "40527594", name: "Lukasz Kaiser" },
        { authorId: "3443442", name: "Illia Polosukhin" },
      ],
    },
    {
      paperId: "a8e9c3f1d2b7e4a6c0f9d8e7b6a5c4d3e2f1a0b9",
      externalIds: { DOI: "10.1145/3505244", CorpusId: 230435805 },
      url: "https://www.semanticscholar.org/paper/a8e9c3f1d2b7e4a6c0f9d8e7b6a5c4d3e2f1a0b9",
      title: "Transformers in Vision: A Survey",
      abstract: null,
      venue: "",
      year: 2021,
      citationCount: 2_913,
      openAccessPdf: {
        url: "https://arxiv.org/pdf/2101.01169",
        status: "GREEN",
        license: null,
        disclaimer: "Notice: Paper or abstract available.",
      },
      authors: [
        { authorId: "152973423", name: "Salman Khan" },
        { authorId: null, name: "Muzammal Naseer" },
      ],
    },
  ],
};

export const S2_SEARCH_NOTHING = { total: 0, offset: 0 };

export const S2_TOO_MANY_REQUESTS = {
  message:
    "Too Many Requests. Please wait and try again or apply for a key for higher rate limits. " +
    "https://www.semanticscholar.org/product/api#api-key-form",
  code: "429",
};

export const S2_BAD_FIELDS = { error: "Unrecognized or unsupported fields: [bogus]" };

const feed = (query: string, total: number, entries: string) => `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
  xmlns:arxiv="http://arxiv.org/schemas/atom">
  <id>https://arxiv.org/api/YlJHUAr0qGuVb6dmUbP2AQXUpT4</id>
  <title>arXiv Query: search_query=${query}&amp;id_list=&amp;start=0&amp;max_results=2</title>
  <updated>2026-11-24T00:00:00-05:00</updated>
  <link href="https://arxiv.org/api/query?search_query=${query}&amp;start=0&amp;max_results=2"
    type="application/atom+xml"/>
  <opensearch:itemsPerPage>2</opensearch:itemsPerPage>
  <opensearch:totalResults>${total}</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>${entries}
</feed>
`;

export const ARXIV_TRANSFORMER = feed(
  "all:attention%20AND%20all:transformer",
  4_211,
  `
  <entry>
    <id>http://arxiv.org/abs/1706.03762v7</id>
    <title>Attention Is All You Need: the Transformer for Sequence Transduction
  without Recurrence</title>
    <updated>2023-08-02T00:41:18Z</updated>
    <link href="https://arxiv.org/abs/1706.03762v7" rel="alternate" type="text/html"/>
    <link href="https://arxiv.org/pdf/1706.03762v7" rel="related" type="application/pdf" title="pdf"/>
    <summary>  The dominant sequence transduction models are based on complex recurrent or
convolutional neural networks in an encoder-decoder configuration. The best
performing models also connect the encoder and decoder through an attention
mechanism.
</summary>
    <category term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
    <published>2017-06-12T17:57:34Z</published>
    <arxiv:comment>15 pages, 5 figures</arxiv:comment>
    <arxiv:primary_category term="cs.CL"/>
    <author>
      <name>Ashish Vaswani</name>
    </author>
    <author>
      <name>Noam Shazeer</name>
    </author>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/2010.11929v2</id>
    <title>An Image is Worth 16x16 Words: Transformers for Image Recognition at
  Scale</title>
    <updated>2021-06-03T13:08:56Z</updated>
    <link href="https://arxiv.org/abs/2010.11929v2" rel="alternate" type="text/html"/>
    <link href="https://arxiv.org/pdf/2010.11929v2" rel="related" type="application/pdf" title="pdf"/>
    <summary>  While the Transformer architecture has become the de-facto standard for
natural language processing tasks, its applications to computer vision remain
limited.
</summary>
    <category term="cs.CV" scheme="http://arxiv.org/schemas/atom"/>
    <published>2020-10-22T17:55:59Z</published>
    <arxiv:journal_ref>ICLR 2021</arxiv:journal_ref>
    <arxiv:primary_category term="cs.CV"/>
    <author>
      <name>Alexey Dosovitskiy</name>
    </author>
  </entry>`,
);

export const ARXIV_NOTHING = feed("all:xyzzyplugh", 0, "");

export const ARXIV_ERROR = feed(
  "ti:",
  1,
  `
  <entry>
    <id>https://arxiv.org/api/errors#incorrect_id_format_for_ti:</id>
    <title>Error</title>
    <summary>incorrect id format for ti:</summary>
    <updated>2026-11-24T00:00:00-05:00</updated>
    <link href="https://arxiv.org/api/errors#incorrect_id_format_for_ti:" rel="alternate" type="text/html"/>
    <author>
      <name>arXiv api core</name>
    </author>
  </entry>`,
);
