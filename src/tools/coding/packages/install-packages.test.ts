import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import { sendText } from "../../../../tests/support/local-http-server.js";
import type { ToolHarness, ToolHarnessOptions } from "../../../../tests/support/tool-harness.js";

/** Writes `<name>-1.0-py3-none-any.whl` into `dir`: a module `<name>` with `VALUE = <value>`, no dependencies. */
const WHEEL_BUILDER = `
import base64, hashlib, sys, zipfile
dir, name, value = sys.argv[1:4]
info = f"{name}-1.0.dist-info"
files = {
    f"{name}/__init__.py": f"VALUE = {value!r}\\n",
    f"{info}/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: 1.0\\n",
    f"{info}/WHEEL": "Wheel-Version: 1.0\\nGenerator: marvin-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
def digest(text):
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
record = "".join(f"{path},sha256={digest(text)},{len(text.encode())}\\n" for path, text in files.items())
with zipfile.ZipFile(f"{dir}/{name}-1.0-py3-none-any.whl", "w") as wheel:
    for path, text in files.items():
        wheel.writestr(path, text)
    wheel.writestr(f"{info}/RECORD", record + f"{info}/RECORD,,\\n")
`;

/** A project built by its own PEP 517 backend, which needs nothing from an index. */
const BUILD_ME_PYPROJECT = `[build-system]
requires = []
build-backend = "backend"
backend-path = ["."]
`;

/** The backend: writes BUILT in its folder saying what writing to `beside` did, then the wheel of `buildme`. */
const buildMeBackend = (beside: string) => `
import base64, hashlib, os, zipfile
def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        open(${JSON.stringify(beside)}, "w").write("escaped")
        outcome = "written"
    except OSError as error:
        outcome = f"OSError [Errno {error.errno}] {error.strerror}"
    open(os.path.join(here, "BUILT"), "w").write("beside: " + outcome)
    info = "buildme-1.0.dist-info"
    files = {
        "buildme/__init__.py": "",
        f"{info}/METADATA": "Metadata-Version: 2.1\\nName: buildme\\nVersion: 1.0\\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\\nGenerator: marvin-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
    }
    def digest(text):
        return base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
    name = "buildme-1.0-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w") as wheel:
        for path, text in files.items():
            wheel.writestr(path, text)
        record = "".join(f"{path},sha256={digest(text)},{len(text.encode())}\\n" for path, text in files.items())
        wheel.writestr(f"{info}/RECORD", record + f"{info}/RECORD,,\\n")
    return name
`;

const test = base.extend<{
  /** The working dir: a project with its wheels in dist/. */
  project: string;
  /** A coding session in `project`; pip may not reach any index. */
  harness: (options?: Partial<ToolHarnessOptions>) => Promise<ToolHarness>;
}>({
  project: async ({ tempDirs }, use) => {
    const project = await tempDirs.make("marvin-packages-");
    await mkdir(join(project, "dist"));
    for (const [name, value] of [
      ["tinypkg", "first"],
      ["otherpkg", "second"],
    ])
      execFileSync("python3", ["-c", WHEEL_BUILDER, join(project, "dist"), name!, value!]);
    await use(project);
  },
  harness: async ({ harnesses, project, tempDirs }, use) => {
    const home = await tempDirs.make("marvin-home-");
    await use((options = {}) =>
      harnesses.open({
        home,
        workingDir: project,
        codingMode: true,
        ...options,
        env: { PIP_NO_INDEX: "1", ...options.env },
      }),
    );
  },
});

const venvPython = (project: string, code: string) =>
  execFileSync(join(project, ".venv", "bin", "python"), ["-c", code], { encoding: "utf8" }).trim();

describe("install_packages", () => {
  test("creates .venv and installs a local wheel; repository files cannot take over pip or venv", async ({
    harness,
    project,
  }) => {
    // Found first on sys.path if Python ran `-m venv` or `-m pip` from the working dir without -I.
    for (const module of ["venv", "pip"]) {
      await mkdir(join(project, module));
      await writeFile(join(project, module, "__init__.py"), "open('HIJACKED', 'w').write('ran')\n");
      await writeFile(join(project, module, "__main__.py"), "open('HIJACKED', 'w').write('ran')\n");
    }
    const asked: string[] = [];
    const tools = await harness({
      askApproval: async (question) => {
        asked.push(question.text);
        return "yes";
      },
    });
    const result = await tools.ok("install_packages", { packages: ["./dist/tinypkg-1.0-py3-none-any.whl"] });
    expect(result).toMatch(/^Installed into \.venv with pip install: \.\/dist\/tinypkg-1\.0-py3-none-any\.whl\.\n/);
    expect(result).toContain("Successfully installed tinypkg-1.0");
    expect(asked).toEqual([
      "Allow install_packages (pip install ./dist/tinypkg-1.0-py3-none-any.whl into .venv, created first)?",
    ]);
    expect(venvPython(project, "import tinypkg; print(tinypkg.VALUE)")).toBe("first");
    expect(existsSync(join(project, "HIJACKED"))).toBe(false);
    expect(tools.progress.map((update) => update.message)).toEqual(["Creating .venv", "pip install"]);

    // The venv's own pip.conf (a file a repository can bring along) would demand hashes, failing the install.
    await writeFile(join(project, ".venv", "pip.conf"), "[install]\nrequire-hashes = true\n");
    const second = await tools.ok("install_packages", { packages: ["./dist/otherpkg-1.0-py3-none-any.whl"] });
    expect(second).toContain("Successfully installed otherpkg-1.0");
    expect(asked.at(-1)).toBe("Allow install_packages (pip install ./dist/otherpkg-1.0-py3-none-any.whl into .venv)?");
    expect(venvPython(project, "import otherpkg, tinypkg; print(otherpkg.VALUE, tinypkg.VALUE)")).toBe("second first");
  });

  test("runs in the sandbox: the network open for the index, the project writable, nothing beside it", async ({
    harness,
    project,
    tempDirs,
    httpServers,
  }) => {
    const wheels = await tempDirs.make("marvin-index-");
    execFileSync("python3", ["-c", WHEEL_BUILDER, wheels, "indexpkg", "from the index"]);
    const wheel = "indexpkg-1.0-py3-none-any.whl";
    const index = await httpServers.start((request, response) => {
      if (request.url === "/simple/indexpkg/") sendText(response, `<a href="/files/${wheel}">${wheel}</a>`);
      else if (request.url === `/files/${wheel}`) response.end(readFileSync(join(wheels, wheel)));
      else sendText(response, "not found", 404);
    });
    // A project whose build backend (run by pip, like any sdist's) writes in the project and beside it.
    const beside = `${project}-beside`;
    await mkdir(join(project, "buildme"));
    await writeFile(join(project, "buildme", "pyproject.toml"), BUILD_ME_PYPROJECT);
    await writeFile(join(project, "buildme", "backend.py"), buildMeBackend(beside));
    const asked: string[] = [];
    const tools = await harness({
      env: { PIP_NO_INDEX: "", PIP_INDEX_URL: `${index.origin}/simple` },
      askApproval: async (question) => {
        asked.push(question.text);
        return "conversation";
      },
    });
    expect(await tools.ok("install_packages", { packages: ["indexpkg"] })).toContain("Successfully installed");
    expect(venvPython(project, "import indexpkg; print(indexpkg.VALUE)")).toBe("from the index");
    expect(await tools.ok("install_packages", { packages: ["./buildme"] })).toContain("Successfully installed");
    expect(readFileSync(join(project, "buildme", "BUILT"), "utf8")).toBe(
      "beside: OSError [Errno 30] Read-only file system",
    );
    expect(existsSync(beside)).toBe(false);
    expect(asked).toEqual(["Allow install_packages (pip install indexpkg into .venv, created first)?"]);
  });

  test("refuses options, URLs, markers and paths leading out before running anything", async ({ harness, project }) => {
    const tools = await harness();
    for (const spec of ["--index-url=http://127.0.0.1:1/simple", "-r", "requests; os_name == 'nt'"])
      expect(await tools.failure("install_packages", { packages: ["requests", spec] })).toContain(
        "Options, URLs and environment markers are refused.",
      );
    expect(await tools.failure("install_packages", { packages: ["evil @ https://127.0.0.1:1/evil.whl"] })).toContain(
      "is not a package requirement",
    );
    expect(await tools.failure("install_packages", { packages: ["./../outside.whl"] })).toContain(
      "Path traversal not allowed",
    );
    expect(existsSync(join(project, ".venv"))).toBe(false);
  });

  test("refuses a .venv whose interpreter is a file in the working dir, without running it", async ({
    harness,
    project,
  }) => {
    await mkdir(join(project, ".venv", "bin"), { recursive: true });
    await writeFile(join(project, ".venv", "pyvenv.cfg"), "home = /usr/bin\n");
    await writeFile(join(project, ".venv", "bin", "python"), `#!/bin/sh\ntouch "${project}/HIJACKED"\n`);
    await chmod(join(project, ".venv", "bin", "python"), 0o755);
    const error = await (await harness()).failure("install_packages", {
      packages: ["./dist/tinypkg-1.0-py3-none-any.whl"],
    });
    expect(error).toContain("Not installing into .venv: its interpreter");
    expect(error).toContain("is a file inside the working dir, not an installed Python");
    expect(existsSync(join(project, "HIJACKED"))).toBe(false);
  });

  test("never runs a .venv that came with the project: its .pth files would run during the install", async ({
    harness,
    project,
  }) => {
    // A real virtual environment, as a repository can ship it, with a .pth that runs when its Python starts.
    execFileSync("python3", ["-m", "venv", join(project, ".venv")]);
    const marker = join(project, "PTH_RAN");
    const sitePackages = venvPython(project, "import sysconfig; print(sysconfig.get_paths()['purelib'])");
    rmSync(marker, { force: true });
    await writeFile(join(sitePackages, "evil.pth"), `import os; open(${JSON.stringify(marker)}, "w").write("ran")\n`);
    const tools = await harness();
    const error = await tools.failure("install_packages", { packages: ["./dist/tinypkg-1.0-py3-none-any.whl"] });
    expect(error).toContain(
      "Not installing into .venv: Marvin did not create it, so it may have come with the project, and Python " +
        "would run the .pth files of its site-packages during the install. Ask the user to remove it (Marvin then " +
        "creates a fresh one and installs into that) or to install the packages themselves.",
    );
    expect(existsSync(marker)).toBe(false);

    // Removed, Marvin creates its own and installs into it; a .pth planted there later is refused too.
    await rm(join(project, ".venv"), { recursive: true });
    expect(await tools.ok("install_packages", { packages: ["./dist/tinypkg-1.0-py3-none-any.whl"] })).toContain(
      "Successfully installed tinypkg-1.0",
    );
    const ownSitePackages = venvPython(project, "import sysconfig; print(sysconfig.get_paths()['purelib'])");
    rmSync(marker, { force: true });
    await writeFile(
      join(ownSitePackages, "evil.pth"),
      `import os; open(${JSON.stringify(marker)}, "w").write("ran")\n`,
    );
    expect(await tools.failure("install_packages", { packages: ["./dist/otherpkg-1.0-py3-none-any.whl"] })).toContain(
      "Not installing into .venv: the .pth or sitecustomize files of its site-packages changed since Marvin's " +
        "last install, and Python would run them during the install.",
    );
    expect(existsSync(marker)).toBe(false);
  });

  test("does nothing when the user declines", async ({ harness, project }) => {
    const tools = await harness({ askApproval: async () => "no" });
    expect(await tools.ok("install_packages", { packages: ["requests"] })).toBe(
      "The user declined the install. Do not try again; ask the user what to do instead.",
    );
    expect(existsSync(join(project, ".venv"))).toBe(false);
  });

  test("says in one line what to install when there is no Python", async ({ harness, tempDirs }) => {
    const emptyPath = await tempDirs.make("marvin-no-python-");
    const error = await (await harness({ env: { PATH: emptyPath } })).failure("install_packages", {
      packages: ["requests"],
    });
    expect(error).toContain("Python is not installed: neither uv nor python3 is on PATH");
    expect(error).toContain("apt install python3 python3-venv");
  });
});
