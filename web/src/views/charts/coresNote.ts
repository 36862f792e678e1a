/**
 * The note beside the outcome charts when the runs had more threads than
 * the machine has cores. Real threads are the ground truth here, but on N
 * cores they take turns: a lesson whose claim rests on work going on in
 * parallel (Async's scheduler never stopping while Base's does, a mapping
 * that makes fewer threads meet) cannot show it, and the charts may even
 * rank the runs the other way. The note says so, with the measured core
 * count, instead of leaving the chart to contradict the lesson silently.
 */
import type { RunReport } from '../../engine/protocol';

/** Threads a run keeps busy: its workers, the delivering thread and its auxiliary threads (tracker, partitioner...). */
export function runThreads(r: Pick<RunReport, 'threads' | 'roles' | 'scheduler'>): number {
  if (r.scheduler === 'sequential') return 1;
  return r.threads + 1 + (r.roles?.length ?? 0);
}

/** The note (null when every run had a core per thread, or the core count is unknown). */
export function coresNote(
  runs: readonly Pick<RunReport, 'threads' | 'roles' | 'scheduler'>[],
  cores: number,
): string | null {
  if (cores <= 0 || runs.length === 0) return null;
  const most = Math.max(...runs.map(runThreads));
  if (most <= cores) return null;
  return (
    `Measured with real threads on ${cores} core${cores === 1 ? '' : 's'}: these runs kept up to ${most} threads busy ` +
    `(workers, the delivering thread and any tracker or partitioner), so the threads took turns on the cores. ` +
    `What the lesson explains by work done in parallel cannot show here, and these charts may rank the runs the ` +
    `other way round; a machine with at least ${most} cores can show it.`
  );
}
