/**
 * Jumps to the next moment of a kind in one track (an arrival at a barrier
 * or cycle, a release, a steal). In compare mode each run has its own
 * buttons: jumping in a run makes it lead, and the others follow its
 * progress in the stream.
 */
import { replayStore, useReplay } from '../replay/store';
import { profileOf } from './families';
import { partitionPoint } from '../trace/search';

/** First mark at or after position p, as the position just after it; -1 if none. */
export function nextMark(xs: Int32Array, p: number): number {
  const at = partitionPoint(xs.length, (i) => xs[i] < p);
  return at < xs.length ? xs[at] + 1 : -1;
}

/** `suffix` tells the buttons of different places apart (test ids `next-steal<suffix>`). */
export function JumpButtons({ i, suffix = '' }: { i: number; suffix?: string }) {
  const tracks = useReplay((s) => s.tracks);
  useReplay((s) => s.position);
  const t = tracks[i];
  if (!t) return null;
  const idx = t.model.index;
  const st = replayStore.getState();
  const at = st.positions()[i] ?? 0;
  const jump = (marks: Int32Array) => {
    const p = nextMark(marks, at + 1);
    if (p > 0) {
      st.pause();
      st.lead(i, p);
    }
  };
  const prof = profileOf(t.scheduler);
  const sync = prof.sync?.kind === 'cycle' ? 'cycle' : 'barrier';
  // Arrivals and releases only where the family meets at barriers or cycles (or this trace has some).
  const meets = prof.sync !== null || idx.arrivals.length > 0 || idx.releases.length > 0;
  const steals = prof.steals || idx.steals.length > 0;
  if (!meets && !steals) return null;
  const button = (marks: Int32Array, id: string, label: string, title?: string) => (
    <button
      type="button"
      disabled={marks.length === 0}
      onClick={() => jump(marks)}
      data-testid={`next-${id}${suffix}`}
      title={title}
    >
      {label} ({marks.length})
    </button>
  );
  return (
    <span className="jump-buttons" data-track={t.key}>
      <span className="muted">next:</span>
      {meets && button(idx.arrivals, 'arrive', 'arrival', `next arrival at a ${sync}`)}
      {meets && button(idx.releases, 'release', `${sync} release`, `next ${sync} release`)}
      {steals && button(idx.steals, 'steal', 'steal')}
    </span>
  );
}
