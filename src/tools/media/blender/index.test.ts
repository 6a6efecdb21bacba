import { spawnSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type BlenderCommand,
  type BlenderReply,
  startBlenderAddonServer,
} from "../../../../tests/support/blender-addon-server.js";
import { test as base, describe, expect } from "../../../../tests/support/fixtures.js";
import { fixtureImage, PNG_BASE64 } from "../../../../tests/support/images.js";
import { createTestSession } from "../../../../tests/support/test-session.js";
import type { ToolHarness } from "../../../../tests/support/tool-harness.js";
import { blenderTools } from "./index.js";

type Answer = (command: BlenderCommand) => BlenderReply | Promise<BlenderReply>;
type Blender = (
  answer: Answer,
  options?: { pieces?: number; readonly?: boolean },
) => Promise<{ commands: BlenderCommand[]; harness: ToolHarness }>;

const test = base.extend<{ blender: Blender }>({
  blender: async ({ harnesses, home }, use) => {
    const servers: Array<{ close(): Promise<void> }> = [];
    await use(async (answer, options = {}) => {
      const server = await startBlenderAddonServer(answer, options);
      servers.push(server);
      const env = { BLENDER_MCP_PORT: String(server.port) };
      return { commands: server.commands, harness: await harnesses.open({ home, env, readonly: options.readonly }) };
    });
    await Promise.all(servers.map((server) => server.close()));
  },
});

const success = (result: unknown): BlenderReply => ({ status: "success", result });
/** What the add-on's execute_code answers when the code printed `printed`. */
const printed = (value: unknown): BlenderReply => success({ executed: true, result: `${JSON.stringify(value)}\n` });

/**
 * The values a generated program hands to its script, read the way Python reads them (python3's own parser): the
 * argument of `params = json.loads(...)` must be a plain string literal, so no value can become code.
 */
function pythonParams(code: string): unknown {
  const reader = [
    "import ast, json, sys",
    "tree = ast.parse(sys.stdin.read())",
    "assign = [n for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], 'id', '') == 'params']",
    "print(json.dumps(json.loads(ast.literal_eval(assign[0].value.args[0]))))",
  ].join("\n");
  const run = spawnSync("python3", ["-c", reader], { input: code, encoding: "utf8" });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout);
}

describe("blender_get_scene and blender_get_object", () => {
  test("read the scene through get_scene_info, even when the reply comes in pieces", async ({ blender }) => {
    const scene = {
      name: "Scene",
      object_count: 12,
      materials_count: 2,
      objects: [
        { name: "Würfel", type: "MESH", location: [0, 0, 1.5] },
        { name: "Camera", type: "CAMERA", location: [7.36, -6.93, 4.96] },
      ],
    };
    const { commands, harness } = await blender(() => success(scene), { pieces: 9 });
    expect(await harness.ok("blender_get_scene", {})).toBe(
      [
        'Blender scene "Scene": 12 objects (the first 2), 2 materials.',
        "- Würfel (MESH) at (0, 0, 1.5)",
        "- Camera (CAMERA) at (7.36, -6.93, 4.96)",
      ].join("\n"),
    );
    expect(commands).toEqual([{ type: "get_scene_info", params: {} }]);
  });

  test("show an object with its rotation in degrees, and pass on the add-on's error reply", async ({ blender }) => {
    const cube = {
      name: "Cube",
      type: "MESH",
      location: [1, 2, 3],
      rotation: [0, 0, Math.PI / 2],
      scale: [1, 1, 2],
      visible: true,
      materials: ["Material"],
      world_bounding_box: [
        [0, 1, 1],
        [2, 3, 5],
      ],
      mesh: { vertices: 8, edges: 12, polygons: 6 },
    };
    const { commands, harness } = await blender(({ params }) =>
      params.name === "Cube" ? success(cube) : { status: "error", message: `Object not found: ${params.name}` },
    );
    expect(await harness.ok("blender_get_object", { name: "Cube" })).toBe(
      [
        "Cube (MESH, visible)",
        "Location (1, 2, 3), rotation (0, 0, 90)°, scale (1, 1, 2)",
        "Materials: Material",
        "Mesh: 8 vertices, 12 edges, 6 faces",
        "Bounding box: (0, 1, 1) to (2, 3, 5)",
      ].join("\n"),
    );
    expect(await harness.failure("blender_get_object", { name: "Sphere" })).toBe(
      "Error in blender_get_object: Blender refused 'get_object_info': Object not found: Sphere",
    );
    expect(commands.map((command) => command.params)).toEqual([{ name: "Cube" }, { name: "Sphere" }]);
  });
});

describe("the writing tools run Marvin's own Python through execute_code", () => {
  const hostile = 'Cube"); __import__("os").system("touch /tmp/owned") #';

  test("blender_create_object sends the primitive and transform as data", async ({ blender }) => {
    const { commands, harness } = await blender(() => printed({ name: "Crate", type: "MESH" }));
    const text = await harness.ok("blender_create_object", { type: "cube", name: "Crate", location: [1, 2, 0] });
    expect(text).toBe('Created "Crate" (MESH) at (1, 2, 0).');
    const [command] = commands;
    expect(command!.type).toBe("execute_code");
    const code = String(command!.params.code);
    expect(code).toContain('"cube": bpy.ops.mesh.primitive_cube_add');
    expect(pythonParams(code)).toEqual({
      type: "cube",
      name: "Crate",
      location: [1, 2, 0],
      rotation: [0, 0, 0],
      scale: [1, 1, 1],
    });
  });

  test("names the model writes stay strings: modify, delete, set_material", async ({ blender }) => {
    const replies: unknown[] = [
      { name: "Box", location: [0, 0, 2], rotation: [0, 0, 45], scale: [1, 1, 1], visible: false },
      { deleted: hostile },
      { object: "Box", material: "Red", color: [1, 0, 0, 1] },
    ];
    const { commands, harness } = await blender((_command) => printed(replies.shift()));
    expect(
      await harness.ok("blender_modify_object", {
        name: hostile,
        location: [0, 0, 2],
        rotation: [0, 0, 45],
        visible: false,
        new_name: "Box",
      }),
    ).toBe('Updated "Box": location (0, 0, 2), rotation (0, 0, 45)°, scale (1, 1, 1), hidden.');
    expect(await harness.ok("blender_delete_object", { name: hostile })).toBe(
      `Deleted ${JSON.stringify(hostile)} from the Blender scene.`,
    );
    expect(
      await harness.ok("blender_set_material", { object_name: "Box", color: [1, 0, 0], material_name: "Red" }),
    ).toBe('"Box" now has material "Red" (RGBA (1, 0, 0, 1)).');
    const [modify, remove, material] = commands.map((command) => String(command.params.code));
    expect(pythonParams(modify!)).toEqual({
      name: hostile,
      location: [0, 0, 2],
      rotation: [0, 0, 45],
      visible: false,
      new_name: "Box",
    });
    expect(modify).toContain('obj.rotation_euler = [math.radians(a) for a in params["rotation"]]');
    expect(pythonParams(remove!)).toEqual({ name: hostile });
    expect(remove).toContain("bpy.data.objects.remove(obj, do_unlink=True)");
    expect(pythonParams(material!)).toEqual({ object_name: "Box", color: [1, 0, 0, 1], material_name: "Red" });
    for (const code of [modify, remove, material]) expect(code).not.toContain('touch /tmp/owned")');
  });

  test("blender_modify_object with nothing to change asks for a change instead of calling Blender", async ({
    blender,
  }) => {
    const { commands, harness } = await blender(() => printed({}));
    expect(await harness.failure("blender_modify_object", { name: "Cube" })).toBe(
      "Error in blender_modify_object: Nothing to change: give location, rotation, scale, visible or new_name.",
    );
    expect(commands).toEqual([]);
  });

  test("a script error comes back as the add-on reports it", async ({ blender }) => {
    const { harness } = await blender(() => ({
      status: "error",
      message: 'Code execution error: No object named "Ghost" in the scene',
    }));
    expect(await harness.failure("blender_delete_object", { name: "Ghost" })).toBe(
      "Error in blender_delete_object: Blender refused 'execute_code': Code execution error: " +
        'No object named "Ghost" in the scene',
    );
  });
});

describe("blender_execute_code", () => {
  test("sends the code as it is and returns what it printed", async ({ blender }) => {
    const code = "import bpy\nprint(len(bpy.data.objects))";
    const { commands, harness } = await blender(() => success({ executed: true, result: "3\n" }));
    expect(await harness.ok("blender_execute_code", { code })).toBe("Blender ran the code. Output:\n3");
    expect(commands).toEqual([{ type: "execute_code", params: { code } }]);
  });

  test("is refused to a read-only agent, before Blender hears of it", async ({ blender }) => {
    const { commands, harness } = await blender(() => success({ executed: true, result: "" }), { readonly: true });
    expect(await harness.failure("blender_execute_code", { code: "print(1)" })).toMatch(/read-only agent/);
    expect(commands).toEqual([]);
  });
});

describe("blender_screenshot", () => {
  const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

  test("asks Blender to write a PNG under ~/Downloads/blender and returns its path", async ({ blender, home }) => {
    const { commands, harness } = await blender(async ({ params }) => {
      await writeFile(String(params.filepath), PNG);
      return success({ success: true, width: 800, height: 450, filepath: params.filepath, method: "offscreen" });
    });
    const outcome = await harness.call("blender_screenshot", {});
    expect(outcome.isError, outcome.result).toBe(false);
    const { filepath, max_size, format } = commands[0]!.params as {
      filepath: string;
      max_size: number;
      format: string;
    };
    expect(filepath.startsWith(join(home, "Downloads", "blender", "viewport-"))).toBe(true);
    expect({ max_size, format }).toEqual({ max_size: 800, format: "png" });
    expect(outcome.result).toBe(
      `Saved Blender's viewport (800×450 px) to ${filepath}. The screenshot is an image (PNG, 16 B); this model ` +
        "cannot read images, so blender_screenshot cannot show it.",
    );
    expect(outcome.details).toEqual({ path: filepath });
    expect(await readFile(filepath)).toEqual(PNG);
  });

  test("reaches a vision model's next request as an image, as read_file's image does", async ({
    llm,
    home,
    tempDirs,
  }) => {
    const addon = await startBlenderAddonServer(async ({ params }) => {
      await writeFile(String(params.filepath), fixtureImage("tiny.png"));
      return success({ success: true, width: 2, height: 3, filepath: params.filepath });
    });
    const server = await llm([
      { toolCalls: [{ name: "blender_screenshot", arguments: {} }] },
      { text: "A dark scene." },
    ]);
    const session = createTestSession({
      home,
      llmUrl: server.url,
      workingDir: await tempDirs.make("marvin-blender-"),
      tools: blenderTools,
      env: { BLENDER_MCP_PORT: String(addon.port) },
    });
    await session.start();
    try {
      expect((await session.submit("how does the scene look?")).reason).toBe("done");
      const [tool, images] = server.requests[1]!.body.messages.slice(-2) as Array<{ content: unknown }>;
      expect(tool!.content).toMatch(
        /^Saved Blender's viewport \(2×3 px\) to .*\. The screenshot is an image \(PNG, 2×3, 97 B\); here it is\.$/,
      );
      expect(images!.content).toContainEqual({
        type: "image_url",
        image_url: { url: `data:image/png;base64,${PNG_BASE64()}` },
      });
    } finally {
      await session.close();
      await addon.close();
    }
  });

  test("reports the add-on's error result", async ({ blender }) => {
    const { harness } = await blender(() => success({ error: "No 3D viewport found" }));
    expect(await harness.failure("blender_screenshot", { max_size: 400 })).toBe(
      "Error in blender_screenshot: Blender could not take the screenshot: No 3D viewport found",
    );
  });
});

describe("the connection", () => {
  test("Blender not running: one line saying what to start", async ({ harnesses, home }) => {
    const closed = await startBlenderAddonServer(() => success({}));
    await closed.close();
    const harness = await harnesses.open({ home, env: { BLENDER_MCP_PORT: String(closed.port) } });
    const text = await harness.failure("blender_get_scene", {});
    expect(text).toBe(
      `Error in blender_get_scene: Blender is not answering at 127.0.0.1:${closed.port} (ECONNREFUSED): ` +
        "start Blender with the Blender MCP " +
        'add-on (github.com/ahujasid/blender-mcp) and click "Connect to MCP server" in its sidebar tab, or set ' +
        "BLENDER_MCP_HOST / BLENDER_MCP_PORT.",
    );
  });

  test("talks to this machine only, unless MARVIN_BLENDER_REMOTE=1", async ({ harnesses, home }) => {
    const harness = await harnesses.open({ home, env: { BLENDER_MCP_HOST: "192.0.2.7" } });
    expect(await harness.failure("blender_get_scene", {})).toMatch(
      /^Error in blender_get_scene: BLENDER_MCP_HOST is 192\.0\.2\.7, not this machine\. .* set MARVIN_BLENDER_REMOTE=1 if you really mean/,
    );
    const badPort = await harnesses.open({ home, env: { BLENDER_MCP_PORT: "98765" } });
    expect(await badPort.failure("blender_get_scene", {})).toMatch(
      /^Error in blender_get_scene: BLENDER_MCP_PORT is not a port number/,
    );
  });
});
