/**
 * What the engine kept of a long trace (`TraceWindow`), in words: the head,
 * the structural events of the gap, the tail, and what was dropped.
 */
import type { TraceWindow } from '../engine/protocol';

export function cutText(label: string, w: TraceWindow | undefined): string {
  if (!w) return `The trace of ${label} was cut at the engine's event bound.`;
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  return (
    `The trace of ${label} was cut at the engine's event bound: the replay has the first ` +
    `${w.head_events.toLocaleString('en')} events (to ${ms(w.gap_from_ns)} ms), the ${w.gap_events.toLocaleString('en')} ` +
    `steals, SCCs and map switches of the gap, and the last ${w.tail_events.toLocaleString('en')} events ` +
    `(from ${ms(w.gap_to_ns)} ms); ${w.dropped_events.toLocaleString('en')} events in between were dropped, ` +
    `so queue contents right after the gap may be incomplete.`
  );
}
