import { describe, expect, it } from "vitest";
import { errorMessage } from "../shared/error-message.js";
import { type CliArgs, HELP, parseCliArgs, USAGE, UsageError } from "./args.js";

const DEFAULTS: CliArgs = {
  nonInteractive: false,
  prompt: undefined,
  workingDir: undefined,
  provider: undefined,
  model: undefined,
  plain: false,
  curses: false,
  ntfy: undefined,
  output: "text",
  continueLatest: false,
  help: false,
  version: false,
};

function usageError(argv: string[]): string {
  try {
    parseCliArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const message = errorMessage(error);
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error(`expected a UsageError for ${JSON.stringify(argv)}`);
}

describe("parseCliArgs", () => {
  it("defaults to the interactive UI with no prompt", () => {
    expect(parseCliArgs([])).toEqual(DEFAULTS);
  });

  it("reads every flag", () => {
    const argv = [
      "--non-interactive",
      "--prompt",
      "fix the test",
      "--working-dir",
      "/tmp/app",
      "--provider",
      "groq",
      "--model",
      "llama-3.1-8b-instant",
      "--plain",
      "--ntfy",
      "my-topic",
      "--output",
      "jsonl",
    ];
    expect(parseCliArgs(argv)).toEqual({
      ...DEFAULTS,
      nonInteractive: true,
      prompt: "fix the test",
      workingDir: "/tmp/app",
      provider: "groq",
      model: "llama-3.1-8b-instant",
      plain: true,
      ntfy: "my-topic",
      output: "jsonl",
    });
    expect(parseCliArgs(["--curses"])).toEqual({ ...DEFAULTS, curses: true });
    expect(parseCliArgs(["--non-interactive", "--output", "text"]).output).toBe("text");
  });

  it("reads the short forms and --flag=value", () => {
    expect(parseCliArgs(["-p", "hi"]).prompt).toBe("hi");
    expect(parseCliArgs(["--prompt=-5 degrees?"]).prompt).toBe("-5 degrees?");
    expect(parseCliArgs(["-h"]).help).toBe(true);
    expect(parseCliArgs(["--help"]).help).toBe(true);
    expect(parseCliArgs(["-v"]).version).toBe(true);
    expect(parseCliArgs(["--version"]).version).toBe(true);
  });

  it("accepts every provider, in any case", () => {
    for (const name of ["copilot", "anthropic", "gemini", "groq", "openai", "ollama", "openai-compat"])
      expect(parseCliArgs(["--provider", name]).provider).toBe(name);
    expect(parseCliArgs(["--provider", "OpenAI"]).provider).toBe("openai");
  });

  it("reads 'setup' and 'models' alone as commands, and as prompts with more words or a one-shot run", () => {
    expect(parseCliArgs(["setup"])).toEqual({ ...DEFAULTS, command: "setup" });
    expect(parseCliArgs(["models", "--provider", "groq"])).toEqual({
      ...DEFAULTS,
      command: "models",
      provider: "groq",
    });
    expect(parseCliArgs(["models", "of", "cars"])).toEqual({ ...DEFAULTS, prompt: "models of cars" });
    expect(parseCliArgs(["--non-interactive", "setup"])).toEqual({
      ...DEFAULTS,
      nonInteractive: true,
      prompt: "setup",
    });
    expect(HELP).toContain("marvin setup ");
    expect(HELP).toContain("marvin models ");
  });

  it("takes a positional prompt, joining its words", () => {
    expect(parseCliArgs(["What's", "the", "weather?"]).prompt).toBe("What's the weather?");
    expect(parseCliArgs(["--plain", "What's the weather in Tokyo?"])).toEqual({
      ...DEFAULTS,
      plain: true,
      prompt: "What's the weather in Tokyo?",
    });
    expect(parseCliArgs(["--", "--not-a-flag"]).prompt).toBe("--not-a-flag");
  });
});

describe("usage errors: one line saying what is wrong", () => {
  it("rejects unknown flags", () => {
    expect(usageError(["--frobnicate"])).toBe("unknown option '--frobnicate'");
    expect(usageError(["-x"])).toBe("unknown option '-x'");
  });

  it("rejects a flag without its value", () => {
    expect(usageError(["--prompt"])).toBe("option '-p, --prompt <value>' argument missing");
    expect(usageError(["--working-dir"])).toBe("option '--working-dir <value>' argument missing");
    expect(usageError(["-p", "--plain"])).toBe("option '-p' argument is ambiguous");
  });

  it("rejects a value given to a switch", () => {
    expect(usageError(["--plain=yes"])).toBe("option '--plain' does not take an argument");
  });

  it("rejects bad values", () => {
    expect(usageError(["--provider", "claude"])).toBe(
      "invalid value 'claude' for --provider (expected one of: copilot, anthropic, gemini, groq, mistral, openai, " +
        "openrouter, codex, ollama, openai-compat)",
    );
    expect(usageError(["--non-interactive", "--output", "xml"])).toBe(
      "invalid value 'xml' for --output (expected one of: text, jsonl)",
    );
    expect(usageError(["--model", " "])).toBe("--model needs a non-empty value");
    expect(usageError(["--working-dir", ""])).toBe("--working-dir needs a non-empty value");
    expect(usageError(["--ntfy", ""])).toBe("--ntfy needs a non-empty value");
  });

  it("rejects contradictory flags", () => {
    expect(usageError(["--plain", "--curses"])).toBe("--plain and --curses cannot be used together");
    expect(usageError(["--prompt", "a", "b"])).toBe("give the prompt either with --prompt or as an argument, not both");
    expect(usageError(["--output", "jsonl", "-p", "hi"])).toBe(
      "--output is for non-interactive runs: add --non-interactive",
    );
  });
});

describe("help text", () => {
  it("lists every flag", () => {
    for (const flag of [
      "--non-interactive",
      "-p, --prompt",
      "--working-dir",
      "--provider",
      "--model",
      "--plain",
      "--curses",
      "--ntfy",
      "--output",
      "-h, --help",
      "-v, --version",
    ]) {
      expect(HELP).toContain(flag);
    }
    expect(USAGE.split("\n")[0]).toBe("Usage: marvin [options] [prompt]");
  });

  it("says how Marvin picks the provider when none is named, not that Copilot is always the default", () => {
    const help = HELP.replace(/\n +/g, " ");
    expect(help).toContain(
      "(default: $LLM_PROVIDER, else Copilot when signed in, else the one provider whose key is set " +
        "or whose local server answers)",
    );
  });
});

describe("parseCliArgs: continuing conversations", () => {
  it("takes --continue, -c, --resume with or without an id, and --session ID", () => {
    expect(parseCliArgs(["--continue"]).continueLatest).toBe(true);
    expect(parseCliArgs(["-c", "--plain"])).toMatchObject({ continueLatest: true, plain: true });
    expect(parseCliArgs(["--resume"]).resume).toBe("");
    expect(parseCliArgs(["--resume", "--plain"])).toMatchObject({ resume: "", plain: true });
    expect(parseCliArgs(["--resume", "20261124-1405"]).resume).toBe("20261124-1405");
    expect(parseCliArgs(["--non-interactive", "--session", "build-42", "-p", "hi"]).session).toBe("build-42");
  });

  it("refuses unsafe session ids and more than one way of continuing", () => {
    expect(usageError(["--session", "../../etc/passwd"])).toBe(
      "--session ../../etc/passwd: use letters, digits, '.', '_' and '-' (up to 100 characters)",
    );
    expect(usageError(["--continue", "--session", "x"])).toBe("use only one of --continue, --resume and --session");
    expect(usageError(["--non-interactive", "--continue", "-p", "hi"])).toBe(
      "--continue and --resume are interactive; a non-interactive run continues with --session ID",
    );
  });
});
