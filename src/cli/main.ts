import module from "node:module";
import { homedir } from "node:os";
import { setFlagsFromString } from "node:v8";
import { errorMessage } from "../shared/error-message.js";
import { marvinVersion } from "../shared/version.js";
import { type CliArgs, HELP, parseCliArgs, USAGE, UsageError } from "./args.js";

const EMPTY_COST_LINE =
  'MARVIN_COST:{"session_cost":0,"llm_turns":0,"model_turns":{},"model_cost":{},' +
  '"input_tokens":{},"output_tokens":{},"cached_tokens":{},"tool_calls":{}}';

function onInterrupt(handler: () => void): () => void {
  let count = 0;
  const listener = () => {
    count += 1;
    if (count === 1) handler();
    else process.exit(1);
  };
  // SIGHUP too: a run in a terminal that closes still ends as it should (usage.json, the cost line).
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  for (const signal of signals) process.on(signal, listener);
  return () => {
    for (const signal of signals) process.off(signal, listener);
  };
}

/** Node ≥ 22.1 can keep compiled code between runs; on Node 20 this is a no-op. */
function enableCompileCache(): void {
  const withCache = module as typeof module & { enableCompileCache?: () => unknown };
  try {
    withCache.enableCompileCache?.();
  } catch {
    // An unwritable cache directory only costs speed.
  }
}

/** `marvin login PROVIDER`: a sign-in of its own, outside any session. */
async function login(provider: string | undefined): Promise<number> {
  if (provider !== "codex") {
    process.stderr.write(`marvin: 'marvin login' signs in to: codex (your ChatGPT plan). Usage: marvin login codex\n`);
    return 1;
  }
  const { loginCodex } = await import("../providers/codex/login.js");
  return loginCodex({ env: process.env, home: homedir(), out: process.stderr, input: process.stdin });
}

async function main(argv: string[]): Promise<number> {
  enableCompileCache();
  if (argv[0] === "login" && argv.length <= 2) return login(argv[1]);
  const nonInteractive = argv.includes("--non-interactive");
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`marvin: ${error.message}\n${USAGE}\n`);
    if (nonInteractive) process.stderr.write(`${EMPTY_COST_LINE}\n`);
    return 1;
  }
  if (args.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`marvin ${marvinVersion()}\n`);
    return 0;
  }
  // A one-shot run exits right after its request; without this V8 first finishes optimising
  // the HTTP parser's WebAssembly in the background, which delays the exit by ~150 ms.
  if (args.nonInteractive) setFlagsFromString("--liftoff-only");
  const home = homedir();
  const { environmentWithChoice } = await import("./saved-choice-env.js");
  const warn = (text: string) => process.stderr.write(`${text}\n`);
  let env = await environmentWithChoice(process.env, home, warn);
  const streams = { env, home, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  if (!args.nonInteractive) {
    const startup = await import("./startup-commands.js");
    if (args.command === "models") return startup.printModels(args, streams);
    if (args.command === "setup") return startup.setupCommand(streams);
    const ready = await startup.offerSetup(args, streams);
    if (!ready) return 1;
    env = ready;
  }
  const environment = { env, home, cwd: process.cwd() };
  const { sessionStarter } = await import("./build-session.js");
  const startSession = sessionStarter(args, environment);
  if (args.nonInteractive) {
    const { runNonInteractive } = await import("../ui/headless/run.js");
    const io = {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      version: marvinVersion(),
      onInterrupt,
    };
    return runNonInteractive(args, io, startSession);
  }
  const { runInteractive } = await import("../ui/interactive.js");
  return runInteractive(args, environment, startSession);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`Error: ${errorMessage(error)}\n`);
    if (process.argv.includes("--non-interactive")) process.stderr.write(`${EMPTY_COST_LINE}\n`);
    process.exit(1);
  },
);
