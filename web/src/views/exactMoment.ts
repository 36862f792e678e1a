/**
 * Where a shared moment lands (issue 27). A run on virtual cores is
 * deterministic: the link carries its virtual cores (`vc`), the lead run's
 * trace digest (`dg`) and the exact replay position (`pos`), and the re-run
 * with the same scenario, seed, cores and cost table gives the same trace,
 * so the moment reopens on exactly the same step. A run on real threads
 * re-runs with new timings: the position is kept (`pos`, with the trace
 * length `len`) only to tell whether the re-run differs, and the replay
 * lands on the nearest equal moment its name gives (`done:k`, `steal:n`...,
 * views/moments.ts).
 */
import type { Track } from '../replay/store';
import { findMoment, nameMoment } from './moments';

/** What a link says of the leading run's trace beyond the moment's name. */
export interface MomentPlace {
  /** The named moment (`done:120`, `steal:3`, a bookmark finder). */
  at: string | null;
  /** Exact replay position in the shared run. */
  pos?: number | null;
  /** Events in the shared run's trace. */
  len?: number | null;
  /** The shared run's trace digest (virtual runs only: a real run's trace changes every run). */
  dg?: string | null;
}

export interface Landing {
  /** Where to seek (null: the start). */
  position: number | null;
  /** The very step of the shared run (the same trace). */
  exact: boolean;
  /** Why the replay is not at the shared step, in words (null when it is, or nothing was asked). */
  differs: string | null;
}

/** Where `m` lands in `track`, whose trace digest is `digest` (null for a real run). */
export function landMoment(track: Track, m: MomentPlace, digest: string | null): Landing {
  const len = track.model.length;
  const pos = m.pos ?? null;
  if (m.dg && pos !== null && digest === m.dg && pos >= 0 && pos <= len)
    return { position: pos, exact: true, differs: null };
  const position = m.at ? findMoment(track, m.at) : pos !== null && pos <= len ? pos : null;
  const nearest = position === null ? 'the start' : nameMoment(track, position);
  if (m.dg) {
    const why =
      digest === null
        ? 'this re-run was on real threads, not on virtual cores'
        : `its trace digest is ${digest}, the shared run's ${m.dg} (another engine build or cost table)`;
    return {
      position,
      exact: false,
      differs: `The re-run differs from the shared virtual run (${why}): showing the nearest equal moment, ${nearest}.`,
    };
  }
  if (pos !== null && (position !== pos || (m.len != null && m.len !== len)))
    return {
      position,
      exact: false,
      differs:
        `The shared run was on real threads: this re-run has the same requests but new timings, so its trace ` +
        `differs (${len.toLocaleString('en-US')} events, the shared run ${m.len?.toLocaleString('en-US') ?? '?'}): ` +
        `showing the nearest equal moment, ${nearest}.`,
    };
  return { position, exact: pos !== null && position === pos, differs: null };
}
