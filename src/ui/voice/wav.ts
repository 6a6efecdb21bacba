/** The PCM layout a WAV header declares, and where its samples start. */
export interface WavFormat {
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Byte offset of the first sample (just after the `data` chunk header). */
  dataStart: number;
}

/**
 * Reads a RIFF/WAVE header (the first kilobytes of a file, possibly still being written): the `fmt `
 * chunk and the start of `data`. Undefined while the header is incomplete or when it is no WAV.
 */
export function readWavHeader(bytes: Buffer): WavFormat | undefined {
  if (bytes.length < 12 || bytes.toString("ascii", 0, 4) !== "RIFF" || bytes.toString("ascii", 8, 12) !== "WAVE")
    return undefined;
  let format: Omit<WavFormat, "dataStart"> | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString("ascii", offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "data") return format && { ...format, dataStart: body };
    if (id === "fmt ") {
      if (body + 16 > bytes.length) return undefined;
      format = {
        channels: bytes.readUInt16LE(body + 2),
        sampleRate: bytes.readUInt32LE(body + 4),
        bitsPerSample: bytes.readUInt16LE(body + 14),
      };
    }
    offset = body + size + (size % 2);
  }
  return undefined;
}
