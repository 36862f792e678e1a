/**
 * Drawing the threads-and-queues view on a canvas: one lane per worker
 * thread (status, the request it executes, its queue as class-colored
 * chips, oldest first), the scheduler on top dispatching into the queues,
 * and stolen requests in the stealer's lane. Pure function of a replay
 * state, so it is measured (docs/benchmarks/frontend.md) without React.
 */
import { F, FOCUS, KIND, SCHEDULER, field, type FieldWord, type TraceEvent } from '../../trace/codec';
import type { ReplayState } from '../../trace/state';
import type { Palette } from '../display';
import type { ThreadStatus } from '../status';

export interface LaneLayout {
  width: number;
  laneH: number;
  headerH: number;
  labelW: number;
  execW: number;
  chipW: number;
  chipGap: number;
  /** Room between a lane's edge and its chips (less in a tight lane, so its chips stay tall enough to read). */
  inset: number;
  font: number;
}

/** Lane heights: at least a line and a half of type, at most a few lines (larger chips, same story). */
export function laneHeightBounds(font: number): { min: number; max: number } {
  return { min: Math.round(font * 2.4), max: Math.round(font * 8) };
}

/**
 * The least lane height (ems) when the height given is tight: the thread's
 * name and status still read and the chips keep their class colors (their
 * ids get small), and every lane is drawn, since a caption may name any
 * thread. Two runs of four workers stacked at 1280x720 in large type do
 * not come down to it (their names are in their scheduler rows, not on a
 * title line: about 1.6 em, ids of 0.7 em); three or four runs may.
 */
export const LEAST_LANE_EMS = 1.1;

/**
 * The layout of `width` x (as tall as `fitHeight` allows) for `lanes`
 * lanes: lanes grow to fill the height given (a projector's screen), within
 * `laneHeightBounds`; chips grow with the lanes. When the height given holds
 * no lanes at their usual least, the scheduler's row gives up its spare
 * height first, then the lanes shrink to `LEAST_LANE_EMS` (chips keep their
 * width), so that every lane fits.
 */
export function layoutFor(width: number, font: number, lanes = 1, fitHeight = 0): LaneLayout {
  const { min, max } = laneHeightBounds(font);
  const n = Math.max(1, lanes);
  const tight = fitHeight > 0 && (fitHeight - Math.round(font * 3.2) - 8) / n < min;
  const headerH = Math.round(font * (tight ? 1.6 : 3.2));
  const fit = fitHeight > 0 ? Math.floor((fitHeight - headerH - 8) / n) : min;
  const laneH = Math.max(tight ? Math.round(font * LEAST_LANE_EMS) : min, Math.min(max, fit));
  const grow = Math.max(1, laneH / min);
  return {
    width,
    laneH,
    headerH,
    labelW: Math.round(font * 11),
    execW: Math.round(font * 5 * Math.min(grow, 1.4)),
    chipW: Math.round(font * 2.6 * Math.min(grow, 1.25)),
    chipGap: Math.max(2, Math.round(font / 5)),
    inset: tight ? 2 : 4,
    font,
  };
}

/**
 * The height (px) each of `runs` stacked runs gives its lanes and legend,
 * in a view `height` tall whose runs share a legend `sharedLegendH` tall
 * (0: each run has its own): an equal share, less the stack's 4 px gaps
 * and a cell's 8 px. No title line comes off: each run's name is in its
 * scheduler's row (at 1280x720 two stacked runs' titles took the ~36 px
 * their lanes needed to be read).
 */
export function runFit(height: number, runs: number, sharedLegendH: number): number {
  const n = Math.max(1, runs);
  return Math.max(0, Math.floor((height - sharedLegendH - 4 * (n - 1)) / n) - 8);
}

export function heightFor(l: LaneLayout, lanes: number): number {
  return l.headerH + lanes * l.laneH + 8;
}

/** The request the current event is about, to highlight it everywhere. */
export function focusRequest(e: TraceEvent | null): number {
  if (!e) return -1;
  // The engine's vocabulary says which field names the event's request.
  const w = FOCUS[e.kind] ?? -1;
  return w < 0 ? -1 : field(e, w as FieldWord);
}

export interface DrawInput {
  state: ReplayState;
  /** Every worker's derived status (views/status.ts): the lane labels say exactly this. */
  statuses: readonly ThreadStatus[];
  event: TraceEvent | null;
  reqClass: Int32Array;
  classNames: readonly string[];
  /** The scheduler thread's line (views/status.ts `schedulerStatus`). */
  schedulerText: string;
  /** The letter before an id on a chip, in the family's words (views/status.ts `itemLetter`); default "r". */
  item?: string;
  /** The run's name, said in the scheduler's row where runs are stacked (none: the row says "Scheduler"). */
  run?: string;
}

/** Where a chip was drawn: to animate it from there to where the next state puts it. */
export interface ChipPos {
  x: number;
  y: number;
  w: number;
  cls: number;
  req: number;
}

/** Chip positions of a drawn frame, by chip, by lane and request, and by request. */
export interface Drawn {
  byKey: Map<string, ChipPos>;
  byLaneReq: Map<string, ChipPos>;
  byReq: Map<number, ChipPos>;
}

/**
 * A transition from the previous frame's chips to this state's: `t` runs
 * 0..1. A chip that was on screen moves from where it was (a take moves it
 * from the queue to the executing slot; a steal from the victim's lane to
 * the stealer's); a new chip flies in from the scheduler (a dispatch); a
 * chip that is gone fades out where it was (an executed request).
 */
export interface Transition {
  from: Drawn;
  t: number;
}

const ease = (t: number) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);

export function drawLanes(
  ctx: CanvasRenderingContext2D,
  l: LaneLayout,
  p: Palette,
  d: DrawInput,
  anim?: Transition,
): Drawn {
  const { state: s, event, reqClass } = d;
  const lanes = s.lanes.length;
  const h = heightFor(l, lanes);
  ctx.fillStyle = p.bg;
  ctx.fillRect(0, 0, l.width, h);
  ctx.textBaseline = 'middle';
  const focus = focusRequest(event);
  const overflowTargets: { x: number; y: number }[] = [];
  // The event enqueued a request into lane t's queue (where the dispatch arrow points).
  const dispatched = (e: TraceEvent | null, t: number) =>
    !!e && e.thread === SCHEDULER && e.kind === KIND.Enqueued && field(e, F.Enqueued.to) === t;
  const clsOf = (r: number) => (r >= 0 && r < reqClass.length ? reqClass[r] : -1);

  const chipH = l.laneH - 2 * l.inset;
  // Chips are collected first and drawn in one path per class color (a
  // canvas state change per chip costs more than the chip), then outlines,
  // then labels, which are skipped when there are too many to read.
  const chips: Chip[] = [];
  const held: Chip[] = [];
  let lane = 0;
  const addChip = (x: number, y: number, w: number, req: number, outline: string | null, slot = 'q') => {
    chips.push({ x, y, w, req, cls: clsOf(req), outline, lane, slot });
  };

  for (let t = 0; t < lanes; t++) {
    lane = t;
    const ln = s.lanes[t];
    const y0 = l.headerH + t * l.laneH;
    ctx.fillStyle = t % 2 === 0 ? p.laneBg : p.bg;
    ctx.fillRect(0, y0, l.width, l.laneH);
    const st = d.statuses[t];
    const tone = p[st?.tone ?? 'idle'];
    // Status bar and label: the derived status, as every other view says it.
    ctx.fillStyle = tone;
    ctx.fillRect(0, y0 + 2, 5, l.laneH - 4);
    ctx.fillStyle = p.fg;
    ctx.font = `bold ${l.font}px system-ui, sans-serif`;
    ctx.fillText(`T${t}`, 10, y0 + l.laneH / 2);
    ctx.font = `${Math.round(l.font * 0.85)}px system-ui, sans-serif`;
    ctx.fillStyle = tone;
    ctx.fillText(st?.short ?? '', 10 + l.font * 2.2, y0 + l.laneH / 2, l.labelW - l.font * 2.6);
    // The executing request: a wide chip with a frame. A thread waiting at
    // a barrier or cycle shows the request it holds there, hatched.
    const ex = l.labelW;
    ctx.strokeStyle = p.grid;
    ctx.lineWidth = 1;
    ctx.strokeRect(ex, y0 + l.inset - 1, l.execW, l.laneH - 2 * l.inset + 2);
    if (ln.exec >= 0) addChip(ex + 2, y0 + l.inset, l.execW - 4, ln.exec, ln.exec === focus ? p.focus : p.exec, 'x');
    else if (st && st.req >= 0 && HOLDING.has(st.activity)) {
      const h = { x: ex + 2, y: y0 + l.inset, w: l.execW - 4, req: st.req, cls: clsOf(st.req), outline: p[st.tone] };
      held.push({ ...h, lane: t, slot: 'h' });
    }
    // Stolen requests wait right after the exec slot, outlined in the steal color.
    let x = ex + l.execW + l.chipGap * 2;
    const maxX = l.width - l.font * 3;
    let stolenShown = 0;
    for (const r of ln.stolen) {
      if (x + l.chipW > maxX) break;
      addChip(x, y0 + l.inset, l.chipW, r, r === focus ? p.focus : p.steal, 's');
      x += l.chipW + l.chipGap;
      stolenShown++;
    }
    if (ln.stolen.length > 0) x += l.chipGap * 3;
    // The queue, oldest first (next to be taken is on the left).
    let shown = 0;
    for (const r of ln.queue) {
      if (x + l.chipW > maxX) break;
      addChip(x, y0 + l.inset, l.chipW, r, r === focus ? p.focus : null);
      x += l.chipW + l.chipGap;
      shown++;
    }
    // Every request of the lane not drawn is counted, stolen ones included.
    const hidden = ln.stolen.length - stolenShown + ln.queue.length - shown;
    if (hidden > 0) {
      ctx.fillStyle = p.dim;
      ctx.font = `${Math.round(l.font * 0.85)}px system-ui, sans-serif`;
      ctx.fillText(`+${hidden}`, maxX + 4, y0 + l.laneH / 2);
      // A dispatched request past the drawn part of the queue: the arrow points at "+N".
      if (dispatched(event, t)) overflowTargets.push({ x: maxX + l.font, y: y0 + l.inset });
    }
  }
  if (anim) moveAndFade(ctx, chips, held, anim, l, chipH, p);
  const drawn = record(chips, held);
  drawChips(ctx, chips, chipH, l, p, d.item);
  drawHeld(ctx, held, chipH, l, p, d.item);
  // After the chips: a chip flying in from the scheduler's row passes under
  // its words, never over a run's name.
  drawSchedulerRow(ctx, l, p, d);

  // Dispatch arrows: while the scheduler handles a request, an arrow goes
  // to every queue holding it, so a sequential class's request is seen
  // landing in the queue of each thread of its class (Algorithm 1).
  if (event && event.thread === SCHEDULER && (event.kind === KIND.Enqueued || event.kind === KIND.Delivered)) {
    const from = { x: l.labelW - 10, y: l.headerH - 6 };
    for (const c of chips) {
      if (c.req !== focus || c.slot !== 'q') continue;
      arrow(ctx, from.x, from.y, c.x + c.w / 2, c.y, p.focus, 3.5);
    }
    for (const o of overflowTargets) arrow(ctx, from.x, from.y, o.x, o.y, p.focus, 3.5);
  }
  // Steal arrows: from victim lane to stealer lane, at the right edge.
  for (let t = 0; t < lanes; t++) {
    const v = s.lanes[t].stealVictim;
    if (v < 0 || v >= lanes) continue;
    const yv = l.headerH + v * l.laneH + l.laneH / 2;
    const ys = l.headerH + t * l.laneH + l.laneH / 2;
    const c = stealCurve(l.labelW - 8, yv, ys, l);
    ctx.strokeStyle = p.steal;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.moveTo(c.x, c.y0);
    ctx.bezierCurveTo(c.x - c.bulge, c.y0, c.x - c.bulge, c.y1, c.x, c.y1);
    ctx.stroke();
    arrowHead(ctx, c.x - 6, c.y1, c.x, c.y1, p.steal);
  }
  return drawn;
}

/**
 * The scheduler's row: "Scheduler" and its status; where runs are stacked,
 * the run's name in bold instead of "Scheduler" (a title line above each
 * run took the height its lanes needed), its status after it. The status
 * keeps its width; a name too long for what is left is cut with an
 * ellipsis (the canvas's title has it whole), never squeezed. Each text
 * sits on the background's color, so a chip moving through the row (a
 * dispatch starts there) passes under it.
 */
function drawSchedulerRow(ctx: CanvasRenderingContext2D, l: LaneLayout, p: Palette, d: DrawInput): void {
  const y = l.headerH / 2;
  const bold = `bold ${l.font}px system-ui, sans-serif`;
  const plain = `${l.font}px system-ui, sans-serif`;
  ctx.font = plain;
  const statusW = ctx.measureText(d.schedulerText).width;
  ctx.font = bold;
  ctx.fillStyle = p.fg;
  let x = l.labelW;
  if (d.run) {
    const gap = l.font;
    // What the status leaves, but never less than a share of the row.
    const room = Math.max(l.width * RUN_NAME_LEAST_SHARE, l.width - 8 - gap - statusW - 8);
    const name = cutToFit(d.run, room, (t) => ctx.measureText(t).width);
    const nameW = ctx.measureText(name).width;
    onBackground(ctx, p, 8, y, nameW, l.font);
    ctx.fillText(name, 8, y);
    x = Math.max(x, 8 + nameW + gap);
  } else {
    onBackground(ctx, p, 8, y, ctx.measureText('Scheduler').width, l.font);
    ctx.fillText('Scheduler', 8, y);
  }
  ctx.font = plain;
  // Squeezed only when the status alone is wider than the row.
  const statusRoom = Math.max(0, l.width - x - 8);
  onBackground(ctx, p, x, y, Math.min(statusW, statusRoom), l.font);
  ctx.fillStyle = p.dim;
  ctx.fillText(d.schedulerText, x, y, statusRoom);
}

/**
 * Paint the background's color behind a text `w` px wide starting at `x`
 * on the line centred at `y`, and leave the text's color as it was.
 */
function onBackground(ctx: CanvasRenderingContext2D, p: Palette, x: number, y: number, w: number, font: number): void {
  const fill = ctx.fillStyle;
  ctx.fillStyle = p.bg;
  ctx.fillRect(x - 2, y - font * 0.65, w + 4, font * 1.3);
  ctx.fillStyle = fill;
}

/** The least of the scheduler's row a run's name keeps however long the status is. */
const RUN_NAME_LEAST_SHARE = 0.2;

/**
 * `text`, or its longest start followed by an ellipsis, whichever is the
 * longest to measure at most `room` px (`measure` gives a text's width);
 * the ellipsis alone when not even one character fits with it.
 */
export function cutToFit(text: string, room: number, measure: (t: string) => number): string {
  if (measure(text) <= room) return text;
  const chars = Array.from(text);
  // Binary search for the most characters that fit with the ellipsis.
  let lo = 0;
  let hi = chars.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(chars.slice(0, mid).join('').trimEnd() + '\u2026') <= room) lo = mid;
    else hi = mid - 1;
  }
  return chars.slice(0, lo).join('').trimEnd() + '\u2026';
}

/**
 * A steal arrow at the lanes' left edge (x) from the victim's lane middle
 * (yv) to the stealer's (ys). Downward steals start and end a sixth of a
 * lane below the middles and bulge wide; upward ones a sixth above and
 * bulge narrow: two opposite steals between the same two threads (A from
 * B, B from A) are two arcs with two arrowheads, never one.
 */
export function stealCurve(
  x: number,
  yv: number,
  ys: number,
  l: Pick<LaneLayout, 'font' | 'laneH'>,
): { x: number; y0: number; y1: number; bulge: number } {
  const down = ys >= yv;
  const off = (down ? 1 : -1) * (l.laneH / 6);
  return { x, y0: yv + off, y1: ys + off, bulge: l.font * (down ? 3 : 1.8) };
}

/** The final positions of this frame's chips (the start of the next transition). */
function record(chips: Chip[], held: Chip[]): Drawn {
  const byKey = new Map<string, ChipPos>();
  const byLaneReq = new Map<string, ChipPos>();
  const byReq = new Map<number, ChipPos>();
  for (const c of [...chips, ...held]) {
    const pos = { x: c.x, y: c.y, w: c.w, cls: c.cls, req: c.req };
    byKey.set(`${c.lane}:${c.req}:${c.slot}`, pos);
    if (!byLaneReq.has(`${c.lane}:${c.req}`)) byLaneReq.set(`${c.lane}:${c.req}`, pos);
    if (!byReq.has(c.req)) byReq.set(c.req, pos);
  }
  return { byKey, byLaneReq, byReq };
}

/**
 * Move each chip to its place between where it was and where it is now;
 * draw the chips that left (executed) fading where they were.
 */
function moveAndFade(
  ctx: CanvasRenderingContext2D,
  chips: Chip[],
  held: Chip[],
  a: Transition,
  l: LaneLayout,
  chipH: number,
  p: Palette,
): void {
  const k = ease(Math.max(0, Math.min(1, a.t)));
  const origin = { x: l.labelW - l.chipW, y: l.headerH / 2 - chipH / 2, w: l.chipW };
  const now = new Set<number>();
  for (const c of [...chips, ...held]) {
    now.add(c.req);
    const f =
      a.from.byKey.get(`${c.lane}:${c.req}:${c.slot}`) ??
      a.from.byLaneReq.get(`${c.lane}:${c.req}`) ??
      a.from.byReq.get(c.req) ??
      origin;
    c.x = f.x + (c.x - f.x) * k;
    c.y = f.y + (c.y - f.y) * k;
    c.w = f.w + (c.w - f.w) * k;
  }
  ctx.save();
  ctx.globalAlpha = Math.max(0, 1 - k);
  for (const f of a.from.byKey.values()) {
    if (now.has(f.req)) continue;
    ctx.fillStyle = p.classColor(f.cls);
    ctx.fillRect(f.x, f.y, f.w, chipH);
  }
  ctx.restore();
}

/** Activities in which a thread holds a request it is not executing (shown hatched in its slot). */
const HOLDING = new Set(['sync', 'spinning', 'marker', 'stealing', 'dependency']);

/** Held requests: class color at half strength, a dashed outline in the status color, the id. */
function drawHeld(
  ctx: CanvasRenderingContext2D,
  held: Chip[],
  chipH: number,
  l: LaneLayout,
  p: Palette,
  item = 'r',
): void {
  if (held.length === 0) return;
  ctx.save();
  ctx.setLineDash([4, 3]);
  ctx.lineWidth = 2.5;
  for (const c of held) {
    ctx.globalAlpha = 0.45;
    ctx.fillStyle = p.classColor(c.cls);
    ctx.fillRect(c.x, c.y, c.w, chipH);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = c.outline ?? p.wait;
    ctx.strokeRect(c.x, c.y, c.w, chipH);
    ctx.fillStyle = p.fg;
    ctx.font = `${Math.round(l.font * 0.8)}px system-ui, sans-serif`;
    ctx.fillText(`${item}${c.req}`, c.x + 4, c.y + chipH / 2, c.w - 8);
  }
  ctx.restore();
}

interface Chip {
  x: number;
  y: number;
  w: number;
  req: number;
  cls: number;
  outline: string | null;
  /** Lane and slot (q: queue, x: executing, s: stolen, h: held) identify a chip across frames. */
  lane: number;
  slot: string;
}

/** Above this many chips, request ids are not written on them. */
export const MAX_LABELLED_CHIPS = 400;

/** Width of the narrowest chip (labels must fit it). */
function c0w(chips: Chip[]): number {
  let w = Infinity;
  for (const c of chips) w = Math.min(w, c.w);
  return Number.isFinite(w) ? w : 0;
}

/**
 * The size of the ids written on chips `chipH` tall and at least `narrowest`
 * wide: under half the chip's height in a roomy lane; in a tight one (two
 * stacked runs at 1280x720) at least `LEAST_CHIP_LABEL_EMS` of the type,
 * as far as the chip's height allows; never wider than the chip holds.
 */
export function chipLabelPx(chipH: number, narrowest: number, font: number): number {
  const readable = Math.min(font * LEAST_CHIP_LABEL_EMS, chipH * 0.6);
  return Math.round(Math.min(Math.max(chipH * 0.45, readable), font * 1.1, narrowest * 0.42));
}

/** The least size of a chip's id (ems of the view's type), where its lane's height allows. */
export const LEAST_CHIP_LABEL_EMS = 0.7;

/**
 * Chips in their class colors (their event's, in an event run), outlines,
 * then each chip's id as the family names it (`item`: "r12", or "e12" for
 * an event), the word every other label of the view uses.
 */
function drawChips(
  ctx: CanvasRenderingContext2D,
  chips: Chip[],
  chipH: number,
  l: LaneLayout,
  p: Palette,
  item = 'r',
): void {
  const byClass = new Map<number, Chip[]>();
  for (const c of chips) {
    let g = byClass.get(c.cls);
    if (!g) byClass.set(c.cls, (g = []));
    g.push(c);
  }
  for (const [cls, g] of byClass) {
    ctx.fillStyle = p.classColor(cls);
    ctx.beginPath();
    for (const c of g) ctx.rect(c.x, c.y, c.w, chipH);
    ctx.fill();
  }
  ctx.lineWidth = 2.5;
  for (const c of chips) {
    if (!c.outline) continue;
    ctx.strokeStyle = c.outline;
    ctx.strokeRect(c.x, c.y, c.w, chipH);
  }
  if (chips.length > MAX_LABELLED_CHIPS) return;
  ctx.fillStyle = '#000';
  ctx.font = `${chipLabelPx(chipH, c0w(chips), l.font)}px system-ui, sans-serif`;
  for (const c of chips) {
    if (c.w >= l.font * 2) ctx.fillText(`${item}${c.req}`, c.x + 3, c.y + chipH / 2, c.w - 6);
  }
}

function arrow(
  ctx: CanvasRenderingContext2D,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  color: string,
  w: number,
) {
  ctx.strokeStyle = color;
  ctx.lineWidth = w;
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  arrowHead(ctx, x0, y0, x1, y1, color);
}

function arrowHead(ctx: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number, color: string) {
  const a = Math.atan2(y1 - y0, x1 - x0);
  const s = 8;
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - s * Math.cos(a - 0.45), y1 - s * Math.sin(a - 0.45));
  ctx.lineTo(x1 - s * Math.cos(a + 0.45), y1 - s * Math.sin(a + 0.45));
  ctx.closePath();
  ctx.fill();
}
