import { singleLine } from "../../shared/control-characters.js";

/** One model an endpoint says it has. */
export interface ListedModel {
  /** The name to ask for it by. */
  id: string;
  /** Its context window in tokens, when the endpoint says. */
  contextWindow?: number;
}

/** How long one model-list request may take. */
const LIST_TIMEOUT_MS = 10_000;

/** `fetch` takes no URL with a user name and password: they become Basic authorization, unless a key is sent. */
function withoutCredentials(url: string, headers: Record<string, string>): [string, Record<string, string>] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("the endpoint is not a valid URL (it should look like http://host:port/v1)");
  }
  if (!parsed.username && !parsed.password) return [url, headers];
  const basic = Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`);
  parsed.username = "";
  parsed.password = "";
  return [parsed.href, { authorization: `Basic ${basic.toString("base64")}`, ...headers }];
}

/** The JSON a models endpoint answers; its status and a short reason when it does not. */
export async function getJson(address: string, withHeaders: Record<string, string>): Promise<unknown> {
  const [url, headers] = withoutCredentials(address, withHeaders);
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new Error(`${new URL(url).origin} did not answer${cause ? ` (${cause})` : ""}`);
  }
  if (!response.ok) {
    const body = singleLine((await response.text().catch(() => "")).slice(0, 200));
    throw new Error(`${new URL(url).origin} answered HTTP ${response.status}${body ? `: ${body}` : ""}`);
  }
  try {
    return await response.json();
  } catch {
    throw new Error(`${new URL(url).origin} did not answer with JSON`);
  }
}

/** `value[key]` when it is an array of objects, else an empty list. */
export function objectsIn(value: unknown, key: string): Array<Record<string, unknown>> {
  const list = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return Array.isArray(list)
    ? list.filter((item): item is Record<string, unknown> => typeof item === "object" && item !== null)
    : [];
}

/** A model of an endpoint's answer: its name cleaned of control characters, its window when a positive number. */
export function listedModel(id: unknown, contextWindow: unknown): ListedModel | undefined {
  if (typeof id !== "string") return undefined;
  const name = singleLine(id);
  if (!name) return undefined;
  const window = typeof contextWindow === "number" && contextWindow > 0 ? contextWindow : undefined;
  return window === undefined ? { id: name } : { id: name, contextWindow: window };
}

export function presentModels(models: Array<ListedModel | undefined>): ListedModel[] {
  return models.filter((model): model is ListedModel => model !== undefined);
}
