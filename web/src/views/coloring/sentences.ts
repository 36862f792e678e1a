/**
 * `describe`'s sentences for the event kinds of the event-coloring runtimes
 * (Libasync-smp and Mely): a color finding its core, a color-queue changing,
 * a steal tried, refused or costed, Mely's stealing queue. Declared by the
 * family's module (index.ts) and registered with trace/codec.ts, so the
 * kinds are named here and in the engine's vocabulary only.
 */
import { F, NO_REQUEST, SMALL, type Sentence } from '../../trace/codec';
import type { ByKind } from '../../trace/dispatch';
import { measuredUs } from './words';

/** How a free color got its core (`ColorHome.how`), in words, by code. */
export const HOME_HOW: Record<number, string> = {
  [SMALL.ColorHome.how.Hashed]: 'hashed',
  [SMALL.ColorHome.how.RegisteringCore]: 'the registering core',
  [SMALL.ColorHome.how.FixedCore]: 'a fixed core',
};

/** The sentence of each of the family's own kinds. */
export const coloringSentences: ByKind<Sentence> = {
  Registered: (_e, c) => {
    const parent = c.f(F.Registered.parent);
    const child = c.f(F.Registered.child);
    const where = `color ${c.f(F.Registered.color)}, into T${c.f(F.Registered.core)}'s queue`;
    return parent === NO_REQUEST
      ? `${c.who} queues root event e${child} (${where})`
      : `e${parent} registers e${child} (${where})`;
  },
  ColorSteal: (_e, c) =>
    `${c.who} steals color ${c.f(F.ColorSteal.color)} (${c.f(F.ColorSteal.count)} events) from T${c.f(F.ColorSteal.victim)}`,
  ColorHome: (_e, c) => {
    const how = HOME_HOW[c.f(F.ColorHome.how)] ?? 'a core';
    return `free color ${c.f(F.ColorHome.color)} goes to T${c.f(F.ColorHome.core)} (${how})`;
  },
  ColorQueue: (_e, c) => {
    const op = ['joins', 'leaves', 'moves to the tail of'][c.f(F.ColorQueue.op)] ?? 'changes in';
    return `color ${c.f(F.ColorQueue.color)} ${op} T${c.f(F.ColorQueue.core)}'s queue (${c.f(F.ColorQueue.len)} events)`;
  },
  StealTry: (_e, c) =>
    `${c.who} looks at T${c.f(F.StealTry.victim)}'s queue (${c.f(F.StealTry.queued)} events) for a color to steal`,
  StealRefused: (_e, c) => {
    const why =
      [
        'fewer than two colors queued',
        'no color under half the queue',
        'time left not above the steal cost',
        'no stealable color',
      ][c.f(F.StealRefused.heuristic)] ?? 'refused';
    return `${c.who} does not steal color ${c.f(F.StealRefused.color)}: ${why} (time left ${c.f(F.StealRefused.left_ns)} ns, steal cost ${c.f(F.StealRefused.cost_ns)} ns)`;
  },
  StealCost: (_e, c) =>
    `${c.who}'s steal from T${c.f(F.StealCost.victim)} took ${measuredUs(c.f(F.StealCost.steal_ns))} for ${c.f(F.StealCost.left_ns)} ns of work`,
  StealQueue: (_e, c) => {
    const iv = c.f(F.StealQueue.interval);
    const color = c.f(F.StealQueue.color);
    const core = c.f(F.StealQueue.core);
    return iv >= 3
      ? `color ${color} leaves T${core}'s stealing queue`
      : `color ${color} enters T${core}'s stealing queue, interval ${iv} (${c.f(F.StealQueue.left_ns)} ns left)`;
  },
};
