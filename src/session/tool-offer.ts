import type { Message } from "../providers/types.js";
import { argumentsValue, decodeToolArguments } from "../shared/tool-arguments.js";
import type { ToolSchema } from "../shared/tool-schema.js";
import type { ToolMode } from "../tools/kit/define-tool.js";
import { familiesAskedFor, LOAD_TOOLS, loadToolsSchema } from "../tools/kit/load-tools.js";
import type { ToolRegistry } from "../tools/kit/registry.js";

/** The tools offered before any is loaded, by mode. */
interface CoreTools {
  chat: readonly string[];
  coding: readonly string[];
}

/**
 * Which tools a conversation offers the model: a small core for the mode and load_tools, then the families the
 * model loaded, appended in the order it loaded them, so that the request's tool list up to them stays the same
 * bytes and the provider's prompt cache keeps hitting. `everything` offers every tool up front (MARVIN_TOOLS=all).
 */
export class ToolOffer {
  /** Families loaded in this conversation, in the order they were loaded. */
  private loaded: string[] = [];

  constructor(
    private readonly registry: ToolRegistry,
    private readonly core: CoreTools,
    private readonly everything: boolean,
  ) {}

  schemas(mode: ToolMode): ToolSchema[] {
    if (this.everything) return this.registry.schemas(mode).filter((schema) => schema.function.name !== LOAD_TOOLS);
    const core = this.coreOf(mode);
    const families = this.registry.families(mode);
    const offered = new Set(core);
    const loaded = this.loaded.flatMap((name) => families.find((family) => family.name === name)?.tools ?? []);
    // Every family stays listed, loaded or not: the description never changes, so neither do the bytes before it.
    const toLoad = families
      .map((family) => ({ ...family, tools: family.tools.filter((tool) => !offered.has(tool)) }))
      .filter((family) => family.tools.length > 0);
    return [
      ...this.registry.schemasOf(core, mode),
      ...(toLoad.length ? [loadToolsSchema(toLoad)] : []),
      ...this.registry.schemasOf(
        loaded.filter((tool) => !offered.has(tool)),
        mode,
      ),
    ];
  }

  /**
   * After a call: load_tools loads the families it named; a tool that was not offered loads its own family (its
   * call ran all the same), so that the model sees its parameters from the next step on.
   */
  noteCall(name: string, input: unknown, mode: ToolMode): void {
    if (this.coreOf(mode).includes(name)) return;
    const asked = name === LOAD_TOOLS ? familiesAskedFor(input) : [this.registry.familyOf(name)];
    const known = this.registry.families(mode).map((family) => family.name);
    for (const family of asked) {
      if (family && known.includes(family) && !this.loaded.includes(family)) this.loaded.push(family);
    }
  }

  private coreOf(mode: ToolMode): readonly string[] {
    return mode.codingMode ? this.core.coding : this.core.chat;
  }

  /** Loads what the tool calls of `messages` loaded (a resumed conversation), after forgetting the rest. */
  restore(messages: readonly Message[], mode: ToolMode): void {
    this.loaded = [];
    for (const message of messages) {
      if (message.role !== "assistant") continue;
      for (const call of message.tool_calls ?? []) {
        this.noteCall(call.function.name, argumentsValue(decodeToolArguments(call.function.arguments)), mode);
      }
    }
  }
}
