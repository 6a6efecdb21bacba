import type { Env } from "../../../shared/env.js";
import { ToolError } from "../../kit/define-tool.js";
import { sendBlenderCommand } from "./connection.js";

/**
 * Python for operations the Blender MCP add-on has no command for, run through its `execute_code`.
 * The scripts are fixed; the model's values reach them only as one JSON document decoded by
 * `json.loads`, so a name like `"); import os` stays a string.
 */
const PRELUDE = `import bpy, json, math


def find_object(name):
    obj = bpy.data.objects.get(name)
    if obj is None:
        raise ValueError("No object named %s in the scene" % json.dumps(name))
    return obj


def report(value):
    print(json.dumps(value))
`;

export const CREATE_OBJECT = `adders = {
    "cube": bpy.ops.mesh.primitive_cube_add,
    "sphere": bpy.ops.mesh.primitive_uv_sphere_add,
    "ico_sphere": bpy.ops.mesh.primitive_ico_sphere_add,
    "cylinder": bpy.ops.mesh.primitive_cylinder_add,
    "cone": bpy.ops.mesh.primitive_cone_add,
    "plane": bpy.ops.mesh.primitive_plane_add,
    "torus": bpy.ops.mesh.primitive_torus_add,
    "monkey": bpy.ops.mesh.primitive_monkey_add,
    "camera": bpy.ops.object.camera_add,
    "light": bpy.ops.object.light_add,
    "empty": bpy.ops.object.empty_add,
}
adders[params["type"]](location=params["location"], rotation=[math.radians(a) for a in params["rotation"]])
obj = bpy.context.active_object
obj.scale = params["scale"]
if params.get("name"):
    obj.name = params["name"]
report({"name": obj.name, "type": obj.type})
`;

export const MODIFY_OBJECT = `obj = find_object(params["name"])
if "location" in params:
    obj.location = params["location"]
if "rotation" in params:
    obj.rotation_euler = [math.radians(a) for a in params["rotation"]]
if "scale" in params:
    obj.scale = params["scale"]
if "visible" in params:
    obj.hide_viewport = not params["visible"]
    obj.hide_render = not params["visible"]
if "new_name" in params:
    obj.name = params["new_name"]
report({
    "name": obj.name,
    "location": list(obj.location),
    "rotation": [math.degrees(a) for a in obj.rotation_euler],
    "scale": list(obj.scale),
    "visible": obj.visible_get(),
})
`;

export const DELETE_OBJECT = `obj = find_object(params["name"])
name = obj.name
bpy.data.objects.remove(obj, do_unlink=True)
report({"deleted": name})
`;

export const SET_MATERIAL = `obj = find_object(params["object_name"])
if obj.data is None or not hasattr(obj.data, "materials"):
    raise ValueError("%s is a %s, which has no materials" % (json.dumps(obj.name), obj.type))
name = params.get("material_name") or obj.name + " material"
material = bpy.data.materials.get(name) or bpy.data.materials.new(name)
material.use_nodes = True
material.diffuse_color = params["color"]
bsdf = material.node_tree.nodes.get("Principled BSDF")
if bsdf is not None:
    bsdf.inputs["Base Color"].default_value = params["color"]
    if "metallic" in params:
        bsdf.inputs["Metallic"].default_value = params["metallic"]
    if "roughness" in params:
        bsdf.inputs["Roughness"].default_value = params["roughness"]
if obj.data.materials:
    obj.data.materials[0] = material
else:
    obj.data.materials.append(material)
report({"object": obj.name, "material": material.name, "color": list(material.diffuse_color)})
`;

/** The whole program: the prelude, the parameters as a JSON string literal (valid Python too), the script. */
function pythonProgram(script: string, params: Record<string, unknown>): string {
  return `${PRELUDE}\nparams = json.loads(${JSON.stringify(JSON.stringify(params))})\n${script}`;
}

/** What the add-on's `execute_code` returns: `{"executed": true, "result": <captured stdout>}`. */
export function capturedOutput(result: unknown): string {
  const output = (result as { result?: unknown } | null)?.result;
  return typeof output === "string" ? output : "";
}

/** Runs one of the scripts above in Blender and returns the JSON value it reported. */
export async function runBlenderScript(
  env: Env,
  signal: AbortSignal,
  script: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await sendBlenderCommand(env, "execute_code", { code: pythonProgram(script, params) }, signal);
  const lastLine = capturedOutput(result).trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(lastLine) as Record<string, unknown>;
  } catch {
    throw new ToolError(`Blender ran the script but reported no result (it printed '${lastLine.slice(0, 200)}').`);
  }
}
