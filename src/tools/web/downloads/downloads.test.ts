import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "../../../../tests/support/fixtures.js";
import { sendText } from "../../../../tests/support/local-http-server.js";

const ALLOW_LOCAL = { MARVIN_ALLOW_PRIVATE_URLS: "1" };
const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(300_000, 0x41), Buffer.from("\n%%EOF\n")]);

describe("download_file", () => {
  test("streams the file into ~/Downloads under the server's name, reporting progress", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const server = await httpServers.start((_request, response) => {
      response.writeHead(200, {
        "content-type": "application/pdf",
        "content-length": String(PDF.length),
        "content-disposition": "attachment; filename=\"report.pdf\"; filename*=UTF-8''Jahresbericht%202026.pdf",
      });
      response.end(PDF);
    });
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    const text = await harness.ok("download_file", { url: `${server.origin}/files/get?id=7` });
    const saved = join(home, "Downloads", "Jahresbericht 2026.pdf");
    expect(text).toBe(`Saved ${server.origin}/files/get?id=7 to ${saved} (293 KB, application/pdf).`);
    expect((await readFile(saved)).equals(PDF)).toBe(true);
    expect(await readdir(join(home, "Downloads"))).toEqual(["Jahresbericht 2026.pdf"]);
    expect(harness.progress.at(-1)).toEqual({ message: "Downloaded 293 KB of 293 KB", fraction: 1 });
  });

  test("never overwrites: a taken name gets a number", async ({ home, harnesses, httpServers }) => {
    const server = await httpServers.start((_request, response) =>
      sendText(response, "new notes", 200, { "content-type": "text/plain" }),
    );
    await mkdir(join(home, "Downloads"));
    await writeFile(join(home, "Downloads", "notes.txt"), "old notes");
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    expect(await harness.ok("download_file", { url: `${server.origin}/a/notes.txt` })).toContain(
      `to ${join(home, "Downloads", "notes (1).txt")} (9 bytes, text/plain).`,
    );
    expect(await harness.ok("download_file", { url: `${server.origin}/b/notes.txt` })).toContain("notes (2).txt");
    expect(await readFile(join(home, "Downloads", "notes.txt"), "utf8")).toBe("old notes");
    expect(await readFile(join(home, "Downloads", "notes (2).txt"), "utf8")).toBe("new notes");
  });

  test("keeps a hostile name inside ~/Downloads and never writes through a planted link", async ({
    home,
    harnesses,
    httpServers,
    tempDirs,
  }) => {
    const outside = await tempDirs.make("marvin-outside-");
    await mkdir(join(home, "Downloads"));
    await symlink(join(outside, "victim"), join(home, "Downloads", "victim"));
    const server = await httpServers.start((_request, response) =>
      sendText(response, "payload", 200, { "content-type": "application/octet-stream" }),
    );
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    expect(await harness.ok("download_file", { url: server.origin, filename: "../../.ssh/authorized_keys" })).toContain(
      join(home, "Downloads", "authorized_keys"),
    );
    expect(await harness.ok("download_file", { url: server.origin, filename: ".bashrc" })).toContain(
      join(home, "Downloads", "bashrc"),
    );
    expect(await harness.ok("download_file", { url: server.origin, filename: "victim" })).toContain("victim (1)");
    expect(await readdir(outside)).toEqual([]);
    expect((await readdir(join(home, "Downloads"))).sort()).toEqual([
      "authorized_keys",
      "bashrc",
      "victim",
      "victim (1)",
    ]);
  });

  test("strips direction and other invisible controls from the server's name and the URL's", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const server = await httpServers.start((request, response) => {
      const headers: Record<string, string> = { "content-type": "application/octet-stream" };
      if (request.url.startsWith("/named"))
        headers["content-disposition"] = "attachment; filename*=UTF-8''%E2%80%AEfdp.exe";
      sendText(response, "MZ", 200, headers);
    });
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    expect(await harness.ok("download_file", { url: `${server.origin}/named` })).toContain(
      join(home, "Downloads", "fdp.exe"),
    );
    const hidden = ["%E2%80%8E", "%E2%81%A6", "%D8%9C", "%E2%80%8B", "%C2%85", "%EF%BB%BF"].join("");
    expect(
      await harness.ok("download_file", { url: `${server.origin}/files/in${hidden}voice%E2%80%AEfdp.exe` }),
    ).toContain(join(home, "Downloads", "in_voicefdp.exe"));
    expect((await readdir(join(home, "Downloads"))).sort()).toEqual(["fdp.exe", "in_voicefdp.exe"]);
  });

  test("follows ~/Downloads when it is the user's link to another disk", async ({
    home,
    harnesses,
    httpServers,
    tempDirs,
  }) => {
    const disk = await tempDirs.make("marvin-big-disk-");
    await symlink(disk, join(home, "Downloads"));
    const server = await httpServers.start((_request, response) => sendText(response, "<p>page</p>"));
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    expect(await harness.ok("download_file", { url: `${server.origin}/` })).toContain(`to ${join(disk, "download")}`);
    expect(await readdir(disk)).toEqual(["download"]);
  });

  test("leaves nothing behind when the server fails or the address is private", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const server = await httpServers.start((_request, response) => sendText(response, "<h1>Gone</h1>", 410));
    const allowed = await harnesses.open({ home, env: ALLOW_LOCAL });
    expect(await allowed.failure("download_file", { url: `${server.origin}/old.zip` })).toContain(
      "answered HTTP 410 (Gone)",
    );
    const guarded = await harnesses.open({ home });
    expect(await guarded.failure("download_file", { url: `${server.origin}/old.zip` })).toContain(
      "127.0.0.1 is a loopback address",
    );
    expect(await readdir(join(home, "Downloads"))).toEqual([]);
  });

  test("stops a body cut off mid-way and removes the partial file", async ({ home, harnesses, httpServers }) => {
    const server = await httpServers.start((_request, response) => {
      response.writeHead(200, { "content-type": "application/zip", "content-length": "100000" });
      response.write(Buffer.alloc(20_000));
      setTimeout(() => response.destroy(), 50);
    });
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    expect(await harness.failure("download_file", { url: `${server.origin}/big.zip` })).toMatch(
      /Error in download_file/,
    );
    expect(await readdir(join(home, "Downloads"))).toEqual([]);
  });
});

describe("yt_dlp_download", () => {
  const CLIP = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42"), Buffer.alloc(40_000, 7)]);

  test("downloads a media file through yt-dlp's generic extractor", async ({ home, harnesses, httpServers }) => {
    const server = await httpServers.start((request, response) => {
      response.writeHead(200, { "content-type": "video/mp4", "content-length": String(CLIP.length) });
      response.end(request.method === "HEAD" ? undefined : CLIP);
    });
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    const text = await harness.ok("yt_dlp_download", { url: `${server.origin}/media/clip.mp4`, output_dir: "clips" });
    const saved = join(home, "Downloads", "clips", "clip [clip].mp4");
    expect(text).toBe(`Saved ${server.origin}/media/clip.mp4 to ${saved} (39.1 KB).`);
    expect((await readFile(saved)).equals(CLIP)).toBe(true);
    expect(harness.progress.some((update) => update.fraction === 1)).toBe(true);
    expect(server.requests.every((request) => !/marvin/i.test(request.headers["user-agent"] ?? ""))).toBe(true);
  });

  test("takes no configuration or plugin from the downloads folder, which the model can write", async ({
    home,
    harnesses,
    httpServers,
    tempDirs,
  }) => {
    const markers = await tempDirs.make("marvin-markers-");
    const exec = `--exec "touch ${join(markers, "exec")}"\n`;
    const server = await httpServers.start((request, response) => {
      if (request.url === "/yt-dlp.conf") return sendText(response, exec, 200, { "content-type": "text/plain" });
      response.writeHead(200, { "content-type": "video/mp4", "content-length": String(CLIP.length) });
      response.end(request.method === "HEAD" ? undefined : CLIP);
    });
    // A page's prompt injection can have download_file save a yt-dlp config where yt-dlp saves videos.
    const harness = await harnesses.open({ home, env: { ...ALLOW_LOCAL, PYTHONPATH: ":" } });
    await harness.ok("download_file", { url: `${server.origin}/yt-dlp.conf` });
    const downloads = join(home, "Downloads");
    await mkdir(join(downloads, "clips"));
    await writeFile(join(downloads, "clips", "yt-dlp.conf"), exec);
    // A plugin, or Python's sitecustomize, found where an empty PYTHONPATH entry points: the working directory.
    const plugin = join(downloads, "yt_dlp_plugins", "extractor");
    await mkdir(plugin, { recursive: true });
    await writeFile(join(plugin, "trap.py"), `open(${JSON.stringify(join(markers, "plugin"))}, "w").close()\n`);
    await writeFile(
      join(downloads, "sitecustomize.py"),
      `open(${JSON.stringify(join(markers, "site"))}, "w").close()\n`,
    );

    expect(await harness.ok("yt_dlp_download", { url: `${server.origin}/media/clip.mp4` })).toContain(
      join(downloads, "clip [clip].mp4"),
    );
    expect(
      await harness.ok("yt_dlp_download", { url: `${server.origin}/media/clip.mp4`, output_dir: "clips" }),
    ).toContain(join(downloads, "clips", "clip [clip].mp4"));
    expect(await readdir(markers)).toEqual([]);
  });

  test("names the file without the direction controls of the page's title", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const server = await httpServers.start((request, response) => {
      response.writeHead(200, { "content-type": "video/mp4", "content-length": String(CLIP.length) });
      response.end(request.method === "HEAD" ? undefined : CLIP);
    });
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    const url = `${server.origin}/media/%E2%80%AEclip4pm.mp4`;
    const saved = join(home, "Downloads", "clip4pm [clip4pm].mp4");
    expect(await harness.ok("yt_dlp_download", { url })).toBe(`Saved ${url} to ${saved} (39.1 KB).`);
    expect(await readdir(join(home, "Downloads"))).toEqual(["clip4pm [clip4pm].mp4"]);
  });

  test("says how to install yt-dlp when it is missing", async ({ home, harnesses, tempDirs }) => {
    const harness = await harnesses.open({ home, env: { PATH: await tempDirs.make("marvin-no-ytdlp-") } });
    expect(await harness.failure("yt_dlp_download", { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" })).toBe(
      "Error in yt_dlp_download: yt-dlp is not installed (or not on PATH). Install it (Debian/Ubuntu: sudo apt " +
        "install yt-dlp; elsewhere: pipx install yt-dlp), then try again.",
    );
  });

  test("refuses private addresses and folders outside ~/Downloads before running", async ({
    home,
    harnesses,
    httpServers,
  }) => {
    const server = await httpServers.start((_request, response) => sendText(response, "x"));
    const guarded = await harnesses.open({ home });
    expect(await guarded.failure("yt_dlp_download", { url: `${server.origin}/clip.mp4` })).toContain(
      "127.0.0.1 is a loopback address",
    );
    const allowed = await harnesses.open({ home, env: ALLOW_LOCAL });
    expect(
      await allowed.failure("yt_dlp_download", { url: `${server.origin}/clip.mp4`, output_dir: "../.config" }),
    ).toContain("Path traversal not allowed: ../.config");
    expect(
      await allowed.failure("yt_dlp_download", { url: `${server.origin}/clip.mp4`, output_dir: "/tmp" }),
    ).toContain("Absolute paths not allowed: /tmp");
    expect(server.requests).toHaveLength(0);
  });

  test("hands on yt-dlp's own error", async ({ home, harnesses, httpServers }) => {
    const server = await httpServers.start((_request, response) => sendText(response, "<h1>Not here</h1>", 404));
    const harness = await harnesses.open({ home, env: ALLOW_LOCAL });
    expect(await harness.failure("yt_dlp_download", { url: `${server.origin}/missing.mp4` })).toMatch(
      /^Error in yt_dlp_download: yt-dlp could not download http:\/\/127\.0\.0\.1:\d+\/missing\.mp4: ERROR: .*404/,
    );
  });
});
