import type { AgentEvent, AgentEventListener, EventSink } from "../agent/events.js";

/** The session's subscribers: every event reaches each of them in order; a failing one hurts no other. */
export class EventHub {
  private readonly listeners = new Set<AgentEventListener>();
  /** Pending writes of durable listeners (audit log, ntfy, session journal), awaited by `flush()`. */
  private readonly flushes = new Set<() => Promise<void>>();

  subscribe(listener: AgentEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Subscribes a listener that writes somewhere; `flush()` waits for its pending writes. */
  subscribeDurable(sink: EventSink): void {
    this.subscribe(sink.listener);
    this.flushes.add(sink.flush);
  }

  emit(event: AgentEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken subscriber must not break the run or the other subscribers.
      }
    }
  }

  /** Something the person should see that is not part of an answer. */
  notice(text: string, level: "info" | "warning" = "warning"): void {
    this.emit({ type: "notice", level, text });
  }

  /** Waits for the durable listeners' writes; never throws. */
  async flush(): Promise<void> {
    await Promise.all([...this.flushes].map((flush) => flush().catch(() => undefined)));
  }
}
