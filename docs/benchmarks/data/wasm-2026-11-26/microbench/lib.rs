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

/// `n` contains on the heavy list, keys uniform in 0..2*entries (as the workload draws them).
#[no_mangle]
pub extern "C" fn list_run(n: u32, entries: u32, seed: u32) -> u64 {
    LIST.with(|l| {
        let l = l.borrow();
        let app = l.as_ref().unwrap();
        let mut s = seed as u64;
        let mut acc = 0u64;
        for _ in 0..n {
            let key = (lcg(&mut s) % (2 * entries as u64)) as u32;
            acc = acc.wrapping_add(app.execute(&Op::ListContains { shard: 0, key }));
        }
        acc
    })
}

#[no_mangle]
pub extern "C" fn kv_init(keys: u32) {
    KV.with(|k| *k.borrow_mut() = Some(KvStore::new(1, keys as u64)));
}

#[no_mangle]
pub extern "C" fn kv_run(n: u32, keys: u32, seed: u32) -> u64 {
    KV.with(|k| {
        let k = k.borrow();
        let app = k.as_ref().unwrap();
        let mut s = seed as u64;
        let mut acc = 0u64;
        for i in 0..n {
            let key = lcg(&mut s) % keys as u64;
            let op = match i % 8 {
                0 => Op::KvScan { start: key, len: 100 },
                1 => Op::KvWrite { key, value: i as u64 },
                _ => Op::KvRead { key },
            };
            acc = acc.wrapping_add(app.execute(&op));
        }
        acc
    })
}
