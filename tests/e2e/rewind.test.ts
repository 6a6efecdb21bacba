import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "../support/fixtures.js";
import { type LlmServer, type RecordedRequest, type Script, userWords } from "../support/llm-server.js";
import { runMarvin, serverEnv } from "../support/run-marvin.js";
import { TmuxMarvin } from "../support/tmux.js";

const sessionsDir = (home: string) => join(home, ".config", "local-finder", "profiles", "main", "sessions");

const edit = (path: string, from: string, to: string) => ({
  name: "apply_patch",
  arguments: { path, old_str: from, new_str: to },
});
const create = (path: string, content: string) => ({ name: "create_file", arguments: { path, content } });
const deletePatch = (path: string) => ({
  name: "apply_patch",
  arguments: { patch: `*** Begin Patch\n*** Delete File: ${path}\n*** End Patch` },
});

/** Three turns: each changes files (created, changed, deleted), then answers "Done N.". */
const THREE_TURNS: Script[] = [
  { toolCalls: [create("new/a.txt", "A1\n"), edit("keep.txt", "v1", "v2")] },
  { text: "Done 1." },
  { toolCalls: [edit("new/a.txt", "A1", "A2"), deletePatch("old.txt")] },
  { text: "Done 2." },
  { toolCalls: [edit("keep.txt", "v2", "v3"), create("b.txt", "B\n")] },
  { text: "Done 3." },
];

/** What the user said in a request to the model, in order. */
const userLines = (request: RecordedRequest) =>
  request.body.messages.filter((message) => message.role === "user").map((message) => userWords(message.content));

function plain(
  server: LlmServer,
  home: string,
  cwd: string,
  stdin: string,
  args: string[] = [],
  env: Record<string, string> = {},
) {
  return runMarvin(["--plain", ...args], { env: serverEnv(server.url, home, env), cwd, stdin });
}

function files(workspace: string): Record<string, string | undefined> {
  const read = (path: string) =>
    existsSync(join(workspace, path)) ? readFileSync(join(workspace, path), "utf8") : undefined;
  return {
    "keep.txt": read("keep.txt"),
    "old.txt": read("old.txt"),
    "new/a.txt": read("new/a.txt"),
    "b.txt": read("b.txt"),
  };
}

describe("rewind and undo in the plain UI", () => {
  test("undo keeps a file the user changed since, rewind restores files and conversation", async ({
    llm,
    home,
    workspace,
  }) => {
    writeFileSync(join(workspace, "keep.txt"), "v1\n");
    writeFileSync(join(workspace, "old.txt"), "old\n");
    const server = await llm([...THREE_TURNS, { text: "Back at one." }]);
    const stdin = [
      "!code",
      "make a",
      "change more",
      "third",
      "!printf 'mine\\n' > b.txt",
      "undo",
      "n",
      "rewind",
      "2",
      "b",
      "after rewind",
    ].join("\n");
    const run = await plain(server, home, workspace, `${stdin}\n`);
    expect(run.code, run.stderr).toBe(0);

    expect(run.stdout).toContain("Changed since Marvin wrote them: b.txt. Overwrite them with the earlier version");
    expect(run.stdout).toContain(
      'Undo: the file changes Marvin made answering your message "third".\n' +
        "Restored keep.txt.\nKept your changes to b.txt.",
    );
    expect(run.stdout).toMatch(/ 1\. make a · changed 2 files\n 2\. change more · changed 2 files\n 3\. third\n/);
    expect(run.stdout).toContain("what run_command and the git tools changed is not restored");
    expect(run.stdout).toContain('The conversation is back to before "change more".');
    expect(files(workspace)).toEqual({
      "keep.txt": "v2\n",
      "old.txt": "old\n",
      "new/a.txt": "A1\n",
      "b.txt": "mine\n",
    });
    expect(userLines(server.requests.at(-1)!)).toEqual(["make a", "after rewind"]);
  });

  test("undo leaves a file alone once a command swapped its folder for a link, and says why", async ({
    llm,
    home,
    workspace,
  }) => {
    const outside = join(home, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "a.txt"), "A\n");
    const swap = { name: "run_command", arguments: { command: `rm -r out && ln -s ${outside} out` } };
    const server = await llm([{ toolCalls: [create("out/a.txt", "A\n")] }, { toolCalls: [swap] }, { text: "Done." }]);
    const run = await plain(server, home, workspace, "!code\nmake out\nundo\n", [], { MARVIN_APPROVAL: "auto" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'Undo: the file changes Marvin made answering your message "make out".\n' +
        `Could not restore: ${workspace}/out/a.txt (${workspace}/out is now a link, which Marvin did not make: ` +
        "nothing is restored through it).",
    );
    expect(readFileSync(join(outside, "a.txt"), "utf8")).toBe("A\n");
  });

  test("rewind works after --continue: files back to before the first message, conversation empty", async ({
    llm,
    home,
    workspace,
  }) => {
    writeFileSync(join(workspace, "keep.txt"), "v1\n");
    writeFileSync(join(workspace, "old.txt"), "old\n");
    const server = await llm([...THREE_TURNS.slice(0, 4), { text: "Fresh start." }, { text: "Still fresh." }]);
    const first = await plain(server, home, workspace, "!code\nmake a\nchange more\n");
    expect(first.code, first.stderr).toBe(0);
    expect(files(workspace)).toEqual({
      "keep.txt": "v2\n",
      "old.txt": undefined,
      "new/a.txt": "A2\n",
      "b.txt": undefined,
    });
    const [id] = readdirSync(sessionsDir(home)).filter((name) => name.endsWith(".checkpoints"));
    expect(statSync(join(sessionsDir(home), id!)).mode & 0o777).toBe(0o700);
    expect(statSync(join(sessionsDir(home), id!, "index.json")).mode & 0o777).toBe(0o600);

    const second = await plain(server, home, workspace, "rewind\n1\nb\nhello\n", ["--continue"]);
    expect(second.code, second.stderr).toBe(0);
    expect(files(workspace)).toEqual({
      "keep.txt": "v1\n",
      "old.txt": "old\n",
      "new/a.txt": undefined,
      "b.txt": undefined,
    });
    expect(existsSync(join(workspace, "new"))).toBe(false);
    expect(userLines(server.requests.at(-1)!)).toEqual(["hello"]);

    const third = await plain(server, home, workspace, "and now?\n", ["--continue"]);
    expect(third.code, third.stderr).toBe(0);
    expect(userLines(server.requests.at(-1)!)).toEqual(["hello", "and now?"]);
  });
});

describe("rewind in the full-screen UI (tmux)", () => {
  test("asks at the prompt which message and what to restore, and restores the files", async ({
    llm,
    home,
    workspace,
  }) => {
    writeFileSync(join(workspace, "keep.txt"), "v1\n");
    writeFileSync(join(workspace, "old.txt"), "old\n");
    const server = await llm([...THREE_TURNS.slice(0, 4), { text: "Where were we?" }]);
    const first = await plain(server, home, workspace, "!code\nmake a\nchange more\n");
    expect(first.code, first.stderr).toBe(0);
    const env = { ...serverEnv(server.url, home), TERM: "xterm-256color" };
    const marvin = await TmuxMarvin.start({ env, args: ["--continue"], cwd: workspace });
    try {
      await marvin.waitFor("Resumed");
      await marvin.submit("rewind");
      await marvin.waitFor("Rewind to which message (number; Enter cancels)?");
      expect(await marvin.text()).toMatch(/ 1\. make a · changed 2 files\n 2\. change more · changed 2 files/);
      await marvin.submit("2");
      await marvin.waitFor("Restore [b]oth files and conversation");
      await marvin.submit("f");
      await marvin.waitFor("Restored old.txt, new/a.txt.");
      expect(files(workspace)).toEqual({
        "keep.txt": "v2\n",
        "old.txt": "old\n",
        "new/a.txt": "A1\n",
        "b.txt": undefined,
      });
      await marvin.submit("next");
      await marvin.waitFor("Where were we?");
      expect(userLines(server.requests.at(-1)!)).toEqual(["make a", "change more", "next"]);
    } finally {
      await marvin.kill();
    }
  });

  test("after the conversation is rewound, the removed messages leave the screen", async ({ llm, home, workspace }) => {
    const server = await llm([{ text: "Answer one." }, { text: "Answer two." }]);
    const env = { ...serverEnv(server.url, home), TERM: "xterm-256color" };
    const marvin = await TmuxMarvin.start({ env, cwd: workspace });
    try {
      await marvin.submit("first question");
      await marvin.waitFor("Answer one.");
      await marvin.submit("second question");
      await marvin.waitFor("Answer two.");
      await marvin.submit("rewind 2");
      await marvin.waitFor("Restore [b]oth files and conversation");
      await marvin.submit("c");
      const screen = await marvin.waitFor('The conversation is back to before "second question".');
      expect(screen).toContain("first question");
      expect(screen).toContain("Answer one.");
      expect(screen).not.toContain("Answer two.");
      expect(screen.replace('before "second question"', "")).not.toContain("second question");
    } finally {
      await marvin.kill();
    }
  });
});
