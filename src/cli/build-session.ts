import type { Stats } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { resolveProviderConfig } from "../providers/config.js";
import { copilotFallback } from "../providers/copilot-fallback.js";
import { createProvider } from "../providers/create.js";
import { parseProviderName } from "../providers/registry.js";
import { providerProblem, selectProvider } from "../providers/select.js";
import type { ProviderName } from "../providers/types.js";
import { approvalSettingProblem, commandsWithoutSandbox, initialApprovalMode } from "../session/approvals.js";
import { Extensions } from "../session/extensions.js";
import { createAuditLog } from "../session/listeners/audit-log.js";
import { createNtfyNotifier } from "../session/listeners/ntfy-notifier.js";
import { type LoadedSession, SessionStore } from "../session/saved-sessions/session-store.js";
import { Session } from "../session/session.js";
import { configPaths } from "../state/paths.js";
import { ProfileStore } from "../state/profiles.js";
import { nestingDepth } from "../tools/coding/agents/child-marvin.js";
import { createToolRegistry } from "../tools/index.js";
import { sandboxStartNotices } from "../tools/kit/sandbox/command-sandbox.js";
import { pollSubscriptions } from "../tools/organiser/ntfy/poller.js";
import { loadCustomCommands } from "../ui/commands/custom-commands.js";
import type { FrontEndEnvironment, SessionHooks, SessionStarter, StartedSession } from "../ui/front-end.js";
import type { CliArgs } from "./args.js";

interface SessionEnvironment extends FrontEndEnvironment, SessionHooks {}

/** An existing directory, as an absolute real path, or a one-line error. */
async function resolveWorkingDir(path: string, cwd: string): Promise<string> {
  const absolute = resolve(cwd, path);
  let info: Stats;
  try {
    info = await stat(absolute);
  } catch {
    throw new Error(`--working-dir ${path}: no such directory`);
  }
  if (!info.isDirectory()) throw new Error(`--working-dir ${path}: not a directory`);
  return realpath(absolute);
}

/** The conversation `--session ID` names in the active profile, when it exists (non-interactive runs). */
async function storedConversation(id: string, home: string): Promise<LoadedSession | undefined> {
  const profiles = new ProfileStore(configPaths(home));
  const profile = (await profiles.activeName()).value;
  return new SessionStore(profiles.paths(profile).sessions).load(id);
}

/** The provider a stored conversation used, when it is one Marvin knows. */
function storedProvider(stored: LoadedSession | undefined): ProviderName | undefined {
  return stored?.state.provider ? parseProviderName(stored.state.provider) : undefined;
}

/** `--provider`, else the provider a continued conversation used (when still usable), else the usual choice. */
async function chooseProvider(
  flag: ProviderName | undefined,
  stored: LoadedSession | undefined,
  { env, home, notice }: SessionEnvironment,
): ReturnType<typeof selectProvider> {
  const previous = storedProvider(stored);
  if (flag || !previous) return selectProvider(flag, env, home);
  const problem = await providerProblem(previous, env, home);
  if (!problem) return { provider: previous };
  notice(`Session ${stored?.id} used ${previous}, which is not usable now (${problem}); choosing another provider.`);
  return selectProvider(undefined, env, home);
}

/** The session starter `cli/main.ts` hands to the front end it chose. */
export function sessionStarter(args: CliArgs, environment: FrontEndEnvironment): SessionStarter {
  return (hooks) => buildSession(args, { ...environment, ...hooks });
}

/** Chooses the provider, builds the tool registry and the session. Throws with a user-facing message. */
export async function buildSession(args: CliArgs, environment: SessionEnvironment): Promise<StartedSession> {
  const { env, home } = environment;
  const stored = args.nonInteractive && args.session ? await storedConversation(args.session, home) : undefined;
  const selection = await chooseProvider(args.provider, stored, environment);
  if ("error" in selection) throw new Error(selection.error);
  if (selection.notice) environment.notice(selection.notice);
  const providerName = selection.provider;

  const workingDir = args.workingDir
    ? await resolveWorkingDir(args.workingDir, environment.cwd)
    : args.nonInteractive
      ? await realpath(environment.cwd)
      : null;

  const registry = createToolRegistry();
  const canAsk = environment.askApproval !== undefined;
  const [extensions, custom, sandboxNotices] = await Promise.all([
    Extensions.load({ home, env, projectDir: workingDir ?? environment.cwd, registry }, environment.notice),
    loadCustomCommands(configPaths(home).commandsDir),
    // A missing sandbox program is said where commands can run from the start (coding mode).
    sandboxStartNotices(
      env,
      home,
      workingDir !== null,
      commandsWithoutSandbox(initialApprovalMode(env, canAsk), canAsk),
    ),
  ]);
  for (const problem of custom.problems) environment.notice(problem);
  for (const notice of sandboxNotices) environment.notice(notice);
  const approvalProblem = approvalSettingProblem(env, canAsk);
  if (approvalProblem) environment.notice(approvalProblem);
  await extensions.hooks.emit({ type: "app.start" });

  const session = new Session({
    home,
    env,
    nonInteractive: args.nonInteractive,
    codingMode: args.nonInteractive || workingDir !== null,
    readonly: env.MARVIN_READONLY === "1",
    workingDir,
    cwd: environment.cwd,
    // A one-shot run keeps nothing unless an integrator names the conversation (seed 000 §5).
    record: args.nonInteractive && !args.session ? undefined : { id: args.session },
    registry,
    extensions,
    createProvider: (codingMode, otherModel) =>
      createProvider(
        resolveProviderConfig(providerName, {
          env,
          home,
          codingMode,
          model:
            otherModel ??
            args.model ??
            (providerName === storedProvider(stored) ? (stored?.state.model ?? undefined) : undefined),
          nonInteractive: args.nonInteractive,
        }),
        env,
      ),
    fallbackProvider:
      providerName === "copilot" ? undefined : copilotFallback({ env, home, nonInteractive: args.nonInteractive }),
    askApproval: environment.askApproval,
    // Every submission, a non-interactive run's one too (seed 000 §1.2 step 3, invariant 12); but a reviewer
    // Marvin started itself (MARVIN_DEPTH above 0) must not take the user's notifications from their session.
    pollNotifications:
      nestingDepth(env) > 0
        ? undefined
        : (profile, signal) => pollSubscriptions(profile.ntfySubscriptions, env, signal),
  });

  // Listeners whose writes must finish before the process exits (Session.dispose waits for them).
  const auditPath = env.MARVIN_SUBAGENT_LOG?.trim();
  if (auditPath) session.subscribeDurable(createAuditLog(resolve(environment.cwd, auditPath), environment.notice));
  if (args.ntfy) session.subscribeDurable(createNtfyNotifier(args.ntfy, env, environment.notice));
  // Front ends subscribe after this returns: warnings from loading state go to `notice`.
  const forwardStartNotices = session.subscribe((event) => {
    if (event.type === "notice") environment.notice(event.text);
  });
  try {
    await session.start();
    if (stored) for (const notice of await session.resume(stored)) environment.notice(notice);
    else await extensions.hooks.emit({ type: "session.start" });
    // In the background: the language servers load the project while the model answers the first message.
    session.services.diagnostics.warmUp(session);
  } finally {
    forwardStartNotices();
  }
  extensions.connect({
    notice: (text) => session.notify(text),
    // A one-shot run ends with its answer: a message sent after it would never be answered.
    send: args.nonInteractive
      ? () => session.notify("A hook's send() is ignored in a non-interactive run.")
      : (text) => void session.submit(text),
  });
  return { session, providerName, extensions, customCommands: custom.commands };
}
