import { type ToolContext, ToolError } from "../../../kit/define-tool.js";
import { describeBytes, http } from "../../../kit/http/index.js";

/** A page as it arrived: its final address (after redirects) and its body. */
interface FetchedPage {
  url: string;
  kind: "html" | "text";
  bytes: Buffer;
  /** The charset the body is in: the Content-Type's, the page's own <meta>, or UTF-8. */
  charset: string;
}

const ACCEPT = "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,*/*;q=0.5";
const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const TEXT_TYPES = /^text\/|^application\/(json|xml|[\w.+-]+\+(json|xml))$/;

const KINDS: Array<[RegExp, string]> = [
  [/^application\/pdf$/, "a PDF document"],
  [/^image\//, "an image"],
  [/^audio\//, "an audio file"],
  [/^video\//, "a video"],
  [/zip|compressed|x-tar|gzip|x-7z|x-rar/, "an archive"],
  [/msword|officedocument|opendocument|ms-excel|ms-powerpoint/, "an office document"],
];

function describeType(type: string): string {
  return KINDS.find(([pattern]) => pattern.test(type))?.[1] ?? "a binary file";
}

/** Content-Type when the server gave none: a guess from the first bytes. */
function sniffedType(start: Buffer): string {
  if (start.subarray(0, 5).toString("latin1") === "%PDF-") return "application/pdf";
  if (start.includes(0)) return "application/octet-stream";
  return /<(!doctype html|html|head|body|p|div)\b/i.test(start.toString("latin1")) ? "text/html" : "text/plain";
}

function headerCharset(header: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(header ?? "")?.[1]?.toLowerCase();
}

/** `<meta charset="…">` or the http-equiv form, looked for in the first 2 KB as browsers do. */
function metaCharset(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 2048).toString("latin1");
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
}

function usableCharset(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

function notAPage(url: string, type: string, tool: string, bytes?: number): ToolError {
  const size = bytes === undefined ? "" : `, ${describeBytes(bytes)}`;
  return new ToolError(
    `${url} is ${describeType(type)} (${type}${size}), not a web page, so ${tool} cannot show it as text. ` +
      "Save it with download_file instead.",
  );
}

function isReadable(type: string): boolean {
  return HTML_TYPES.has(type) || TEXT_TYPES.test(type);
}

/** GETs a URL the model chose (through the guarded client) and keeps it only if it is a page to read. */
export async function fetchPage(context: Pick<ToolContext, "env" | "signal">, url: string, tool: string) {
  const response = await http(context).send({ url }, { headers: { accept: ACCEPT } });
  const declared = response.contentType;
  if (declared && !isReadable(declared)) {
    const length = Number(response.headers["content-length"]);
    response.discard();
    throw notAPage(response.url, declared, tool, Number.isFinite(length) ? length : undefined);
  }
  const bytes = await response.bytes();
  const type = declared || sniffedType(bytes.subarray(0, 1024));
  if (!isReadable(type)) throw notAPage(response.url, `${type}, judged from its first bytes`, tool);
  const kind: FetchedPage["kind"] = HTML_TYPES.has(type) ? "html" : "text";
  const charset =
    usableCharset(headerCharset(response.headers["content-type"])) ??
    (kind === "html" ? usableCharset(metaCharset(bytes)) : undefined) ??
    "utf-8";
  return { url: response.url, kind, bytes, charset } satisfies FetchedPage;
}

export function pageText(page: FetchedPage): string {
  return new TextDecoder(page.charset).decode(page.bytes);
}
