/**
 * What-if changes a teacher can make live, each a change of the scenario
 * on the same seed: more writes (more conflicts), one hot shard (one
 * thread gets most of the work), twice the threads. The changed text is
 * what runs (the sidebar shows it); the run before stays loaded for
 * comparison. Slowing one thread down needs the engine's per-thread pace
 * (`RunOptions.thread_pace_ns`, offered when the engine lists the
 * `thread-pace` feature).
 */
import type { RunOptions } from '../engine/protocol';
import { fields, readScenario, type ScenarioDoc } from '../engine/scenario';

export interface WhatIf {
  id: string;
  label: string;
  /** Why a teacher would try it, in one line. */
  hint: string;
  /** The changed scenario object, or a reason it does not apply. */
  apply(s: Record<string, unknown>): Record<string, unknown> | string;
  /** Run options it needs (beyond the text). */
  options?(s: Record<string, unknown>): RunOptions;
  /** An engine feature it needs (ReadyInfo.features). */
  needs?: string;
}

type Obj = ScenarioDoc;
const obj = fields;
const clone = (s: Obj): Obj => structuredClone(s);

function hasExplicitMapping(s: Obj): boolean {
  const list = Array.isArray(s.schedulers) ? s.schedulers : [];
  return list.some((x) => obj(obj(x).mapping).kind === 'explicit');
}

/**
 * A copy of `s` whose workload `edit` changes, or why not: an explicit class
 * mix has no write share or skew to change.
 */
function withWorkload(s: Obj, edit: (workload: Obj) => void): Obj | string {
  if ('mix' in obj(s.workload)) return 'the workload gives an explicit class mix';
  const out = clone(s);
  edit(obj(out.workload));
  return out;
}

export const WHAT_IFS: WhatIf[] = [
  {
    id: 'writes',
    label: 'More writes',
    hint: 'writes +20% of the requests: more sequential requests, more meetings',
    apply(s) {
      return withWorkload(s, (w) => {
        w.writes = Math.min(1, Math.round(((typeof w.writes === 'number' ? w.writes : 0) + 0.2) * 100) / 100);
      });
    },
  },
  {
    id: 'hot',
    label: 'One hot shard',
    hint: '90% of the local requests on shard 1: one thread gets most of the work',
    apply(s) {
      return withWorkload(s, (w) => {
        w.skew = { kind: 'skewed', hot: 0, share: 0.9 };
      });
    },
  },
  {
    id: 'threads',
    label: 'Twice the threads',
    hint: 'the same stream on twice as many worker threads',
    apply(s) {
      if (hasExplicitMapping(s)) return 'a mapping written by hand is for its thread count';
      const t = typeof s.threads === 'number' ? s.threads : 1;
      if (t * 2 > 16) return 'the browser runs at most 16 worker threads';
      const out = clone(s);
      out.threads = t * 2;
      return out;
    },
  },
  {
    id: 'slow-t0',
    label: 'Slow T0 down',
    hint: 'T0 spends 5x the pace on every request: watch the others wait for it, or steal from it',
    needs: 'thread-pace',
    apply: (s) => clone(s),
    options(s) {
      const run = obj(s.run);
      const pace = typeof run.pace_ns === 'number' && run.pace_ns > 0 ? run.pace_ns : 50_000;
      const threads = typeof s.threads === 'number' ? s.threads : 1;
      return { thread_pace_ns: Array.from({ length: threads }, (_, t) => (t === 0 ? pace * 5 : pace)) };
    },
  },
];

/** Apply a what-if to scenario text: the new text, or why it does not apply. */
export function applyWhatIf(
  w: WhatIf,
  text: string,
): { ok: true; text: string; options: RunOptions } | { ok: false; why: string } {
  const read = readScenario(text);
  if (!read.ok) return { ok: false, why: 'the scenario is not valid JSON' };
  const s = read.doc;
  const out = w.apply(s);
  if (typeof out === 'string') return { ok: false, why: out };
  return { ok: true, text: JSON.stringify(out, null, 2) + '\n', options: w.options?.(s) ?? {} };
}
