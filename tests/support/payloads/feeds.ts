/**
 * Feeds in the three formats read_rss reads, as sites publish them: RSS 2.0 with CDATA HTML
 * descriptions, double-encoded entities in titles, `dc:creator` and `content:encoded`; Atom
 * (GitHub's releases feed shape: HTML `content`, no summary, `updated` only); RSS 1.0 / RDF with
 * `dc:date` and escaped HTML in descriptions.
 */

export const RSS_NEWS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
  xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
  <title>Example Science &amp; Tech</title>
  <atom:link href="https://news.example.org/feed/" rel="self" type="application/rss+xml" />
  <link>https://news.example.org/</link>
  <description>Latest stories</description>
  <lastBuildDate>Tue, 24 Nov 2026 10:05:12 +0000</lastBuildDate>
  <language>en-US</language>
  <sy:updatePeriod xmlns:sy="http://purl.org/rss/1.0/modules/syndication/">hourly</sy:updatePeriod>
  <item>
    <title>Webb telescope spots &amp;#8216;impossible&amp;#8217; early galaxy</title>
    <link>https://news.example.org/2026/11/24/webb-early-galaxy/</link>
    <dc:creator><![CDATA[Jane Doe]]></dc:creator>
    <pubDate>Tue, 24 Nov 2026 09:30:00 +0000</pubDate>
    <category><![CDATA[Space]]></category>
    <guid isPermaLink="false">https://news.example.org/?p=184223</guid>
    <description><![CDATA[<p>Astronomers found a galaxy that formed <em>just 290 million years</em> after
the Big Bang &#8230; <a href="https://news.example.org/2026/11/24/webb-early-galaxy/">Read more</a></p>
<img src="https://news.example.org/wp-content/uploads/galaxy.jpg" alt="" />]]></description>
    <content:encoded><![CDATA[<p>Astronomers found a galaxy that formed just 290 million years after the Big Bang.</p>
<p>The full article text.</p>]]></content:encoded>
  </item>
  <item>
    <title>Rust 1.95 released</title>
    <link>https://news.example.org/2026/11/23/rust-1-95/</link>
    <pubDate>Mon, 23 Nov 2026 18:02:41 +0000</pubDate>
    <guid isPermaLink="false">https://news.example.org/?p=184190</guid>
    <description><![CDATA[The release brings <code>async</code> closures &amp; faster builds.]]></description>
  </item>
  <item>
    <title>Weekly links</title>
    <guid>https://news.example.org/weekly/47</guid>
    <pubDate>Sun, 22 Nov 2026 08:00:00 GMT</pubDate>
  </item>
</channel>
</rss>
`;

export const RSS_EMPTY = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
<channel>
  <title>Quiet Blog</title>
  <link>https://quiet.example.org/</link>
  <description>Nothing yet</description>
</channel>
</rss>
`;

export const ATOM_RELEASES = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:lang="en-US">
  <id>tag:github.com,2008:https://github.com/nodejs/node/releases</id>
  <link type="text/html" rel="alternate" href="https://github.com/nodejs/node/releases"/>
  <link type="application/atom+xml" rel="self" href="https://github.com/nodejs/node/releases.atom"/>
  <title>Release notes from node</title>
  <updated>2026-11-20T16:41:07Z</updated>
  <entry>
    <id>tag:github.com,2008:Repository/27193779/v24.12.0</id>
    <updated>2026-11-20T16:41:07Z</updated>
    <link rel="alternate" type="text/html" href="https://github.com/nodejs/node/releases/tag/v24.12.0"/>
    <title>2026-11-20, Version 24.12.0 &#39;Krypton&#39; (LTS), @aduh95</title>
    <content type="html">&lt;h3&gt;Notable Changes&lt;/h3&gt;
&lt;ul&gt;
&lt;li&gt;[&lt;a
href=&quot;https://github.com/nodejs/node/commit/0a1b2c3&quot;&gt;&lt;code&gt;0a1b2c3&lt;/code&gt;&lt;/a&gt;]
 - &lt;strong&gt;(SEMVER-MINOR)&lt;/strong&gt; sqlite: add backup API&lt;/li&gt;
&lt;/ul&gt;</content>
    <author>
      <name>aduh95</name>
    </author>
    <media:thumbnail height="30" width="30" url="https://avatars.githubusercontent.com/u/14309773?s=60&amp;v=4"/>
  </entry>
</feed>
`;

export const RDF_SLASH = `<?xml version="1.0" encoding="ISO-8859-1"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
  xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:slash="http://purl.org/rss/1.0/modules/slash/">
  <channel rdf:about="https://slash.example.org/">
    <title>Slash Example</title>
    <link>https://slash.example.org/</link>
    <description>News for nerds</description>
    <dc:language>en-us</dc:language>
    <items>
      <rdf:Seq>
        <rdf:li rdf:resource="https://slash.example.org/story/26/11/23/1845/linux-6-18"/>
      </rdf:Seq>
    </items>
  </channel>
  <item rdf:about="https://slash.example.org/story/26/11/23/1845/linux-6-18">
    <title>Linux 6.18 Released</title>
    <link>https://slash.example.org/story/26/11/23/1845/linux-6-18</link>
    <description>Linus Torvalds announced &lt;a href="https://lkml.example.org/"&gt;Linux 6.18&lt;/a&gt;,
 with a new scheduler &amp;amp; better Rust support.&lt;p&gt;&lt;div class="share_submission"&gt;
&lt;/div&gt;&lt;/p&gt;</description>
    <dc:creator>msmash</dc:creator>
    <dc:date>2026-11-23T18:45:00+00:00</dc:date>
    <slash:comments>211</slash:comments>
  </item>
</rdf:RDF>
`;
