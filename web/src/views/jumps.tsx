/**
 * Jumps to the next moment of a kind in one track (an arrival at a barrier
 * or cycle, a release, a steal). In compare mode each run has its own
 * buttons: jumping in a run makes it lead, and the others follow its
 * progress in the stream.
 */
import { replayStore, useReplay } from '../replay/store';
import { profileOf } from './families';

/** First mark at or after position p, as the position just after it; -1 if none. */
export function nextMark(xs: Int32Array, p: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < p) lo = mid + 1;
    else hi = mid;
  }
  return lo < xs.length ? xs[lo] + 1 : -1;
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
  return (
    <span className="jump-buttons" data-track={t.key}>
      <span className="muted">next:</span>
      {meets && (
        <>
          <button
            type="button"
            disabled={idx.arrivals.length === 0}
            onClick={() => jump(idx.arrivals)}
            data-testid={`next-arrive${suffix}`}
            title={`next arrival at a ${sync}`}
          >
            arrival ({idx.arrivals.length})
          </button>
          <button
            type="button"
            disabled={idx.releases.length === 0}
            onClick={() => jump(idx.releases)}
            data-testid={`next-release${suffix}`}
            title={`next ${sync} release`}
          >
            {sync} release ({idx.releases.length})
          </button>
        </>
      )}
      {steals && (
        <button
          type="button"
          disabled={idx.steals.length === 0}
          onClick={() => jump(idx.steals)}
          data-testid={`next-steal${suffix}`}
        >
          steal ({idx.steals.length})
        </button>
      )}
    </span>
  );
}
