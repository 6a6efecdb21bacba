import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import type { Env } from "../../../shared/env.js";
import type { CodeDiagnostics } from "../../kit/tool-services.js";
import { type Diagnostic, LanguageServer } from "./language-server.js";
import { chooseServer, fileKind, type Language, loadLspConfig } from "./server-specs.js";

/** Errors listed in one tool result; the rest are counted. */
const MAX_LISTED = 20;
const DEFAULT_WAIT_SECONDS = 3;

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

/** "MARVIN_LSP_WAIT" in seconds; the default when unset or not a positive number. */
function waitSeconds(env: Env): number {
  const value = Number(env.MARVIN_LSP_WAIT);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_WAIT_SECONDS;
}

/**
 * The language servers of one Marvin session: started lazily (once per language and working directory, at the
 * first write of such a file), asked about each file the tools write, and stopped with the session.
 */
export class LanguageServers implements CodeDiagnostics {
  private readonly servers = new Map<string, LanguageServer>();
  private readonly noticed = new Set<string>();
  private readonly waitMs: number;
  private closed = false;

  constructor(private readonly options: LanguageServersOptions) {
    this.waitMs = waitSeconds(options.env) * 1000;
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
    // A server that is still starting gets the whole wait; a running one answers sooner or not at all.
    const wait = server.state === "starting" ? this.waitMs : this.waitMs / 2;
    const diagnostics = await server.diagnose(file, text, kind.languageId, wait);
    this.noticeIfStopped(kind.language, server);
    const name = `the ${kind.language} language server`;
    const shown = relative(root, file) || file;
    if (diagnostics === undefined)
      return server.state === "failed" ? "" : `(${name} gave no diagnostics for ${shown} in time.)`;
    const errors = diagnostics.filter(isError);
    if (errors.length === 0) return `No errors reported by ${name} in ${shown}.`;
    const listed = errors.slice(0, MAX_LISTED).map((diagnostic) => formatDiagnostic(shown, diagnostic));
    const more = errors.length > MAX_LISTED ? [`… and ${errors.length - MAX_LISTED} more errors.`] : [];
    return [`Errors reported by ${name} in ${shown}:`, ...listed, ...more].join("\n");
  }

  /** A server that stopped working is reported once, and not started again in this session. */
  private noticeIfStopped(language: Language, server: LanguageServer): void {
    if (server.state !== "failed") return;
    const text =
      `The ${language} language server (${server.spec.command}) stopped: ${server.problem}. Edits of ${language} ` +
      "files get no diagnostics until Marvin restarts.";
    this.noticeOnce(`${language}:${server.root}`, text);
  }

  private async server(language: Language, root: string): Promise<LanguageServer | undefined> {
    const key = `${language}:${root}`;
    const known = this.servers.get(key);
    if (known) {
      this.noticeIfStopped(language, known);
      return known.state === "starting" || known.state === "running" ? known : undefined;
    }
    const { config, warning } = await loadLspConfig(this.options.configPath);
    if (warning) this.noticeOnce(`config:${warning}`, warning);
    const choice = await chooseServer(language, config, this.options.env);
    if ("missing" in choice) {
      this.noticeOnce(language, `No diagnostics for ${language} files: ${choice.missing}.`);
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
    if (this.servers.size === 0) return ["No language server is running: one starts when a tool writes a code file."];
    return [...this.servers.entries()].map(([key, server]) => {
      const language = key.slice(0, key.indexOf(":"));
      const pid = server.processId === undefined ? "" : `, pid ${server.processId}`;
      const problem = server.problem && server.state === "failed" ? `: ${server.problem}` : "";
      return `${language}: ${server.spec.command} in ${server.root} (${server.state}${pid}${problem})`;
    });
  }

  /** Stops every server and everything it started. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.servers.values()].map((server) => server.stop()));
  }
}
