/** The image types every provider Marvin speaks to takes. */
export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** An image in a message: the bytes as base64, and their type as read from the bytes themselves. */
export interface ImageData {
  mediaType: ImageMediaType;
  /** Base64 of the file's bytes (no `data:` prefix). */
  data: string;
}

/** Anthropic's limit for one image, the smallest of the providers'. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const SIGNATURES: ReadonlyArray<{ type: ImageMediaType; matches: (bytes: Buffer) => boolean }> = [
  { type: "image/png", matches: (bytes) => bytes.subarray(0, 8).equals(Buffer.from("89504e470d0a1a0a", "hex")) },
  { type: "image/jpeg", matches: (bytes) => bytes.subarray(0, 3).equals(Buffer.from("ffd8ff", "hex")) },
  { type: "image/gif", matches: (bytes) => /^GIF8[79]a/.test(bytes.subarray(0, 6).toString("latin1")) },
  {
    type: "image/webp",
    matches: (bytes) =>
      bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP",
  },
];

/** The image type the bytes start with (whatever the file name says); undefined when they are no image we send. */
export function imageTypeOf(bytes: Buffer): ImageMediaType | undefined {
  return SIGNATURES.find((signature) => signature.matches(bytes))?.type;
}

/** "PNG" for "image/png". */
function imageKind(type: ImageMediaType): string {
  return type.slice("image/".length).toUpperCase();
}

/** Width and height from a JPEG's first frame header (SOF0…SOF15, not DHT, JPG or DAC). */
function jpegSize(bytes: Buffer): [number, number] | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame) return [bytes.readUInt16BE(offset + 7), bytes.readUInt16BE(offset + 5)];
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  return undefined;
}

function webpSize(bytes: Buffer): [number, number] | undefined {
  const chunk = bytes.subarray(12, 16).toString("latin1");
  if (chunk === "VP8X" && bytes.length >= 30) return [1 + bytes.readUIntLE(24, 3), 1 + bytes.readUIntLE(27, 3)];
  if (chunk === "VP8 " && bytes.length >= 30) return [bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff];
  if (chunk === "VP8L" && bytes.length >= 25) {
    const bits = bytes.readUInt32LE(21);
    return [(bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1];
  }
  return undefined;
}

/** Width and height in pixels, read from the header; undefined when the header is cut short or unusual. */
export function imageDimensions(bytes: Buffer, type: ImageMediaType): [number, number] | undefined {
  try {
    switch (type) {
      case "image/png":
        return bytes.length >= 24 ? [bytes.readUInt32BE(16), bytes.readUInt32BE(20)] : undefined;
      case "image/gif":
        return bytes.length >= 10 ? [bytes.readUInt16LE(6), bytes.readUInt16LE(8)] : undefined;
      case "image/jpeg":
        return jpegSize(bytes);
      case "image/webp":
        return webpSize(bytes);
    }
  } catch {
    return undefined; // a length field pointing past the end
  }
}

/** "PNG, 640×480, 12.3 KB": what a person or a model that cannot see it learns of an image. */
export function describeImage(bytes: Buffer, type: ImageMediaType): string {
  const size = imageDimensions(bytes, type);
  const amount = bytes.length < 1024 ? `${bytes.length} B` : `${(bytes.length / 1024).toFixed(1)} KB`;
  return [imageKind(type), ...(size ? [`${size[0]}×${size[1]}`] : []), amount].join(", ");
}

/** The image as a `data:` URL (Chat Completions, Responses). */
export function imageDataUrl(image: ImageData): string {
  return `data:${image.mediaType};base64,${image.data}`;
}
