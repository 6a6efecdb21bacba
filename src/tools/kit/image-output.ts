import { describeImage, type ImageMediaType, MAX_IMAGE_BYTES } from "../../shared/image.js";
import type { ToolContext, ToolOutput } from "./define-tool.js";

/**
 * An image a tool gives (read_file on an image, blender_screenshot): the image itself for a model that reads images
 * (up to 5 MB), else what can be told of it (type, size in pixels, bytes). `tool` names the tool in what it says.
 */
export async function imageOutput(
  path: string,
  bytes: Buffer,
  type: ImageMediaType,
  context: ToolContext,
  tool = "read_file",
): Promise<ToolOutput> {
  const described = `${path} is an image (${describeImage(bytes, type)})`;
  if (bytes.length > MAX_IMAGE_BYTES)
    return `${described}, over ${MAX_IMAGE_BYTES / 1024 / 1024} MB, the most a model takes; it cannot be shown.`;
  if (!(await context.provider?.readsImages()))
    return `${described}; this model cannot read images, so ${tool} cannot show it.`;
  return { text: `${described}; here it is.`, images: [{ mediaType: type, data: bytes.toString("base64") }] };
}
