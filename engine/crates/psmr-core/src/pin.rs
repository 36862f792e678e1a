//! Pinning the calling thread to one CPU (Linux's `sched_setaffinity`):
//! the calibration's pinned pairs (two threads time-sharing one core) and
//! a virtual run's threads, of which only one runs at a time anyway (see
//! [`Pinned`]). Elsewhere (the browser has no way to ask) every call is a
//! no-op that reports it did nothing.

#[cfg(target_os = "linux")]
mod os {
    use std::mem::{size_of, zeroed};

    pub type Mask = libc::cpu_set_t;

    /// The calling thread's allowed CPUs.
    fn mask() -> Option<Mask> {
        // SAFETY: `cpu_set_t` is plain bits, valid when zeroed; the call
        // writes at most `size_of::<Mask>()` bytes into it.
        unsafe {
            let mut m: Mask = zeroed();
            (libc::sched_getaffinity(0, size_of::<Mask>(), &mut m) == 0).then_some(m)
        }
    }

    /// The lowest CPU the calling thread may run on.
    pub fn first_cpu() -> Option<usize> {
        let m = mask()?;
        // SAFETY: `CPU_ISSET` reads the mask within its size.
        (0..libc::CPU_SETSIZE as usize).find(|&c| unsafe { libc::CPU_ISSET(c, &m) })
    }

    /// The CPU the calling thread runs on now, if it may stay there.
    pub fn current_cpu() -> Option<usize> {
        // SAFETY: no arguments; returns -1 on failure.
        let c = unsafe { libc::sched_getcpu() };
        let m = mask()?;
        let c = usize::try_from(c)
            .ok()
            .filter(|&c| c < libc::CPU_SETSIZE as usize)?;
        // SAFETY: `c` < `CPU_SETSIZE`, within the mask.
        unsafe { libc::CPU_ISSET(c, &m) }.then_some(c)
    }

    /// How many CPUs the calling thread may run on.
    pub fn allowed() -> usize {
        // SAFETY: `CPU_COUNT` reads the mask within its size.
        mask().map_or(0, |m| unsafe { libc::CPU_COUNT(&m) } as usize)
    }

    /// Pin the calling thread to `cpu`; its previous mask, to restore.
    pub fn pin_to(cpu: usize) -> Option<Mask> {
        if cpu >= libc::CPU_SETSIZE as usize {
            return None;
        }
        let old = mask()?;
        // SAFETY: as in `mask`; `CPU_SET` writes within the mask's size
        // (`cpu` < `CPU_SETSIZE`, checked above), and the call only reads
        // `size_of::<Mask>()` bytes.
        unsafe {
            let mut one: Mask = zeroed();
            libc::CPU_SET(cpu, &mut one);
            (libc::sched_setaffinity(0, size_of::<Mask>(), &one) == 0).then_some(old)
        }
    }

    /// Give the calling thread its previous mask back.
    pub fn restore(old: Option<Mask>) {
        if let Some(m) = old {
            // SAFETY: reads `size_of::<Mask>()` bytes of a valid mask. A
            // failure leaves the thread pinned, which only slows it.
            unsafe {
                libc::sched_setaffinity(0, size_of::<Mask>(), &m);
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod os {
    pub struct Mask;

    pub fn first_cpu() -> Option<usize> {
        None
    }

    pub fn current_cpu() -> Option<usize> {
        None
    }

    pub fn allowed() -> usize {
        0
    }

    pub fn pin_to(_cpu: usize) -> Option<Mask> {
        None
    }

    pub fn restore(_old: Option<Mask>) {}
}

pub use os::{allowed, current_cpu, first_cpu, pin_to, restore, Mask};

/// The calling thread pinned to one CPU until this is dropped, then given
/// its previous mask back (a pool thread runs later work, real runs
/// included, with its whole mask).
///
/// A virtual run pins every thread of its team to the CPU its caller is
/// on: the conductor lets one thread run at a time, so one core is all it
/// uses, and every hand-off of the token is then a switch on that core
/// instead of a wake-up sent to the other one (docs/protocols/
/// virtual-cores.md, "Speed"). Only wall time changes: what runs, in which
/// order and at which virtual time is the conductor's choice alone.
pub struct Pinned(Option<Mask>);

impl Pinned {
    /// Pin to `cpu`; `None` pins nothing (and restores nothing).
    pub fn to(cpu: Option<usize>) -> Self {
        Pinned(cpu.and_then(pin_to))
    }

    /// Did the pin take?
    pub fn held(&self) -> bool {
        self.0.is_some()
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        restore(self.0.take());
    }
}
