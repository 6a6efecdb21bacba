import type { ToolContext } from "../../kit/define-tool.js";
import { ToolError } from "../../kit/define-tool.js";
import {
  type ExternalService,
  explainStatus,
  http,
  type ServiceError,
  type StatusAdvice,
  serviceBaseUrl,
} from "../../kit/http/index.js";
import { type GitHubLogin, gitHubLogin, loginAdvice } from "./gh-cli.js";
import { formatSearchPage, SEARCH_KINDS, type SearchKind } from "./search-results.js";

const GITHUB_API: ExternalService = {
  name: "GitHub",
  envVar: "MARVIN_GITHUB_API_URL",
  defaultUrl: "https://api.github.com",
};

/** The host whose `gh` login fits the API: github.com for api.github.com, else the API's own host (Enterprise). */
function loginHost(context: ToolContext): string {
  const host = new URL(serviceBaseUrl(context.env, GITHUB_API)).host;
  return host === "api.github.com" ? "github.com" : host;
}

function headers(login: GitHubLogin): Record<string, string> {
  const base = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" };
  return login.token ? { ...base, authorization: `Bearer ${login.token}` } : base;
}

/** GitHub's refusals, with what to do about them. */
function advice(login: GitHubLogin): StatusAdvice {
  const which = login.token ? `the token from ${login.source} was refused` : "it needs a login";
  const more = login.token ? "wait a minute" : `wait a minute, or log in for a higher limit: ${loginAdvice(login)}`;
  const rateLimit = (error: ServiceError) =>
    /rate limit/i.test(error.message) ? `its search rate limit is used up — ${more}.` : undefined;
  return { 401: `${which} — ${loginAdvice(login)}.`, 403: rateLimit, 429: rateLimit };
}

/** Searches GitHub through its REST API (`/search/<kind>`), logged in when a login is at hand. */
export async function searchGitHub(
  context: ToolContext,
  kind: SearchKind,
  query: string,
  maxResults: number,
): Promise<string> {
  const login = await gitHubLogin(context, loginHost(context));
  if (kind === "code" && !login.token) {
    throw new ToolError(`GitHub's code search needs a login: ${loginAdvice(login)}.`);
  }
  const { schema } = SEARCH_KINDS[kind];
  try {
    const found = await http(context).getJson(
      GITHUB_API,
      `/search/${kind}`,
      { q: query, per_page: maxResults },
      schema,
      {
        headers: headers(login),
      },
    );
    return formatSearchPage(kind, query, found);
  } catch (error) {
    throw explainStatus(error, advice(login));
  }
}
