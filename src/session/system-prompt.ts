import type { ChatLogEntry } from "../state/chat-log.js";
import type { ProfilePaths } from "../state/paths.js";
import { loadPreferences, loadYaml, type Preferences } from "../state/preferences.js";
import { loadSavedPlaces, type SavedPlace } from "../state/saved-places.js";
import type { ChatLogKeeper } from "./chat-log-keeper.js";
import { loadProjectContext, type ProjectContext } from "./project-context.js";

export interface BackgroundJobSummary {
  id: string;
  description: string;
  status: string;
}

export interface SystemPromptInput {
  profileName: string;
  /** The user's preferences as the system message shows them (see formatPreferences). */
  preferences: string;
  savedPlaces: SavedPlace[];
  chatLog: ChatLogEntry[];
  codingMode: boolean;
  nonInteractive: boolean;
  workingDir: string | null;
  backgroundJobs: BackgroundJobSummary[];
  project?: ProjectContext;
}

/** Where the system message's facts come from; read afresh before each message. */
interface SystemPromptSources {
  paths: ProfilePaths;
  profileName: string;
  chatLog: ChatLogKeeper;
  codingMode: boolean;
  nonInteractive: boolean;
  workingDir: string | null;
  home: string;
  backgroundJobs: BackgroundJobSummary[];
  /** Told what could not be read (a damaged preferences file, an instructions file that leads out). */
  notice: (text: string) => void;
}

/** Reads what the system message says: preferences, saved places, the chat log, the project's instructions. */
export async function gatherSystemPromptInput(sources: SystemPromptSources): Promise<SystemPromptInput> {
  const { paths, notice } = sources;
  const [preferences, places] = await Promise.all([loadPreferences(paths), loadSavedPlaces(paths.savedPlaces)]);
  for (const warning of [preferences.warning, places.warning]) if (warning) notice(warning);
  await sources.chatLog.load(paths.chatLog); // re-read: compact_history or another Marvin may have rewritten it
  const projectDir = sources.codingMode && sources.workingDir;
  const project = projectDir ? await loadProjectContext(projectDir, sources.home) : undefined;
  for (const warning of project?.warnings ?? []) notice(warning);
  return {
    profileName: sources.profileName,
    preferences: await formatPreferences(preferences.value),
    savedPlaces: places.value,
    chatLog: sources.chatLog.entries,
    codingMode: sources.codingMode,
    nonInteractive: sources.nonInteractive,
    workingDir: sources.workingDir,
    backgroundJobs: sources.backgroundJobs,
    ...(project ? { project: { ...project, warnings: [] } } : {}),
  };
}

export const COMPACT_HISTORY_ENTRIES = 20;
export const COMPACT_HISTORY_CHARS = 200;

/**
 * Names only what the registered tools can do (tests/docs checks capability words against the
 * registry): when a tool domain lands, add it here with its tools.
 */
const PERSONALITY = `You are Marvin, a helpful local-business and general-purpose assistant running in the user's
terminal. You help with everyday things (web search, news, reading web pages, downloads, weather forecasts, finding
places and what is nearby, where the user is, map search, travel times and directions, unit conversion, saved
places, films and series, video games and Steam, music and Spotify playlists, recipes, the calendar, alarms and
reminders, ntfy push notifications, preferences, profiles, notes, tickets, timers, 3D scenes in Blender through its
MCP add-on) and with code. You look things up
in Wikipedia, research papers (Semantic Scholar, arXiv), Stack Exchange, a dictionary and RSS feeds, and translate
text.
Rules:
- Use your tools to get real data; never invent places, facts or file contents. Give the addresses (URLs) of
  web pages and news you cite.
- Not every tool is offered at first: load_tools lists the other families of tools and loads them.
- When no tool can do what the user asks, say so plainly instead of guessing.
- When a tool fails, read its message, fix the call, and try again or explain what went wrong.
- A <context> note before a user message gives the current date and time and what changed since this system
  message: notifications that came in on the user's ntfy topics (mention what matters to the user), preferences,
  saved places and background jobs. The note is newer than this message.
- Take the user's preferences and saved places into account without being asked ("near home" means the saved
  place "home").
- Answer concisely, in plain text with light Markdown.`;

/** Interactive sessions only: the person may speak instead of typing (`!v`, `!voice`). */
const VOICE_NOTE = `- The user may speak instead of typing: such messages are transcribed speech, so read past
  misheard words and ask when one matters.`;

function section(title: string, body: string): string {
  return `## ${title}\n${body.trim()}`;
}

/**
 * The preferences set, as YAML, or a line saying there are none. The yaml package is loaded only when there are
 * some: then loading them has loaded it already.
 */
export async function formatPreferences(preferences: Preferences): Promise<string> {
  const entries = Object.entries(preferences).filter(
    ([, value]) => value !== "" && value !== null && !(Array.isArray(value) && value.length === 0),
  );
  if (entries.length === 0) return "(none set: learn them from the conversation and save them with update_preferences)";
  return (await loadYaml()).stringify(Object.fromEntries(entries)).trim();
}

export function formatPlaces(places: SavedPlace[]): string {
  if (places.length === 0) return "(none yet: offer to save places the user mentions often with save_place)";
  return places
    .map((place) => {
      const coordinates = place.lat || place.lng ? ` [${place.lat}, ${place.lng}]` : "";
      const where = [place.name, place.address].filter(Boolean).join(", ");
      return `- ${place.label}: ${where}${coordinates}${place.notes ? ` (${place.notes})` : ""}`;
    })
    .join("\n");
}

/** The last 20 chat-log entries, each cut to 200 characters (seed 002 §6 item 5). */
export function compactChatLog(entries: ChatLogEntry[]): string {
  const recent = entries.slice(-COMPACT_HISTORY_ENTRIES);
  if (recent.length === 0) return "(no earlier conversation)";
  return recent
    .map((entry) => {
      const text = entry.text.replace(/\s+/g, " ").trim();
      const cut = text.length > COMPACT_HISTORY_CHARS ? `${text.slice(0, COMPACT_HISTORY_CHARS)}…` : text;
      return `[${entry.time}] ${entry.role}: ${cut}`;
    })
    .join("\n");
}

function codingInstructions(workingDir: string | null, nonInteractive: boolean): string {
  const where = workingDir
    ? `Working directory: ${workingDir}`
    : "No working directory is set yet: call set_working_dir before using file tools.";
  return `${where}
- All file paths are relative to the working directory; absolute paths and '..' are refused.
- Explore with tree and code_grep; read files with read_file (files over 10KB need start_line/end_line).
- Create new files with create_file and edit existing ones with apply_patch (old_str must match exactly once).
- For a long document, write the first 2000–4000 words with create_file, then continue with append_file.
- Always write files with the file tools, never by printing their content in your answer.
- Run builds and tests with run_command${
    nonInteractive ? " (commands run without " + "confirmation)" : " (the user confirms each command)"
  }; commit with git_commit when a change is complete.
- Install Python packages into the project's .venv with install_packages, not with pip in run_command.
- Hand a self-contained task to a sub-agent with launch_agent: it starts with a fresh context, so its prompt must say
  everything it needs; it returns its answer and cost. Several can run in parallel; use read_only for research and
  reviews.
- Notes you write go to .marvin/notes/ inside the project.`;
}

export function formatJobs(jobs: readonly BackgroundJobSummary[]): string {
  const lines = jobs.map((job) => `- ${job.id} (${job.description}): ${job.status}`);
  return `${lines.join("\n")}\nUse review_status to read a job's output.`;
}

/**
 * Builds the system message (seed 000 §2.15's sections). The current date and time, the ninth, travels in the
 * context note of each user message (context-note.ts), so that this message stays the same from message to
 * message and the providers' prompt caches keep hitting.
 */
export function buildSystemMessage(input: SystemPromptInput): string {
  const parts = [
    input.nonInteractive ? PERSONALITY : `${PERSONALITY}\n${VOICE_NOTE}`,
    section("User preferences", input.preferences),
    section("Active profile", `Active profile: ${input.profileName}`),
    section("Saved places", formatPlaces(input.savedPlaces)),
    section("Recent conversation (compact)", compactChatLog(input.chatLog)),
  ];
  if (input.codingMode) parts.push(section("Coding mode", codingInstructions(input.workingDir, input.nonInteractive)));
  if (input.backgroundJobs.length) parts.push(section("Background jobs", formatJobs(input.backgroundJobs)));
  if (input.project?.instructions)
    parts.push(
      section(`Project instructions (${input.project.instructions.name})`, input.project.instructions.content),
    );
  for (const document of input.project?.agentInstructions ?? [])
    parts.push(section(`Project instructions (${document.name})`, document.content));
  for (const document of input.project?.documents ?? [])
    parts.push(section(`Project document ${document.name}`, document.content));
  return parts.join("\n\n");
}
