/**
 * `describe`'s sentences for the event kinds only the repartitioning
 * schedulers record: partitioning, map switches and their syncs, the
 * scheduler's pause, moved keys. Declared by the family's module
 * (index.ts) and registered with trace/codec.ts, so the kinds are named
 * here and in the engine's vocabulary only.
 */
import { F, NO_REQUEST, type Sentence } from '../../trace/codec';
import type { ByKind } from '../../trace/dispatch';

/** `T0, T2 and T3` for a lane mask (bit i = worker i). */
function lanes(mask: number): string {
  const ts: string[] = [];
  for (let w = 0; w < 32; w++) if ((mask >>> w) & 1) ts.push(`T${w}`);
  return ts.length > 1 ? `${ts.slice(0, -1).join(', ')} and ${ts[ts.length - 1]}` : (ts[0] ?? 'no worker');
}

/** The sentence of each of the family's own kinds. */
export const repartSentences: ByKind<Sentence> = {
  MapSwitch: (_e, c) =>
    `${c.who} switches to partition map ${c.f(F.MapSwitch.epoch)} (${c.f(F.MapSwitch.moved)} keys moved)`,
  Partitioned: (_e, c) =>
    `${c.who} computed partition map ${c.f(F.Partitioned.epoch)}: edge cut ${c.f(F.Partitioned.cut)} in ${c.f(F.Partitioned.time_us)} us`,
  SyncQueued: (_e, c) =>
    `${c.who} queues a sync for r${c.f(F.SyncQueued.req)} across ${lanes(c.f(F.SyncQueued.lanes))}; T${c.f(F.SyncQueued.executor)} will execute it`,
  PartSyncArrive: (_e, c) => {
    const req = c.f(F.PartSyncArrive.req);
    const what = req === NO_REQUEST ? 'the map switch sync' : `the sync for r${req}`;
    return `${c.who} reaches ${what} (${c.f(F.PartSyncArrive.parties)} workers)`;
  },
  PartSyncRelease: (_e, c) => {
    const req = c.f(F.PartSyncRelease.req);
    return req === NO_REQUEST
      ? 'every worker passed the map switch sync'
      : `the sync for r${req} is released; T${c.f(F.PartSyncRelease.executor)} executed it`;
  },
  PartitionStart: (_e, c) =>
    `${c.who} starts partitioning for map ${c.f(F.PartitionStart.epoch)}: ${c.f(F.PartitionStart.vertices)} keys, ${c.f(F.PartitionStart.edges)} edges`,
  MapBalance: (_e, c) =>
    `map ${c.f(F.MapBalance.epoch)} over ${c.f(F.MapBalance.keys)} keys: heaviest part ${(c.f(F.MapBalance.imbalance_permille) / 1000).toFixed(3)}x the average`,
  SchedulerPause: (_e, c) => `${c.who} stops scheduling to repartition (map ${c.f(F.SchedulerPause.epoch)})`,
  SchedulerResume: (_e, c) =>
    `${c.who} resumes scheduling after ${c.f(F.SchedulerResume.pause_us)} us (map ${c.f(F.SchedulerResume.epoch)})`,
  KeyMoved: (_e, c) => `key ${c.f(F.KeyMoved.key)} moves from T${c.f(F.KeyMoved.from)} to T${c.f(F.KeyMoved.to)}`,
};
