import { stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { z } from "zod";
import { defineTool } from "../../kit/define-tool.js";
import { checkPublicUrl, describeBytes } from "../../kit/http/index.js";
import { downloadsFolder, folderInsideDownloads } from "./downloads-folder.js";
import { placeWithoutOverwriting, safeFileName } from "./file-names.js";
import { requireYtDlp, runYtDlp } from "./yt-dlp.js";

/** yt-dlp names the file after the page's title and id, which may hide direction controls. */
async function renamedSafely(saved: string): Promise<string> {
  const name = basename(saved);
  const safe = safeFileName(name);
  return safe === name ? saved : placeWithoutOverwriting(saved, dirname(saved), safe);
}

export const ytDlpDownload = defineTool({
  name: "yt_dlp_download",
  description:
    "Download a video (or only its audio) from YouTube or another video site with yt-dlp, into ~/Downloads " +
    "or a folder inside it.",
  parameters: z.object({
    url: z.string().trim().min(1).describe("Address of the video page or media file"),
    audio_only: z.boolean().default(false).describe("Only the best audio stream, in its own format"),
    output_dir: z.string().default("").describe("A folder inside ~/Downloads; empty = ~/Downloads itself"),
  }),
  effect: "write",
  timeoutMs: 30 * 60_000,
  handler: async ({ url, audio_only, output_dir }, context) => {
    await requireYtDlp(context.env);
    await checkPublicUrl(url, context.env);
    const root = await downloadsFolder(context);
    const folder = output_dir.trim() ? await folderInsideDownloads(root, output_dir) : root;
    const downloaded = await runYtDlp({
      url,
      folder,
      audioOnly: audio_only,
      env: context.env,
      signal: context.signal,
      onProgress: (update) => context.onProgress(update),
    });
    const saved = await renamedSafely(downloaded);
    const size = (await stat(saved)).size;
    return { text: `Saved ${url} to ${saved} (${describeBytes(size)}).`, details: { path: saved, bytes: size } };
  },
});
