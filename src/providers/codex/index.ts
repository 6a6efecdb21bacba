import type { ProviderConfig } from "../descriptor.js";
import { streamResponses } from "../openai/index.js";
import { isProviderError, ProviderError } from "../provider-error.js";
import type { ChatRequest, LLMProvider, ProviderEvent } from "../types.js";
import type { CodexAccess, CodexCredentials } from "./credentials.js";
import { codexHttpFailure } from "./usage-limit.js";

function failed(error: unknown): ProviderEvent {
  const failure = isProviderError(error)
    ? error
    : new ProviderError(String(error), { provider: "codex", kind: "auth", cause: error });
  return { type: "error", error: failure };
}

/**
 * The user's ChatGPT plan through the Codex backend (`<MARVIN_CODEX_URL>/responses`), which speaks the Responses
 * API: the same requests as OpenAI's (streamed, `store: false`, encrypted reasoning carried through tool rounds), with
 * the sign-in's access token and the account it belongs to. A refused token is refreshed once and the request sent
 * again.
 */
export class CodexProvider implements LLMProvider {
  readonly name = "codex";
  readonly model: string;
  readonly local = false;

  constructor(
    private readonly config: ProviderConfig,
    private readonly credentials: CodexCredentials,
  ) {
    this.model = config.model;
  }

  async *stream(request: ChatRequest): AsyncGenerator<ProviderEvent> {
    let access: CodexAccess;
    try {
      access = await this.credentials.current();
    } catch (error) {
      yield failed(error);
      return;
    }
    for (let attempt = 0; ; attempt++) {
      let refused = false;
      for await (const event of streamResponses(
        { ...this.config, name: "codex" },
        this.endpoint(access, request),
        request,
      )) {
        if (event.type === "error" && event.error.status === 401 && attempt === 0) {
          refused = true;
          break;
        }
        yield event;
      }
      if (!refused) return;
      try {
        access = await this.credentials.afterRefusal(access.accessToken);
      } catch (error) {
        yield failed(error);
        return;
      }
    }
  }

  private endpoint(access: CodexAccess, request: ChatRequest) {
    const headers: Record<string, string> = {
      authorization: `Bearer ${access.accessToken}`,
      "openai-beta": "responses=experimental",
      originator: "marvin",
    };
    if (access.accountId) headers["chatgpt-account-id"] = access.accountId;
    if (request.cacheKey) headers.session_id = request.cacheKey;
    return {
      url: `${this.config.baseUrl}/responses`,
      headers,
      api: "the Codex backend's Responses API (MARVIN_CODEX_URL)",
      httpError: (response: Response) => codexHttpFailure(this.config, response),
    };
  }

  async destroy(): Promise<void> {}
}
