import type { Env } from "../../../shared/env.js";
import { errorMessage } from "../../../shared/error-message.js";
import { describeBlenderAddress, sendBlenderCommand } from "./connection.js";
import { formatScene } from "./format.js";

/** `!blender`: whether the Blender MCP add-on answers, and the scene it has open. */
export async function blenderStatus(env: Env, signal: AbortSignal): Promise<string> {
  try {
    const where = describeBlenderAddress(env);
    const scene = formatScene(await sendBlenderCommand(env, "get_scene_info", {}, signal));
    return `Blender answers at ${where} (the blender_ tools can use it). ${scene.split("\n")[0]}`;
  } catch (error) {
    return errorMessage(error);
  }
}
