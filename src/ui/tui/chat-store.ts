import type { AgentEvent } from "../../agent/events.js";
import { type ChatLogEntry, clockTime } from "../../state/chat-log.js";
import { hiddenNote, type ResumedStep, type ResumedTurns } from "../commands/resumed-turns.js";
import { editDiff } from "../diff-lines.js";
import { safeEvents, safeText } from "../terminal-text.js";
import { summarizeToolResult, toolCallLabel } from "../tool-call-text.js";
import { toggleBlocks } from "./block-toggle.js";
import type { ChatEntry, ToolCallView } from "./chat-entry.js";

type AssistantEntry = Extract<ChatEntry, { kind: "assistant" }>;
type ToolsEntry = Extract<ChatEntry, { kind: "tools" }>;
type ReasoningEntry = Extract<ChatEntry, { kind: "reasoning" }>;
/** Output of a running command kept for the screen (it shows the last lines). */
const OUTPUT_KEPT_CHARS = 8_000;
type NewEntry = ChatEntry extends infer E ? (E extends ChatEntry ? Omit<E, "id" | "revision"> : never) : never;

interface ChatStoreOptions {
  /**
   * Shortest time between two redraws caused by streamed text (default 25 ms: at most 40 fps,
   * which keeps a token's way from the network to the screen under 50 ms).
   */
  frameMs?: number;
  /** Monotonic clock in ms (tool timings, redraw pacing). */
  clock?: () => number;
  /** Wall clock for the `HH:MM` of new messages. */
  now?: () => Date;
}

/**
 * The conversation as the chat area shows it, fed by agent events. Streamed text is buffered
 * and applied at most once per frame, so a fast stream costs one redraw per frame rather than
 * one per token. Listeners (the ChatPane) are told after every visible change.
 *
 * Every text that comes in is made safe to print here (shell output when it is drawn), so no
 * escape sequence from the model, a tool or a file reaches the terminal through the chat area.
 */
export class ChatStore {
  private readonly entryList: ChatEntry[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;
  private pendingText = "";
  private pendingReasoning = "";
  /** The reasoning block of the answer being written, until the answer starts. */
  private thought: ReasoningEntry | undefined;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private lastFlushAt = -Infinity;
  private answer: AssistantEntry | undefined;
  private answerStarted = false;
  private round: ToolsEntry | undefined;
  private readonly frameMs: number;
  readonly clock: () => number;
  private readonly now: () => Date;
  private readonly clean = safeEvents();
  /** Messages typed while busy, shown until their turn comes. */
  readonly queued: string[] = [];
  /** Input and output tokens of the latest request: how much of the context the conversation fills. */
  lastRequestTokens: number | undefined;

  constructor(options: ChatStoreOptions = {}) {
    this.frameMs = options.frameMs ?? 25;
    this.clock = options.clock ?? (() => performance.now());
    this.now = options.now ?? (() => new Date());
  }

  get entries(): readonly ChatEntry[] {
    return this.entryList;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Tells listeners the conversation changed. */
  changed(): void {
    for (const listener of this.listeners) listener();
  }

  private add(entry: NewEntry): ChatEntry {
    const created = { ...entry, id: this.nextId++, revision: 0 } as ChatEntry;
    this.entryList.push(created);
    if (entry.kind !== "assistant") this.answer = undefined;
    if (entry.kind !== "tools") this.round = undefined;
    return created;
  }

  private touch(entry: ChatEntry): void {
    entry.revision += 1;
  }

  addUser(text: string): void {
    this.flush(false);
    this.add({ kind: "you", text: safeText(text), time: clockTime(this.now()) });
    this.answerStarted = false;
    this.changed();
  }

  /** `hang`: see the system entry (ChatEntry). */
  addSystem(text: string, level: "info" | "warning" | "error" = "info", hang?: number): void {
    this.flush(false);
    this.add({ kind: "system", text: safeText(text), level, ...(hang ? { hang } : {}) });
    this.changed();
  }

  /** Echoes a typed command line (not a message to the model). */
  addCommand(text: string): void {
    this.flush(false);
    this.add({ kind: "command", text: safeText(text) });
    this.changed();
  }

  /** Appends shell output to the output block right after the last command (cleaned when drawn, see terminalText). */
  addOutput(chunk: string): void {
    this.flush(false);
    const last = this.entryList.at(-1);
    if (last?.kind === "output") {
      last.text += chunk;
      this.touch(last);
    } else {
      this.add({ kind: "output", text: chunk });
    }
    this.changed();
  }

  /** The recent conversation from `chat_log.json`, shown when the TUI starts. */
  addChatLogEntries(entries: readonly ChatLogEntry[]): void {
    for (const entry of entries) {
      const text = safeText(entry.text);
      const time = safeText(entry.time ?? "");
      if (entry.role === "you") this.add({ kind: "you", text, time });
      else if (entry.role === "assistant") this.addAnswer(text, time);
      else this.add({ kind: "system", text, level: "info" });
    }
    this.answer = undefined;
    this.changed();
  }

  /** A finished answer from before (the chat log, a resumed conversation). */
  private addAnswer(text: string, time: string): void {
    const answer = { text, chunks: [text], time, streaming: false, continued: false, interrupted: false };
    this.add({ kind: "assistant", ...answer });
  }

  /** The end of a resumed conversation as chat: the person's messages, the answers, each tool call on a line. */
  addResumed({ steps, hidden }: ResumedTurns): void {
    this.flush(false);
    if (hidden > 0) this.add({ kind: "system", text: hiddenNote(hidden), level: "info" });
    for (const step of steps) {
      if (step.kind === "you") this.add({ kind: "you", text: safeText(step.text), time: "" });
      else if (step.kind === "assistant") this.addAnswer(safeText(step.text), "");
      else this.addFinishedCall(step);
    }
    this.answer = undefined;
    this.changed();
  }

  /** The conversation as it now is in place of everything shown (after `rewind` cut it back). */
  replaceWithResumed(turns: ResumedTurns): void {
    this.flush(false);
    this.entryList.length = 0;
    this.thought = undefined;
    this.round = undefined;
    this.addResumed(turns);
  }

  private addFinishedCall(step: Extract<ResumedStep, { kind: "tool" }>): void {
    const call: ToolCallView = {
      callId: `resumed-${this.entryList.length}`,
      name: step.name,
      label: step.label,
      arguments: step.arguments,
      startedAt: 0,
      elapsedMs: 0,
      replayed: true,
      summary: summarizeToolResult(safeText(step.result)),
      result: step.result,
    };
    const last = this.entryList.at(-1);
    if (last?.kind !== "tools") {
      this.add({ kind: "tools", names: [step.name], calls: [call] });
      return;
    }
    last.names.push(step.name);
    last.calls.push(call);
    this.touch(last);
  }

  apply(raw: AgentEvent): void {
    const event = this.clean(raw);
    switch (event.type) {
      case "text_delta":
        this.pendingText += event.text;
        this.scheduleFlush();
        return;
      case "reasoning_delta":
        this.pendingReasoning += event.text;
        this.scheduleFlush();
        return;
      case "agent_start":
        this.answer = undefined;
        this.answerStarted = false;
        return;
      case "tool_calls":
        this.flush(false);
        this.collapseThought();
        this.endAnswer();
        this.round = this.add({ kind: "tools", names: event.names, calls: [] }) as ToolsEntry;
        break;
      case "tool_start":
        this.startTool(event.callId, event.name, event.arguments, event.input);
        break;
      case "tool_end":
        this.endTool(event);
        break;
      case "notice":
        this.addSystem(event.text, event.level);
        return;
      case "error":
        this.addSystem(`Error: ${event.message}`, "error");
        return;
      case "compaction":
        this.addSystem(
          event.phase === "start"
            ? "🔄 Compacting conversation history..."
            : "── Context compacted. Older messages summarized. ──",
        );
        return;
      case "usage":
        this.lastRequestTokens = event.inputTokens + event.outputTokens;
        break;
      case "turn_end":
        this.flush(false);
        break;
      case "agent_end":
        this.flush(false);
        this.collapseThought();
        if (event.reason === "aborted") this.markInterrupted();
        this.endAnswer();
        break;
      case "tool_progress":
        this.showProgress(event.callId, event.message, event.output);
        break;
      case "turn_start":
      case "tool_call_start":
        return;
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
    this.changed();
  }

  private startTool(callId: string, name: string, args: string, input: unknown): void {
    const round = this.round ?? (this.add({ kind: "tools", names: [name], calls: [] }) as ToolsEntry);
    this.round = round;
    round.calls.push({ callId, name, label: toolCallLabel(name, input), arguments: args, startedAt: this.clock() });
    this.touch(round);
  }

  /**
   * The person's answer to a run_command question (`echo`), shown with the call that asked it,
   * so it stands above that call's result: the running call whose arguments hold `command`,
   * else the first one still waiting for an answer.
   */
  addConfirmation(command: string, echo: string): void {
    this.flush(false);
    const waiting = this.entryList.flatMap((entry) =>
      entry.kind === "tools"
        ? entry.calls
            .filter((call) => call.elapsedMs === undefined && call.confirmation === undefined)
            .map((call) => ({ entry, call }))
        : [],
    );
    const quoted = JSON.stringify(command).slice(1, -1);
    const asker = waiting.find(({ call }) => call.arguments.includes(quoted)) ?? waiting[0];
    if (!asker) return this.addCommand(echo);
    asker.call.confirmation = safeText(echo);
    this.touch(asker.entry);
    this.changed();
  }

  /** The round that holds the call, and the call. */
  private findCall(callId: string): { round: ToolsEntry; call: ToolCallView } | undefined {
    const round = [...this.entryList]
      .reverse()
      .find(
        (entry): entry is ToolsEntry => entry.kind === "tools" && entry.calls.some((call) => call.callId === callId),
      );
    const call = round?.calls.find((candidate) => candidate.callId === callId);
    return round && call ? { round, call } : undefined;
  }

  private showProgress(callId: string, message: string, output: string | undefined): void {
    const found = this.findCall(callId);
    if (!found || found.call.elapsedMs !== undefined) return;
    if (output === undefined) found.call.progress = message;
    else found.call.output = ((found.call.output ?? "") + output).slice(-OUTPUT_KEPT_CHARS);
    this.touch(found.round);
  }

  private endTool(event: Extract<AgentEvent, { type: "tool_end" }>): void {
    const found = this.findCall(event.callId);
    if (!found) return;
    const { round, call } = found;
    call.elapsedMs = event.elapsedMs;
    call.summary = summarizeToolResult(event.result);
    call.result = event.result;
    call.diff = editDiff(event.details);
    call.isError = event.isError;
    this.touch(round);
  }

  private markInterrupted(): void {
    const last = this.entryList.at(-1);
    if (last?.kind === "assistant" && last.streaming) {
      last.interrupted = true;
      this.touch(last);
    } else {
      this.add({ kind: "system", text: "Request cancelled.", level: "warning" });
    }
  }

  private endAnswer(): void {
    if (this.answer?.streaming) {
      this.answer.streaming = false;
      this.touch(this.answer);
    }
    this.answer = undefined;
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    const wait = Math.max(0, this.lastFlushAt + this.frameMs - this.clock());
    this.flushTimer = setTimeout(() => this.flush(true), wait);
  }

  /** Applies buffered text now; `notify` tells listeners (callers that notify anyway pass false). */
  flush(notify = true): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (!this.pendingText && !this.pendingReasoning) return;
    this.lastFlushAt = this.clock();
    this.flushReasoning();
    if (!this.pendingText) {
      if (notify) this.changed();
      return;
    }
    this.collapseThought();
    const text = this.pendingText;
    this.pendingText = "";
    if (!this.answer) {
      this.answer = this.add({
        kind: "assistant",
        text: "",
        chunks: [],
        time: clockTime(this.now()),
        streaming: true,
        continued: this.answerStarted,
        interrupted: false,
      }) as AssistantEntry;
      this.answerStarted = true;
    }
    this.answer.text += text;
    this.answer.chunks.push(text);
    this.touch(this.answer);
    if (notify) this.changed();
  }

  private flushReasoning(): void {
    if (!this.pendingReasoning) return;
    this.thought ??= this.add({ kind: "reasoning", text: "", collapsed: false }) as ReasoningEntry;
    this.thought.text += this.pendingReasoning;
    this.pendingReasoning = "";
    this.touch(this.thought);
  }

  /** The answer (or its tool calls) started: the reasoning above it shrinks to one line. */
  private collapseThought(): void {
    if (!this.thought) return;
    this.thought.collapsed = true;
    this.touch(this.thought);
    this.thought = undefined;
  }

  /** Expands or collapses the latest finished tool call or reasoning, or all of them. */
  toggleBlocks(scope: "latest" | "all"): void {
    const changed = toggleBlocks(this.entryList, scope, this.thought);
    for (const entry of changed) this.touch(entry);
    if (changed.length > 0) this.changed();
  }

  /** Stops the frame timer (on exit). */
  dispose(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }
}
