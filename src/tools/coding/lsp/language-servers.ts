import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import type { Env } from "../../../shared/env.js";
import type { CodeDiagnostics } from "../../kit/tool-services.js";
import { type Diagnostic, LanguageServer } from "./language-server.js";
import { chooseServer, fileKind, type Language, loadLspConfig, projectCode } from "./server-specs.js";

/** Errors listed in one tool result; the rest are counted. */
const MAX_LISTED = 20;
const DEFAULT_WAIT_SECONDS = 3;
const DEFAULT_COLD_WAIT_SECONDS = 15;

interface LanguageServersOptions {
  env: Env;
  /** The user's lsp.json. */
  configPath: string;
  /** Shows something to the person once (a missing server, one that stopped). */
  notice: (text: string) => void;
}

/** An error, or a diagnostic whose severity the server left to the client. */
const isError = (diagnostic: Diagnostic) => (diagnostic.severity ?? 1) === 1;

function formatDiagnostic(shown: string, diagnostic: Diagnostic): string {
  const { line, character } = diagnostic.range.start;
  const code = diagnostic.code === undefined ? "" : ` ${diagnostic.code}`;
  const source = diagnostic.source || diagnostic.code !== undefined ? ` (${diagnostic.source ?? ""}${code})` : "";
  return `${shown}:${line + 1}:${character + 1}: ${diagnostic.message.replace(/\s*\n\s*/g, " ")}${source}`;
}

/** A wait setting in seconds; `fallback` when unset or not a positive number. */
function waitSeconds(value: string | undefined, fallback: number): number {
  const seconds = Number(value);
  return value?.trim() && Number.isFinite(seconds) && seconds > 0 ? seconds : fallback;
}

/** What a server said about one file, as lines of a tool result. */
function describeDiagnostics(name: string, shown: string, diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter(isError);
  if (errors.length === 0) return `No errors reported by ${name} in ${shown}.`;
  const listed = errors.slice(0, MAX_LISTED).map((diagnostic) => formatDiagnostic(shown, diagnostic));
  const more = errors.length > MAX_LISTED ? [`… and ${errors.length - MAX_LISTED} more errors.`] : [];
  return [`Errors reported by ${name} in ${shown}:`, ...listed, ...more].join("\n");
}

/** Diagnostics that came after their write's wait: shown with the next tool result if the file is still as written. */
interface LateReport {
  text: string;
  report: string;
}

/**
 * The language servers of one Marvin session: started once per language and working directory (when coding mode
 * opens a project of that language, or at the first write of such a file), asked about each file the tools write,
 * and stopped with the session.
 */
export class LanguageServers implements CodeDiagnostics {
  private readonly servers = new Map<string, LanguageServer>();
  private readonly noticed = new Set<string>();
  private readonly waitMs: number;
  private readonly coldWaitMs: number;
  /** How many times each file was written: late diagnostics of an earlier write are dropped. */
  private readonly writes = new Map<string, number>();
  private readonly late = new Map<string, LateReport>();
  private readonly warmed = new Set<string>();
  private closed = false;

  constructor(private readonly options: LanguageServersOptions) {
    this.waitMs = waitSeconds(options.env.MARVIN_LSP_WAIT, DEFAULT_WAIT_SECONDS) * 1000;
    this.coldWaitMs = Math.max(
      this.waitMs,
      waitSeconds(options.env.MARVIN_LSP_COLD_WAIT, DEFAULT_COLD_WAIT_SECONDS) * 1000,
    );
  }

  get enabled(): boolean {
    return this.options.env.MARVIN_LSP?.trim().toLowerCase() !== "off";
  }

  async afterWrite(root: string, files: readonly string[]): Promise<string> {
    if (!this.enabled || this.closed) return "";
    const reports = await Promise.all(files.map((file) => this.report(root, file).catch(() => "")));
    return reports.filter(Boolean).join("\n");
  }

  private async report(root: string, file: string): Promise<string> {
    const kind = fileKind(file);
    if (!kind) return "";
    const server = await this.server(kind.language, root);
    if (!server) return "";
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text === undefined) return "";
    const write = (this.writes.get(file) ?? 0) + 1;
    this.writes.set(file, write);
    this.late.delete(file);
    const name = `the ${kind.language} language server`;
    const shown = relative(root, file) || file;
    // A cold server (starting, or loading the project for its first file) gets the longer wait.
    const waitMs = server.answered ? this.waitMs : this.coldWaitMs;
    const late = (diagnostics: Diagnostic[]) => {
      if (this.closed || this.writes.get(file) !== write) return;
      const report = describeDiagnostics(name, shown, diagnostics);
      this.late.set(file, { text, report: `Diagnostics that arrived late for ${shown} (written earlier):\n${report}` });
    };
    const diagnostics = await server.diagnose(file, text, { languageId: kind.languageId, waitMs, late });
    this.noticeIfStopped(kind.language, server);
    if (diagnostics !== undefined) return describeDiagnostics(name, shown, diagnostics);
    if (server.state === "failed") return "";
    return `(${name} gave no diagnostics for ${shown} in time; if they come, a later tool result shows them.)`;
  }

  async lateReports(): Promise<string> {
    if (this.late.size === 0) return "";
    const taken = [...this.late.entries()];
    this.late.clear();
    const current = await Promise.all(
      taken.map(async ([file, late]) =>
        (await readFile(file, "utf8").catch(() => undefined)) === late.text ? late : undefined,
      ),
    );
    return current
      .filter((late) => late !== undefined)
      .map((late) => late.report)
      .join("\n");
  }

  /**
   * In coding mode, starts in the background the server of each language the working directory holds code of
   * (see projectCode) and opens one of its files, so that the first write's diagnostics need not wait for the
   * server to load the project; once per working directory. Missing servers stay quiet until a write needs them.
   */
  warmUp({ codingMode, workingDir: root }: { codingMode: boolean; workingDir: string | null }): void {
    if (!codingMode || !root || !this.enabled || this.closed || this.warmed.has(root)) return;
    this.warmed.add(root);
    void projectCode(root)
      .then((found) => Promise.all(found.map(({ language, file }) => this.warmUpServer(language, root, file))))
      .catch(() => undefined);
  }

  private async warmUpServer(language: Language, root: string, file: string | undefined): Promise<void> {
    const server = await this.server(language, root, { quiet: true });
    const languageId = file && fileKind(file)?.languageId;
    if (!server || !file || !languageId) return;
    const text = await readFile(file, "utf8");
    // Nobody waits for this answer: it only makes the server load the project (and so become warm).
    await server.diagnose(file, text, { languageId, waitMs: 0 });
  }

  /** A server that stopped working is reported once, and not started again in this session. */
  private noticeIfStopped(language: Language, server: LanguageServer): void {
    if (server.state !== "failed") return;
    const text =
      `The ${language} language server (${server.spec.command}) stopped: ${server.problem}. Edits of ${language} ` +
      "files get no diagnostics until Marvin restarts.";
    this.noticeOnce(`${language}:${server.root}`, text);
  }

  private async server(language: Language, root: string, { quiet = false } = {}): Promise<LanguageServer | undefined> {
    const key = `${language}:${root}`;
    const known = this.servers.get(key);
    if (known) {
      this.noticeIfStopped(language, known);
      return known.state === "starting" || known.state === "running" ? known : undefined;
    }
    const { config, warning } = await loadLspConfig(this.options.configPath);
    if (warning && !quiet) this.noticeOnce(`config:${warning}`, warning);
    const choice = await chooseServer(language, config, this.options.env);
    if ("missing" in choice) {
      if (!quiet) this.noticeOnce(language, `No diagnostics for ${language} files: ${choice.missing}.`);
      return undefined;
    }
    if (this.closed || this.servers.has(key)) return this.servers.get(key);
    const server = new LanguageServer(root, choice.found, this.options.env);
    this.servers.set(key, server);
    return server;
  }

  private noticeOnce(key: string, text: string): void {
    if (this.noticed.has(key)) return;
    this.noticed.add(key);
    this.options.notice(text);
  }

  /** One line per server started in this session, for the `lsp` command. */
  describe(): string[] {
    if (!this.enabled) return ["Diagnostics after edits are off (MARVIN_LSP=off)."];
    if (this.servers.size === 0)
      return [
        "No language server is running: one starts when coding mode opens a project or a tool writes a code file.",
      ];
    return [...this.servers.entries()].map(([key, server]) => {
      const language = key.slice(0, key.indexOf(":"));
      const pid = server.processId === undefined ? "" : `, pid ${server.processId}`;
      const problem = server.problem && server.state === "failed" ? `: ${server.problem}` : "";
      const state = server.state === "running" && !server.answered ? "loading the project" : server.state;
      return `${language}: ${server.spec.command} in ${server.root} (${state}${pid}${problem})`;
    });
  }

  /** Stops every server and everything it started. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.servers.values()].map((server) => server.stop()));
  }
}
