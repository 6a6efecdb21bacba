import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Message } from "../../providers/types.js";
import type { ImageData } from "../../shared/image.js";
import type { SessionRecord, StoredImage, StoredMessage } from "./session-file.js";

/** A stored image's name: the SHA-256 of its bytes, so the same image is kept once however often it is sent. */
function imageRef(image: ImageData): string {
  return createHash("sha256").update(Buffer.from(image.data, "base64")).digest("hex");
}

/**
 * The images of one saved conversation, kept beside its file in a folder of their own (`<id>.images/<sha256>`,
 * owner-only), each once; the session file names them by reference, so it stays small to list and resume.
 */
export class SessionImages {
  /** Images already written in this process: the same one is not hashed again for every compaction. */
  private readonly written = new WeakMap<ImageData, string>();

  constructor(private readonly dir: string) {}

  /** Writes the images of `record`'s messages to the folder and returns the record naming them by reference. */
  storeNow(record: SessionRecord): SessionRecord {
    if (record.type === "message") return { ...record, message: this.storeMessage(record.message) };
    if (record.type === "compaction")
      return { ...record, messages: record.messages.map((message) => this.storeMessage(message)) };
    return record;
  }

  private storeMessage(message: StoredMessage): StoredMessage {
    if ((message.role !== "user" && message.role !== "tool") || !message.images?.length) return message;
    return { ...message, images: message.images.map((image) => this.storeImage(image)) };
  }

  /** Synchronous like the session file's own lines: the image is on disk before its message names it. */
  private storeImage(image: StoredImage): StoredImage {
    if (!("data" in image)) return image;
    let ref = this.written.get(image);
    if (ref === undefined) {
      ref = imageRef(image);
      const path = join(this.dir, ref);
      if (!existsSync(path)) writeOwnerOnly(this.dir, path, Buffer.from(image.data, "base64"));
      this.written.set(image, ref);
    }
    return { mediaType: image.mediaType, ref };
  }

  /**
   * The messages with their images read back from the folder; images kept inside the file (sessions saved before
   * images were stored beside them) are kept as they are. An image whose file is gone is left out.
   */
  async resolve(messages: readonly StoredMessage[]): Promise<Message[]> {
    const read = new Map<string, Promise<string | undefined>>();
    const dataOf = (ref: string) => {
      if (!read.has(ref))
        read.set(
          ref,
          readFile(join(this.dir, ref)).then(
            (bytes) => bytes.toString("base64"),
            () => undefined,
          ),
        );
      return read.get(ref)!;
    };
    return Promise.all(
      messages.map(async (message): Promise<Message> => {
        if ((message.role !== "user" && message.role !== "tool") || !message.images) return message as Message;
        const images = await Promise.all(
          message.images.map(async (image) => {
            if ("data" in image) return image;
            const data = await dataOf(image.ref);
            return data === undefined ? undefined : { mediaType: image.mediaType, data };
          }),
        );
        return { ...message, images: images.filter((image) => image !== undefined) };
      }),
    );
  }
}

/** Written whole under a temporary name, then renamed: a crash never leaves a torn image under its hash. */
function writeOwnerOnly(dir: string, path: string, bytes: Buffer): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temp, bytes, { mode: 0o600 });
  try {
    renameSync(temp, path);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}
