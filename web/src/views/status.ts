/**
 * One state, one story: what each thread is doing at a replay position,
 * derived once from the replay state and read by every view (the lanes,
 * the synchronization cards, the thread list, the steal graph, captions).
 * No view computes a thread's status on its own, so no two views can
 * disagree about it.
 *
 * Invariants (tested in status.test.ts on synthetic and engine traces):
 * - `idle` only with an empty queue and nothing held, stolen or executed;
 * - `executing` names exactly the request the lane executes;
 * - a thread waiting at a barrier or cycle names the request it waits for,
 *   and that request's class;
 * - a thread that holds stolen work (its steal not done) is `stealing` or
 *   `executing`, never idle;
 * - late scheduling: a worker queued on the graph's one lock is `lock`;
 *   ePaxos / PePaxos: a worker inside an SCC is never idle, and one waiting
 *   for another SCC (`dependency`) names the instance it waits for;
 *   repartitioning: a worker at a multi-partition sync names its request;
 *   late scheduling: a worker asleep in take() while a request of the
 *   graph is ready is `waking` (one sleeper per ready request), never idle.
 *
 * Central code names only the shared wait reasons (empty queue, full queue,
 * and the class synchronization the vocabulary flags `sync-group`); a
 * reason only one family records is said by that family's `waits`
 * (`FamilyWait`), so a new family with a new reason edits no file here.
 *
 * Phrases are the family's own ("waiting for the graph lock", "waiting for
 * SCC #3's dependency on instance 41", "waiting at the sync of r12"), and
 * SCCs are named as everywhere else (`sccName`: numbered from 1). What
 * differs by family is declared by the family's module (`FamilyStatus`,
 * registered by `registerFamily` in views/family.ts); this file tests no
 * family or scheduler name.
 */
import { isEventStream, KIND, NO_REQUEST, REASON, REASON_NAMES, REASON_SYNC_GROUP, sccName } from '../trace/codec';
import { registerReasonWords, type ReasonName } from '../trace/reasons';
import type { LaneState, ReplayState, SyncGroup } from '../trace/state';
import type { Track } from '../replay/store';
import { mechanismWord, profileOf, type Family, type SyncMechanism } from './profiles';

export type Activity =
  | 'executing'
  | 'sync'
  | 'spinning'
  | 'stealing'
  | 'marker'
  | 'lock'
  | 'dependency'
  | 'blocked'
  | 'waking'
  | 'next'
  | 'idle';

/** The palette entry a status is drawn with. */
export type Tone = 'exec' | 'wait' | 'spin' | 'steal' | 'idle' | 'dim';

export interface ThreadStatus {
  thread: number;
  activity: Activity;
  /** The request the status is about (executed, waited for, held), or -1. */
  req: number;
  /** Its class id, or -1. */
  cls: number;
  /** Victim of the thread's steal in progress, or -1. */
  victim: number;
  /** Requests in the thread's queue. */
  queue: number;
  /** One phrase, the same in every view: "waiting at W1's barrier for r12". */
  text: string;
  /** A few words for tight spots (lane labels, cards): "barrier r12". */
  short: string;
  tone: Tone;
}

/** What a status needs besides the replay state. */
export interface StatusContext {
  /** Class of each request (trace index), -1 when unknown. */
  reqClass: Int32Array;
  classNames: readonly string[];
  /** How the run's classes synchronize (from the scheduler's profile). */
  mechanism: SyncMechanism | null;
  /** The run's family: its phrases (graph lock, SCCs, syncs) depend on it. */
  family?: Family;
  /** ePaxos family: instances and SCCs of the trace's commands (built once per trace). */
  scc?: SccIndex;
}

/**
 * Which instance each command belongs to and which SCC each instance is
 * in, from the whole trace (both are fixed once recorded: a command's
 * instance at its commit, an instance's SCC when the SCC is found).
 */
export interface SccIndex {
  /** Command (request id) -> instance (position in commit order). */
  instanceOf: Map<number, number>;
  /** Instance -> SCC group id. */
  groupOf: Map<number, number>;
}

/**
 * What a family says its own way (its module declares it; every phrase not
 * given is the queue-based default).
 */
export interface FamilyStatus {
  /** What an idle worker has nothing of; default "idle (empty queue)". */
  idle?: string;
  /** Where a worker took its next request from ("took r12 from …"); default "its queue". */
  takenFrom?: string;
  /** What follows "executing r12" when no sync group and no steal explain it; default nothing. */
  executing?: (ctx: StatusContext, lane: LaneState, req: number) => string;
  /** A worker at a barrier the family names its own way (text and short form); default the class's barrier. */
  barrier?: (req: number) => { text: string; short: string };
  /** The letter before an id, in the family's word for what it schedules (coloring: "e", event); default "r" (request). */
  item?: string;
  /** Data the phrases read, built once per trace (ePaxos family: the SCC index). */
  context?: (track: Track) => Pick<StatusContext, 'scc'>;
  /** The wait reasons only this family records, by the vocabulary's name: their words and statuses. */
  waits?: Partial<Record<ReasonName, FamilyWait>>;
}

/**
 * A wait reason one family owns (the late graph's `lock`, work stealing's
 * `marker`...): its plain words for the event list and, when it has its
 * own, a waiting worker's status and the scheduler thread's phrase. A
 * reason has one meaning in the vocabulary, so these apply to any run
 * that records it.
 */
export interface FamilyWait {
  /** The reason after "T1 waits …" (trace/reasons.ts), e.g. "for the graph lock". */
  words: string;
  /** A worker waiting for it; default "waiting (<reason>) for r12". */
  worker?: {
    activity: Activity;
    tone: Tone;
    /** The phrase and its short form, for the worker waiting on request `req` (-1: none named). */
    say: (lane: LaneState, req: number, ctx: StatusContext) => { text: string; short: string };
  };
  /** The scheduler thread waiting for it: what follows "delivered k of n · "; default "waiting: <reason>". */
  scheduler?: (s: ReplayState) => string;
}

const familyStatuses = new Map<Family, FamilyStatus>();
/** The families' own wait reasons by code (one family records each). */
const familyWaits = new Map<number, FamilyWait>();

/** Called by `registerFamily` (views/family.ts) with the family module's `status`. */
export function registerFamilyStatus(family: Family, status: FamilyStatus): void {
  familyStatuses.set(family, status);
  for (const [name, wait] of Object.entries(status.waits ?? {})) {
    const code = (REASON_NAMES as readonly string[]).indexOf(name);
    if (code < 0 || !wait) continue;
    familyWaits.set(code, wait);
    registerReasonWords(name as ReasonName, wait.words);
  }
}

/** The registered family's own declaration of wait reason `code`, if a family owns it. */
export function familyWait(code: number): FamilyWait | undefined {
  return familyWaits.get(code);
}

function phrases(ctx: StatusContext): FamilyStatus {
  return (ctx.family && familyStatuses.get(ctx.family)) || {};
}

/** The context of a replay track: its trace's request classes, class names, and its scheduler's mechanism. */
export function statusContext(track: Track): StatusContext {
  const profile = profileOf(track.scheduler);
  const family = (track.family as Family | undefined) ?? profile.family;
  return {
    reqClass: track.model.index.reqClass,
    classNames: track.classNames,
    mechanism: profile.sync,
    family,
    scc: familyStatuses.get(family)?.context?.(track).scc,
  };
}

/** How the family names request `req`: "r12", or "e12" where the family schedules events (one name per thing). */
export function reqName(ctx: StatusContext, req: number): string {
  return `${itemLetter(ctx)}${req}`;
}

/** The letter before an id in the family's words: "r" (request), or "e" (event) for the coloring family. */
export function itemLetter(ctx: StatusContext): string {
  return phrases(ctx).item ?? 'r';
}

/** What an idle worker of the family has nothing of. */
function idleText(ctx: StatusContext): string {
  return phrases(ctx).idle ?? 'idle (empty queue)';
}

export function className(ctx: StatusContext, cls: number): string {
  return cls < 0 ? '?' : (ctx.classNames[cls] ?? `C${cls}`);
}

function classOf(ctx: StatusContext, req: number): number {
  return req >= 0 && req < ctx.reqClass.length ? ctx.reqClass[req] : -1;
}

/** The group synchronizing `req`, if the state still holds it. */
export function groupFor(s: ReplayState, req: number): SyncGroup | undefined {
  if (req < 0) return undefined;
  for (const g of s.syncs) if (g.req === req) return g;
  return undefined;
}

/** The group's request was executed (its executor's ExecEnd or the release is in the state). */
export function groupDone(g: SyncGroup): boolean {
  return g.releasedAt >= 0 || g.executedBy >= 0;
}

function make(
  t: number,
  lane: LaneState,
  activity: Activity,
  req: number,
  cls: number,
  text: string,
  short: string,
  tone: Tone,
): ThreadStatus {
  return { thread: t, activity, req, cls, victim: lane.stealVictim, queue: lane.queue.length, text, short, tone };
}

/** The steal in progress, in words: "stole 4 from T0" / "running 3 stolen from T0". */
function stealText(lane: LaneState): string {
  const v = `T${lane.stealVictim}`;
  if (lane.stolen.length === lane.stolenAll.length) return `stole ${lane.stolenAll.length} from ${v}`;
  return `running ${lane.stolen.length} more stolen from ${v}`;
}

function executing(s: ReplayState, t: number, lane: LaneState, ctx: StatusContext): ThreadStatus {
  const r = lane.exec;
  const cls = classOf(ctx, r);
  const g = groupFor(s, r);
  const stolen = lane.stealVictim >= 0 && lane.stolenAll.includes(r);
  const why = g
    ? ` for ${className(ctx, cls)} (all arrived at its ${mechanismWord(ctx.mechanism)})`
    : stolen
      ? ` (stolen from T${lane.stealVictim})`
      : (phrases(ctx).executing?.(ctx, lane, r) ?? '');
  return make(t, lane, 'executing', r, cls, `executing ${reqName(ctx, r)}${why}`, `exec ${reqName(ctx, r)}`, 'exec');
}

function syncWait(s: ReplayState, t: number, lane: LaneState, ctx: StatusContext, reason: number): ThreadStatus {
  const r = lane.waitReq;
  const cls = classOf(ctx, r);
  const name = className(ctx, cls);
  const g = groupFor(s, r);
  const own = reason === REASON.Barrier ? phrases(ctx).barrier?.(r) : undefined;
  if (own) return make(t, lane, 'sync', r, cls, own.text, own.short, 'wait');
  if (reason === REASON.Barrier) {
    const after = g && groupDone(g);
    const text = after
      ? `waiting at ${name}'s barrier: ${reqName(ctx, r)} is done, the threads leave together`
      : `waiting at ${name}'s barrier for ${reqName(ctx, r)}`;
    return make(t, lane, 'sync', r, cls, text, `barrier ${reqName(ctx, r)}`, 'wait');
  }
  // Cycle: a waiter spins, or (stealing variants) steals meanwhile.
  if (lane.stealVictim >= 0) {
    const text = `${stealText(lane)} while waiting in ${name}'s cycle for ${reqName(ctx, r)}`;
    return make(t, lane, 'stealing', r, cls, text, `steal from T${lane.stealVictim}`, 'steal');
  }
  const cycle = g ? ` ${g.cycle}` : '';
  return make(
    t,
    lane,
    'spinning',
    r,
    cls,
    `spinning in ${name}'s cycle${cycle} for ${reqName(ctx, r)}`,
    `spin ${reqName(ctx, r)}`,
    'spin',
  );
}

function waiting(s: ReplayState, t: number, lane: LaneState, ctx: StatusContext): ThreadStatus {
  const reason = lane.waitReason;
  const r = lane.waitReq === NO_REQUEST ? -1 : lane.waitReq;
  if (REASON_SYNC_GROUP[reason]) return syncWait(s, t, lane, ctx, reason);
  const own = familyWaits.get(reason)?.worker;
  if (own) {
    const { text, short } = own.say(lane, r, ctx);
    return make(t, lane, own.activity, r, classOf(ctx, r), text, short, own.tone);
  }
  if (reason === REASON.EmptyQueue) {
    if (lane.stealVictim >= 0) {
      return make(t, lane, 'stealing', -1, -1, stealText(lane), `steal from T${lane.stealVictim}`, 'steal');
    }
    if (lane.queue.length > 0) {
      const next = lane.queue[0];
      return make(
        t,
        lane,
        'waking',
        next,
        classOf(ctx, next),
        `waking up: ${reqName(ctx, next)} is in its queue`,
        'waking',
        'dim',
      );
    }
    if (lane.scc >= 0) return inScc(t, lane);
    const ready = readyFor(s, t);
    if (ready >= 0) {
      const text = `waking up: ${reqName(ctx, ready)} is ready in the graph`;
      return make(t, lane, 'waking', ready, classOf(ctx, ready), text, 'waking', 'dim');
    }
    return make(t, lane, 'idle', -1, -1, idleText(ctx), 'idle', 'idle');
  }
  const why = REASON_NAMES[reason] ?? `reason ${reason}`;
  const on = r >= 0 ? ` for ${reqName(ctx, r)}` : '';
  return make(t, lane, 'blocked', r, classOf(ctx, r), `waiting (${why})${on}`, why, 'wait');
}

function between(s: ReplayState, t: number, lane: LaneState, ctx: StatusContext): ThreadStatus {
  if (lane.stealVictim >= 0) {
    return make(t, lane, 'stealing', -1, -1, stealText(lane), `steal from T${lane.stealVictim}`, 'steal');
  }
  const held = lane.current;
  const g = groupFor(s, held);
  if (held >= 0 && g && !groupDone(g)) {
    const cls = classOf(ctx, held);
    const word = mechanismWord(ctx.mechanism);
    const text = `at ${className(ctx, cls)}'s ${word} for ${reqName(ctx, held)} (arrived)`;
    return make(t, lane, 'sync', held, cls, text, `${word.split(' ')[0]} ${reqName(ctx, held)}`, 'wait');
  }
  if (held >= 0 && !g) {
    const cls = classOf(ctx, held);
    const from = phrases(ctx).takenFrom ?? 'its queue';
    return make(
      t,
      lane,
      'next',
      held,
      cls,
      `took ${reqName(ctx, held)} from ${from}`,
      `took ${reqName(ctx, held)}`,
      'dim',
    );
  }
  if (lane.scc >= 0) return inScc(t, lane);
  if (lane.queue.length > 0) {
    const next = lane.queue[0];
    const text = `next: ${reqName(ctx, next)} from its queue`;
    return make(t, lane, 'next', next, classOf(ctx, next), text, `next ${reqName(ctx, next)}`, 'dim');
  }
  const ready = readyFor(s, t);
  if (ready >= 0) {
    const text = `next: a ready request of the graph (${reqName(ctx, ready)} is ready)`;
    return make(t, lane, 'next', ready, classOf(ctx, ready), text, `next ${reqName(ctx, ready)}`, 'dim');
  }
  return make(t, lane, 'idle', -1, -1, idleText(ctx), 'idle', 'idle');
}

/** A worker with nothing: no execution, queue, steal, SCC or held request, asleep or between two takes. */
function free(l: LaneState): boolean {
  return (
    l.exec < 0 &&
    l.queue.length === 0 &&
    l.stealVictim < 0 &&
    l.scc < 0 &&
    l.current < 0 &&
    (l.waitReason < 0 || l.waitReason === REASON.EmptyQueue)
  );
}

/**
 * Late scheduling: the ready request of the graph that free worker `t`
 * goes for (asleep in take(): it wakes for it; between two takes: it takes
 * it next), or -1. The k-th free worker (in thread order) is matched with
 * the k-th ready request: with more free workers than ready requests the
 * others stay idle, so no view shows a ready request beside only idle
 * workers.
 */
function readyFor(s: ReplayState, t: number): number {
  if (s.graphReady.length === 0) return -1;
  let k = 0;
  for (let u = 0; u < t; u++) if (free(s.lanes[u])) k++;
  return k < s.graphReady.length ? s.graphReady[k] : -1;
}

/** A worker between two instances of the SCC it runs (ePaxos family): busy, not idle. */
function inScc(t: number, lane: LaneState): ThreadStatus {
  const name = sccName(lane.scc);
  return make(t, lane, 'next', -1, -1, `running ${name}: on to its next instance`, name, 'dim');
}

/** The status of worker `t` in state `s`. */
export function threadStatus(s: ReplayState, t: number, ctx: StatusContext): ThreadStatus {
  const lane = s.lanes[t];
  if (lane.exec >= 0) return executing(s, t, lane, ctx);
  if (lane.waitReason >= 0) return waiting(s, t, lane, ctx);
  return between(s, t, lane, ctx);
}

/** A thread the trace never mentioned (nothing recorded yet): idle. */
function unseen(t: number): ThreadStatus {
  const text = 'idle (empty queue)';
  return { thread: t, activity: 'idle', req: -1, cls: -1, victim: -1, queue: 0, text, short: 'idle', tone: 'idle' };
}

/** Every worker's status, in thread order. */
export function threadStatuses(s: ReplayState, ctx: StatusContext): ThreadStatus[] {
  return s.lanes.map((_, t) => threadStatus(s, t, ctx));
}

const INT = new Intl.NumberFormat('en-US');
/** 12,345 (one formatter: `toLocaleString` builds one per call, too slow per frame). */
export function fmtInt(n: number): string {
  return INT.format(n);
}

/**
 * How many deliveries the run made, for "delivered k of n". A request stream
 * delivers every request once (ids 0..n-1, so 1 + the largest id also covers
 * a cut trace); an event stream delivers only its roots, whose ids are
 * spread among their descendants', so there it is the number of deliveries.
 */
export function deliveryTotal(index: { requests: number; kindCounts: Uint32Array }): number {
  return isEventStream(index.kindCounts) ? index.kindCounts[KIND.Delivered] : index.requests;
}

/**
 * The timeline's progress words, in the stream's own units: a request
 * stream delivers requests and completes them; an event stream delivers
 * only its root events, and its handlers register the others, so "1 of 20
 * delivered · 190 completed" would compare roots with every event run.
 */
export function progressWords(
  index: { requests: number; kindCounts: Uint32Array },
  delivered: number,
  completed: number,
): { delivered: string; of: string; completed: string; done: string } {
  const events = isEventStream(index.kindCounts);
  return {
    delivered: fmtInt(delivered),
    of: ` of ${fmtInt(deliveryTotal(index))} ${events ? 'root events' : 'requests'} delivered · `,
    completed: fmtInt(completed),
    done: events ? ' events run (roots and the events their handlers registered)' : ' completed',
  };
}

/** The scheduler (delivering) thread, in words. */
export function schedulerStatus(s: ReplayState, ctx: StatusContext, requests: number): string {
  const sc = s.scheduler;
  let text = `delivered ${fmtInt(sc.delivered)}${requests > 0 ? ` of ${fmtInt(requests)}` : ''}`;
  const own = familyWaits.get(sc.waitReason)?.scheduler;
  if (sc.waitReason === REASON.FullQueue) text += ' · blocked: a full queue (back-pressure)';
  else if (own) text += ` · ${own(s)}`;
  else if (sc.waitReason >= 0) text += ` · waiting: ${REASON_NAMES[sc.waitReason]}`;
  else if (sc.lastReq >= 0) text += ` · last ${reqName(ctx, sc.lastReq)} (${className(ctx, sc.lastClass)})`;
  if (sc.executed > 0 || sc.exec >= 0) {
    text += ` · executes requests itself: ${sc.executed} done`;
    if (sc.exec >= 0) text += `, now ${reqName(ctx, sc.exec)}`;
  }
  return text;
}

// ---------------------------------------------------------------------------
// Synchronization cards, derived from the same statuses.

export type GroupPhase = 'gathering' | 'executing' | 'executed' | 'released';

export interface MemberRole {
  thread: number;
  /** Short role in this group: "executes", "waits", "spins", "arrived", "executed it", "not yet", ... */
  role: string;
  /** The thread's status (same object the other views show). */
  status: ThreadStatus;
}

export interface GroupCard {
  cls: number;
  name: string;
  req: number;
  /** "barrier", "cycle 1", "cycle 0 + barrier". */
  kind: string;
  phase: GroupPhase;
  members: number[];
  arrived: number[];
  /** The executing or executing-done thread, or -1. */
  executor: number;
  /** One sentence: "1 of 2 arrived", "all 2 arrived: T0 executes r12", ... */
  headline: string;
  roles: MemberRole[];
}

export function groupPhase(g: SyncGroup): GroupPhase {
  if (g.releasedAt >= 0) return 'released';
  if (g.executedBy >= 0) return 'executed';
  if (g.executing >= 0) return 'executing';
  return 'gathering';
}

function memberRole(g: SyncGroup, st: ThreadStatus, phase: GroupPhase): string {
  const t = st.thread;
  if (st.req === g.req) {
    switch (st.activity) {
      case 'executing':
        return 'executes';
      case 'sync':
        return phase === 'gathering' || phase === 'executing' ? 'waits' : 'leaving';
      case 'spinning':
        // After the release a spinner is only about to see the reset mark: it leaves, as the card says.
        return phase === 'released' ? 'leaving' : 'spins';
      case 'stealing':
        return 'steals while waiting';
      case 'marker':
        return 'waits for its stealers';
      default:
        break;
    }
  }
  if (t === g.executedBy || (phase === 'released' && t === g.executor)) return 'executed it';
  if (g.arrived.includes(t)) return phase === 'released' ? 'moved on' : 'arrived';
  return 'not yet';
}

/** The card of group `g`: members from the mapping (else the arrivals), roles from the statuses. */
export function groupCard(
  g: SyncGroup,
  statuses: readonly ThreadStatus[],
  ctx: StatusContext,
  membersOfClass: readonly number[] | undefined,
): GroupCard {
  const members = membersOfClass && membersOfClass.length > 0 ? [...membersOfClass] : [...g.arrived];
  const phase = groupPhase(g);
  const m = ctx.mechanism;
  const kind = !m ? 'sync' : m.kind === 'barrier' ? 'barrier' : `cycle ${g.cycle}${m.barrierAfter ? ' + barrier' : ''}`;
  const executor = g.executing >= 0 ? g.executing : g.executedBy >= 0 ? g.executedBy : g.executor;
  const need = members.length;
  const headline =
    phase === 'gathering'
      ? `${g.arrived.length} of ${need} arrived`
      : phase === 'executing'
        ? `all ${need} arrived: T${executor} executes ${reqName(ctx, g.req)}`
        : phase === 'executed'
          ? `T${executor} executed ${reqName(ctx, g.req)}; releasing the others`
          : `released: T${executor} executed ${reqName(ctx, g.req)}`;
  const roles = members.map((t) => {
    const status: ThreadStatus = statuses[t] ?? unseen(t);
    return { thread: t, status, role: memberRole(g, status, phase) };
  });
  return {
    cls: g.cls,
    name: className(ctx, g.cls),
    req: g.req,
    kind,
    phase,
    members,
    arrived: [...g.arrived],
    executor,
    headline,
    roles,
  };
}
