use psmr_core::app::{Application, KvStore, ShardedList};
use psmr_core::Op;
use std::cell::RefCell;

thread_local! {
    static LIST: RefCell<Option<ShardedList>> = const { RefCell::new(None) };
    static KV: RefCell<Option<KvStore>> = const { RefCell::new(None) };
}

fn lcg(s: &mut u64) -> u64 {
    *s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *s >> 33
}

#[no_mangle]
pub extern "C" fn list_init(entries: u32) {
    LIST.with(|l| *l.borrow_mut() = Some(ShardedList::new(1, entries)));
}

/// Runs `op(i, draw)` for `i` in `0..n` with pseudo-random draws in `0..modulus`
/// (a 64-bit LCG seeded with `seed`) and sums the responses.
fn drive(n: u32, modulus: u64, seed: u32, mut op: impl FnMut(u32, u64) -> u64) -> u64 {
    let mut s = seed as u64;
    (0..n).fold(0u64, |acc, i| acc.wrapping_add(op(i, lcg(&mut s) % modulus)))
}

/// `n` contains on the heavy list, keys uniform in 0..2*entries (as the workload draws them).
#[no_mangle]
pub extern "C" fn list_run(n: u32, entries: u32, seed: u32) -> u64 {
    LIST.with(|l| {
        let l = l.borrow();
        let app = l.as_ref().unwrap();
        drive(n, 2 * entries as u64, seed, |_, key| {
            app.execute(&Op::ListContains { shard: 0, key: key as u32 })
        })
    })
}

#[no_mangle]
pub extern "C" fn kv_init(keys: u32) {
    KV.with(|k| *k.borrow_mut() = Some(KvStore::new(1, keys as u64)));
}

/// `n` key-value operations: one 100-key scan and one write in eight, reads otherwise.
#[no_mangle]
pub extern "C" fn kv_run(n: u32, keys: u32, seed: u32) -> u64 {
    KV.with(|k| {
        let k = k.borrow();
        let app = k.as_ref().unwrap();
        drive(n, keys as u64, seed, |i, key| {
            app.execute(&match i % 8 {
                0 => Op::KvScan { start: key, len: 100 },
                1 => Op::KvWrite { key, value: i as u64 },
                _ => Op::KvRead { key },
            })
        })
    })
}
