import type { Env } from "../../shared/env.js";
import { resolveProviderConfig } from "../config.js";
import { providerDescriptor } from "../registry.js";
import type { ProviderName } from "../types.js";
import type { ListedModel } from "./listed-model.js";

/** The models `name`'s endpoint has, as configured here; throws with the reason when it cannot say. */
export async function listProviderModels(name: ProviderName, env: Env, home: string): Promise<ListedModel[]> {
  const descriptor = providerDescriptor(name);
  if (!descriptor.listModels) throw new Error(`${name} cannot list its models`);
  const config = resolveProviderConfig(name, { env, home, codingMode: false, nonInteractive: false });
  return descriptor.listModels(config, env);
}
