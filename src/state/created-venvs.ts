import { createHash } from "node:crypto";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { loadJsonFile, writeJsonAtomic } from "./atomic-file.js";

/**
 * What identifies one virtual environment Marvin created: the folder itself (device, inode and creation
 * time where the file system keeps one: no file in a project can forge them) and the start-up files of
 * its site-packages (`*.pth`, `sitecustomize.py`, `usercustomize.py`: Python runs them on every start)
 * as Marvin's last install left them.
 */
interface VenvIdentity {
  folder: string;
  startupFiles: string;
}

type VenvStore = Record<string, VenvIdentity>;

/** Whether a `.venv` is one Marvin created, and if so whether its start-up files are as Marvin left them. */
type VenvRecognition = "created" | "unknown" | "startup-files-changed";

const STARTUP_FILE = /^(?:.+\.pth|sitecustomize\.py|usercustomize\.py)$/;

function validate(raw: unknown): VenvStore | undefined {
  const venvs = (raw as { venvs?: unknown } | null)?.venvs;
  if (typeof venvs !== "object" || venvs === null || Array.isArray(venvs)) return undefined;
  const store: VenvStore = {};
  for (const [dir, entry] of Object.entries(venvs)) {
    const { folder, startupFiles } = (entry ?? {}) as Partial<VenvIdentity>;
    if (typeof folder === "string" && typeof startupFiles === "string") store[dir] = { folder, startupFiles };
  }
  return store;
}

async function folderIdentity(dir: string): Promise<string> {
  const info = await stat(dir, { bigint: true });
  return `${info.dev}:${info.ino}:${info.birthtimeNs}`;
}

/** A digest of every start-up file in the venv's site-packages folders, names and contents. */
async function startupFilesDigest(dir: string): Promise<string> {
  const hash = createHash("sha256");
  const lib = join(dir, "lib");
  const pythons = (await readdir(lib).catch(() => [])).filter((name) => name.startsWith("python")).sort();
  for (const python of pythons) {
    const sitePackages = join(lib, python, "site-packages");
    const names = (await readdir(sitePackages).catch(() => [])).filter((name) => STARTUP_FILE.test(name)).sort();
    for (const name of names) {
      const content = await readFile(join(sitePackages, name)).catch(() => Buffer.from("unreadable"));
      hash.update(`${python}/${name}\0${createHash("sha256").update(content).digest("hex")}\n`);
    }
  }
  return hash.digest("hex");
}

/**
 * The virtual environments install_packages created (`created_venvs.json` in the config root, which
 * sandboxed commands cannot write), by real path.
 */
export class CreatedVenvs {
  constructor(private readonly path: string) {}

  async recognise(dir: string): Promise<VenvRecognition> {
    const { value } = await loadJsonFile<VenvStore>(this.path, validate, () => ({}));
    const entry = value[await realpath(dir)];
    if (!entry || entry.folder !== (await folderIdentity(dir))) return "unknown";
    return entry.startupFiles === (await startupFilesDigest(dir)) ? "created" : "startup-files-changed";
  }

  /** Records `dir` as Marvin's, with its start-up files as they are now (after Marvin's own install). */
  async record(dir: string): Promise<void> {
    const { value } = await loadJsonFile<VenvStore>(this.path, validate, () => ({}));
    const identity = { folder: await folderIdentity(dir), startupFiles: await startupFilesDigest(dir) };
    await writeJsonAtomic(this.path, { venvs: { ...value, [await realpath(dir)]: identity } });
  }
}
