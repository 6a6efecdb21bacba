import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath, pathToFileURL } from "node:url";
import { toolChildEnv } from "../../../shared/child-env.js";
import type { Env } from "../../../shared/env.js";
import { errorMessage } from "../../../shared/error-message.js";
import { raceTimeLimit } from "../../../shared/time-limit.js";
import { terminate, trackUntilExit, untrack } from "../../kit/processes/live-commands.js";
import { ProcessTree } from "../../kit/processes/process-tree.js";
import { JsonRpcConnection } from "./json-rpc.js";
import { absolutePath, type ServerCommand } from "./server-specs.js";

/** One problem a server found, as LSP sends it (positions are 0-based). */
export interface Diagnostic {
  range: { start: { line: number; character: number } };
  /** 1 error, 2 warning, 3 information, 4 hint; absent: the client decides (Marvin counts it as an error). */
  severity?: number;
  message: string;
  source?: string;
  code?: string | number;
}

/** After a server's answer about a file, how long more answers may follow (syntax first, then types). */
const QUIET_MS = 300;
const SHUTDOWN_MS = 1_000;
const KILL_GRACE_MS = 500;
/** How long diagnostics that come after a write's wait are still waited for. */
const LATE_LIMIT_MS = 180_000;
/** Set in the server's environment so that every process it starts is found and stopped with it. */
const SERVER_MARKER_VARIABLE = "MARVIN_LSP_ID";

/** A write being diagnosed: the version sent, and the diagnostics received for it so far. */
interface Waiter {
  version: number;
  /** True once the server has answered a request sent after the file: diagnostics without a version then count. */
  pastBarrier: boolean;
  received?: Diagnostic[];
  quiet?: NodeJS.Timeout;
  done: (diagnostics: Diagnostic[] | undefined) => void;
}

type State = "starting" | "running" | "failed" | "stopped";

/**
 * One language server process for one working directory: started in a process group of its own with the
 * credential-free environment of tools, told about each file as written, stopped with everything it started.
 */
export class LanguageServer {
  private stateValue: State = "starting";
  private failure: string | undefined;
  readonly ready: Promise<void>;
  private readonly connection: JsonRpcConnection;
  private readonly tree: ProcessTree;
  private readonly pid: number | undefined;
  private readonly opened = new Set<string>();
  private readonly waiters = new Map<string, Waiter>();
  private nextVersion = 1;
  /** How many times each file was asked about: only the latest question is answered. */
  private readonly asked = new Map<string, number>();
  private answeredValue = false;
  private stopping: Promise<void> | undefined;

  constructor(
    readonly root: string,
    readonly spec: ServerCommand,
    env: Env,
  ) {
    const marker = randomUUID();
    const child = spawn(spec.command, spec.args, {
      cwd: root,
      env: { ...toolChildEnv(env), PATH: absolutePath(env), ...spec.env, [SERVER_MARKER_VARIABLE]: marker },
      detached: true,
      stdio: ["pipe", "pipe", "ignore"],
    });
    this.pid = child.pid;
    this.tree = new ProcessTree(child.pid ?? -1, `${SERVER_MARKER_VARIABLE}=${marker}`);
    if (child.pid !== undefined) trackUntilExit(this.tree);
    this.connection = new JsonRpcConnection(child.stdout, child.stdin);
    this.connection.onNotification("textDocument/publishDiagnostics", (params) => this.received(params));
    this.connection.onRequest("workspace/configuration", (params) =>
      ((params as { items?: unknown[] })?.items ?? []).map(() => null),
    );
    for (const method of ["client/registerCapability", "window/workDoneProgress/create", "window/showMessageRequest"])
      this.connection.onRequest(method, () => null);
    this.connection.onRequest("workspace/workspaceFolders", () => [this.folder()]);
    const exited = new Promise<string>((resolve) => {
      child.once("error", (error) => resolve(errorMessage(error)));
      child.once("exit", (code, signal) => resolve(`it exited (${signal ?? `code ${code}`})`));
    });
    void exited.then((reason) => this.ended(reason));
    this.ready = Promise.race([this.initialize(), exited.then((reason) => Promise.reject(new Error(reason)))]).then(
      () => {
        if (this.stateValue === "starting") this.stateValue = "running";
      },
      (error: unknown) => {
        this.fail(errorMessage(error));
        throw error;
      },
    );
    this.ready.catch(() => undefined);
  }

  get state(): State {
    return this.stateValue;
  }

  /** Whether the server has reported on any file yet: until then it is cold (still loading the project). */
  get answered(): boolean {
    return this.answeredValue;
  }

  /** Why the server stopped working, once it has. */
  get problem(): string | undefined {
    return this.failure;
  }

  get processId(): number | undefined {
    return this.pid;
  }

  private folder() {
    return { uri: pathToFileURL(this.root).href, name: this.root };
  }

  private async initialize(): Promise<void> {
    await this.connection.request("initialize", {
      processId: process.pid,
      rootUri: pathToFileURL(this.root).href,
      workspaceFolders: [this.folder()],
      capabilities: {
        textDocument: {
          synchronization: { dynamicRegistration: false },
          publishDiagnostics: { versionSupport: true },
        },
        workspace: { configuration: true, workspaceFolders: true },
        window: { workDoneProgress: false },
      },
      initializationOptions: this.spec.initializationOptions ?? null,
    });
    this.connection.notify("initialized", {});
  }

  /**
   * The diagnostics of `path` with `text` as its content, or undefined when the server did not answer within
   * `waitMs`. The file is opened afresh each time, so nothing the server said about an earlier version counts.
   * Diagnostics that come after the wait (until the file is diagnosed again) go to `late`.
   */
  async diagnose(
    path: string,
    text: string,
    request: { languageId: string; waitMs: number; late?: (diagnostics: Diagnostic[]) => void },
  ): Promise<Diagnostic[] | undefined> {
    const pending: { waiter?: Waiter } = {};
    const collected = this.collect(path, text, request.languageId, pending);
    let deadline: NodeJS.Timeout | undefined;
    const waited = new Promise<"waited">((resolve) => {
      deadline = setTimeout(() => resolve("waited"), request.waitMs);
    });
    const first = await Promise.race([collected, waited]);
    clearTimeout(deadline);
    if (first !== "waited") return first;
    // Some diagnostics came, more might follow: what came is the answer.
    if (pending.waiter?.received) {
      pending.waiter.done(pending.waiter.received);
      return collected;
    }
    void collected.then((diagnostics) => {
      if (diagnostics) request.late?.(diagnostics);
    });
    return undefined;
  }

  /** Once the server is ready, opens `path` afresh and resolves with what it says about it (see {@link diagnose}). */
  private async collect(
    path: string,
    text: string,
    languageId: string,
    pending: { waiter?: Waiter },
  ): Promise<Diagnostic[] | undefined> {
    const asked = (this.asked.get(path) ?? 0) + 1;
    this.asked.set(path, asked);
    const isReady = await this.ready.then(
      () => true,
      () => false,
    );
    if (!isReady || this.stateValue !== "running" || this.asked.get(path) !== asked) return undefined;
    const uri = pathToFileURL(path).href;
    const version = this.nextVersion++;
    this.waiters.get(path)?.done(undefined);
    const answer = new Promise<Diagnostic[] | undefined>((resolve) => {
      const waiter: Waiter = {
        version,
        pastBarrier: false,
        done: (diagnostics) => {
          clearTimeout(waiter.quiet);
          clearTimeout(limit);
          if (this.waiters.get(path) === waiter) this.waiters.delete(path);
          resolve(diagnostics);
        },
      };
      const limit = setTimeout(() => waiter.done(waiter.received), LATE_LIMIT_MS);
      this.waiters.set(path, waiter);
      pending.waiter = waiter;
    });
    if (this.opened.has(uri)) this.connection.notify("textDocument/didClose", { textDocument: { uri } });
    this.connection.notify("textDocument/didOpen", { textDocument: { uri, languageId, version, text } });
    this.opened.add(uri);
    // Servers answer in order: what they publish after this answer is about the file as just opened.
    void this.connection
      .request("textDocument/documentSymbol", { textDocument: { uri } })
      .catch(() => undefined)
      .finally(() => {
        const waiter = this.waiters.get(path);
        if (waiter?.version === version) waiter.pastBarrier = true;
      });
    const diagnostics = await answer;
    if (diagnostics) this.answeredValue = true;
    return diagnostics;
  }

  private received(params: unknown): void {
    const { uri, version, diagnostics } = (params ?? {}) as { uri?: string; version?: number; diagnostics?: unknown };
    if (typeof uri !== "string" || !Array.isArray(diagnostics) || !uri.startsWith("file:")) return;
    const waiter = this.waiters.get(fileURLToPath(uri));
    if (!waiter) return;
    const current = typeof version === "number" ? version === waiter.version : waiter.pastBarrier;
    if (!current) return;
    waiter.received = diagnostics as Diagnostic[];
    clearTimeout(waiter.quiet);
    waiter.quiet = setTimeout(() => waiter.done(waiter.received), QUIET_MS);
  }

  private fail(reason: string): void {
    if (this.stateValue === "stopped" || this.stateValue === "failed") return;
    this.stateValue = "failed";
    this.failure = reason;
    for (const waiter of [...this.waiters.values()]) waiter.done(waiter.received);
  }

  private ended(reason: string): void {
    this.connection.close(reason);
    this.fail(reason);
    void this.killAll();
  }

  /** Asks the server to shut down, then stops whatever of it is left (SIGTERM, then SIGKILL). */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const wasRunning = this.stateValue === "running";
      this.fail("stopped");
      this.stateValue = "stopped";
      if (wasRunning) {
        await raceTimeLimit(this.connection.request("shutdown", null), SHUTDOWN_MS, () => undefined).catch(
          () => undefined,
        );
        this.connection.notify("exit", null);
      }
      this.connection.close("stopped");
      await this.killAll();
    })();
    return this.stopping;
  }

  private async killAll(): Promise<void> {
    if (this.pid === undefined) return;
    await terminate(this.tree, KILL_GRACE_MS);
    untrack(this.tree);
  }
}
