import { createSocket } from "node:dgram";
import { describe, expect, test } from "../../../../../tests/support/fixtures.js";
import { sendText } from "../../../../../tests/support/local-http-server.js";
import { SCRIPT_RENDERED_PAGE } from "../../../../../tests/support/payloads/web.js";

const ALLOW_LOCAL = { MARVIN_ALLOW_PRIVATE_URLS: "1" };

describe("scrape_page (real Chromium)", () => {
  test("runs the page's JavaScript; every request goes through Marvin's client", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const images = await httpServers.start((_request, response) =>
      sendText(response, "GIF89a", 200, { "content-type": "image/gif" }),
    );
    const page = SCRIPT_RENDERED_PAGE.replace("</body>", `<img src="${images.origin}/pixel.gif" alt=""></body>`);
    const site = await httpServers.start((_request, response) => sendText(response, page));
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    const text = await harness.ok("scrape_page", { url: `${site.origin}/board` });
    expect(text).toBe(
      [
        `Departures, Bern\n${site.origin}/board\n(read with Chromium, JavaScript run)`,
        "Departures\nIC 8 to Brig, platform 7, 14:04\nS 1 to Fribourg, platform 12, 14:09\nFull timetable",
        `Links:\n1. Full timetable — ${site.origin}/timetable?from=Bern`,
      ].join("\n\n"),
    );
    expect(images.requests).toHaveLength(1);
    for (const request of [...site.requests, ...images.requests]) {
      expect(request.headers["user-agent"]).toMatch(/^Marvin\//);
    }
  });

  test("returns only what a CSS selector matches, as text or HTML", async ({ home, harnesses, httpServers }) => {
    const site = await httpServers.start((_request, response) => sendText(response, SCRIPT_RENDERED_PAGE));
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    const text = await harness.ok("scrape_page", { url: site.origin, css_selector: ".train" });
    expect(text).toContain(
      "(read with Chromium, JavaScript run; only '.train')\n\nIC 8 to Brig, platform 7, 14:04\n\n",
    );
    expect(text).not.toContain("Full timetable");
    const html = await harness.ok("scrape_page", { url: site.origin, css_selector: "ul.board", extract: "html" });
    expect(html).toContain('<ul class="board"><li class="train">IC 8 to Brig, platform 7, 14:04</li>');
    expect(await harness.failure("scrape_page", { url: site.origin, css_selector: ".bus" })).toBe(
      "Error in scrape_page: Nothing on the page matches the CSS selector '.bus'.",
    );
  });

  test("sends no UDP of its own: a page's WebRTC reaches no STUN server", async ({ home, harnesses, httpServers }) => {
    const stun = createSocket("udp4");
    const datagrams: Buffer[] = [];
    stun.on("message", (message) => datagrams.push(message));
    await new Promise<void>((resolve) => stun.bind(0, "127.0.0.1", resolve));
    const page =
      "<html><body><p id=state>starting</p><script>\n" +
      "const state = document.getElementById('state');\n" +
      "try {\n" +
      "  const frame = document.createElement('iframe'); document.body.appendChild(frame);\n" +
      "  const Peer = window.RTCPeerConnection || frame.contentWindow.RTCPeerConnection;\n" +
      `  const peer = new Peer({ iceServers: [{ urls: 'stun:127.0.0.1:${stun.address().port}' }] });\n` +
      "  peer.createDataChannel('leak');\n" +
      "  peer.createOffer().then((offer) => peer.setLocalDescription(offer));\n" +
      "  state.textContent = 'gathering';\n" +
      "} catch (error) { state.textContent = 'no WebRTC'; }\n" +
      // Keeps the page open (networkidle) long enough for ICE gathering to send its requests.
      "fetch('/slow');\n" +
      "</script></body></html>";
    const site = await httpServers.start((request, response) => {
      if (request.url === "/slow")
        setTimeout(() => sendText(response, "done", 200, { "content-type": "text/plain" }), 2000);
      else sendText(response, page);
    });
    try {
      const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
      const text = await harness.ok("scrape_page", { url: site.origin });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(datagrams).toEqual([]);
      expect(text).toContain("no WebRTC");
    } finally {
      stun.close();
    }
  });

  test("refuses local addresses unless the user allows them", async ({ home, harnesses, httpServers }) => {
    const site = await httpServers.start((_request, response) => sendText(response, SCRIPT_RENDERED_PAGE));
    const harness = await harnesses.open({ home });
    expect(await harness.failure("scrape_page", { url: `${site.origin}/` })).toContain(
      `Marvin does not open ${site.origin}/: 127.0.0.1 is a loopback address.`,
    );
    expect(site.connections).toBe(0);
  });

  test("names the site's error status", async ({ home, harnesses, httpServers }) => {
    const site = await httpServers.start((_request, response) => sendText(response, "<h1>Not Found</h1>", 404));
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    expect(await harness.failure("scrape_page", { url: `${site.origin}/gone` })).toBe(
      `Error in scrape_page: 127.0.0.1:${site.port} answered HTTP 404 for ${site.origin}/gone; check the address.`,
    );
  });

  test("says how to install a browser when there is none", async ({ home, harnesses, tempDirs }) => {
    const harness = await harnesses.open({ home, env: { PATH: await tempDirs.make("marvin-no-browser-") } });
    expect(await harness.failure("scrape_page", { url: "https://example.org/" })).toContain(
      "scrape_page needs Chromium (or Chrome), and none is installed: looked for chromium, chromium-browser and " +
        "google-chrome on PATH. Install it (Debian/Ubuntu: sudo apt install chromium)",
    );
  });
});
