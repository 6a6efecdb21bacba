import { readWavHeader } from "../../src/ui/voice/wav.js";
import { type LocalHttpServer, type LocalHttpServers, type SeenRequest, sendJson } from "./local-http-server.js";

/** One upload as an OpenAI-compatible transcription server receives it. */
export interface TranscriptionUpload {
  authorization: string | undefined;
  /** The text fields: model, response_format, language… */
  fields: Record<string, string>;
  fileName: string;
  fileType: string;
  audio: Buffer;
}

/** The parts of a multipart/form-data body (RFC 7578), or why it is not one. */
function parseMultipart(request: SeenRequest): TranscriptionUpload | string {
  const type = request.headers["content-type"] ?? "";
  const boundary = /^multipart\/form-data; boundary=([^\s;]+)$/.exec(type)?.[1];
  if (!boundary) return `content-type is '${type}', not multipart/form-data with a boundary`;
  const body = request.bytes;
  const delimiter = Buffer.from(`--${boundary}`);
  const upload: TranscriptionUpload = {
    authorization: request.headers.authorization,
    fields: {},
    fileName: "",
    fileType: "",
    audio: Buffer.alloc(0),
  };
  let start = body.indexOf(delimiter);
  if (start !== 0) return "the body does not start with the boundary";
  while (true) {
    const partStart = start + delimiter.length;
    if (body.toString("latin1", partStart, partStart + 2) === "--") break;
    const next = body.indexOf(delimiter, partStart);
    if (next < 0) return "the closing boundary is missing";
    const part = body.subarray(partStart + 2, next - 2); // after CRLF, before CRLF--boundary
    const headerEnd = part.indexOf("\r\n\r\n");
    const headers = part.toString("latin1", 0, headerEnd);
    const content = part.subarray(headerEnd + 4);
    const name = /name="([^"]*)"/.exec(headers)?.[1] ?? "";
    const fileName = /filename="([^"]*)"/.exec(headers)?.[1];
    if (fileName !== undefined) {
      upload.fileName = fileName;
      upload.fileType = /Content-Type: (\S+)/i.exec(headers)?.[1] ?? "";
      upload.audio = Buffer.from(content);
    } else {
      upload.fields[name] = content.toString("utf8");
    }
    start = next;
  }
  return upload;
}

/** Why the audio is not the 16 kHz mono 16-bit PCM WAV Whisper is sent; undefined when it is. */
function audioProblem(audio: Buffer): string | undefined {
  const format = readWavHeader(audio);
  if (!format) return "the file is not RIFF/WAVE audio";
  if (format.sampleRate !== 16_000 || format.channels !== 1 || format.bitsPerSample !== 16)
    return `the audio is ${format.sampleRate} Hz, ${format.channels} channels, ${format.bitsPerSample} bit`;
  if (audio.length - format.dataStart < 16_000) return "the audio is shorter than half a second";
  return undefined;
}

export interface TranscriptionServer {
  server: LocalHttpServer;
  /** Uploads that passed every check, in order. */
  uploads: TranscriptionUpload[];
}

/**
 * A local stand-in for Groq's Whisper endpoint (POST /openai/v1/audio/transcriptions, here at
 * /v1/audio/transcriptions under MARVIN_WHISPER_URL): it checks the multipart request and its audio, answers
 * `{"text": …}` with the next of `transcripts`, and a 400 with the reason when something is wrong.
 */
export async function startTranscriptionServer(
  servers: LocalHttpServers,
  transcripts: string[],
): Promise<TranscriptionServer> {
  const uploads: TranscriptionUpload[] = [];
  const server = await servers.start((request, response) => {
    const upload = request.method === "POST" && request.url === "/v1/audio/transcriptions" && parseMultipart(request);
    const problem =
      upload === false
        ? `unexpected ${request.method} ${request.url}`
        : typeof upload === "string"
          ? upload
          : upload.fields.model
            ? audioProblem(upload.audio)
            : "the model field is missing";
    if (problem || typeof upload !== "object") return sendJson(response, { error: { message: problem } }, 400);
    uploads.push(upload);
    sendJson(response, { text: transcripts.shift() ?? "", x_groq: { id: `req_${uploads.length}` } });
  });
  return { server, uploads };
}
