//! The packed trace format shared with the web app (`web/src/trace/codec.ts`).
//!
//! Each event is 6 little-endian u32 words (24 bytes): `w0,w1` = `t_ns`
//! low/high, `w2` = thread (bits 0-15) | kind code (16-23) | `x` (24-31),
//! `w3..w5` = `a, b, c`. Which field goes in which slot is the vocabulary
//! table's business ([`super::EventKind::words`]); this module only places
//! the words.
//! The sequence number is not stored: events are packed in seq order.

use super::vocabulary::{EventKind, ThreadRef, TraceEvent};

/// Words per packed event.
pub const WORDS: usize = 6;

/// Pack events (already in seq order) into words.
pub fn encode(events: &[TraceEvent]) -> Vec<u32> {
    let mut out = Vec::with_capacity(events.len() * WORDS);
    for e in events {
        let [x, a, b, c] = e.kind.words();
        out.extend_from_slice(&[
            e.t_ns as u32,
            (e.t_ns >> 32) as u32,
            e.thread as u32 | ((e.kind.code() as u32) << 16) | (x << 24),
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

/// FNV-1a (64-bit) of the packed trace: the bytes of [`encode_bytes`] in
/// order. Two traces with the same digest are, for any practical purpose,
/// the same events in the same order with the same times; a virtual-core
/// run (docs/protocols/virtual-cores.md) must give the same digest on every
/// run and on every platform (natively and in wasm). The seq numbers are
/// not stored, so they are not hashed either: the order stands for them.
pub fn digest(events: &[TraceEvent]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x100_0000_01b3;
    encode(events)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .fold(OFFSET, |h, b| (h ^ b as u64).wrapping_mul(PRIME))
}

/// Unpack one event; `seq` is its index. `None` for an unknown code.
pub fn decode_event(w: &[u32], seq: u64) -> Option<TraceEvent> {
    let t_ns = w[0] as u64 | ((w[1] as u64) << 32);
    let thread = (w[2] & 0xFFFF) as ThreadRef;
    let code = ((w[2] >> 16) & 0xFF) as u8;
    let x = w[2] >> 24;
    let kind = EventKind::from_words(code, [x, w[3], w[4], w[5]])?;
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
    use crate::trace::{kinds, SCHEDULER};

    #[test]
    fn round_trip_of_every_kind() {
        let events: Vec<TraceEvent> = kinds()
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let mut w = [0u32; 4];
                for f in &k.fields {
                    let slot = ["x", "a", "b", "c"]
                        .iter()
                        .position(|s| *s == f.slot)
                        .unwrap();
                    w[slot] = if slot == 0 { 1 } else { 3 + i as u32 };
                }
                TraceEvent {
                    seq: i as u64,
                    t_ns: (1u64 << 40) + i as u64,
                    thread: if i % 2 == 0 { SCHEDULER } else { i as u16 },
                    kind: EventKind::from_words(k.code, w).unwrap(),
                }
            })
            .collect();
        assert_eq!(decode(&encode(&events)), Some(events));
    }

    #[test]
    fn the_digest_is_fnv1a_of_the_packed_bytes_and_sees_every_field() {
        // FNV-1a 64 of no bytes is its offset basis.
        assert_eq!(digest(&[]), 0xcbf2_9ce4_8422_2325);
        let e = TraceEvent {
            seq: 0,
            t_ns: 7,
            thread: 1,
            kind: EventKind::from_words(kinds()[0].code, [0; 4]).unwrap(),
        };
        let by_bytes = encode_bytes(&[e])
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ *b as u64).wrapping_mul(0x100_0000_01b3)
            });
        assert_eq!(digest(&[e]), by_bytes);
        let later = TraceEvent { t_ns: 8, ..e };
        let other_thread = TraceEvent { thread: 2, ..e };
        assert_ne!(digest(&[e]), digest(&[later]));
        assert_ne!(digest(&[e]), digest(&[other_thread]));
        assert_ne!(digest(&[e, later]), digest(&[later, e]), "order counts");
    }

    #[test]
    fn unknown_codes_are_rejected() {
        assert_eq!(decode_event(&[0, 0, 200 << 16, 0, 0, 0], 0), None);
        assert_eq!(
            decode_event(&[0, 0, (5 << 16) | (99 << 24), 0, 0, 0], 0),
            None
        );
    }
}
