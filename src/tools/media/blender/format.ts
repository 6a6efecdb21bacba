import { z } from "zod";
import { ToolError } from "../../kit/define-tool.js";

const numbers = z.array(z.number());

const sceneInfo = z.object({
  name: z.string(),
  object_count: z.number(),
  materials_count: z.number(),
  objects: z.array(z.object({ name: z.string(), type: z.string(), location: numbers })),
});

const objectInfo = z.object({
  name: z.string(),
  type: z.string(),
  location: numbers,
  rotation: numbers,
  scale: numbers,
  visible: z.boolean(),
  materials: z.array(z.string()),
  world_bounding_box: z.array(numbers).optional(),
  mesh: z.object({ vertices: z.number(), edges: z.number(), polygons: z.number() }).optional(),
});

/** `(1, 0, 2.5)`: rounded to 3 decimals, for numbers the add-on or a script reported. */
export function formatVector(value: unknown): string {
  if (!Array.isArray(value)) return String(value);
  const rounded = value.map((item) => (typeof item === "number" ? String(Math.round(item * 1000) / 1000) : "?"));
  return `(${rounded.join(", ")})`;
}

/** The add-on reports some failures as a successful `{"error": …}` result. */
function parsed<Schema extends z.ZodType>(schema: Schema, result: unknown, what: string): z.output<Schema> {
  const error = (result as { error?: unknown } | null)?.error;
  if (typeof error === "string") throw new ToolError(`Blender could not read the ${what}: ${error}`);
  const checked = schema.safeParse(result);
  if (!checked.success)
    throw new ToolError(`Blender's ${what} is not in the add-on's format: ${JSON.stringify(result).slice(0, 300)}`);
  return checked.data;
}

export function formatScene(result: unknown): string {
  const scene = parsed(sceneInfo, result, "scene");
  const shown = scene.objects.length < scene.object_count ? ` (the first ${scene.objects.length})` : "";
  return [
    `Blender scene ${JSON.stringify(scene.name)}: ${scene.object_count} objects${shown}, ` +
      `${scene.materials_count} materials.`,
    ...scene.objects.map((object) => `- ${object.name} (${object.type}) at ${formatVector(object.location)}`),
  ].join("\n");
}

const degrees = (radians: number[]) => radians.map((angle) => (angle * 180) / Math.PI);

export function formatObject(result: unknown): string {
  const object = parsed(objectInfo, result, "object");
  return [
    `${object.name} (${object.type}, ${object.visible ? "visible" : "hidden"})`,
    `Location ${formatVector(object.location)}, rotation ${formatVector(degrees(object.rotation))}°, ` +
      `scale ${formatVector(object.scale)}`,
    `Materials: ${object.materials.length ? object.materials.join(", ") : "none"}`,
    ...(object.mesh
      ? [`Mesh: ${object.mesh.vertices} vertices, ${object.mesh.edges} edges, ${object.mesh.polygons} faces`]
      : []),
    ...(object.world_bounding_box ? [`Bounding box: ${object.world_bounding_box.map(formatVector).join(" to ")}`] : []),
  ].join("\n");
}
