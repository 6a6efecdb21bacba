import { resolveProviderConfig } from "../providers/config.js";
import { listProviderModels } from "../providers/models/catalog.js";
import { HOW_TO_CONFIGURE, selectProvider } from "../providers/select.js";
import type { Env } from "../shared/env.js";
import { errorMessage } from "../shared/error-message.js";
import { modelListLines } from "../ui/commands/model-list.js";
import type { CliArgs } from "./args.js";
import { runSetup } from "./setup/run-setup.js";
import { SetupStopped, SetupTerminal } from "./setup/terminal.js";

interface Startup {
  env: Env;
  home: string;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/** `marvin models`: the models of the provider Marvin would use, numbered, the current one marked. */
export async function printModels(args: CliArgs, { env, home, stdout, stderr }: Startup): Promise<number> {
  const selection = await selectProvider(args.provider, env, home);
  if ("error" in selection) {
    stderr.write(`${selection.error}\n`);
    return 1;
  }
  const { provider } = selection;
  const current = resolveProviderConfig(provider, {
    env,
    home,
    codingMode: false,
    nonInteractive: false,
    model: args.model,
  });
  try {
    const models = await listProviderModels(provider, env, home);
    stdout.write(`Models of ${provider}:\n${modelListLines(provider, models, current.model).join("\n")}\n`);
    return 0;
  } catch (error) {
    stderr.write(`Could not list the models of ${provider}: ${errorMessage(error)}\n`);
    return 1;
  }
}

/** `marvin setup`, run on its own: 0 once a choice is saved, 1 when stopped or impossible. */
export async function setupCommand({ env, home, stdin, stdout, stderr }: Startup): Promise<number> {
  if (!stdin.isTTY) {
    stderr.write("marvin setup asks questions: run it in a terminal.\n");
    return 1;
  }
  try {
    await runSetup({ env, home, terminal: new SetupTerminal({ stdin, stdout }) });
    stdout.write("Run 'marvin' to start.\n");
    return 0;
  } catch (error) {
    if (!(error instanceof SetupStopped)) throw error;
    stdout.write("\nSetup stopped; nothing more was saved.\n");
    return 1;
  }
}

/**
 * The first interactive start with no provider configured offers `marvin setup` before the UI starts, and goes on
 * with what it saved; undefined when the person declines or stops it. Any other start keeps its environment.
 */
export async function offerSetup(args: CliArgs, startup: Startup): Promise<Env | undefined> {
  const { env, home, stdin, stdout } = startup;
  if (args.provider || env.LLM_PROVIDER?.trim() || !stdin.isTTY || !stdout.isTTY) return env;
  const selection = await selectProvider(undefined, env, home);
  if (!("error" in selection) || selection.error !== HOW_TO_CONFIGURE) return env;
  const terminal = new SetupTerminal({ stdin, stdout });
  try {
    terminal.say("No LLM provider is configured yet.");
    const answer = await terminal.ask("Set one up now with 'marvin setup'? [Y/n] ", "y");
    if (!/^y(es)?$/i.test(answer)) {
      terminal.say(`${HOW_TO_CONFIGURE}`);
      return undefined;
    }
    return await runSetup({ env, home, terminal });
  } catch (error) {
    if (!(error instanceof SetupStopped)) throw error;
    terminal.say("\nSetup stopped. Run 'marvin setup' when you are ready.");
    return undefined;
  }
}
