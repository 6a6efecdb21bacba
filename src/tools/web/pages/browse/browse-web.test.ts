import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../../../../tests/support/fixtures.js";
import { type LocalHttpServers, sendText } from "../../../../../tests/support/local-http-server.js";
import { ARTICLE_PAGE, WINDOWS_1252_PAGE } from "../../../../../tests/support/payloads/web.js";
import type { ToolHarnessPool } from "../../../../../tests/support/tool-harness.js";

const ALLOW_LOCAL = { MARVIN_ALLOW_PRIVATE_URLS: "1" };

async function site(httpServers: LocalHttpServers, body: string | Buffer, headers: Record<string, string> = {}) {
  return httpServers.start((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers });
    response.end(body);
  });
}

/** A harness whose PATH has no lynx, so browse_web falls back to main-content extraction. */
async function withoutLynx(harnesses: ToolHarnessPool, home: string, emptyDir: string) {
  return harnesses.open({ home, env: { ...ALLOW_LOCAL, PATH: emptyDir } });
}

const manyLinks = (count: number) =>
  `<html><head><title>Index</title></head><body><p>${"All rivers of Switzerland. ".repeat(40)}</p><ul>${Array.from(
    { length: count },
    (_, index) => `<li><a href="/river/${index + 1}">River ${index + 1}</a></li>`,
  ).join("")}</ul></body></html>`;

describe("browse_web", () => {
  test("renders the page with lynx and lists its links after the text", async ({ home, harnesses, httpServers }) => {
    const server = await site(httpServers, ARTICLE_PAGE);
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    const text = await harness.ok("browse_web", { url: `${server.origin}/rivers/aare-august` });
    expect(text.startsWith(`The Aare in August | Bern Rivers Journal\n${server.origin}/rivers/aare-august\n`)).toBe(
      true,
    );
    expect(text).toContain("(read with lynx)");
    expect(text).toMatch(/this year it peaked at 21\.4 °C\s+on 9 August/);
    expect(text).toContain("* Never swim alone.");
    expect(text).not.toContain("dataLayer");
    expect(text).toContain(
      [
        "Links:",
        `1. Home — ${server.origin}/`,
        `2. Rivers — ${server.origin}/rivers/`,
        `3. About us — ${server.origin}/about`,
        "4. Aare page — https://www.bern.example/aare?src=journal",
        `5. The Emme after the storm — ${server.origin}/rivers/emme`,
        "6. Follow us — https://social.example/@riversjournal",
      ].join("\n"),
    );
    expect(server.requests[0]!.headers.accept).toMatch(/^text\/html/);
  });

  test("lynx reads no .lynxrc or lynx.cfg that the model could have written", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    // Both would have lynx show an image without alt text as [INLINE] instead of its file name.
    await writeFile(join(home, ".lynxrc"), "verbose_images=off\n");
    await writeFile(join(home, "lynx.cfg"), "VERBOSE_IMAGES:FALSE\n");
    const server = await site(httpServers, '<p>A photo: <img src="/img/aare.png"> of the river.</p>');
    const harness = await harnesses.open({ home, env: { ...ALLOW_LOCAL, LYNX_CFG: join(home, "lynx.cfg") } });
    const text = await harness.ok("browse_web", { url: server.origin });
    expect(text).toContain("(read with lynx)");
    expect(text).toContain("A photo: [aare.png] of the river.");
  });

  test("without lynx, extracts the main content and leaves the navigation out", async ({
    home,
    harnesses,
    httpServers,
    tempDirs,
  }) => {
    const server = await site(httpServers, ARTICLE_PAGE);
    const harness = await withoutLynx(harnesses, home, await tempDirs.make("marvin-no-lynx-"));
    const text = await harness.ok("browse_web", { url: `${server.origin}/rivers/aare-august` });
    expect(text).toContain("(read with main-content extraction; lynx is not installed)");
    expect(text).toMatch(/this year it peaked at 21\.4 °C on 9 August/);
    expect(text).toContain("Never swim alone.");
    const body = text.slice(0, text.indexOf("Links:"));
    expect(body).not.toContain("Most read");
    expect(body).not.toContain("Skip to content");
    expect(text).toContain("4. Aare page — https://www.bern.example/aare?src=journal");
  });

  test("max_length counts the text only; the link list is capped on its own", async ({
    home,
    harnesses,
    httpServers,
    tempDirs,
  }) => {
    const server = await site(httpServers, manyLinks(55));
    for (const harness of [
      await harnesses.open({ home, env: ALLOW_LOCAL }),
      await withoutLynx(harnesses, home, await tempDirs.make("marvin-no-lynx-")),
    ]) {
      const text = await harness.ok("browse_web", { url: server.origin, max_length: 300 });
      const body = text.slice(text.indexOf(")\n\n") + 3, text.indexOf("\n\nLinks"));
      expect(body.length).toBeLessThanOrEqual(300);
      expect(body.length).toBeGreaterThan(240);
      expect(text).toContain("Links (first 40 of 55):\n1. River 1 — ");
      expect(text).toContain(`40. River 40 — ${server.origin}/river/40\n\n[Note: the text was cut at`);
      expect(text).not.toContain("River 41 —");
      expect(text).toMatch(/\[Note: the text was cut at \d+ of \d+ characters \(ask again with a larger max_length /);
      expect(text).toMatch(/; 15 more links were left out\.\]$/);
    }
  });

  test("reads a page in the charset its <meta> names", async ({ home, harnesses, httpServers, tempDirs }) => {
    const server = await site(httpServers, WINDOWS_1252_PAGE, { "content-type": "text/html" });
    for (const harness of [
      await harnesses.open({ home, env: ALLOW_LOCAL }),
      await withoutLynx(harnesses, home, await tempDirs.make("marvin-no-lynx-")),
    ]) {
      const text = await harness.ok("browse_web", { url: server.origin });
      expect(text).toMatch(/^Café menu\n/);
      expect(text).toContain("Crème brûlée à 8 CHF");
    }
  });

  test("shows plain text as it is", async ({ home, harnesses, httpServers }) => {
    const server = await site(httpServers, "User-agent: *\nDisallow: /private/\n", { "content-type": "text/plain" });
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    const text = await harness.ok("browse_web", { url: `${server.origin}/robots.txt` });
    expect(text).toBe(
      `(untitled page)\n${server.origin}/robots.txt\n(read with plain text)\n\nUser-agent: *\nDisallow: /private/`,
    );
  });

  test("says a PDF or a binary file is not a page, without reading it", async ({ home, harnesses, httpServers }) => {
    const pdf = await site(httpServers, Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj\n"), {
      "content-type": "application/pdf",
      "content-length": "26",
    });
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    expect(await harness.failure("browse_web", { url: `${pdf.origin}/report.pdf` })).toBe(
      `Error in browse_web: ${pdf.origin}/report.pdf is a PDF document (application/pdf, 26 bytes), not a web ` +
        "page, so browse_web cannot show it as text. Save it with download_file instead.",
    );
    const untyped = await httpServers.start((_request, response) => {
      response.writeHead(200, {});
      response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    });
    expect(await harness.failure("browse_web", { url: `${untyped.origin}/download` })).toContain(
      `${untyped.origin}/download is a binary file (application/octet-stream, judged from its first bytes), not a ` +
        "web page, so browse_web cannot show it as text.",
    );
  });

  test("refuses local addresses unless the user allows them", async ({ home, harnesses, httpServers }) => {
    const server = await site(httpServers, ARTICLE_PAGE);
    const harness = await harnesses.open({ home });
    expect(await harness.failure("browse_web", { url: server.origin })).toContain(
      `Marvin does not open ${server.origin}/: 127.0.0.1 is a loopback address.`,
    );
    expect(server.connections).toBe(0);
  });

  test("hands on the site's error status", async ({ home, harnesses, httpServers }) => {
    const server = await httpServers.start((_request, response) => sendText(response, "<h1>Not Found</h1>", 404));
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    expect(await harness.failure("browse_web", { url: `${server.origin}/gone` })).toBe(
      "Error in browse_web: 127.0.0.1:" +
        `${server.port} answered HTTP 404 (Not Found) — not found; check the name or address asked for.`,
    );
  });
});
