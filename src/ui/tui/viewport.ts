/**
 * Scroll position of the chat area: `null` follows the bottom (auto-scroll); a number is the
 * first visible line, kept fixed while new lines arrive below, so reading is not disturbed.
 */
export type ScrollTop = number | null;

interface VisibleRange {
  start: number;
  end: number;
  /** Lines below the window (0 when following the bottom). */
  below: number;
}

function bottomTop(total: number, height: number): number {
  return Math.max(0, total - height);
}

export function visibleRange(total: number, height: number, top: ScrollTop): VisibleRange {
  const last = bottomTop(total, height);
  const start = top === null ? last : Math.min(Math.max(0, top), last);
  const end = Math.min(total, start + height);
  return { start, end, below: total - end };
}

/** Scrolls by `delta` lines (negative = up); reaching the bottom resumes following it. */
export function scrollBy(top: ScrollTop, delta: number, total: number, height: number): ScrollTop {
  const last = bottomTop(total, height);
  const current = top === null ? last : Math.min(Math.max(0, top), last);
  const next = Math.min(Math.max(0, current + delta), last);
  return next >= last ? null : next;
}

/** Lines moved by PgUp/PgDn: a page minus one line of overlap for context. */
export function pageSize(height: number): number {
  return Math.max(1, height - 1);
}
