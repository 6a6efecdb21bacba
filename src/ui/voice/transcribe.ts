import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Env } from "../../shared/env.js";
import { createHttpClient, type ExternalService } from "../../tools/kit/http/index.js";

/** Groq's OpenAI-compatible Whisper API; MARVIN_WHISPER_URL points at any other (a local whisper.cpp server). */
const WHISPER: ExternalService = {
  name: "Whisper transcription",
  envVar: "MARVIN_WHISPER_URL",
  defaultUrl: "https://api.groq.com/openai",
};
const TRANSCRIPTIONS_PATH = "/v1/audio/transcriptions";

/**
 * The path to post to on MARVIN_WHISPER_URL, which may name the server (`http://host:8080`), its API version
 * (`…/v1`) or the transcription endpoint itself (`…/v1/audio/transcriptions`).
 */
function transcriptionsPath(env: Env): string {
  const configured = env.MARVIN_WHISPER_URL?.trim().replace(/\/+$/, "") ?? "";
  if (configured.endsWith(TRANSCRIPTIONS_PATH)) return "";
  return configured.endsWith("/v1") ? TRANSCRIPTIONS_PATH.slice("/v1".length) : TRANSCRIPTIONS_PATH;
}
const DEFAULT_MODEL = "whisper-large-v3";
const TIMEOUT_MS = 60_000;

const transcription = z.object({ text: z.string() });

/**
 * The key for the transcription server: GROQ_API_KEY for Groq, MARVIN_WHISPER_API_KEY (optional) for the
 * server MARVIN_WHISPER_URL names, so the Groq key never goes anywhere else. A string says what to set.
 */
function whisperKey(env: Env): { key: string | undefined } | string {
  if (env.MARVIN_WHISPER_URL?.trim()) return { key: env.MARVIN_WHISPER_API_KEY?.trim() || undefined };
  const key = env.GROQ_API_KEY?.trim();
  if (key) return { key };
  return (
    "Voice input needs GROQ_API_KEY (Groq's Whisper transcribes the recording; keys at console.groq.com), or " +
    "MARVIN_WHISPER_URL for another OpenAI-compatible transcription server."
  );
}

/** What keeps voice input from working before anything is recorded; undefined when nothing does. */
export function transcriptionProblem(env: Env): string | undefined {
  const key = whisperKey(env);
  return typeof key === "string" ? key : undefined;
}

/** A multipart/form-data body of text fields and one WAV file (RFC 7578). */
function multipart(fields: Record<string, string>, audio: Buffer): { body: Buffer; contentType: string } {
  const boundary = `marvin-${randomBytes(12).toString("hex")}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="speech.wav"\r\n` +
        "Content-Type: audio/wav\r\n\r\n",
    ),
    audio,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Transcribes a WAV recording: POST /v1/audio/transcriptions with `file`, `model` (WHISPER_MODEL, default
 * whisper-large-v3), `response_format` json and `language` when MARVIN_WHISPER_LANGUAGE is set. Returns the
 * text, trimmed (empty when nothing was said).
 */
export async function transcribe(env: Env, audio: Buffer, signal: AbortSignal): Promise<string> {
  const key = whisperKey(env);
  if (typeof key === "string") throw new Error(key);
  const language = env.MARVIN_WHISPER_LANGUAGE?.trim();
  const fields = {
    model: env.WHISPER_MODEL?.trim() || DEFAULT_MODEL,
    response_format: "json",
    ...(language ? { language } : {}),
  };
  const { body, contentType } = multipart(fields, audio);
  const headers = { "content-type": contentType, ...(key.key ? { authorization: `Bearer ${key.key}` } : {}) };
  const client = createHttpClient({ env, signal });
  const response = await client.send(
    { service: WHISPER, path: transcriptionsPath(env) },
    { method: "POST", headers, body, timeoutMs: TIMEOUT_MS },
  );
  const { text } = await response.json(transcription);
  return text.trim();
}
