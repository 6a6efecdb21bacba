import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { type LlmServer, type Script, userWords } from "../support/llm-server.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";

const configDir = (home: string) => join(home, ".config", "local-finder");

function writeConfigFile(home: string, relative: string, text: string): void {
  const path = join(configDir(home), relative);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

/** Blocks `rm` in run_command, rewrites run_command's result, and logs every event it hears. */
const GUARD_HOOK = `
import { appendFileSync } from "node:fs";
import { join } from "node:path";
export default function (marvin) {
  const log = (line) => appendFileSync(join(marvin.configDir, "events.log"), line + "\\n");
  const events = ["app.start", "session.start", "agent.start", "turn.start", "turn.end", "agent.end"];
  for (const name of events) marvin.on(name, () => log(name));
  marvin.on("app.start", async () => log("exec " + (await marvin.exec("echo", ["from", "exec"])).stdout.trim()));
  marvin.on("tool.execute.before", (event) => {
    log("before " + event.tool);
    if (event.tool === "run_command" && event.arguments.command.startsWith("rm "))
      return { block: true, reason: "deleting files is not allowed here" };
  });
  marvin.on("tool.execute.after", (event) => {
    if (event.tool === "run_command") return { result: event.result + "\\n[checked by guard]" };
  });
}
`;

/** Throws when asked about a.txt: the check cannot decide. */
const THROWING_HOOK = `
export default function (marvin) {
  marvin.on("tool.execute.before", (event) => {
    if (event.tool === "create_file" && event.arguments.path === "a.txt") throw new Error("the policy file is missing");
  });
}
`;

/** exit 2 blocks `rm`; an after-hook answers with JSON that replaces the result. */
const COMMAND_HOOKS = {
  hooks: {
    "tool.execute.before": [
      {
        matcher: "run_command",
        command: `input=$(cat); case "$input" in *'"command":"rm '*) echo "rm is off limits" >&2; exit 2;; esac`,
      },
    ],
    PostToolUse: [
      { matcher: "run_command", hooks: [{ type: "command", command: `echo '{"result": "(rewritten)"}'` }] },
    ],
  },
};

/** Checks of create_file that cannot decide: one exits 1, one is killed, one hangs past its 1 s. */
const FAILING_COMMAND_HOOKS = {
  hooks: {
    "tool.execute.before": [
      { matcher: "create_file", command: `grep -qF b.txt && { echo "policy server down" >&2; exit 1; }; exit 0` },
      { matcher: "create_file", command: `grep -qF c.txt && kill -9 $$; exit 0` },
      { matcher: "create_file", command: `grep -qF d.txt && sleep 30; exit 0`, timeout: 1 },
    ],
  },
};

function toolResults(body: { messages: Array<{ role: string; content: unknown }> }): string[] {
  return body.messages.filter((message) => message.role === "tool").map((message) => String(message.content));
}

/** The model asks for `rm keep.txt`, then `echo hello`; returns both results, and checks the file survived. */
async function tidyUp(home: string, workspace: string, llm: (script: Script[]) => Promise<LlmServer>) {
  writeFileSync(join(workspace, "keep.txt"), "precious");
  const server = await llm([
    {
      toolCalls: [
        { name: "run_command", arguments: { command: "rm keep.txt" } },
        { name: "run_command", arguments: { command: "echo hello" } },
      ],
    },
    { text: "Done." },
  ]);
  const run = await runMarvin(["--non-interactive", "--working-dir", workspace, "--prompt", "tidy up"], {
    env: serverEnv(server.url, home),
    cwd: workspace,
  });
  expect(run.code, run.stderr).toBe(0);
  expect(existsSync(join(workspace, "keep.txt"))).toBe(true);
  const [blocked, echoed] = toolResults(server.requests[1]!.body);
  return { run, blocked, echoed };
}

describe("hooks in the built CLI", () => {
  test("a module hook blocks run_command, rewrites a result, hears every event", async ({ home, workspace, llm }) => {
    writeConfigFile(home, "hooks/guard.mjs", GUARD_HOOK);
    const { blocked, echoed } = await tidyUp(home, workspace, llm);
    expect(blocked).toBe("run_command was blocked by a hook (hook guard.mjs): deleting files is not allowed here");
    expect(echoed).toMatch(/hello[\s\S]*\n\[checked by guard\]$/);
    const events = readFileSync(join(configDir(home), "events.log"), "utf8")
      .trim()
      .split("\n");
    expect(events.slice(0, 4)).toEqual(["app.start", "exec from exec", "session.start", "agent.start"]);
    expect(events.slice(4)).toEqual([
      "turn.start",
      "before run_command",
      "before run_command",
      "turn.end",
      "turn.start",
      "turn.end",
      "agent.end",
    ]);
  });

  test("command hooks: exit 2 blocks with stderr, JSON rewrites", async ({ home, workspace, llm }) => {
    writeConfigFile(home, "hooks.json", JSON.stringify(COMMAND_HOOKS));
    const { blocked, echoed } = await tidyUp(home, workspace, llm);
    expect(blocked).toMatch(/^run_command was blocked by a hook \(command hook `input=.*`\): rm is off limits$/);
    expect(echoed).toBe("(rewritten)");
  });

  test("a tool.execute.before hook that throws, fails, crashes or hangs blocks the call (fail closed)", async ({
    home,
    workspace,
    llm,
  }) => {
    writeConfigFile(home, "hooks/policy.mjs", THROWING_HOOK);
    writeConfigFile(home, "hooks.json", JSON.stringify(FAILING_COMMAND_HOOKS));
    const files = ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"];
    const server = await llm([
      { toolCalls: files.map((path) => ({ name: "create_file", arguments: { path, content: "x" } })) },
      { text: "Done." },
    ]);
    const run = await runMarvin(["--non-interactive", "--working-dir", workspace, "--prompt", "make files"], {
      env: serverEnv(server.url, home),
      cwd: workspace,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(files.filter((path) => existsSync(join(workspace, path)))).toEqual(["e.txt"]);
    const [thrown, failed, crashed, hung, created] = toolResults(server.requests[1]!.body);
    const blocked = "create_file was blocked: its check, the";
    expect(thrown).toContain(`${blocked} hook policy.mjs, failed: the policy file is missing.`);
    expect(failed).toMatch(
      /^create_file was blocked: its check, the command hook `.*b\.txt.*`, failed: exited with code 1: policy server down\./,
    );
    expect(crashed).toMatch(
      /^create_file was blocked: its check, the command hook `.*c\.txt.*`, failed: exited with code \(killed\)\./,
    );
    expect(hung).toMatch(
      /^create_file was blocked: its check, the command hook `.*d\.txt.*`, failed: did not finish within 1 s and was stopped\./,
    );
    for (const result of [thrown, failed, crashed, hung]) expect(result).toContain("tell the user");
    expect(created).toContain("e.txt");
    expect(run.stderr).toContain(
      "The hook policy.mjs on tool.execute.before failed: the policy file is missing; " +
        "the create_file call was blocked.",
    );
  });

  test("an edit's diff reaches tool.execute.after hooks and --output jsonl, never the model", async ({
    home,
    workspace,
    llm,
  }) => {
    writeFileSync(join(workspace, "a.txt"), "alpha\nbeta\n");
    const heard = join(home, "after.json");
    const hooks = { hooks: { "tool.execute.after": [{ matcher: "apply_patch", command: `cat > '${heard}'` }] } };
    writeConfigFile(home, "hooks.json", JSON.stringify(hooks));
    const edit = { path: "a.txt", old_str: "beta", new_str: "BETA" };
    const server = await llm([{ toolCalls: [{ name: "apply_patch", arguments: edit }] }, { text: "Done." }]);
    const args = ["--non-interactive", "--working-dir", workspace, "--output", "jsonl", "--prompt", "shout beta"];
    const run = await runMarvin(args, { env: serverEnv(server.url, home), cwd: workspace });
    expect(run.code, run.stderr).toBe(0);
    const diff = "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+BETA\n";
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.find((event) => event.type === "tool_end")).toMatchObject({ name: "apply_patch", details: { diff } });
    expect(JSON.parse(readFileSync(heard, "utf8"))).toMatchObject({ type: "tool.execute.after", details: { diff } });
    expect(toolResults(server.requests[1]!.body)[0]).not.toContain("+++");
  });
});

/** A zod tool from the `{ z }` Marvin hands in, and a JSON-Schema tool that writes. */
const CUSTOM_TOOLS = `
export default ({ z }) => [
  {
    name: "shout",
    description: "Say the text loudly.",
    parameters: z.object({ text: z.string().describe("What to shout") }),
    effect: "read",
    handler: async ({ text }, context) => text.toUpperCase() + "! (from " + context.home + ")",
  },
  {
    name: "add_numbers",
    description: "Add two numbers.",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    handler: ({ a, b }) => String(a + b),
  },
];
`;

/** A custom tool that shells out through ctx.exec. */
const TOUCHING_TOOL = `
export default ({ z }) => ({
  name: "touch_file",
  description: "Create an empty file, and show the environment it was created with.",
  parameters: z.object({ path: z.string() }),
  handler: async ({ path }, ctx) => {
    const touched = await ctx.exec("touch", [path]);
    const env = await ctx.exec("env", []);
    return JSON.stringify({ touched, env: env.stdout });
  },
});
`;

describe("custom tools and commands in the built CLI", () => {
  test("a custom tool's ctx.exec runs in the sandbox, without credentials", async ({ home, llm }) => {
    writeConfigFile(home, "tools/touch.mjs", TOUCHING_TOOL);
    const project = join(home, "project");
    mkdirSync(project);
    const server = await llm([
      {
        toolCalls: [
          { name: "touch_file", arguments: { path: "inside.txt" } },
          { name: "touch_file", arguments: { path: "../beside.txt" } },
        ],
      },
      { text: "Done." },
    ]);
    const run = await runMarvin(["--non-interactive", "--working-dir", project, "--prompt", "touch"], {
      env: serverEnv(server.url, home),
      cwd: home,
    });
    expect(run.code, run.stderr).toBe(0);
    const [inside, beside] = toolResults(server.requests[1]!.body).map((result) => JSON.parse(result));
    expect(inside.touched).toMatchObject({ exitCode: 0, stderr: "", timedOut: false });
    expect(existsSync(join(project, "inside.txt"))).toBe(true);
    expect(beside.touched.exitCode).toBe(1);
    expect(beside.touched.stderr).toContain("Read-only file system");
    expect(beside.touched.sandbox).toMatch(/^Sandbox: only \S+ and \$TMPDIR are writable/);
    expect(existsSync(join(home, "beside.txt"))).toBe(false);
    expect(inside.env).toContain(`HOME=${home}`);
    expect(inside.env).toMatch(/\nTMPDIR=\S*marvin-sandbox-/);
    expect(inside.env).not.toContain("test-key");
  });

  test("custom tools are offered, validated and called like built-ins", async ({ home, llm }) => {
    writeConfigFile(home, "tools/mine.mjs", CUSTOM_TOOLS);
    writeConfigFile(home, "tools/broken.mjs", "export default { name: 'no spaces allowed' };");
    const server = await llm([
      {
        toolCalls: [
          { name: "shout", arguments: { text: "hello" } },
          { name: "add_numbers", arguments: { a: 2, b: "40" } },
          { name: "add_numbers", arguments: { a: "two" } },
        ],
      },
      { text: "Done." },
    ]);
    const run = await runMarvin(["--non-interactive", "--prompt", "go"], {
      env: serverEnv(server.url, home),
      cwd: home,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("Custom tool broken.mjs was not loaded: its name must be 1-64 letters");
    // Offered once the model called a custom tool: the family "custom" is loaded by the call.
    const shout = server.requests[1]!.body.tools!.find((tool) => tool.function.name === "shout");
    expect(shout?.function.parameters).toMatchObject({ properties: { text: { description: "What to shout" } } });
    const [shouted, sum, invalid] = toolResults(server.requests[1]!.body);
    expect(shouted).toBe(`HELLO! (from ${home})`);
    expect(sum).toBe("42");
    expect(invalid).toMatch(/^Validation error for add_numbers:\n {2}- a: /);
    expect(invalid).toContain("- b: required");

    const readOnly = await llm([{ text: "ok" }]);
    const env = serverEnv(readOnly.url, home, { MARVIN_READONLY: "1" });
    expect((await runMarvin(["--non-interactive", "--prompt", "go"], { env, cwd: home })).code).toBe(0);
    const loadable = readOnly.requests[0]!.body.tools!.find((tool) => tool.function.name === "load_tools");
    expect(loadable?.function.description).toMatch(/^- custom: the user's own custom tools \(shout\)$/m);
  });

  test("a custom command expands in the plain UI and is listed in help", async ({ home, llm }) => {
    writeConfigFile(
      home,
      "commands/review.md",
      "---\ndescription: Review a file for bugs\n---\nReview $ARGUMENTS for bugs.\n",
    );
    const server = await llm([{ text: "Looks fine." }]);
    const run = await runMarvin(["--plain"], {
      env: serverEnv(server.url, home),
      cwd: home,
      stdin: "help\n/review src/main.ts\n",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Custom commands:\n {2}\/review +Review a file for bugs/);
    expect(userWords(server.requests[0]!.body.messages.at(-1)!.content)).toBe("Review src/main.ts for bugs.");
    expect(run.stdout).toContain("Looks fine.");
  });
});
