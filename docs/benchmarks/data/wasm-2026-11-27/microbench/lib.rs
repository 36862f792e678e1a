//! Variants of the heavy list's walk (psmr-core app/list.rs `List::position`),
//! each a separate `#[inline(never)]` function called once per request, as the
//! engine's workers call `execute` (so V8 tiers each one up on its own).
use psmr_core::app::{Application, ShardedList};
use psmr_core::Op;
use std::cell::RefCell;

const NIL: u32 = u32::MAX;

/// The list as psmr-core builds it: keys 0, 2, .., 2(n-1) in order, `next[i] = i + 1`.
struct Walk {
    keys: Vec<u32>,
    next: Vec<u32>,
    head: u32,
}

/// The same list with `usize` links (8 bytes natively, 4 in wasm32).
struct WalkUsize {
    keys: Vec<u32>,
    next: Vec<usize>,
    head: usize,
}

impl Walk {
    fn new(entries: u32) -> Self {
        let keys = (0..entries).map(|i| i * 2).collect();
        let mut next: Vec<u32> = (1..=entries).collect();
        if let Some(last) = next.last_mut() {
            *last = NIL;
        }
        let head = if entries == 0 { NIL } else { 0 };
        Walk { keys, next, head }
    }
}

/// psmr-core's loop as it is: NIL compare, two index checks a node.
#[inline(never)]
fn pos_index(l: &Walk, key: u32) -> u64 {
    let mut node = l.head;
    let mut pos = 1u64;
    while node != NIL {
        if l.keys[node as usize] == key {
            return pos;
        }
        node = l.next[node as usize];
        pos += 1;
    }
    0
}

/// One compare a node: `next` re-sliced to `keys.len()` (the compiler then knows
/// the two lengths are equal) and the walk ends when `keys.get` fails, which NIL
/// (u32::MAX, never a valid index) always does.
#[inline(never)]
fn pos_getend(l: &Walk, key: u32) -> u64 {
    let keys = &l.keys[..];
    let next = &l.next[..keys.len()];
    let mut node = l.head as usize;
    let mut pos = 1u64;
    while let Some(&k) = keys.get(node) {
        if k == key {
            return pos;
        }
        node = next[node] as usize;
        pos += 1;
    }
    0
}

/// No index check: NIL compare only.
#[inline(never)]
fn pos_unchecked(l: &Walk, key: u32) -> u64 {
    assert!(l.keys.len() == l.next.len());
    let mut node = l.head;
    let mut pos = 1u64;
    while node != NIL {
        // SAFETY (microbenchmark): every link is NIL or < len (built so in `Walk::new`).
        unsafe {
            if *l.keys.get_unchecked(node as usize) == key {
                return pos;
            }
            node = *l.next.get_unchecked(node as usize);
        }
        pos += 1;
    }
    0
}

/// `pos_index` unrolled by two.
#[inline(never)]
fn pos_unroll2(l: &Walk, key: u32) -> u64 {
    let mut node = l.head;
    let mut pos = 1u64;
    loop {
        if node == NIL {
            return 0;
        }
        if l.keys[node as usize] == key {
            return pos;
        }
        node = l.next[node as usize];
        if node == NIL {
            return 0;
        }
        if l.keys[node as usize] == key {
            return pos + 1;
        }
        node = l.next[node as usize];
        pos += 2;
    }
}

/// `pos_getend` unrolled by two.
#[inline(never)]
fn pos_getend2(l: &Walk, key: u32) -> u64 {
    let keys = &l.keys[..];
    let next = &l.next[..keys.len()];
    let mut node = l.head as usize;
    let mut pos = 1u64;
    loop {
        let Some(&k) = keys.get(node) else { return 0 };
        if k == key {
            return pos;
        }
        node = next[node] as usize;
        let Some(&k) = keys.get(node) else { return 0 };
        if k == key {
            return pos + 1;
        }
        node = next[node] as usize;
        pos += 2;
    }
}

/// `usize` links, NIL = usize::MAX, two index checks.
#[inline(never)]
fn pos_usize(l: &WalkUsize, key: u32) -> u64 {
    let mut node = l.head;
    let mut pos = 1u64;
    while node != usize::MAX {
        if l.keys[node] == key {
            return pos;
        }
        node = l.next[node];
        pos += 1;
    }
    0
}

/// The same list with links that are addresses: `next[i]` holds the address of
/// `next[i + 1]` (0 for the last), so following a link is one load from it with
/// no scaling and no base to add; the key is at the same index of `keys`.
struct WalkPtr {
    keys: Vec<u32>,
    next: Vec<usize>,
}

impl WalkPtr {
    fn new(keys: Vec<u32>) -> Self {
        let mut next = vec![0usize; keys.len()];
        let base = next.as_ptr() as usize;
        let w = std::mem::size_of::<usize>();
        for i in 0..next.len().saturating_sub(1) {
            next[i] = base + (i + 1) * w;
        }
        WalkPtr { keys, next }
    }
}

#[inline(never)]
fn pos_ptr(l: &WalkPtr, key: u32) -> u64 {
    let base = l.next.as_ptr() as usize;
    let w = std::mem::size_of::<usize>();
    let mut p = if l.next.is_empty() { 0 } else { base };
    let mut pos = 1u64;
    while p != 0 {
        // SAFETY (microbenchmark): every non-zero link is the address of an
        // element of `next` (built so in `WalkPtr::new`, never moved since).
        unsafe {
            let i = (p - base) / w;
            if *l.keys.get_unchecked(i) == key {
                return pos;
            }
            p = *(p as *const usize);
        }
        pos += 1;
    }
    0
}

/// Links that are byte offsets (`4 * index`) into `next` and `keys`: following a
/// link is an add of the vector's base and a load, with no scaling.
#[inline(never)]
fn pos_byteoff(l: &Walk, key: u32) -> u64 {
    assert!(l.keys.len() == l.next.len());
    let nb = l.next.as_ptr() as *const u8;
    let kb = l.keys.as_ptr() as *const u8;
    let mut off = l.head;
    let mut pos = 1u64;
    while off != NIL {
        // SAFETY (microbenchmark): every link of `Walk::byte_offsets` is NIL or
        // 4 * an index < len, so both reads are of whole, aligned elements.
        unsafe {
            if *(kb.add(off as usize) as *const u32) == key {
                return pos;
            }
            off = *(nb.add(off as usize) as *const u32);
        }
        pos += 1;
    }
    0
}

impl Walk {
    /// The same list with every link (and the head) scaled to a byte offset.
    fn byte_offsets(&self) -> Walk {
        let s = |n: u32| if n == NIL { NIL } else { n * 4 };
        Walk {
            keys: self.keys.clone(),
            next: self.next.iter().map(|&n| s(n)).collect(),
            head: s(self.head),
        }
    }
}

thread_local! {
    static LIST: RefCell<Option<ShardedList>> = const { RefCell::new(None) };
    static WALK: RefCell<Option<(Walk, WalkUsize, WalkPtr, Walk)>> = const { RefCell::new(None) };
}

fn lcg(s: &mut u64) -> u64 {
    *s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *s >> 33
}

/// Runs `op(draw)` `n` times with pseudo-random draws in `0..modulus` and sums the responses.
fn drive(n: u32, modulus: u64, seed: u32, mut op: impl FnMut(u32) -> u64) -> u64 {
    let mut s = seed as u64;
    (0..n).fold(0u64, |acc, _| acc.wrapping_add(op((lcg(&mut s) % modulus) as u32)))
}

#[no_mangle]
pub extern "C" fn list_init(entries: u32) {
    LIST.with(|l| *l.borrow_mut() = Some(ShardedList::new(1, entries)));
    WALK.with(|w| {
        let a = Walk::new(entries);
        let next = a.next.iter().map(|&n| if n == NIL { usize::MAX } else { n as usize }).collect();
        let b = WalkUsize { keys: a.keys.clone(), next, head: 0 };
        let c = WalkPtr::new(a.keys.clone());
        let d = a.byte_offsets();
        *w.borrow_mut() = Some((a, b, c, d));
    });
}

/// `n` contains on the heavy list with walk `variant` (0 = psmr-core's `execute`
/// through `&dyn Application`), keys uniform in 0..2*entries as the workload draws them.
#[no_mangle]
pub extern "C" fn list_run(variant: u32, n: u32, entries: u32, seed: u32) -> u64 {
    let m = 2 * entries as u64;
    if variant == 0 {
        return LIST.with(|l| {
            let l = l.borrow();
            let app: &dyn Application = std::hint::black_box(l.as_ref().unwrap());
            drive(n, m, seed, |key| app.execute(&Op::ListContains { shard: 0, key }))
        });
    }
    WALK.with(|w| {
        let w = w.borrow();
        let (a, b, c, d) = w.as_ref().unwrap();
        match variant {
            1 => drive(n, m, seed, |k| pos_index(a, k)),
            2 => drive(n, m, seed, |k| pos_getend(a, k)),
            3 => drive(n, m, seed, |k| pos_unchecked(a, k)),
            4 => drive(n, m, seed, |k| pos_unroll2(a, k)),
            5 => drive(n, m, seed, |k| pos_getend2(a, k)),
            6 => drive(n, m, seed, |k| pos_usize(b, k)),
            7 => drive(n, m, seed, |k| pos_ptr(c, k)),
            8 => drive(n, m, seed, |k| pos_byteoff(d, k)),
            _ => u64::MAX,
        }
    })
}
