import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { CommandLayer } from "../../src/ui/commands/command-layer.js";
import type { CommandHost } from "../../src/ui/commands/types.js";
import { test as base } from "./fixtures.js";
import type { LlmServer, Script } from "./llm-server.js";
import type { ToolHarness } from "./tool-harness.js";

/** A host that keeps what the layer shows, as a UI would display it. */
export class RecordingHost implements CommandHost {
  readonly systemMessages: string[] = [];
  readonly submitted: string[] = [];
  /** Commands' output is captured, as when Marvin's stdin or stdout is not a terminal. */
  readonly terminal = false;
  shellText = "";
  terminalReleases = 0;
  stateChanges = 0;
  /** The lines that answer `ask`, in order (a question with none left is cancelled), and the questions asked. */
  readonly answers: string[] = [];
  readonly questions: string[] = [];

  system(text: string): void {
    this.systemMessages.push(text);
  }

  async ask(question: string): Promise<string | undefined> {
    this.questions.push(question);
    return this.answers.shift();
  }

  shellOutput(chunk: string): void {
    this.shellText += chunk;
  }

  async releaseTerminal<T>(run: () => Promise<T>): Promise<T> {
    this.terminalReleases += 1;
    return run();
  }

  messageSubmitted(text: string, via: "session" | "copilot" | "voice"): void {
    this.submitted.push(`${via}: ${text}`);
  }

  stateChanged(): void {
    this.stateChanges += 1;
  }

  get lastSystem(): string {
    return this.systemMessages.at(-1) ?? "";
  }
}

export interface LayerFixture {
  layer: CommandLayer;
  host: RecordingHost;
  harness: ToolHarness;
  server: LlmServer;
  env: Record<string, string | undefined>;
  home: string;
  /** The directory Marvin was started in (a real path). */
  cwd: string;
}

type OpenLayer = (
  script?: Script[],
  extraEnv?: Record<string, string | undefined>,
  workingDir?: string | null,
) => Promise<LayerFixture>;

/**
 * The shared fixtures and `openLayer(script, extraEnv, workingDir)`: a real session over a temp home,
 * talking to a scripted LLM server, with a command layer on top; all closed after the test.
 */
export const test = base.extend<{ openLayer: OpenLayer }>({
  openLayer: async ({ tempDirs, llm, harnesses }, use) => {
    const layers: CommandLayer[] = [];
    await use(async (script = [], extraEnv = {}, workingDir = null) => {
      const root = await tempDirs.make("marvin-commands-");
      const home = join(root, "home");
      const cwd = join(root, "cwd");
      await mkdir(home);
      await mkdir(cwd);
      const server = await llm(script);
      const env = {
        HOME: home,
        PATH: process.env.PATH,
        OPENAI_COMPAT_URL: server.url,
        OPENAI_COMPAT_API_KEY: "test-key",
        OPENAI_COMPAT_MODEL: "gpt-4o-mini",
        ...extraEnv,
      };
      const harness = await harnesses.open({ home, env, llmUrl: server.url, workingDir });
      const host = new RecordingHost();
      const layer = new CommandLayer({ session: harness.session, env, home, cwd, providerName: "openai-compat" }, host);
      layers.push(layer);
      return { layer, host, harness, server, env, home, cwd };
    });
    for (const layer of layers) await layer.close();
  },
});
