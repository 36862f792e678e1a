//! Loom model of an auxiliary role's start-up and shutdown: the driver
//! notifies work and stops in every interleaving with the role starting,
//! waiting and handling; the role always ends (loom fails on a thread left
//! blocked) and always sees the work notified before the stop.

use super::RoleSignal;
use crate::sync::Arc;

#[test]
fn loom_role_sees_work_before_stop_and_always_ends() {
    loom::model(|| {
        let s = Arc::new(RoleSignal::new());
        let role = {
            let s = s.clone();
            loom::thread::spawn(move || {
                let (mut seen, mut last) = (0, 0);
                while let Some(g) = s.wait(&mut seen) {
                    last = g;
                }
                last
            })
        };
        s.notify();
        s.notify();
        s.stop();
        assert_eq!(role.join().unwrap(), 2, "the last notified work was seen");
    });
}
