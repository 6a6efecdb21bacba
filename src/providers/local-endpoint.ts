import { isIP } from "node:net";
import { refusedAddressReason } from "../shared/address-class.js";
import type { ProviderConfig } from "./descriptor.js";

/** Names that only mean something on this machine or its network. */
const LOCAL_NAME = /(?:^|\.)(?:localhost|local|internal|lan|home\.arpa)$/;

/**
 * True when the provider runs on this machine or its network: Ollama wherever it is, or a base
 * URL at a loopback or private address, a local name (`localhost`, `*.local`…) or a name
 * without a dot. Someone who chose it chose to keep the conversation there.
 */
export function isLocalEndpoint(config: Pick<ProviderConfig, "name" | "baseUrl">): boolean {
  if (config.name === "ollama") return true;
  if (!config.baseUrl) return false;
  let host: string;
  try {
    host = new URL(config.baseUrl).hostname
      .toLowerCase()
      .replace(/^\[(.*)\]$/, "$1")
      .replace(/\.$/, "");
  } catch {
    return false;
  }
  if (isIP(host)) return refusedAddressReason(host) !== undefined;
  return !host.includes(".") || LOCAL_NAME.test(host);
}
