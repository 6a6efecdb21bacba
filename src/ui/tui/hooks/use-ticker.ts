import { useEffect, useState } from "react";

/** Re-renders every `intervalMs` while `active` (live counters); returns the tick count. */
export function useTicker(active: boolean, intervalMs: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTick((count) => count + 1), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return tick;
}
