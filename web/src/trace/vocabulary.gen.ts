// Generated from vocabulary.json by scripts/gen-vocabulary.mjs; do not edit.
// The engine defines the trace vocabulary once (psmr-core/src/trace/vocabulary.rs).

/** Event kind codes (w2 bits 16-23), by name. */
export const KIND = {
  Delivered: 0,
  Enqueued: 1,
  Dequeued: 2,
  ExecStart: 3,
  ExecEnd: 4,
  WaitStart: 5,
  WaitEnd: 6,
  SyncArrive: 7,
  SyncRelease: 8,
  Steal: 9,
  StealDone: 10,
  Flag: 11,
  GraphInsert: 12,
  GraphRemove: 13,
  GroupFound: 14,
  MapSwitch: 15,
  QueueLen: 16,
  DepEdge: 17,
  GroupMember: 18,
  Registered: 19,
  ColorSteal: 20,
  Partitioned: 21,
  Commit: 22,
  Ready: 23,
  GraphSize: 24,
  SccStart: 25,
  SccEnd: 26,
  CommitWait: 27,
  SyncQueued: 32,
  PartSyncArrive: 33,
  PartSyncRelease: 34,
  PartitionStart: 35,
  MapBalance: 36,
  SchedulerPause: 37,
  SchedulerResume: 38,
  KeyMoved: 39,
  ColorHome: 41,
  ColorQueue: 42,
  StealTry: 43,
  StealRefused: 44,
  StealCost: 45,
  StealQueue: 46,
} as const;

/** Kind codes are below KIND_COUNT; codes no kind uses yet are gaps (see KNOWN). */
export const KIND_COUNT = 47;

/** Whether each code below KIND_COUNT is a kind. */
export const KNOWN: readonly boolean[] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, true, true, true, true, true, true, true, true, false, true, true, true, true, true, true];

/** Engine (kebab-case) name of each kind, by code ('' for a gap). */
export const KIND_KEBAB = ['delivered', 'enqueued', 'dequeued', 'exec-start', 'exec-end', 'wait-start', 'wait-end', 'sync-arrive', 'sync-release', 'steal', 'steal-done', 'flag', 'graph-insert', 'graph-remove', 'group-found', 'map-switch', 'queue-len', 'dep-edge', 'group-member', 'registered', 'color-steal', 'partitioned', 'commit', 'ready', 'graph-size', 'scc-start', 'scc-end', 'commit-wait', '', '', '', '', 'sync-queued', 'part-sync-arrive', 'part-sync-release', 'partition-start', 'map-balance', 'scheduler-pause', 'scheduler-resume', 'key-moved', '', 'color-home', 'color-queue', 'steal-try', 'steal-refused', 'steal-cost', 'steal-queue'] as const;

/** Kinds kept through a cut trace, by code. */
export const STRUCTURAL: readonly boolean[] = [false, false, false, false, false, false, false, false, false, true, false, false, false, false, true, true, false, false, true, false, true, true, false, false, false, true, true, false, false, false, false, false, false, false, false, true, true, true, true, false, false, true, false, false, true, true, false];

/** Kinds with the `colors` flag, by code (now: Registered). */
export const FLAG_COLORS: readonly ({ readonly color: 2 | 3 | 4 | 5; readonly req: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, { color: 5, req: 4 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];

/** Kinds with the `ends-group` flag, by code (now: SccEnd). */
export const FLAG_ENDS_GROUP: readonly boolean[] = [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false];

/** Kinds with the `ends-steal` flag, by code (now: StealDone). */
export const FLAG_ENDS_STEAL: readonly boolean[] = [false, false, false, false, false, false, false, false, false, false, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false];

/** Kinds with the `enters-graph` flag, by code (now: GraphInsert). */
export const FLAG_ENTERS_GRAPH: readonly boolean[] = [false, false, false, false, false, false, false, false, false, false, false, false, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false];

/** Kinds with the `event-stream` flag, by code (now: Registered). */
export const FLAG_EVENT_STREAM: readonly boolean[] = [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false];

/** Kinds with the `fills-queue` flag, by code (now: Registered). */
export const FLAG_FILLS_QUEUE: readonly ({ readonly lane: 2 | 3 | 4 | 5; readonly req: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, { lane: 2, req: 4 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];

/** Kinds with the `graph-bound` flag, by code (now: GraphSize). */
export const FLAG_GRAPH_BOUND: readonly ({ readonly bound: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, { bound: 4 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];

/** Kinds with the `graph-ready` flag, by code (now: Ready). */
export const FLAG_GRAPH_READY: readonly ({ readonly req: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, { req: 3 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];

/** Kinds with the `joins-pause` flag, by code (now: PartitionStart). */
export const FLAG_JOINS_PAUSE: readonly boolean[] = [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, false, false, false, false, false, false, false, false, false, false, false];

/** Kinds with the `joins-take` flag, by code (now: ExecStart, SyncArrive, PartSyncArrive). */
export const FLAG_JOINS_TAKE: readonly ({ readonly req: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, { req: 3 }, null, null, null, { req: 4 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, { req: 3 }, null, null, null, null, null, null, null, null, null, null, null, null, null];

/** Kinds with the `leaves-graph` flag, by code (now: GraphRemove). */
export const FLAG_LEAVES_GRAPH: readonly ({ readonly req: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, null, null, null, null, null, null, null, null, null, null, { req: 3 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];

/** Kinds with the `map-epoch` flag, by code (now: MapSwitch). */
export const FLAG_MAP_EPOCH: readonly ({ readonly epoch: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, { epoch: 3 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];

/** Kinds with the `pauses` flag, by code (now: SchedulerPause). */
export const FLAG_PAUSES: readonly boolean[] = [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, false, false, false, false, false, false, false, false, false];

/** Kinds with the `ready-flag` flag, by code (now: Flag). */
export const FLAG_READY_FLAG: readonly ({ readonly up: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, null, null, null, null, null, null, null, null, { up: 2 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];

/** Kinds with the `runs-group` flag, by code (now: SccStart). */
export const FLAG_RUNS_GROUP: readonly ({ readonly group: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, { group: 3 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];

/** Kinds with the `starts-step` flag, by code (now: Delivered, Dequeued, ExecEnd, SyncRelease, Steal, StealDone, GraphInsert, GraphRemove, GroupFound, MapSwitch, ColorSteal, Partitioned, Commit, PartSyncRelease, SchedulerPause, SchedulerResume, StealTry). */
export const FLAG_STARTS_STEP: readonly boolean[] = [true, false, true, false, true, false, false, false, true, true, true, false, true, true, true, true, false, false, false, false, true, true, true, false, false, false, false, false, false, false, false, false, false, false, true, false, false, true, true, false, false, false, false, true, false, false, false];

/** Kinds with the `steal` flag, by code (now: Steal, ColorSteal). */
export const FLAG_STEAL: readonly ({ readonly victim: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, null, null, null, null, null, null, { victim: 3 }, null, null, null, null, null, null, null, null, null, null, { victim: 3 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];

/** Kinds with the `steals-color` flag, by code (now: ColorSteal). */
export const FLAG_STEALS_COLOR: readonly ({ readonly color: 2 | 3 | 4 | 5; readonly victim: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, { color: 4, victim: 3 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];

/** Kinds with the `sync-point` flag, by code (now: SyncArrive, SyncRelease, PartSyncArrive, PartSyncRelease). */
export const FLAG_SYNC_POINT: readonly ({ readonly req: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, null, null, null, null, { req: 4 }, { req: 4 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, { req: 3 }, { req: 3 }, null, null, null, null, null, null, null, null, null, null, null, null];

/** Kinds with the `takes-queue` flag, by code (now: Steal). */
export const FLAG_TAKES_QUEUE: readonly ({ readonly count: 2 | 3 | 4 | 5; readonly first: 2 | 3 | 4 | 5; readonly victim: 2 | 3 | 4 | 5 } | null)[] = [null, null, null, null, null, null, null, null, null, { count: 4, first: 5, victim: 3 }, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];

/**
 * Where each field of each kind is packed: the word of the event (3, 4, 5 =
 * a, b, c; 2 = the 8-bit x in bits 24-31). Read with `PackedTrace.get`.
 */
export const F = {
  Delivered: { req: 3, class: 4 },
  Enqueued: { req: 3, to: 4 },
  Dequeued: { req: 3 },
  ExecStart: { req: 3 },
  ExecEnd: { req: 3 },
  WaitStart: { reason: 2, req: 3, on: 4 },
  WaitEnd: { reason: 2, req: 3, spins: 4 },
  SyncArrive: { class: 3, req: 4, cycle: 2 },
  SyncRelease: { class: 3, req: 4, executor: 5, cycle: 2 },
  Steal: { victim: 3, count: 4, first: 5 },
  StealDone: { victim: 3 },
  Flag: { ready: 2 },
  GraphInsert: { req: 3, deps: 4 },
  GraphRemove: { req: 3 },
  GroupFound: { group: 3, size: 4, position: 5 },
  MapSwitch: { epoch: 3, moved: 4 },
  QueueLen: { of: 3, len: 4 },
  DepEdge: { from: 3, to: 4 },
  GroupMember: { group: 3, req: 4 },
  Registered: { child: 4, parent: 3, color: 5, core: 2 },
  ColorSteal: { victim: 3, color: 4, count: 5 },
  Partitioned: { epoch: 3, cut: 4, time_us: 5 },
  Commit: { instance: 3, seq: 4, deps: 5 },
  Ready: { req: 3 },
  GraphSize: { size: 3, bound: 4 },
  SccStart: { group: 3, size: 4 },
  SccEnd: { group: 3 },
  CommitWait: { instance: 3, on: 4 },
  SyncQueued: { req: 3, lanes: 4, executor: 5 },
  PartSyncArrive: { req: 3, parties: 4 },
  PartSyncRelease: { req: 3, executor: 4 },
  PartitionStart: { epoch: 3, vertices: 4, edges: 5 },
  MapBalance: { epoch: 3, imbalance_permille: 4, keys: 5 },
  SchedulerPause: { epoch: 3 },
  SchedulerResume: { epoch: 3, pause_us: 4 },
  KeyMoved: { key: 3, from: 4, to: 5 },
  ColorHome: { color: 3, core: 4, how: 2 },
  ColorQueue: { color: 3, core: 4, len: 5, op: 2 },
  StealTry: { victim: 3, queued: 4 },
  StealRefused: { heuristic: 2, color: 3, left_ns: 4, cost_ns: 5 },
  StealCost: { victim: 3, steal_ns: 4, left_ns: 5 },
  StealQueue: { color: 3, core: 4, left_ns: 5, interval: 2 },
} as const;

/** An event with its fields by name (see `named` in codec.ts): `switch (e.kind)` narrows it. */
export type NamedEvent =
  | { kind: 'Delivered'; t_ns: number; thread: number; req: number; class: number; }
  | { kind: 'Enqueued'; t_ns: number; thread: number; req: number; to: number; }
  | { kind: 'Dequeued'; t_ns: number; thread: number; req: number; }
  | { kind: 'ExecStart'; t_ns: number; thread: number; req: number; }
  | { kind: 'ExecEnd'; t_ns: number; thread: number; req: number; }
  | { kind: 'WaitStart'; t_ns: number; thread: number; reason: number; req: number; on: number; }
  | { kind: 'WaitEnd'; t_ns: number; thread: number; reason: number; req: number; spins: number; }
  | { kind: 'SyncArrive'; t_ns: number; thread: number; class: number; req: number; cycle: number; }
  | { kind: 'SyncRelease'; t_ns: number; thread: number; class: number; req: number; executor: number; cycle: number; }
  | { kind: 'Steal'; t_ns: number; thread: number; victim: number; count: number; first: number; }
  | { kind: 'StealDone'; t_ns: number; thread: number; victim: number; }
  | { kind: 'Flag'; t_ns: number; thread: number; ready: number; }
  | { kind: 'GraphInsert'; t_ns: number; thread: number; req: number; deps: number; }
  | { kind: 'GraphRemove'; t_ns: number; thread: number; req: number; }
  | { kind: 'GroupFound'; t_ns: number; thread: number; group: number; size: number; position: number; }
  | { kind: 'MapSwitch'; t_ns: number; thread: number; epoch: number; moved: number; }
  | { kind: 'QueueLen'; t_ns: number; thread: number; of: number; len: number; }
  | { kind: 'DepEdge'; t_ns: number; thread: number; from: number; to: number; }
  | { kind: 'GroupMember'; t_ns: number; thread: number; group: number; req: number; }
  | { kind: 'Registered'; t_ns: number; thread: number; child: number; parent: number; color: number; core: number; }
  | { kind: 'ColorSteal'; t_ns: number; thread: number; victim: number; color: number; count: number; }
  | { kind: 'Partitioned'; t_ns: number; thread: number; epoch: number; cut: number; time_us: number; }
  | { kind: 'Commit'; t_ns: number; thread: number; instance: number; seq: number; deps: number; }
  | { kind: 'Ready'; t_ns: number; thread: number; req: number; }
  | { kind: 'GraphSize'; t_ns: number; thread: number; size: number; bound: number; }
  | { kind: 'SccStart'; t_ns: number; thread: number; group: number; size: number; }
  | { kind: 'SccEnd'; t_ns: number; thread: number; group: number; }
  | { kind: 'CommitWait'; t_ns: number; thread: number; instance: number; on: number; }
  | { kind: 'SyncQueued'; t_ns: number; thread: number; req: number; lanes: number; executor: number; }
  | { kind: 'PartSyncArrive'; t_ns: number; thread: number; req: number; parties: number; }
  | { kind: 'PartSyncRelease'; t_ns: number; thread: number; req: number; executor: number; }
  | { kind: 'PartitionStart'; t_ns: number; thread: number; epoch: number; vertices: number; edges: number; }
  | { kind: 'MapBalance'; t_ns: number; thread: number; epoch: number; imbalance_permille: number; keys: number; }
  | { kind: 'SchedulerPause'; t_ns: number; thread: number; epoch: number; }
  | { kind: 'SchedulerResume'; t_ns: number; thread: number; epoch: number; pause_us: number; }
  | { kind: 'KeyMoved'; t_ns: number; thread: number; key: number; from: number; to: number; }
  | { kind: 'ColorHome'; t_ns: number; thread: number; color: number; core: number; how: number; }
  | { kind: 'ColorQueue'; t_ns: number; thread: number; color: number; core: number; len: number; op: number; }
  | { kind: 'StealTry'; t_ns: number; thread: number; victim: number; queued: number; }
  | { kind: 'StealRefused'; t_ns: number; thread: number; heuristic: number; color: number; left_ns: number; cost_ns: number; }
  | { kind: 'StealCost'; t_ns: number; thread: number; victim: number; steal_ns: number; left_ns: number; }
  | { kind: 'StealQueue'; t_ns: number; thread: number; color: number; core: number; left_ns: number; interval: number; }
  ;

/** Per kind code: the word of the request the event is about (its first `req` field), or -1. */
export const FOCUS: readonly number[] = [3, 3, 3, 3, 3, 3, 3, 4, 4, 5, -1, -1, 3, 3, -1, -1, -1, 3, 4, 4, -1, -1, -1, 3, -1, -1, -1, -1, -1, -1, -1, -1, 3, 3, 3, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1];

/** Wait reason codes (the x of WaitStart / WaitEnd), by name. */
export const REASON = {
  EmptyQueue: 0,
  FullQueue: 1,
  Barrier: 2,
  Cycle: 3,
  Marker: 4,
  Dependency: 5,
  Scc: 6,
  MapSwitch: 7,
  FullGraph: 8,
  Lock: 9,
  Semaphore: 10,
} as const;
export const REASON_COUNT = 11;
/** Reason names in the engine's kebab-case, by code. */
export const REASON_NAMES = ['empty-queue', 'full-queue', 'barrier', 'cycle', 'marker', 'dependency', 'scc', 'map-switch', 'full-graph', 'lock', 'semaphore'] as const;

/** Wait reasons with the `joins-arrival` flag, by code (now: Barrier, Cycle, MapSwitch). */
export const REASON_JOINS_ARRIVAL: readonly boolean[] = [false, false, true, true, false, false, false, true, false, false, false];

/** Wait reasons with the `sync-group` flag, by code (now: Barrier, Cycle). */
export const REASON_SYNC_GROUP: readonly boolean[] = [false, false, true, true, false, false, false, false, false, false, false];

/**
 * Codes of the small fields that name a choice, by kind and field: e.g.
 * `SMALL.StealRefused.heuristic.TimeLeft`. SMALL_NAMES has the kebab-case names by code.
 */
export const SMALL = {
  ColorHome: { how: { Hashed: 0, RegisteringCore: 1, FixedCore: 2 } },
  ColorQueue: { op: { Joined: 0, Left: 1, ToTail: 2 } },
  StealQueue: { interval: { UnderOneUnit: 0, UnderEightUnits: 1, Above: 2, Left: 3 } },
  StealRefused: { heuristic: { TwoColors: 0, Half: 1, TimeLeft: 2, Nothing: 3 } },
} as const;
/** The engine (kebab-case) names of the small codes, by kind, field and code. */
export const SMALL_NAMES = {
  ColorHome: { how: ['hashed', 'registering-core', 'fixed-core'] },
  ColorQueue: { op: ['joined', 'left', 'to-tail'] },
  StealQueue: { interval: ['under-one-unit', 'under-eight-units', 'above', 'left'] },
  StealRefused: { heuristic: ['two-colors', 'half', 'time-left', 'nothing'] },
} as const;

/** Thread id of the scheduler (delivering) thread. */
export const SCHEDULER = 65535;
/** First thread id of auxiliary roles (role k is AUX_BASE + k). */
export const AUX_BASE = 65280;
/** A request field naming no request. */
export const NO_REQUEST = 4294967295;
