/**
 * One state, one story, checked over a lesson: the test kit of the
 * per-family consistency tests (`views/<family>/consistency.test.ts`).
 *
 * It walks the algorithm steps (replay/steps.ts) of a real recorded trace
 * (trace/fixtures/, recorded in the browser by e2e/tests/status.spec.ts and
 * lesson-traces.spec.ts), samples many of them, and at each one lists every
 * contradiction between what the views say and the replay state they all
 * derive from:
 * - a status that is false of the state (idle with a queue, executing
 *   another request, ...);
 * - the lanes, the thread list and every view that lists threads disagree;
 *   a synchronization card's headline disagrees with its members' roles;
 * - the caption: missing, a raw trace name instead of a sentence, an
 *   execution it starts that no lane shows, a flag it calls down that the
 *   state shows up;
 * - no pseudo-code line for the step;
 * - the progress line compares roots with every event run.
 * A family's test adds its own checks (`Check`): its view's model against
 * the same state. Test code only: the app never imports it.
 */
import { createElement, type ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { shardedClasses } from '../engine/classes';
import { completedAt } from '../replay/progress';
import { nextStep, stepStartBefore } from '../replay/steps';
import type { Track } from '../replay/store';
import { KIND, KIND_NAMES, SCHEDULER } from '../trace/codec';
import { reasonWords } from '../trace/reasons';
import { loadTraceHere } from '../trace/load';
import type { ReplayState } from '../trace/state';
import { rng } from '../trace/synth';
import { classNames as namesOf, inferMapping } from './classes';
import { caption } from './narrate';
import { codeFor, stepLine } from './pseudocode/PseudoPanel';
import { loadAllPseudoCode } from './pseudocode/types';
import type { ViewProps } from './registry';
import { familyWait, groupCard, progressWords, statusContext, threadStatuses, type ThreadStatus } from './status';
import { SyncView } from './sync/SyncView';
import { ThreadsView } from './threads/ThreadsView';

const FIXTURES = import.meta.glob<string>('../trace/fixtures/*.trace.b64', {
  query: '?raw',
  import: 'default',
  eager: true,
});

async function gunzipBase64(text: string): Promise<ArrayBuffer> {
  const bin = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

/**
 * The engine fixtures `<scheduler>.<scenario>.s<shards>.trace.b64` of these schedulers, as replay
 * tracks, with every family's pseudo-code listings fetched (some are fetched on first need, a chunk
 * of their own), so that the checks below find them.
 */
export async function lessonTracks(schedulers: readonly string[]): Promise<{ file: string; track: Track }[]> {
  await loadAllPseudoCode();
  const out: { file: string; track: Track }[] = [];
  for (const [path, text] of Object.entries(FIXTURES)) {
    const file = path.split('/').pop() ?? path;
    const [scheduler, , shards] = file.split('.');
    if (!schedulers.includes(scheduler)) continue;
    const model = loadTraceHere(await gunzipBase64(text));
    const classNames = namesOf(shardedClasses(Number(shards.replace('s', ''))), model.index.classes);
    const track: Track = { key: file, label: scheduler, scheduler, model, classNames, mapping: [] };
    track.mapping = inferMapping(model, classNames);
    out.push({ file, track });
  }
  return out;
}

/** Every position right after an algorithm step (the positions stepping shows), in order. */
export function stepEnds(track: Track): number[] {
  const t = track.model.trace;
  const out: number[] = [];
  for (let p = nextStep(t, -1); p < t.length; p = nextStep(t, p)) out.push(p);
  out.push(t.length);
  return out;
}

/** `n` distinct step positions, seeded (the same on every run), in order. */
export function sampleSteps(track: Track, n: number, seed: number): number[] {
  const all = stepEnds(track).filter((p) => p > 0);
  if (all.length <= n) return all;
  const r = rng(seed);
  const picked = new Set<number>();
  while (picked.size < n) picked.add(all[Math.floor(r() * all.length)]);
  return [...picked].sort((a, b) => a - b);
}

/** What a check sees at one position. */
export interface Moment {
  track: Track;
  p: number;
  state: ReplayState;
  statuses: ThreadStatus[];
  caption: string;
  /** Index of the step's first event. */
  start: number;
}

/** A family's own check: the contradictions it finds at a moment (empty: none). */
export type Check = (m: Moment) => string[];

/** `data-thread` / `data-activity` / `data-req` of every thread item inside the element `testid`. */
function threadsIn(html: string, testid: string): Map<number, string> | null {
  const start = html.indexOf(`data-testid="${testid}"`);
  if (start < 0) return null;
  const end = html.indexOf('</ul>', start);
  const out = new Map<number, string>();
  for (const m of html.slice(start, end).matchAll(/data-thread="(\d+)" data-activity="([\w-]+)" data-req="(-?\d+)"/g)) {
    out.set(Number(m[1]), `${m[2]} r${m[3]}`);
  }
  return out;
}

function same(a: Map<number, string>, b: Map<number, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/** The props of a view showing one track at position `p` (no run report). */
export function oneTrackProps(track: Track, p: number, state: ReplayState, statuses: ThreadStatus[]): ViewProps {
  return { tracks: [track], positions: [p], states: [state], statuses: [statuses], runs: [undefined], allRuns: [] };
}

/** A status that is false of the replay state. */
function falseStatus(s: ReplayState, st: ThreadStatus): string | null {
  const lane = s.lanes[st.thread];
  const say = `T${st.thread} "${st.text}"`;
  if (st.activity === 'idle' && (lane.queue.length > 0 || lane.exec >= 0 || lane.stealVictim >= 0 || lane.scc >= 0))
    return `${say} but it holds work`;
  if (lane.exec >= 0 && (st.activity !== 'executing' || st.req !== lane.exec))
    return `${say} but it executes r${lane.exec}`;
  if (st.activity === 'executing' && lane.exec < 0) return `${say} but it executes nothing`;
  if (lane.stealVictim >= 0 && st.activity !== 'stealing' && st.activity !== 'executing')
    return `${say} but it holds T${lane.stealVictim}'s stolen work`;
  if ((st.activity === 'spinning' || st.activity === 'sync') && lane.waitReason >= 0 && st.req !== lane.waitReq)
    return `${say} but it waits for r${lane.waitReq}`;
  // A reason a family owns with a status of its own (the late graph's lock...) shows that status.
  const own = familyWait(lane.waitReason)?.worker;
  if (own && st.activity !== own.activity) return `${say} but it waits ${reasonWords(lane.waitReason)}`;
  return null;
}

/** Kind names of the trace vocabulary, as words a caption must not show ("(ExecStart)"). */
const NAMES = (KIND_NAMES as readonly (string | undefined)[]).filter((k): k is string => !!k);
/** "(Delivered)" after a sentence, or a CamelCase name ("ExecStart") anywhere. */
const RAW = new RegExp(`\\((${NAMES.join('|')})\\)|\\b(${NAMES.filter((k) => /[a-z][A-Z]/.test(k)).join('|')})\\b`);

/** The trace name a caption shows instead of saying what happens, or null. */
export function rawName(text: string): string | null {
  const m = RAW.exec(text);
  return m ? (m[1] ?? m[2]) : null;
}

/** The caption and the step's executions against the state. */
function captionProblems(m: Moment): string[] {
  const out: string[] = [];
  const { track, p, state, caption: text } = m;
  if (!/^[A-Z].*[.)]$/.test(text)) out.push(`caption is not a sentence: "${text}"`);
  const raw = rawName(text);
  if (raw) out.push(`caption names the trace event ${raw}: "${text}"`);
  const t = track.model.trace;
  // Every execution the step starts and does not end is visible after it.
  for (let i = m.start; i < p; i++) {
    if (t.kind(i) !== KIND.ExecStart) continue;
    const th = t.thread(i);
    const req = t.event(i).a;
    let ended = false;
    for (let j = i + 1; j < p; j++)
      if (t.kind(j) === KIND.ExecEnd && t.thread(j) === th && t.event(j).a === req) ended = true;
    if (ended) {
      out.push(
        `the step starts and ends r${req}'s execution by ${th === SCHEDULER ? 'the scheduler' : `T${th}`}: no step shows it executing`,
      );
      continue;
    }
    const shown = th === SCHEDULER ? state.scheduler.exec : state.lanes[th]?.exec;
    if (shown !== req)
      out.push(`"${text}" but ${th === SCHEDULER ? 'the scheduler' : `T${th}`} is not executing r${req}`);
  }
  for (const f of text.matchAll(/T(\d+)'s flag is down/g)) {
    if (state.lanes[Number(f[1])]?.ready === 1) out.push(`"${text}" but T${f[1]}'s flag is up`);
  }
  return out;
}

/** Every contradiction at position `p` (empty: one state, one story). */
export function contradictions(
  track: Track,
  p: number,
  threadViews: readonly ComponentType<ViewProps>[] = [],
  checks: readonly Check[] = [],
): string[] {
  const out: string[] = [];
  const state = track.model.stateAt(p);
  const ctx = statusContext(track);
  const statuses = threadStatuses(state, ctx);
  for (const st of statuses) {
    const bad = falseStatus(state, st);
    if (bad) out.push(bad);
  }
  const props = oneTrackProps(track, p, state, statuses);
  const lanes = threadsIn(renderToStaticMarkup(createElement(ThreadsView, props)), 'lane-status');
  if (!lanes || lanes.size !== state.lanes.length) out.push('the lanes do not show every thread');
  const syncHtml = renderToStaticMarkup(createElement(SyncView, props));
  for (const [k, view] of [SyncView, ...threadViews].entries()) {
    const html = k === 0 ? syncHtml : renderToStaticMarkup(createElement(view, props));
    const list = threadsIn(html, 'thread-list');
    if (lanes && list && !same(list, lanes))
      out.push(`${view.name || 'a view'}'s thread list disagrees with the lanes`);
  }
  // Synchronization cards: members as the lanes say, headline as the members say.
  for (const m of syncHtml.matchAll(
    /data-thread="(\d+)" data-role="[^"]*" data-activity="([\w-]+)" data-status-req="(-?\d+)"/g,
  )) {
    const l = lanes?.get(Number(m[1]));
    if (l && l !== `${m[2]} r${m[3]}`) out.push(`a card says T${m[1]} is ${m[2]} r${m[3]}, the lane ${l}`);
  }
  for (const g of state.syncs) {
    const card = groupCard(g, statuses, ctx, track.mapping[g.cls]?.threads);
    for (const r of card.roles) {
      if (card.phase === 'released' && (r.role === 'spins' || r.role === 'waits' || r.role === 'executes'))
        out.push(`card "${card.headline}" but T${r.thread} ${r.role}`);
      if (card.phase === 'gathering' && r.role === 'executes')
        out.push(`card "${card.headline}" but T${r.thread} executes`);
    }
    if (card.phase === 'executing' && statuses[card.executor]?.activity !== 'executing')
      out.push(`card "${card.headline}" but T${card.executor} is ${statuses[card.executor]?.activity}`);
  }
  const cap = caption(track, p, state);
  if (!cap) out.push('no caption');
  const start = cap?.start ?? stepStartBefore(track.model.trace, p);
  const moment: Moment = { track, p, state, statuses, caption: cap?.text ?? '', start };
  if (cap) out.push(...captionProblems(moment));
  const code = codeFor(track.scheduler);
  if (!code) out.push(`no pseudo-code listing for ${track.scheduler}`);
  else if (!stepLine(code, track, p, start)) out.push(`no pseudo-code line for the step "${cap?.text}"`);
  // The progress line: "k of n delivered · m completed" in one unit.
  const done = completedAt(track.model, p);
  const words = progressWords(track.model.index, state.scheduler.delivered, done);
  if (done > state.scheduler.delivered && words.of.includes('requests'))
    out.push(`"${words.delivered}${words.of}${words.completed}${words.done}": more completed than delivered`);
  for (const c of checks) out.push(...c(moment));
  return out.map((x) => `@${p}: ${x}`);
}

/** What a lesson check saw: the steps sampled, those showing an execution, and the contradictions. */
export interface LessonCheck {
  steps: number;
  executing: number;
  problems: string[];
}

/** Sample `n` steps of `track` and list every contradiction (at most 20, with where). */
export function checkLesson(
  track: Track,
  n: number,
  threadViews: readonly ComponentType<ViewProps>[] = [],
  checks: readonly Check[] = [],
): LessonCheck {
  const steps = sampleSteps(track, n, 29);
  const problems: string[] = [];
  let executing = 0;
  const ctx = statusContext(track);
  for (const p of steps) {
    problems.push(...contradictions(track, p, threadViews, checks));
    const s = track.model.stateAt(p);
    if (s.scheduler.exec >= 0 || threadStatuses(s, ctx).some((st) => st.activity === 'executing')) executing++;
  }
  return { steps: steps.length, executing, problems: problems.slice(0, 20) };
}

/**
 * The per-family test: for every recorded lesson trace of `schedulers`
 * (`files` of them exactly), 120 sampled steps, each free of
 * contradictions, and some of them showing an execution.
 */
export function describeLesson(
  title: string,
  schedulers: readonly string[],
  files: number,
  views: readonly ComponentType<ViewProps>[] = [],
  checksFor: (track: Track) => readonly Check[] = () => [],
): void {
  describe(`${title}: one state, one story at every sampled step`, async () => {
    const tracks = await lessonTracks(schedulers);
    it(`has ${files} recorded lesson trace${files === 1 ? '' : 's'}`, () => expect(tracks).toHaveLength(files));
    for (const { file, track } of tracks) {
      it(
        file,
        () => {
          const r = checkLesson(track, 120, views, checksFor(track));
          expect(r.problems).toEqual([]);
          expect(r.steps).toBeGreaterThanOrEqual(100);
          expect(r.executing, 'steps that show an execution').toBeGreaterThan(0);
        },
        120_000,
      );
    }
  });
}
