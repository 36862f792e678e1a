/**
 * Links that keep what they share. The URL hash may carry a scenario
 * (`scenario=<payload>`, share/codec.ts) and a classroom moment: the runs to
 * replay (`runs=early,busy-wait`, labels), the view (`view=sync`), the run
 * that leads (`lead=early`) and where (`at=done:120`, the moment 120
 * requests were completed, or `at=steal`, a lesson bookmark finder such as
 * the first steal), and a lesson (`lesson=stealing`).
 *
 * A scenario in a link is run again when the link is opened (same seed,
 * same requests; the timings are new), so a moment is named by progress in
 * the stream or by what happened, never by trace event number. Tab
 * switches keep every key (components/nav.ts), so a reload opens the same.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { decodeScenario, encodeScenario, payloadFromHash, HASH_KEY } from '../share/codec';
import { runStore } from '../store';
import { hashParams, navStore } from './nav';
import { lessonById } from '../lessons/lessons';
import { lessonStore } from '../lessons/store';
import { referenceLabel } from '../engine/virtualCores';

export interface Moment {
  runs: string[];
  view: string | null;
  lead: string | null;
  /** `done:<k>` or a bookmark finder id. */
  at: string | null;
  /** Virtual cores of the shared run (null: real threads); the link re-runs on as many. */
  vc?: number | null;
  /** The cost table of the shared virtual run (the browser's runs use `reference`). */
  ct?: string | null;
  /** Exact replay position, events in the lead run's trace, its digest (views/exactMoment.ts). */
  pos?: number | null;
  len?: number | null;
  dg?: string | null;
}

export interface LinkState {
  /** A shared scenario is being opened, or failed to open. */
  status: { state: 'none' } | { state: 'loading' } | { state: 'loaded' } | { state: 'error'; error: string };
  /** A classroom moment waiting for its run's traces (consumed by the classroom). */
  moment: Moment | null;
  /** The run serial the moment belongs to (the run the link started). */
  momentSerial: number;
}

export const linkStore = createStore<LinkState>()(() => ({
  status: { state: 'none' },
  moment: null,
  momentSerial: -1,
}));

export function useLink<T>(sel: (s: LinkState) => T): T {
  return useStore(linkStore, sel);
}

/** The moment a hash names, if it names runs or a place in them. */
export function momentOf(p: URLSearchParams): Moment | null {
  const runs = (p.get('runs') ?? '').split(',').filter(Boolean);
  const at = p.get('at');
  if (runs.length === 0 && !at) return null;
  const int = (k: string) => {
    const n = Number(p.get(k) ?? NaN);
    return Number.isInteger(n) && n >= 0 ? n : null;
  };
  const vc = int('vc');
  return {
    runs,
    view: p.get('view'),
    lead: p.get('lead'),
    at,
    vc: vc && vc > 0 ? vc : null,
    pos: int('pos'),
    len: int('len'),
    ct: p.get('ct'),
    dg: p.get('dg'),
  };
}

/** The hash keys of a moment's place (position, trace length, digest, virtual cores), null ones dropped. */
export function placeParams(m: Moment): Record<string, string | null> {
  const s = (x: number | string | null | undefined) => (x === null || x === undefined ? null : String(x));
  return { vc: s(m.vc), ct: s(m.ct), pos: s(m.pos), len: s(m.len), dg: s(m.dg) };
}

let opened = 0;

/**
 * Open the scenario of the current hash, if any: load it as the shared
 * scenario; with a classroom moment, run it and hand the moment to the
 * classroom. The Author tab opens links itself (with its own error box).
 */
export async function openLink(): Promise<void> {
  const payload = payloadFromHash(location.hash);
  if (navStore.getState().tab === 'author') return;
  if (payload === null) return reopenLesson();
  const mine = ++opened;
  linkStore.setState({ status: { state: 'loading' } });
  const r = await decodeScenario(payload);
  if (mine !== opened) return;
  if (!r.ok) {
    linkStore.setState({ status: { state: 'error', error: r.error } });
    return;
  }
  runStore.getState().loadShared(r.text);
  linkStore.setState({ status: { state: 'loaded' } });
  const moment = momentOf(hashParams());
  if (!moment) return;
  // The moment needs a run (which starts the engine, if it is not up); a run already going on finishes first.
  const start = async () => {
    const rs = runStore.getState();
    if (rs.phase === 'running') return false;
    linkStore.setState({ moment, momentSerial: rs.runSerial + 1 });
    // A lesson's moment shows the lesson's bar too.
    const lesson = lessonById(hashParams().get('lesson'));
    if (lesson)
      lessonStore.setState({ lessonId: lesson.id, serial: rs.runSerial + 1, runs: [rs.runSerial + 1], whatIf: null });
    if (lesson && moment.vc) lessonStore.setState({ whatIf: referenceLabel(moment.vc) });
    navStore.getState().setTab('classroom');
    // A virtual moment re-runs on as many virtual cores (deterministic: the same trace); a lesson's options apply.
    await rs.run({ ...lesson?.options, ...(moment.vc ? { virtual_cores: moment.vc } : {}) });
    return true;
  };
  if (!(await start())) {
    const unsub = runStore.subscribe((s) => {
      if (s.phase !== 'running') {
        unsub();
        void start();
      }
    });
  }
}

/**
 * A page reloaded during a lesson (`lesson=<id>` in the hash, no shared
 * scenario): start the lesson again and, once its run is replayed, go back
 * to the moment the hash names (the classroom keeps it there while a lesson
 * is on). A lesson already on, or a run going on, is left alone.
 */
async function reopenLesson(): Promise<void> {
  const p = hashParams();
  const lesson = lessonById(p.get('lesson'));
  const rs = runStore.getState();
  if (!lesson || lessonStore.getState().lessonId !== null || rs.phase === 'running') return;
  const moment = momentOf(p);
  linkStore.setState({ moment, momentSerial: moment ? rs.runSerial + 1 : -1 });
  await lessonStore.getState().start(lesson, moment?.vc ?? null);
}

/** A link to this scenario text and classroom moment (the page's URL, hash replaced). */
export async function momentUrl(text: string, m: Moment, lesson: string | null): Promise<string | { error: string }> {
  const enc = await encodeScenario(text);
  if (!enc.ok) return { error: enc.error };
  const p = new URLSearchParams();
  p.set('tab', 'classroom');
  if (lesson) p.set('lesson', lesson);
  if (m.runs.length > 0) p.set('runs', m.runs.join(','));
  if (m.view) p.set('view', m.view);
  if (m.lead) p.set('lead', m.lead);
  if (m.at) p.set('at', m.at);
  for (const [k, v] of Object.entries(placeParams(m))) if (v !== null) p.set(k, v);
  // The payload is base64url: safe as is, and kept last (it is long).
  return `${location.origin}${location.pathname}${location.search}#${p.toString()}&${HASH_KEY}=${enc.payload}`;
}
