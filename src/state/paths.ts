import { join } from "node:path";

/** The only place that knows the on-disk layout shared with the original Marvin (seed 000 §6.2). */
export interface ConfigPaths {
  home: string;
  root: string;
  lastProfile: string;
  usage: string;
  profilesDir: string;
  /** Scripts of the crontab lines Marvin writes (alarms, calendar reminders). */
  alarms: string;
  /** MCP servers of the user (`mcpServers`, the shape other agent CLIs use). */
  mcpConfig: string;
  /** Projects whose `.marvin/mcp.json` the user has trusted. */
  trustedProjects: string;
  /** The virtual environments install_packages created, to install only into those. */
  createdVenvs: string;
  /** Module hooks: one JavaScript file each. */
  hooksDir: string;
  /** Command hooks: events and tool-name matchers mapped to shell commands. */
  hookCommands: string;
  /** Custom tools: one JavaScript file each. */
  toolsDir: string;
  /** Custom commands: markdown prompt templates. */
  commandsDir: string;
  /** Language servers of the user, by language (diagnostics after edits). */
  lspConfig: string;
  /** Colour themes of the user: one JSON file each. */
  themesDir: string;
  /** Marvin's own ChatGPT sign-in (`marvin login codex`), when the codex CLI's is not used. */
  codexSignIn: string;
}

export function configPaths(home: string): ConfigPaths {
  const root = join(home, ".config", "local-finder");
  return {
    home,
    root,
    lastProfile: join(root, "last_profile"),
    usage: join(root, "usage.json"),
    profilesDir: join(root, "profiles"),
    alarms: join(root, "alarms"),
    mcpConfig: join(root, "mcp.json"),
    trustedProjects: join(root, "trusted_projects.json"),
    createdVenvs: join(root, "created_venvs.json"),
    codexSignIn: join(root, "codex-auth.json"),
    hooksDir: join(root, "hooks"),
    hookCommands: join(root, "hooks.json"),
    toolsDir: join(root, "tools"),
    commandsDir: join(root, "commands"),
    lspConfig: join(root, "lsp.json"),
    themesDir: join(root, "themes"),
  };
}

export interface ProfilePaths {
  dir: string;
  preferences: string;
  /** Older name for the preferences file, read when preferences.yaml is missing. */
  legacyPreferences: string;
  savedPlaces: string;
  chatLog: string;
  inputHistory: string;
  tokens: string;
  /** OAuth logins waiting for the code the browser got, beside tokens.json. */
  pendingLogins: string;
  ntfySubscriptions: string;
  calendar: string;
  bookmarks: string;
  logs: string;
  /** One JSON-lines file per conversation (`<id>.jsonl`). */
  sessions: string;
  /** The provider, model and endpoint `marvin setup` chose. */
  providerChoice: string;
}

export function profilePaths(paths: ConfigPaths, name: string): ProfilePaths {
  const dir = join(paths.profilesDir, name);
  return {
    dir,
    preferences: join(dir, "preferences.yaml"),
    legacyPreferences: join(dir, "prefs.yaml"),
    savedPlaces: join(dir, "saved_places.json"),
    chatLog: join(dir, "chat_log.json"),
    inputHistory: join(dir, "history"),
    tokens: join(dir, "tokens.json"),
    pendingLogins: join(dir, "pending_logins.json"),
    ntfySubscriptions: join(dir, "ntfy_subscriptions.json"),
    calendar: join(dir, "calendar.ics"),
    bookmarks: join(dir, "bookmarks.json"),
    logs: join(dir, "logs"),
    sessions: join(dir, "sessions"),
    providerChoice: join(dir, "provider.json"),
  };
}

/** Profile names become directory names: keep them to one safe path segment. */
export function isValidProfileName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) && !name.includes("..");
}
