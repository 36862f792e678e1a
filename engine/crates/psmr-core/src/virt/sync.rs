//! `Mutex` and `Condvar` that are std's in a real run and synchronization
//! points in a virtual one, with the std API surface the engine uses
//! (`lock`, `try_lock`, `wait`, `wait_timeout`, `notify_one`,
//! `notify_all`, poisoning).
//!
//! Real run: each call is std's plus one relaxed load ([`super::with_current`]
//! finds no live conductor); a guard carries one extra `bool`.
//!
//! Virtual run: only the token holder runs, so a lock attempt never waits
//! inside std. `lock` is a point costing an uncontended lock, then a
//! `try_lock`; if another thread holds the mutex (it is not running: it
//! holds the lock across a point), the caller pays the contended cost and
//! blocks on the mutex's address; the unlock wakes the oldest such waiter,
//! which retries. `Condvar::wait` unlocks (waking a lock waiter), blocks on
//! the condvar's address and re-locks; `notify_*` wake its blocked
//! threads. A wake never loses: waiting and waking both happen under the
//! token, so a notify either finds the waiter blocked or happens before it
//! checked its condition under the mutex.

use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};
use std::panic::Location;
use std::sync::{LockResult, PoisonError, TryLockError, TryLockResult};
use std::time::Duration;

use super::{with_current, Here};

/// Asks whether a std mutex is held, from the token holder's thread
/// (`Conductor::lock_wait`): a `try_lock` whose guard is dropped at once.
struct HeldCheck<'a, T: ?Sized>(&'a std::sync::Mutex<T>);

// SAFETY: std's mutex is `Sync` only for `T: Send` because its guard gives
// another thread the value; `held` never reads, writes or moves the value
// (it takes the guard and drops it on the same thread, at once), so using
// it from the token holder's thread shares nothing of `T`.
unsafe impl<T: ?Sized> Sync for HeldCheck<'_, T> {}

impl<T: ?Sized> HeldCheck<'_, T> {
    fn held(&self) -> bool {
        matches!(self.0.try_lock(), Err(TryLockError::WouldBlock))
    }
}

/// A mutual exclusion lock; see the module comment.
#[derive(Debug, Default)]
pub struct Mutex<T: ?Sized> {
    inner: std::sync::Mutex<T>,
}

/// The guard of a [`Mutex`]; unlocking wakes a virtual waiter.
#[derive(Debug)]
pub struct MutexGuard<'a, T: ?Sized> {
    guard: ManuallyDrop<std::sync::MutexGuard<'a, T>>,
    lock: &'a Mutex<T>,
    /// Taken in a virtual run (its unlock may have a waiter to wake).
    virt: bool,
}

fn key_of<T: ?Sized>(x: &T) -> usize {
    super::addr_of(x)
}

impl<T> Mutex<T> {
    pub const fn new(value: T) -> Self {
        Mutex {
            inner: std::sync::Mutex::new(value),
        }
    }
    pub fn into_inner(self) -> LockResult<T> {
        self.inner.into_inner()
    }
}

impl<T: ?Sized> Mutex<T> {
    fn guard<'a>(&'a self, g: std::sync::MutexGuard<'a, T>, virt: bool) -> MutexGuard<'a, T> {
        MutexGuard {
            guard: ManuallyDrop::new(g),
            lock: self,
            virt,
        }
    }

    fn wrap<'a>(
        &'a self,
        r: LockResult<std::sync::MutexGuard<'a, T>>,
        virt: bool,
    ) -> LockResult<MutexGuard<'a, T>> {
        match r {
            Ok(g) => Ok(self.guard(g, virt)),
            Err(p) => Err(PoisonError::new(self.guard(p.into_inner(), virt))),
        }
    }

    /// Acquire the lock (std's, or a virtual point; see the module comment).
    #[inline]
    #[track_caller]
    pub fn lock(&self) -> LockResult<MutexGuard<'_, T>> {
        self.lock_at(Location::caller(), false)
    }

    /// Acquire the lock whose point the conductor already made for the
    /// caller (`Conductor::lock_scan` returned this attempt): `lock` without
    /// its first point. Outside a virtual run, `lock`.
    #[inline]
    #[track_caller]
    pub fn lock_after_point(&self) -> LockResult<MutexGuard<'_, T>> {
        self.lock_at(Location::caller(), true)
    }

    fn lock_at(
        &self,
        at: &'static Location<'static>,
        pointed: bool,
    ) -> LockResult<MutexGuard<'_, T>> {
        let virt = with_current(|h| {
            let point = (!pointed).then(|| h.costs().lock_uncontended);
            self.lock_pointed(h, at, point)
        });
        match virt {
            Some(r) => r,
            None => self.wrap(self.inner.lock(), false),
        }
    }

    /// [`lock`](Self::lock), also saying whether another thread held the
    /// mutex at the attempt (a contended lock), for builds that count
    /// (psmr-schedulers' `sync-counters` feature; unused otherwise). Real
    /// run: std's `try_lock`, then std's `lock` when it would block: the
    /// same atomic operations `lock` makes (its fast path is that
    /// `try_lock`'s compare-exchange). Virtual run: whether the mutex is
    /// held now (a `try_lock` released at once: no point, no charge; only
    /// the token holder runs, so it is exact), then `lock` with its points
    /// and charges unchanged.
    #[track_caller]
    pub fn lock_noting_contention(&self) -> (LockResult<MutexGuard<'_, T>>, bool) {
        let at = Location::caller();
        let virt = with_current(|h| {
            let held = HeldCheck(&self.inner).held();
            let point = Some(h.costs().lock_uncontended);
            (self.lock_pointed(h, at, point), held)
        });
        if let Some(r) = virt {
            return r;
        }
        match self.inner.try_lock() {
            Ok(g) => (Ok(self.guard(g, false)), false),
            Err(TryLockError::Poisoned(p)) => (
                Err(PoisonError::new(self.guard(p.into_inner(), false))),
                false,
            ),
            Err(TryLockError::WouldBlock) => (self.wrap(self.inner.lock(), false), true),
        }
    }

    /// What `f` finds in the value if the lock is free now (std's
    /// `try_lock`, released before returning; no point, no charge), for a
    /// token holder judging another thread's lock attempt
    /// (`Conductor::lock_scan`). `None` when the lock is held or poisoned.
    pub fn peek<R>(&self, f: impl FnOnce(&T) -> R) -> Option<R> {
        self.inner.try_lock().ok().map(|g| f(&g))
    }

    /// The key the conductor knows this mutex by (its address).
    pub fn key(&self) -> usize {
        key_of(self)
    }

    /// The virtual `lock`: the lock's point (unless `point` is `None`: made
    /// already), then attempts until one finds the mutex free, each failed
    /// one costing `lock_contended` and a block on the mutex until an
    /// unlock wakes the caller. The conductor makes the failed attempts
    /// for the caller while it waits (`Conductor::lock_wait`: the same
    /// charges at the same turns), so the caller wakes when its attempt
    /// can succeed; its own `try_lock` decides all the same.
    fn lock_pointed(
        &self,
        h: Here<'_>,
        at: &'static Location<'static>,
        point: Option<u64>,
    ) -> LockResult<MutexGuard<'_, T>> {
        let c = h.conductor;
        let key = key_of(self);
        let check = HeldCheck(&self.inner);
        let held = || check.held();
        if point.is_some() {
            c.lock_wait(h.me, key, point, false, at, &held);
        }
        loop {
            match self.inner.try_lock() {
                Ok(g) => {
                    // The lock word's line comes from its last holder,
                    // who may still be in its critical section.
                    c.acquire_lock(h.me, key);
                    return Ok(self.guard(g, true));
                }
                Err(TryLockError::Poisoned(p)) => {
                    return Err(PoisonError::new(self.guard(p.into_inner(), true)))
                }
                Err(TryLockError::WouldBlock) => c.lock_wait(h.me, key, None, true, at, &held),
            }
        }
    }

    /// Try to acquire the lock without blocking.
    #[inline]
    #[track_caller]
    pub fn try_lock(&self) -> TryLockResult<MutexGuard<'_, T>> {
        let at = Location::caller();
        let virt = with_current(|h| h.conductor.point(h.me, h.costs().lock_uncontended, at));
        match self.inner.try_lock() {
            Ok(g) => {
                if virt.is_some() {
                    with_current(|h| h.conductor.acquire_lock(h.me, key_of(self)));
                }
                Ok(self.guard(g, virt.is_some()))
            }
            Err(TryLockError::Poisoned(p)) => Err(TryLockError::Poisoned(PoisonError::new(
                self.guard(p.into_inner(), virt.is_some()),
            ))),
            Err(TryLockError::WouldBlock) => Err(TryLockError::WouldBlock),
        }
    }

    pub fn get_mut(&mut self) -> LockResult<&mut T> {
        self.inner.get_mut()
    }
}

impl<T: ?Sized> MutexGuard<'_, T> {
    /// Unlock: std's unlock, then (virtual run) wake the oldest thread
    /// blocked on this mutex.
    fn unlock(&mut self) {
        // SAFETY: called once, from `drop` or just before the guard is
        // forgotten, so the inner guard is never used or dropped again.
        unsafe { ManuallyDrop::drop(&mut self.guard) };
        if self.virt {
            let key = key_of(self.lock);
            with_current(|h| {
                h.conductor.release_lock(h.me, key);
                if h.conductor.has_waiters(key) {
                    h.conductor.wake_lock_waiter(h.me, key);
                }
            });
        }
    }
}

impl<T: ?Sized> Drop for MutexGuard<'_, T> {
    #[inline]
    fn drop(&mut self) {
        self.unlock();
    }
}

impl<T: ?Sized> Deref for MutexGuard<'_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.guard
    }
}

impl<T: ?Sized> DerefMut for MutexGuard<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.guard
    }
}

/// Whether a [`Condvar::wait_timeout`] returned because its time ran out
/// (std's type has no public constructor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaitTimeoutResult(bool);

impl WaitTimeoutResult {
    pub fn timed_out(&self) -> bool {
        self.0
    }
}

/// A condition variable; see the module comment.
#[derive(Debug, Default)]
pub struct Condvar {
    inner: std::sync::Condvar,
}

impl Condvar {
    pub const fn new() -> Self {
        Condvar {
            inner: std::sync::Condvar::new(),
        }
    }

    /// Block until notified (spurious wake-ups possible, as std's).
    #[track_caller]
    pub fn wait<'a, T>(&self, guard: MutexGuard<'a, T>) -> LockResult<MutexGuard<'a, T>> {
        self.wait_for(guard, None).map(|(g, _)| g).map_err(|p| {
            let (g, _) = p.into_inner();
            PoisonError::new(g)
        })
    }

    /// Block until notified or `dur` passed (virtual time in a virtual run).
    #[track_caller]
    pub fn wait_timeout<'a, T>(
        &self,
        guard: MutexGuard<'a, T>,
        dur: Duration,
    ) -> LockResult<(MutexGuard<'a, T>, WaitTimeoutResult)> {
        self.wait_for(guard, Some(dur))
    }

    #[track_caller]
    fn wait_for<'a, T>(
        &self,
        guard: MutexGuard<'a, T>,
        dur: Option<Duration>,
    ) -> LockResult<(MutexGuard<'a, T>, WaitTimeoutResult)> {
        let at = Location::caller();
        let lock = guard.lock;
        if guard.virt {
            let mut guard = guard;
            guard.unlock();
            std::mem::forget(guard);
            let timed_out = with_current(|h| {
                let deadline = dur.map(|d| h.now().saturating_add(d.as_nanos() as u64));
                h.conductor.block(h.me, key_of(self), deadline, at)
            })
            .unwrap_or(false);
            return match lock.lock() {
                Ok(g) => Ok((g, WaitTimeoutResult(timed_out))),
                Err(p) => Err(PoisonError::new((
                    p.into_inner(),
                    WaitTimeoutResult(timed_out),
                ))),
            };
        }
        let mut guard = ManuallyDrop::new(guard);
        // SAFETY: the wrapper is never dropped (ManuallyDrop), so the inner
        // guard moves out exactly once.
        let inner = unsafe { ManuallyDrop::take(&mut guard.guard) };
        let (r, timed_out) = match dur {
            None => (self.inner.wait(inner), false),
            Some(d) => match self.inner.wait_timeout(inner, d) {
                Ok((g, t)) => (Ok(g), t.timed_out()),
                Err(p) => {
                    let (g, t) = p.into_inner();
                    (Err(PoisonError::new(g)), t.timed_out())
                }
            },
        };
        match lock.wrap(r, false) {
            Ok(g) => Ok((g, WaitTimeoutResult(timed_out))),
            Err(p) => Err(PoisonError::new((
                p.into_inner(),
                WaitTimeoutResult(timed_out),
            ))),
        }
    }

    /// Wake one waiter.
    #[inline]
    pub fn notify_one(&self) {
        if with_current(|h| h.wake(key_of(self), false)).is_none() {
            self.inner.notify_one();
        }
    }

    /// Wake every waiter.
    #[inline]
    pub fn notify_all(&self) {
        if with_current(|h| h.wake(key_of(self), true)).is_none() {
            self.inner.notify_all();
        }
    }
}
