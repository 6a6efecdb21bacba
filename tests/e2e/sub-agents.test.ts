import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test as base, describe, expect } from "../support/fixtures.js";
import type { RecordedRequest, ScriptedReply } from "../support/llm-server.js";
import { killLeftovers, running, waitFor } from "../support/processes.js";
import { MARVIN_BIN, runMarvin, serverEnv } from "../support/run-marvin.js";

const test = base.extend<{
  /** `home`/project with a src/app.ts and one ticket. */
  project: string;
  /** Processes a failed test may have left running, killed afterwards. */
  leftovers: number[];
}>({
  project: async ({ home }, use) => {
    const project = join(home, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    mkdirSync(join(project, ".tickets"));
    writeFileSync(join(project, "src", "app.ts"), "export const answer = 41;\n");
    writeFileSync(
      join(project, ".tickets", "ab-1234.md"),
      "---\nid: ab-1234\nstatus: open\n---\n# Fix the answer\n\nThe answer must be 42.\n",
    );
    await use(project);
  },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern.
  leftovers: async ({}, use) => {
    const pids: number[] = [];
    await use(pids);
    killLeftovers(pids);
  },
});

/** The first user message of a request: the prompt the agent (parent or sub-agent) was started with. */
function firstPrompt(request: RecordedRequest): string {
  const content = request.body.messages.find((message) => message.role === "user")?.content ?? "";
  return content.replace(/^<context>\n[\s\S]*?\n<\/context>\n\n/, "");
}

const toolResults = (request: RecordedRequest) =>
  request.body.messages.filter((message) => message.role === "tool").map((message) => message.content ?? "");

const offered = (request: RecordedRequest) => request.body.tools?.map((tool) => tool.function.name) ?? [];

/** Answers each agent from its own script, chosen by the first word of its prompt. */
function byAgent(scripts: Record<string, ScriptedReply[]>): (request: RecordedRequest) => ScriptedReply {
  const counters: Record<string, number> = {};
  return (request) => {
    const agent = firstPrompt(request).split(/\s/)[0]!;
    const index = counters[agent] ?? 0;
    counters[agent] = index + 1;
    return scripts[agent]?.[index] ?? { status: 500, body: { error: { message: `unexpected request of ${agent}` } } };
  };
}

describe("launch_agent end to end", () => {
  test("runs two sub-agents at once, returns their answers and costs, and refuses a grandchild", async ({
    llm,
    home,
    project,
  }) => {
    let bothAsked: () => void = () => undefined;
    const bothChildrenAsked = new Promise((resolve) => (bothAsked = () => resolve(undefined)));
    const usage = { prompt: 2000, completion: 100 };
    const dispatch = byAgent({
      "PARENT:": [
        {
          toolCalls: [
            {
              name: "launch_agent",
              arguments: { prompt: "READER: what is the answer in src/app.ts?", read_only: true },
            },
            { name: "launch_agent", arguments: { prompt: "WRITER: fix it.", ticket_id: "1234", model: "big-model" } },
          ],
        },
        { text: "Both sub-agents reported." },
      ],
      // The reader waits for the writer's first request: run one after the other, it would wait for ever.
      "READER:": [
        {
          toolCalls: [{ name: "read_file", arguments: { path: "src/app.ts" } }],
          holdArguments: bothChildrenAsked,
          usage,
        },
        { text: "The answer is 41.", usage },
      ],
      "WRITER:": [
        {
          toolCalls: [{ name: "launch_agent", arguments: { prompt: "GRANDCHILD: help", read_only: true } }],
          usage,
        },
        { text: "I did not launch a helper; fixed it myself.", usage },
      ],
    });
    const server = await llm(
      Array.from({ length: 8 }, () => (request: RecordedRequest) => {
        const reply = dispatch(request);
        const agents = new Set(server.requests.map((seen) => firstPrompt(seen).split(/\s/)[0]));
        if (agents.has("READER:") && agents.has("WRITER:")) bothAsked();
        return reply;
      }),
    );
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "PARENT: check"], {
      env: serverEnv(server.url, home, { MARVIN_CODE_MODEL_HIGH: "gpt-4o", GH_TOKEN: "gh-secret" }),
      cwd: home,
      timeoutMs: 60_000,
    });
    expect(run.stderr).not.toContain("Error:");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("  🔧 launch_agent, launch_agent\nBoth sub-agents reported.\n");

    const requestsOf = (agent: string) => server.requests.filter((request) => firstPrompt(request).startsWith(agent));
    const [reader, writer, parent] = [requestsOf("READER:"), requestsOf("WRITER:"), requestsOf("PARENT:")];
    expect([reader.length, writer.length, parent.length]).toEqual([2, 2, 2]);
    // auto on a read-only agent: the high tier; a model named by the parent: that one.
    expect(reader[0]!.body.model).toBe("gpt-4o");
    expect(writer[0]!.body.model).toBe("big-model");
    expect(offered(reader[0]!)).not.toContain("run_command");
    expect(offered(writer[0]!)).toContain("run_command");
    expect(firstPrompt(writer[0]!)).toContain("Your task is ticket ab-1234. Its text:");
    expect(firstPrompt(writer[0]!)).toContain("The answer must be 42.");
    expect(toolResults(reader[1]!)[0]).toContain("export const answer = 41;");
    expect(toolResults(writer[1]!)[0]).toContain(
      "Not launching a sub-agent: this Marvin is itself a sub-agent (MARVIN_DEPTH=1)",
    );
    for (const request of [...reader, ...writer]) expect(request.headers.authorization).toBe("Bearer test-key");

    const [readerResult, writerResult] = toolResults(parent[1]!);
    expect(readerResult).toMatch(/^The sub-agent \(gpt-4o\) finished in \d+s, \$0\.\d{4}, 2 LLM turns\./);
    expect(readerResult).toContain("Its answer:\nThe answer is 41.");
    expect(readerResult).not.toContain("READER:");
    expect(writerResult).toMatch(/^The sub-agent \(big-model\) finished in \d+s, \$\d\.\d{4}, 2 LLM turns\./);
    expect(writerResult).toContain("Its answer:\nI did not launch a helper; fixed it myself.");
  });

  test("takes the seed's model names: codex is the low tier, opus the high tier", async ({ llm, home, project }) => {
    const dispatch = byAgent({
      "PARENT:": [
        {
          toolCalls: [
            { name: "launch_agent", arguments: { prompt: "CODER: look", read_only: true, model: "codex" } },
            { name: "launch_agent", arguments: { prompt: "REVIEWER: look", read_only: true, model: "opus" } },
          ],
        },
        { text: "Done." },
      ],
      "CODER:": [{ text: "Coded." }],
      "REVIEWER:": [{ text: "Reviewed." }],
    });
    const server = await llm(Array.from({ length: 4 }, () => dispatch));
    const tiers = { MARVIN_CODE_MODEL_LOW: "low-model", MARVIN_CODE_MODEL_HIGH: "high-model" };
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "PARENT: go"], {
      env: serverEnv(server.url, home, tiers),
      cwd: home,
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    const modelOf = (agent: string) =>
      server.requests.find((request) => firstPrompt(request).startsWith(agent))?.body.model;
    expect([modelOf("CODER:"), modelOf("REVIEWER:")]).toEqual(["low-model", "high-model"]);
  });

  test("Ctrl+C stops the sub-agent and everything it started, and the parent goes on", async ({
    llm,
    home,
    project,
    leftovers,
  }) => {
    const pidFile = join(project, "pids");
    const command =
      "echo $PPID >> pids; setsid sleep 300 > /dev/null 2>&1 & echo $! >> pids; echo $$ >> pids; exec sleep 301";
    const dispatch = byAgent({
      "PARENT:": [{ toolCalls: [{ name: "launch_agent", arguments: { prompt: "WORKER: run it" } }] }],
      "WORKER:": [{ toolCalls: [{ name: "run_command", arguments: { command, timeout: 600 } }] }],
    });
    const server = await llm(Array.from({ length: 4 }, () => dispatch));
    // Unsandboxed: inside the sandbox's own pid namespace the pids the command prints are not the host's.
    const parent = spawn(process.execPath, [MARVIN_BIN, "--plain", "--working-dir", project], {
      env: serverEnv(server.url, home, { MARVIN_SANDBOX: "off" }) as NodeJS.ProcessEnv,
      cwd: home,
    });
    leftovers.push(parent.pid!);
    let stdout = "";
    parent.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    const closed = new Promise<number | null>((resolve) => parent.on("close", resolve));
    const pids = () => {
      try {
        return readFileSync(pidFile, "utf8").trim().split("\n").filter(Boolean).map(Number);
      } catch {
        return [];
      }
    };
    parent.stdin.write("PARENT: go\ny\n");
    await waitFor(() => pids().length === 3, 30_000);
    leftovers.push(...pids());
    // The sub-agent's marvin, a process that left its command's group, and the command itself.
    expect(pids().every(running)).toBe(true);
    expect(stdout).toContain(
      "Run `a sub-agent on gpt-4o-mini in . (it may change files and run commands without asking): WORKER: run " +
        "it`? [y/N] y",
    );

    await waitFor(() => stdout.includes("  ⏳ launch_agent: sub-agent on gpt-4o-mini in .: started"));
    parent.kill("SIGINT");
    await waitFor(() => stdout.includes("[System] Stopped."), 10_000);
    await waitFor(() => !pids().some(running), 10_000);
    expect(running(parent.pid!)).toBe(true);
    parent.stdin.end();
    expect(await closed).toBe(0);
  });
});
