/**
 * Answers of GitHub's REST search API (`/search/{repositories,code,issues,commits,users}`), in its own
 * format: the page envelope `total_count` / `incomplete_results` / `items`, items with GitHub's field
 * names, `null` for a missing description or language, and the error bodies (`message`,
 * `documentation_url`). Issue items follow octokit/fixtures' recorded search-issues scenario.
 */

const API = "https://api.github.com";

function simpleUser(login: string, id: number, type: "User" | "Organization" = "User") {
  return {
    login,
    id,
    node_id: "MDQ6VXNlcjE=",
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: "",
    url: `${API}/users/${login}`,
    html_url: `https://github.com/${login}`,
    followers_url: `${API}/users/${login}/followers`,
    following_url: `${API}/users/${login}/following{/other_user}`,
    gists_url: `${API}/users/${login}/gists{/gist_id}`,
    starred_url: `${API}/users/${login}/starred{/owner}{/repo}`,
    subscriptions_url: `${API}/users/${login}/subscriptions`,
    organizations_url: `${API}/users/${login}/orgs`,
    repos_url: `${API}/users/${login}/repos`,
    events_url: `${API}/users/${login}/events{/privacy}`,
    received_events_url: `${API}/users/${login}/received_events`,
    type,
    site_admin: false,
  };
}

/** The short repository object that code and commit results carry. */
function minimalRepository(owner: string, name: string, id: number) {
  return {
    id,
    node_id: "MDEwOlJlcG9zaXRvcnkxMjk2MjY5",
    name,
    full_name: `${owner}/${name}`,
    private: false,
    owner: simpleUser(owner, id + 1),
    html_url: `https://github.com/${owner}/${name}`,
    description: null,
    fork: false,
    url: `${API}/repos/${owner}/${name}`,
  };
}

interface RepoFacts {
  owner: string;
  name: string;
  description: string | null;
  stars: number;
  language: string | null;
  updated: string;
  archived?: boolean;
  fork?: boolean;
}

function repoItem(facts: RepoFacts, id: number) {
  return {
    ...minimalRepository(facts.owner, facts.name, id),
    description: facts.description,
    fork: facts.fork ?? false,
    created_at: "2018-04-16T08:04:03Z",
    updated_at: facts.updated,
    pushed_at: facts.updated,
    homepage: "",
    size: 12580,
    stargazers_count: facts.stars,
    watchers_count: facts.stars,
    language: facts.language,
    forks_count: 1203,
    open_issues_count: 210,
    master_branch: "master",
    default_branch: "master",
    score: 1,
    archived: facts.archived ?? false,
    disabled: false,
    visibility: "public",
    license: {
      key: "apache-2.0",
      name: "Apache License 2.0",
      spdx_id: "Apache-2.0",
      url: `${API}/licenses/apache-2.0`,
    },
    topics: ["cli", "terminal"],
  };
}

export const REPOSITORY_SEARCH = {
  total_count: 1892,
  incomplete_results: false,
  items: [
    repoItem(
      {
        owner: "sharkdp",
        name: "bat",
        description: "A cat(1) clone with wings.",
        stars: 52811,
        language: "Rust",
        updated: "2026-11-20T09:12:44Z",
      },
      130464961,
    ),
    repoItem(
      {
        owner: "octo-org",
        name: "octo-cat",
        description: null,
        stars: 7,
        language: null,
        updated: "2025-01-02T03:04:05Z",
      },
      1296269,
    ),
    repoItem(
      {
        owner: "old-corp",
        name: "bat-fork",
        description: "   ",
        stars: 0,
        language: "C",
        updated: "2019-07-01T00:00:00Z",
        archived: true,
        fork: true,
      },
      9001,
    ),
  ],
};

export const CODE_SEARCH = {
  total_count: 7,
  incomplete_results: false,
  items: [
    {
      name: "classes.js",
      path: "src/attributes/classes.js",
      sha: "d7212f9dee2dcc18f084d7df8f417b80846ded5a",
      url: `${API}/repositories/167174/contents/src/attributes/classes.js?ref=825ac3773694e0cd23ee74895fd5aeb535b27da4`,
      git_url: `${API}/repositories/167174/git/blobs/d7212f9dee2dcc18f084d7df8f417b80846ded5a`,
      html_url:
        "https://github.com/jquery/jquery/blob/825ac3773694e0cd23ee74895fd5aeb535b27da4/src/attributes/classes.js",
      repository: minimalRepository("jquery", "jquery", 167174),
      score: 1,
    },
  ],
};

function issueItem(number: number, title: string, login: string, extra: Record<string, unknown> = {}) {
  const repo = `${API}/repos/octokit-fixture-org/search-issues`;
  return {
    url: `${repo}/issues/${number}`,
    repository_url: repo,
    labels_url: `${repo}/issues/${number}/labels{/name}`,
    comments_url: `${repo}/issues/${number}/comments`,
    events_url: `${repo}/issues/${number}/events`,
    html_url: `https://github.com/octokit-fixture-org/search-issues/issues/${number}`,
    id: 1000 + number,
    node_id: "MDA6RW50aXR5MQ==",
    number,
    title,
    user: simpleUser(login, 1000 + number),
    labels: [],
    state: "open",
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: 42,
    created_at: "2017-10-10T16:00:00Z",
    updated_at: "2017-10-10T16:00:00Z",
    closed_at: null,
    author_association: "NONE",
    body: "I’ve waited all year long, but there was no pop 😭",
    score: 42,
    ...extra,
  };
}

export const ISSUE_SEARCH = {
  total_count: 2,
  incomplete_results: false,
  items: [
    issueItem(2, "Sesame seeds split without a pop!", "octokit-fixture-user-b"),
    issueItem(1, "The doors don’t open", "octokit-fixture-user-a", {
      state: "closed",
      closed_at: "2017-10-11T16:00:00Z",
      pull_request: {
        url: `${API}/repos/octokit-fixture-org/search-issues/pulls/1`,
        html_url: "https://github.com/octokit-fixture-org/search-issues/pull/1",
        diff_url: "https://github.com/octokit-fixture-org/search-issues/pull/1.diff",
        patch_url: "https://github.com/octokit-fixture-org/search-issues/pull/1.patch",
      },
    }),
  ],
};

export const COMMIT_SEARCH = {
  total_count: 1,
  incomplete_results: false,
  items: [
    {
      url: `${API}/repos/octocat/Spoon-Knife/commits/bb4cc8d3b2e14b3af5df699876dd4ff3acd00b7f`,
      sha: "bb4cc8d3b2e14b3af5df699876dd4ff3acd00b7f",
      html_url: "https://github.com/octocat/Spoon-Knife/commit/bb4cc8d3b2e14b3af5df699876dd4ff3acd00b7f",
      comments_url: `${API}/repos/octocat/Spoon-Knife/commits/bb4cc8d3b2e14b3af5df699876dd4ff3acd00b7f/comments`,
      commit: {
        url: `${API}/repos/octocat/Spoon-Knife/git/commits/bb4cc8d3b2e14b3af5df699876dd4ff3acd00b7f`,
        author: { date: "2014-02-04T14:38:36-08:00", name: "The Octocat", email: "octocat@nowhere.com" },
        committer: { date: "2014-02-12T15:18:55-08:00", name: "The Octocat", email: "octocat@nowhere.com" },
        message: "Create styles.css and updated README\n\nThe page now has a stylesheet.",
        tree: {
          url: `${API}/repos/octocat/Spoon-Knife/git/trees/a639e96f9038797fba6e0469f94a4b0cc459fa68`,
          sha: "a639e96f9038797fba6e0469f94a4b0cc459fa68",
        },
        comment_count: 8,
      },
      author: simpleUser("octocat", 583231),
      committer: simpleUser("octocat", 583231),
      parents: [],
      repository: minimalRepository("octocat", "Spoon-Knife", 1300192),
      score: 1,
    },
  ],
};

export const USER_SEARCH = {
  total_count: 12,
  incomplete_results: true,
  items: [
    { ...simpleUser("mojombo", 1), score: 1 },
    { ...simpleUser("github", 9919, "Organization"), score: 1 },
  ],
};

export const EMPTY_SEARCH = { total_count: 0, incomplete_results: false, items: [] };

export const REQUIRES_AUTHENTICATION = {
  message: "Requires authentication",
  errors: [
    {
      message: "Must be authenticated to access the code search API",
      resource: "Search",
      field: "q",
      code: "invalid",
    },
  ],
  documentation_url: "https://docs.github.com/v3/search/#search-code",
  status: "401",
};

export const BAD_CREDENTIALS = {
  message: "Bad credentials",
  documentation_url: "https://docs.github.com/rest",
  status: "401",
};

export const RATE_LIMIT_EXCEEDED = {
  message:
    "API rate limit exceeded for 203.0.113.7. (But here's the good news: Authenticated requests get a higher rate " +
    "limit. Check out the documentation for more details.)",
  documentation_url: "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting",
};

export const VALIDATION_FAILED = {
  message: "Validation Failed",
  errors: [{ message: "The search is longer than 256 characters.", resource: "Search", field: "q", code: "invalid" }],
  documentation_url: "https://docs.github.com/v3/search/",
  status: "422",
};

/** Headers GitHub sends with a rate-limit refusal. */
export const RATE_LIMIT_HEADERS = {
  "x-ratelimit-limit": "10",
  "x-ratelimit-remaining": "0",
  "x-ratelimit-reset": "1764000000",
  "x-ratelimit-resource": "search",
};
