import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Env } from "../../shared/env.js";
import { resolveProviderConfig } from "../config.js";
import { ProviderError } from "../provider-error.js";
import type { ChatRequest } from "../types.js";
import { CopilotProvider, isCopilotUsable } from "./index.js";

const temporaryHomes: string[] = [];

async function emptyHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "marvin-copilot-home-"));
  temporaryHomes.push(home);
  return home;
}

async function writeHomeFile(home: string, relativePath: string, text: string): Promise<void> {
  const path = join(home, relativePath);
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text);
}

afterEach(async () => {
  await Promise.all(temporaryHomes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
});

/** An environment with no GitHub credentials at all, whose HOME is `home`. */
function credentialFreeEnv(home: string): Env {
  return { PATH: process.env.PATH, HOME: home };
}

function providerFor(env: Env, startupTimeoutMs?: number): CopilotProvider {
  const config = resolveProviderConfig("copilot", { env, home: env.HOME ?? "", codingMode: false, nonInteractive: false });
  return new CopilotProvider(config, { env, startupTimeoutMs });
}

function helloRequest(deltas: string[], signal?: AbortSignal): ChatRequest {
  return {
    messages: [
      { role: "system", content: "You are Marvin." },
      { role: "user", content: "Hello" },
    ],
    tools: [],
    onDelta: (text) => deltas.push(text),
    signal,
  };
}

async function rejectionOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe("isCopilotUsable", () => {
  it("is false with no token variables and an empty home", async () => {
    const home = await emptyHome();
    expect(await isCopilotUsable({}, home)).toBe(false);
  });

  it("is true when the GitHub CLI's hosts.yml holds an oauth_token", async () => {
    const home = await emptyHome();
    await writeHomeFile(home, ".config/gh/hosts.yml", "github.com:\n    user: octocat\n    oauth_token: gho_example\n");
    expect(await isCopilotUsable({}, home)).toBe(true);
  });

  it("is false when hosts.yml has no token (gh keeps it in the keyring)", async () => {
    const home = await emptyHome();
    await writeHomeFile(home, ".config/gh/hosts.yml", "github.com:\n    user: octocat\n    git_protocol: https\n");
    expect(await isCopilotUsable({}, home)).toBe(false);
  });

  it("is true when a token variable the runtime reads is set", async () => {
    const home = await emptyHome();
    for (const name of ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"]) {
      expect(await isCopilotUsable({ [name]: "gho_example" }, home)).toBe(true);
    }
    expect(await isCopilotUsable({ GH_TOKEN: "  " }, home)).toBe(false);
  });

  it("is true when the Copilot CLI's config lists a logged-in user, false for an empty list", async () => {
    const home = await emptyHome();
    await writeHomeFile(home, ".copilot/config.json", JSON.stringify({ loggedInUsers: [] }));
    expect(await isCopilotUsable({}, home)).toBe(false);
    const user = { host: "https://github.com", login: "octocat" };
    await writeHomeFile(home, ".copilot/config.json", JSON.stringify({ loggedInUsers: [user], lastLoggedInUser: user }));
    expect(await isCopilotUsable({}, home)).toBe(true);
  });

  it("is cheap", async () => {
    const home = await emptyHome();
    await isCopilotUsable({}, home);
    const started = performance.now();
    await isCopilotUsable({}, home);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe("CopilotProvider", () => {
  it("is named copilot and defaults to claude-haiku-4.5", () => {
    const provider = providerFor({ HOME: "/nonexistent" });
    expect(provider.name).toBe("copilot");
    expect(provider.model).toBe("claude-haiku-4.5");
  });

  it("rejects quickly, saying how to sign in, when no credentials exist", async () => {
    const home = await emptyHome();
    const provider = providerFor(credentialFreeEnv(home));
    const deltas: string[] = [];
    const started = Date.now();
    try {
      const error = await rejectionOf(provider.chat(helloRequest(deltas)));
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(["auth", "unavailable"]).toContain(error.kind);
      expect(error.provider).toBe("copilot");
      expect(error.message).toContain("gh auth login");
      expect(error.message).toMatch(/COPILOT_GITHUB_TOKEN|GH_TOKEN/);
      expect(deltas).toEqual([]);
    } finally {
      await provider.destroy();
    }
  }, 40_000);

  it("gives up on a runtime that does not start within the startup limit", async () => {
    const home = await emptyHome();
    const provider = providerFor(credentialFreeEnv(home), 1);
    try {
      const error = await rejectionOf(provider.chat(helloRequest([])));
      expect(error.kind).toBe("unavailable");
      expect(error.message).toMatch(/did not start within/);
      expect(error.message).toMatch(/--provider/);
    } finally {
      await provider.destroy();
    }
  }, 40_000);

  it("rejects as aborted when the signal fires while the runtime starts", async () => {
    const home = await emptyHome();
    const provider = providerFor(credentialFreeEnv(home));
    const controller = new AbortController();
    try {
      const pending = provider.chat(helloRequest([], controller.signal));
      controller.abort();
      expect((await rejectionOf(pending)).kind).toBe("aborted");
    } finally {
      await provider.destroy();
    }
  }, 40_000);

  it("rejects an already-aborted request without starting anything", async () => {
    const provider = providerFor(credentialFreeEnv(await emptyHome()));
    const controller = new AbortController();
    controller.abort();
    expect((await rejectionOf(provider.chat(helloRequest([], controller.signal)))).kind).toBe("aborted");
    await provider.destroy();
  });

  it("rejects a request without a user message as a bad request", async () => {
    const provider = providerFor(credentialFreeEnv(await emptyHome()));
    const request: ChatRequest = { messages: [{ role: "system", content: "You are Marvin." }], tools: [], onDelta: () => {} };
    expect((await rejectionOf(provider.chat(request))).kind).toBe("bad_request");
    await provider.destroy();
  });
});
