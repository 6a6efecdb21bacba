import { mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { imageTypeOf } from "../../../shared/image.js";
import { readRegularFile } from "../../../workspace/regular-file.js";
import { defineTool, type ToolContext, ToolError } from "../../kit/define-tool.js";
import { imageOutput } from "../../kit/image-output.js";
import { sendBlenderCommand } from "./connection.js";
import { formatObject, formatScene, formatVector } from "./format.js";
import {
  CREATE_OBJECT,
  capturedOutput,
  DELETE_OBJECT,
  MODIFY_OBJECT,
  runBlenderScript,
  SET_MATERIAL,
} from "./python.js";

const vector = (what: string) => z.array(z.number()).length(3).describe(what);
const objectName = z.string().trim().min(1).max(200).describe("The object's name as Blender shows it, e.g. Cube");

const PRIMITIVES = [
  "cube",
  "sphere",
  "ico_sphere",
  "cylinder",
  "cone",
  "plane",
  "torus",
  "monkey",
  "camera",
  "light",
  "empty",
] as const;

const send = (context: ToolContext, type: string, params: Record<string, unknown> = {}) =>
  sendBlenderCommand(context.env, type, params, context.signal);

/** `~/Downloads/blender/viewport-2025-01-31T09-15-00-000Z.png`, its folder created. */
async function screenshotPath(context: ToolContext): Promise<string> {
  const folder = join(context.home, "Downloads", "blender");
  await mkdir(folder, { recursive: true });
  return join(folder, `viewport-${new Date().toISOString().replace(/[:.]/g, "-")}.png`);
}

export const blenderTools = [
  defineTool({
    name: "blender_get_scene",
    description:
      "The open Blender scene (through the Blender MCP add-on): its name, how many objects and materials, and the " +
      "first 10 objects with type and location.",
    parameters: z.object({}),
    effect: "read",
    handler: async (_args, context) => formatScene(await send(context, "get_scene_info")),
  }),
  defineTool({
    name: "blender_get_object",
    description:
      "One Blender object in detail: type, location, rotation (degrees), scale, visibility, materials, mesh size " +
      "and bounding box.",
    parameters: z.object({ name: objectName }),
    effect: "read",
    handler: async ({ name }, context) => formatObject(await send(context, "get_object_info", { name })),
  }),
  defineTool({
    name: "blender_create_object",
    description:
      "Add a primitive to the Blender scene (cube, sphere, cylinder, cone, plane, torus, monkey, camera, light or " +
      "empty) at a location, with rotation in degrees and scale; optionally named.",
    parameters: z.object({
      type: z.enum(PRIMITIVES),
      name: objectName.optional().describe("A name for the new object; Blender adds .001 if it is taken"),
      location: vector("x, y, z in metres").default([0, 0, 0]),
      rotation: vector("Rotation about x, y, z in degrees").default([0, 0, 0]),
      scale: vector("Scale along x, y, z").default([1, 1, 1]),
    }),
    effect: "write",
    handler: async (args, context) => {
      const created = await runBlenderScript(context.env, context.signal, CREATE_OBJECT, args);
      return `Created ${JSON.stringify(created.name)} (${String(created.type)}) at ${formatVector(args.location)}.`;
    },
  }),
  defineTool({
    name: "blender_modify_object",
    description: "Move, rotate (degrees), scale, show or hide, or rename a Blender object. Give only what changes.",
    parameters: z.object({
      name: objectName,
      location: vector("New x, y, z in metres").optional(),
      rotation: vector("New rotation about x, y, z in degrees").optional(),
      scale: vector("New scale along x, y, z").optional(),
      visible: z.boolean().optional().describe("false hides it in the viewport and in renders"),
      new_name: objectName.optional().describe("Rename it"),
    }),
    effect: "write",
    handler: async (args, context) => {
      const { name, ...changes } = args;
      if (Object.values(changes).every((value) => value === undefined))
        throw new ToolError("Nothing to change: give location, rotation, scale, visible or new_name.");
      const state = await runBlenderScript(context.env, context.signal, MODIFY_OBJECT, args);
      return [
        `Updated ${JSON.stringify(state.name)}:`,
        `location ${formatVector(state.location)}, rotation ${formatVector(state.rotation)}°, ` +
          `scale ${formatVector(state.scale)}, ${state.visible ? "visible" : "hidden"}.`,
      ].join(" ");
    },
  }),
  defineTool({
    name: "blender_delete_object",
    description: "Delete one object from the Blender scene by name.",
    parameters: z.object({ name: objectName }),
    effect: "write",
    handler: async (args, context) => {
      const { deleted } = await runBlenderScript(context.env, context.signal, DELETE_OBJECT, args);
      return `Deleted ${JSON.stringify(deleted)} from the Blender scene.`;
    },
  }),
  defineTool({
    name: "blender_set_material",
    description:
      "Give a Blender object a colour: a material (new, or an existing one by name) with the RGBA colour (0–1 " +
      "each) and optional metallic and roughness, in its first material slot.",
    parameters: z.object({
      object_name: objectName,
      color: z
        .array(z.number().min(0).max(1))
        .min(3)
        .max(4)
        .describe("Red, green, blue and optional alpha, each 0–1, e.g. [1, 0.2, 0.2, 1]"),
      material_name: z.string().trim().min(1).max(200).optional().describe("Default: '<object> material'"),
      metallic: z.number().min(0).max(1).optional(),
      roughness: z.number().min(0).max(1).optional(),
    }),
    effect: "write",
    handler: async (args, context) => {
      const color = args.color.length === 3 ? [...args.color, 1] : args.color;
      const applied = await runBlenderScript(context.env, context.signal, SET_MATERIAL, { ...args, color });
      return (
        `${JSON.stringify(applied.object)} now has material ${JSON.stringify(applied.material)} ` +
        `(RGBA ${formatVector(applied.color)}).`
      );
    },
  }),
  defineTool({
    name: "blender_execute_code",
    description:
      "Run Python in Blender (bpy is imported) and return what it printed. For what the other blender_ tools " +
      "cannot do; work in small steps and print the facts you need.",
    parameters: z.object({ code: z.string().min(1).describe("Python source using bpy") }),
    effect: "write",
    timeoutMs: 180_000,
    handler: async ({ code }, context) => {
      const output = capturedOutput(await send(context, "execute_code", { code })).trimEnd();
      return output ? `Blender ran the code. Output:\n${output}` : "Blender ran the code (it printed nothing).";
    },
  }),
  defineTool({
    name: "blender_screenshot",
    description:
      "Capture Blender's 3D viewport as a PNG under ~/Downloads/blender; returns the file's path and size, and the " +
      "image to a model that reads images.",
    parameters: z.object({
      max_size: z.number().int().min(100).max(4000).default(800).describe("Longest side in pixels"),
    }),
    effect: "write",
    handler: async ({ max_size }, context) => {
      const filepath = await screenshotPath(context);
      const result = (await send(context, "get_viewport_screenshot", { max_size, filepath, format: "png" })) as {
        error?: unknown;
        width?: unknown;
        height?: unknown;
      } | null;
      if (typeof result?.error === "string")
        throw new ToolError(`Blender could not take the screenshot: ${result.error}`);
      const saved = await stat(filepath).catch(() => undefined);
      if (!saved?.isFile())
        throw new ToolError(
          `Blender reported a screenshot, but ${filepath} is not there: is Blender running on another machine?`,
        );
      const size = `${String(result?.width)}×${String(result?.height)}`;
      const text = `Saved Blender's viewport (${size} px) to ${filepath}.`;
      const details = { path: filepath };
      // The image itself for a model that reads images, as read_file gives one.
      const bytes = await readRegularFile(filepath);
      const type = imageTypeOf(bytes);
      if (!type) return { text, details };
      const shown = await imageOutput("The screenshot", bytes, type, context, "blender_screenshot");
      return typeof shown === "string"
        ? { text: `${text} ${shown}`, details }
        : { ...shown, text: `${text} ${shown.text}`, details };
    },
  }),
];
