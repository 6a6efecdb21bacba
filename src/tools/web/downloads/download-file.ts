import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { errorMessage } from "../../../shared/error-message.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { DOWNLOAD_MAX_BYTES, DOWNLOAD_TIMEOUT_MS, describeBytes, http } from "../../kit/http/index.js";
import { downloadsFolder } from "./downloads-folder.js";
import { dispositionFileName, placeWithoutOverwriting, safeFileName, urlFileName } from "./file-names.js";

const PROGRESS_INTERVAL_MS = 250;

/** Reports "Downloaded 12 of 40 MB" at most four times a second. */
function progressReporter(context: Pick<ToolContext, "onProgress">) {
  let last = 0;
  return (received: number, total: number | undefined) => {
    const now = Date.now();
    if (now - last < PROGRESS_INTERVAL_MS && received !== total) return;
    last = now;
    const of = total ? ` of ${describeBytes(total)}` : "";
    context.onProgress({
      message: `Downloaded ${describeBytes(received)}${of}`,
      fraction: total ? received / total : undefined,
    });
  };
}

export const downloadFile = defineTool({
  name: "download_file",
  description:
    "Download a file from a URL into ~/Downloads (up to 1 GB). Never overwrites: a taken name gets a number, " +
    'as in "report (1).pdf". Returns where it was saved and its size.',
  parameters: z.object({
    url: z.string().trim().min(1).describe("http(s) address of the file"),
    filename: z
      .string()
      .default("")
      .describe("Name to save it under; empty = the server's name for it, or the last part of the URL"),
  }),
  effect: "write",
  timeoutMs: DOWNLOAD_TIMEOUT_MS + 30_000,
  handler: async ({ url, filename }, context) => {
    const folder = await downloadsFolder(context);
    const response = await http(context).send(
      { url },
      { timeoutMs: DOWNLOAD_TIMEOUT_MS, maxBytes: DOWNLOAD_MAX_BYTES },
    );
    const suggested =
      filename.trim() || dispositionFileName(response.headers["content-disposition"]) || urlFileName(response.url);
    const name = safeFileName(suggested ?? "");
    const staged = join(folder, `.marvin-download-${randomBytes(6).toString("hex")}`);
    const size = await response.saveTo(staged, progressReporter(context));
    let saved: string;
    try {
      saved = await placeWithoutOverwriting(staged, folder, name);
    } catch (error) {
      await rm(staged, { force: true });
      throw new ToolError(`The download arrived but could not be named ${name} in ${folder}: ${errorMessage(error)}`);
    }
    const type = response.contentType ? `, ${response.contentType}` : "";
    return {
      text: `Saved ${response.url} to ${saved} (${describeBytes(size)}${type}).`,
      details: { path: saved, bytes: size, url: response.url },
    };
  },
});
