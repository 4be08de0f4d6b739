//! Refused connections that are told why over SSH, on their terminal, and
//! how many at once. A refusal made before it is known who logs in (too
//! many logins under way, new connections too fast, too many from one
//! address) may be a teacher's, who then logs in on it all the same (see
//! [`crate::handler`]); so a refused connection that holds its place idle
//! (see [`crate::login_watch`]) gives it up to a newer one, and silence
//! from the teacher's address cannot fill these places either.

use crate::login_watch::LoginWatch;
use std::sync::{Arc, Mutex};

/// Refused connections in their SSH handshake at once; any more get the
/// reason as one line before the SSH version and are closed.
pub const REFUSING: usize = 64;

/// The refused connections being told why.
#[derive(Debug, Default)]
pub struct Refusing {
    held: Mutex<Vec<Arc<LoginWatch>>>,
}

impl Refusing {
    /// Take a place for the connection `watch` watches, an idle one giving
    /// its place up if every place is taken; false if none can be had.
    pub fn enter(&self, watch: &Arc<LoginWatch>) -> bool {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if held.len() >= REFUSING {
            let now = std::time::Instant::now();
            let Some(idle) = held.iter().position(|w| w.idle(now)) else {
                return false;
            };
            held.swap_remove(idle).evict();
        }
        held.push(watch.clone());
        true
    }

    /// The connection `watch` watches has ended (or was evicted).
    pub fn leave(&self, watch: &Arc<LoginWatch>) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.retain(|w| !Arc::ptr_eq(w, watch));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_pool_takes_a_new_refusal_only_in_place_of_an_idle_one() {
        let pool = Refusing::default();
        let watches: Vec<_> = (0..REFUSING)
            .map(|_| Arc::new(LoginWatch::default()))
            .collect();
        for (i, w) in watches.iter().enumerate() {
            // Every one of them asks to log in: none is idle.
            w.request();
            assert!(pool.enter(w), "place {i}");
        }
        let newer = Arc::new(LoginWatch::default());
        assert!(!pool.enter(&newer), "no place while none is idle");
        // One place is given back: a newer one takes it.
        pool.leave(&watches[3]);
        assert!(pool.enter(&newer));
    }
}
