/** One benchmark part: run alone with `npm run bench -- NAME`, in a process of its own, killed past its limit. */
export interface Part {
  name: string;
  about: string;
  /** Seconds the part may take at most; all limits together stay within the runner's budget (run.ts). */
  limitSeconds: number;
  /** The names of the targets it reports, for the closing lines even when it fails before reporting them. */
  targets: string[];
  run: () => Promise<void>;
}

export const PARTS: Part[] = [
  {
    name: "startup",
    about: "cold start of marvin --version against bare node",
    limitSeconds: 30,
    targets: ["cold start, marvin --version"],
    run: async () => (await import("./turn.js")).startup(),
  },
  {
    name: "turn",
    about: "one whole non-interactive turn against the minimal streaming client",
    limitSeconds: 40,
    targets: ["one whole turn"],
    run: async () => (await import("./turn.js")).wholeTurn(),
  },
  {
    name: "rounds",
    about: "per tool round of the agent loop, against the same rounds through the minimal client",
    limitSeconds: 50,
    targets: ["per-round overhead, 50 tool rounds"],
    run: async () => (await import("./turn.js")).perRound(),
  },
  {
    name: "latency",
    about: "a streamed chunk from the server to stdout, against the minimal client",
    limitSeconds: 40,
    targets: ["chunk → stdout latency, added (median)"],
    run: async () => (await import("./turn.js")).chunkLatency(),
  },
  {
    name: "requests",
    about: "the first request's size, and the prompt-cache prefix across messages",
    limitSeconds: 40,
    targets: ["first request size (coding)", "first request size (chat)", "prompt-cache prefix, new messages"],
    run: async () => {
      await (await import("./requests.js")).requestSize();
      await (await import("./prompt-cache.js")).promptCachePrefix();
    },
  },
  {
    name: "sessions",
    about: "loading, resuming and listing saved conversations, against plain reads of their files",
    limitSeconds: 60,
    targets: ["load a 2000-message session", "resume it in a whole run", "list them again"],
    run: async () => {
      const sessions = await import("./sessions.js");
      await sessions.sessionResume();
      await sessions.sessionList();
    },
  },
  {
    name: "apply-patch",
    about: "apply_patch on a 5 MB file against plain Node reading, replacing and writing it",
    limitSeconds: 30,
    targets: ["apply_patch old_str/new_str (5 MB)", "apply_patch Codex patch (5 MB)"],
    run: async () => (await import("./apply-patch.js")).applyPatch(),
  },
  {
    name: "grep",
    about: "code_grep and tree on 50,000 files, against plain rg",
    limitSeconds: 120,
    targets: ["code_grep, rare pattern", "code_grep, common pattern"],
    run: async () => (await import("./grep-tree.js")).grepTree(),
  },
  {
    name: "tui",
    about: "5,000 tokens through the full-screen UI, against writing them to a pipe",
    limitSeconds: 80,
    targets: ["TUI CPU while streaming"],
    run: async () => (await import("./tui-stream.js")).tuiStream(),
  },
  {
    name: "tokenizer",
    about: "token counting on worst-case input against ordinary text of the same size",
    limitSeconds: 45,
    targets: ["5 MB of one repeated character"],
    run: async () => (await import("./tokenizer.js")).tokenizer(),
  },
  {
    name: "mcp",
    about: "the plain UI's first prompt with three MCP servers against none",
    limitSeconds: 75,
    targets: ["first prompt, 3 MCP servers"],
    run: async () => (await import("./mcp-startup.js")).mcpStartup(),
  },
  {
    name: "sandbox",
    about: "what the command sandbox adds to run_command, against bwrap's own cost",
    limitSeconds: 40,
    targets: ["sandbox start-up per command"],
    run: async () => (await import("./sandbox-startup.js")).sandboxStartup(),
  },
];
