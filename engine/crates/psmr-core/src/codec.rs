//! The packed trace format shared with the web app (`web/src/trace/codec.ts`).
//!
//! Each event is 6 little-endian u32 words (24 bytes):
//! `w0,w1` = `t_ns` low/high, `w2` = thread (bits 0-15) | kind code (16-23)
//! | extra (24-31), `w3..w5` = fields `a, b, c`. The sequence number is not
//! stored: events are packed in seq order. Codes are listed in
//! [`encode_event`]; ARCHITECTURE.md and the TS decoder use the same table.

use crate::trace::{EventKind, ThreadRef, TraceEvent, WaitReason};

/// Words per packed event.
pub const WORDS: usize = 6;

fn reason_code(r: WaitReason) -> u32 {
    match r {
        WaitReason::EmptyQueue => 0,
        WaitReason::FullQueue => 1,
        WaitReason::Barrier => 2,
        WaitReason::Cycle => 3,
        WaitReason::Marker => 4,
        WaitReason::Dependency => 5,
        WaitReason::Scc => 6,
        WaitReason::MapSwitch => 7,
    }
}

fn reason_of(code: u32) -> Option<WaitReason> {
    Some(match code {
        0 => WaitReason::EmptyQueue,
        1 => WaitReason::FullQueue,
        2 => WaitReason::Barrier,
        3 => WaitReason::Cycle,
        4 => WaitReason::Marker,
        5 => WaitReason::Dependency,
        6 => WaitReason::Scc,
        7 => WaitReason::MapSwitch,
        _ => return None,
    })
}

/// (kind code, extra, a, b, c) of an event.
pub fn encode_event(k: &EventKind) -> (u32, u32, u32, u32, u32) {
    use EventKind::*;
    match *k {
        Delivered { req, class } => (0, 0, req, class as u32, 0),
        Enqueued { req, to } => (1, 0, req, to as u32, 0),
        Dequeued { req } => (2, 0, req, 0, 0),
        ExecStart { req } => (3, 0, req, 0, 0),
        ExecEnd { req } => (4, 0, req, 0, 0),
        WaitStart { reason, req } => (5, reason_code(reason), req, 0, 0),
        WaitEnd { reason, req, spins } => (6, reason_code(reason), req, spins, 0),
        SyncArrive { class, req, cycle } => (7, cycle as u32, class as u32, req, 0),
        SyncRelease {
            class,
            req,
            executor,
            cycle,
        } => (8, cycle as u32, class as u32, req, executor as u32),
        Steal {
            victim,
            count,
            first,
        } => (9, 0, victim as u32, count, first),
        StealDone { victim } => (10, 0, victim as u32, 0, 0),
        Flag { ready } => (11, ready as u32, 0, 0, 0),
        GraphInsert { req, deps } => (12, 0, req, deps, 0),
        GraphRemove { req } => (13, 0, req, 0, 0),
        Scc { first, size } => (14, 0, first, size, 0),
        MapSwitch { epoch } => (15, 0, epoch, 0, 0),
        QueueLen { of, len } => (16, 0, of as u32, len, 0),
    }
}

/// Pack events (already in seq order) into words.
pub fn encode(events: &[TraceEvent]) -> Vec<u32> {
    let mut out = Vec::with_capacity(events.len() * WORDS);
    for e in events {
        let (kind, extra, a, b, c) = encode_event(&e.kind);
        out.extend_from_slice(&[
            e.t_ns as u32,
            (e.t_ns >> 32) as u32,
            e.thread as u32 | (kind << 16) | (extra << 24),
            a,
            b,
            c,
        ]);
    }
    out
}

/// Little-endian bytes of [`encode`].
pub fn encode_bytes(events: &[TraceEvent]) -> Vec<u8> {
    encode(events)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

/// Unpack one event; `seq` is its index. `None` for an unknown code.
pub fn decode_event(w: &[u32], seq: u64) -> Option<TraceEvent> {
    use EventKind::*;
    let t_ns = w[0] as u64 | ((w[1] as u64) << 32);
    let thread = (w[2] & 0xFFFF) as ThreadRef;
    let kind = (w[2] >> 16) & 0xFF;
    let extra = w[2] >> 24;
    let (a, b, c) = (w[3], w[4], w[5]);
    let kind = match kind {
        0 => Delivered {
            req: a,
            class: b as u16,
        },
        1 => Enqueued {
            req: a,
            to: b as ThreadRef,
        },
        2 => Dequeued { req: a },
        3 => ExecStart { req: a },
        4 => ExecEnd { req: a },
        5 => WaitStart {
            reason: reason_of(extra)?,
            req: a,
        },
        6 => WaitEnd {
            reason: reason_of(extra)?,
            req: a,
            spins: b,
        },
        7 => SyncArrive {
            class: a as u16,
            req: b,
            cycle: extra as u8,
        },
        8 => SyncRelease {
            class: a as u16,
            req: b,
            executor: c as ThreadRef,
            cycle: extra as u8,
        },
        9 => Steal {
            victim: a as ThreadRef,
            count: b,
            first: c,
        },
        10 => StealDone {
            victim: a as ThreadRef,
        },
        11 => Flag { ready: extra != 0 },
        12 => GraphInsert { req: a, deps: b },
        13 => GraphRemove { req: a },
        14 => Scc { first: a, size: b },
        15 => MapSwitch { epoch: a },
        16 => QueueLen {
            of: a as ThreadRef,
            len: b,
        },
        _ => return None,
    };
    Some(TraceEvent {
        seq,
        t_ns,
        thread,
        kind,
    })
}

/// Unpack a whole trace.
pub fn decode(words: &[u32]) -> Option<Vec<TraceEvent>> {
    words
        .chunks_exact(WORDS)
        .enumerate()
        .map(|(i, w)| decode_event(w, i as u64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::SCHEDULER;

    #[test]
    fn round_trip_of_every_kind() {
        use EventKind::*;
        let kinds = [
            Delivered { req: 1, class: 3 },
            Enqueued { req: 2, to: 5 },
            Dequeued { req: 3 },
            ExecStart { req: 4 },
            ExecEnd { req: 4 },
            WaitStart {
                reason: WaitReason::Marker,
                req: 9,
            },
            WaitEnd {
                reason: WaitReason::MapSwitch,
                req: 9,
                spins: 77,
            },
            SyncArrive {
                class: 2,
                req: 10,
                cycle: 1,
            },
            SyncRelease {
                class: 2,
                req: 10,
                executor: 3,
                cycle: 1,
            },
            Steal {
                victim: 1,
                count: 4,
                first: 12,
            },
            StealDone { victim: 1 },
            Flag { ready: true },
            GraphInsert { req: 5, deps: 2 },
            GraphRemove { req: 5 },
            Scc { first: 8, size: 3 },
            MapSwitch { epoch: 2 },
            QueueLen { of: 0, len: 17 },
        ];
        let events: Vec<_> = kinds
            .iter()
            .enumerate()
            .map(|(i, k)| TraceEvent {
                seq: i as u64,
                t_ns: (1u64 << 40) + i as u64,
                thread: if i % 2 == 0 { SCHEDULER } else { i as u16 },
                kind: *k,
            })
            .collect();
        assert_eq!(decode(&encode(&events)), Some(events));
    }

    #[test]
    fn unknown_codes_are_rejected() {
        assert_eq!(decode_event(&[0, 0, 200 << 16, 0, 0, 0], 0), None);
        assert_eq!(
            decode_event(&[0, 0, (5 << 16) | (9 << 24), 0, 0, 0], 0),
            None
        );
    }
}
