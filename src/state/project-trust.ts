import { createHash } from "node:crypto";
import { loadJsonFile, writeJsonAtomic } from "./atomic-file.js";

/** One trusted project: the content of its `.marvin/mcp.json` when the user looked at it. */
interface TrustEntry {
  sha256: string;
  trustedAt: string;
}

type TrustStore = Record<string, TrustEntry>;

/** Whether a project's configuration may be used: trusted as it is, never trusted, or changed since. */
type TrustState = "trusted" | "untrusted" | "changed";

function contentDigest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function validate(raw: unknown): TrustStore | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const projects = (raw as { projects?: unknown }).projects;
  if (typeof projects !== "object" || projects === null || Array.isArray(projects)) return undefined;
  const store: TrustStore = {};
  for (const [dir, entry] of Object.entries(projects)) {
    const { sha256, trustedAt } = (entry ?? {}) as Partial<TrustEntry>;
    if (typeof sha256 === "string") store[dir] = { sha256, trustedAt: String(trustedAt ?? "") };
  }
  return store;
}

/**
 * Which projects may start programs from their own configuration (`trusted_projects.json` in the
 * config root). Trust is given to one directory and one version of its `.marvin/mcp.json`: a
 * changed file (a `git pull`) is not trusted until the user looks again.
 */
export class ProjectTrust {
  constructor(private readonly path: string) {}

  async state(projectDir: string, configText: string): Promise<{ state: TrustState; warning?: string }> {
    const loaded = await loadJsonFile<TrustStore>(this.path, validate, () => ({}));
    const entry = loaded.value[projectDir];
    const state = !entry ? "untrusted" : entry.sha256 === contentDigest(configText) ? "trusted" : "changed";
    return { state, ...(loaded.warning ? { warning: loaded.warning } : {}) };
  }

  async trust(projectDir: string, configText: string, now = new Date()): Promise<void> {
    const loaded = await loadJsonFile<TrustStore>(this.path, validate, () => ({}));
    const projects = {
      ...loaded.value,
      [projectDir]: { sha256: contentDigest(configText), trustedAt: now.toISOString() },
    };
    await writeJsonAtomic(this.path, { projects });
  }
}
