import { describeImage, type ImageMediaType, MAX_IMAGE_BYTES } from "../../../shared/image.js";
import type { ToolContext, ToolOutput } from "../../kit/define-tool.js";

/**
 * read_file on an image: the image itself for a model that reads images (up to 5 MB), else what can be told of it
 * (type, size in pixels, bytes).
 */
export async function imageOutput(
  path: string,
  bytes: Buffer,
  type: ImageMediaType,
  context: ToolContext,
): Promise<ToolOutput> {
  const described = `${path} is an image (${describeImage(bytes, type)})`;
  if (bytes.length > MAX_IMAGE_BYTES)
    return `${described}, over ${MAX_IMAGE_BYTES / 1024 / 1024} MB, the most a model takes; it cannot be shown.`;
  if (!(await context.provider?.readsImages()))
    return `${described}; this model cannot read images, so read_file cannot show it.`;
  return { text: `${described}; here it is.`, images: [{ mediaType: type, data: bytes.toString("base64") }] };
}
