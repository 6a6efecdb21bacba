import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { Session } from "../session/session.js";
import type { Env } from "../shared/env.js";
import { resolveProviderConfig } from "../providers/config.js";
import { createProvider } from "../providers/create.js";
import { providerProblem, selectProvider } from "../providers/select.js";
import type { LLMProvider, ProviderName } from "../providers/types.js";
import type { AgentEventListener } from "../agent/events.js";
import { createNtfyNotifier } from "../session/listeners/ntfy-notifier.js";
import { createAuditLog } from "../session/listeners/audit-log.js";
import { createToolRegistry } from "../tools/index.js";
import type { CliArgs } from "./args.js";

export interface SessionEnvironment {
  env: Env;
  home: string;
  cwd: string;
  /** Shown to the person (stderr in non-interactive mode). */
  notice: (text: string) => void;
  confirmCommand?: (command: string) => Promise<boolean>;
}

export interface BuiltSession {
  session: Session;
  providerName: ProviderName;
  /** Waits for pending audit-log writes and ntfy notifications. */
  flush: () => Promise<void>;
}

/** An existing directory, as an absolute real path, or a one-line error. */
export async function resolveWorkingDir(path: string, cwd: string): Promise<string> {
  const absolute = resolve(cwd, path);
  let info;
  try {
    info = await stat(absolute);
  } catch {
    throw new Error(`--working-dir ${path}: no such directory`);
  }
  if (!info.isDirectory()) throw new Error(`--working-dir ${path}: not a directory`);
  return realpath(absolute);
}

/** Chooses the provider, builds the tool registry and the session. Throws with a user-facing message. */
export async function buildSession(args: CliArgs, environment: SessionEnvironment): Promise<BuiltSession> {
  const { env, home } = environment;
  const selection = await selectProvider(args.provider, env, home);
  if ("error" in selection) throw new Error(selection.error);
  if (selection.notice) environment.notice(selection.notice);
  const providerName = selection.provider;

  const workingDir = args.workingDir
    ? await resolveWorkingDir(args.workingDir, environment.cwd)
    : args.nonInteractive
      ? await realpath(environment.cwd)
      : null;

  let fallback: Promise<LLMProvider | undefined> | undefined;
  const session = new Session({
    home,
    env,
    nonInteractive: args.nonInteractive,
    codingMode: args.nonInteractive || workingDir !== null,
    readonly: env.MARVIN_READONLY === "1",
    workingDir,
    registry: createToolRegistry(),
    createProvider: (codingMode) =>
      createProvider(resolveProviderConfig(providerName, { env, home, codingMode, model: args.model, nonInteractive: args.nonInteractive }), env),
    fallbackProvider:
      providerName === "copilot"
        ? undefined
        : () =>
            (fallback ??= providerProblem("copilot", env, home).then((problem) => {
              if (problem) return undefined;
              const options = { env, home, codingMode: args.nonInteractive, nonInteractive: args.nonInteractive };
              return createProvider(resolveProviderConfig("copilot", options), env);
            })),
    confirmCommand: environment.confirmCommand,
  });

  // Listeners whose writes must finish before the process exits.
  const durable: Array<{ listener: AgentEventListener; flush: () => Promise<void> }> = [];
  const auditPath = env.MARVIN_SUBAGENT_LOG?.trim();
  if (auditPath) durable.push(createAuditLog(resolve(environment.cwd, auditPath), environment.notice));
  if (args.ntfy) durable.push(createNtfyNotifier(args.ntfy, env, environment.notice));
  for (const { listener } of durable) session.subscribe(listener);
  const flush = async () => void (await Promise.all(durable.map((item) => item.flush())));
  // Front ends subscribe after this returns: warnings from loading state go to `notice`.
  const forwardStartNotices = session.subscribe((event) => {
    if (event.type === "notice") environment.notice(event.text);
  });
  try {
    await session.start();
  } finally {
    forwardStartNotices();
  }
  return { session, providerName, flush };
}
