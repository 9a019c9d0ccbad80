//! The completion searches' memory: the visited set and the buffers they
//! hand on.

use super::*;
use crate::action::Action;

/// The completion search's visited set (keyed by a state hash, already
/// mixed) and pools of buffers reused from node to node.
#[derive(Default)]
pub(super) struct Search {
    pub(super) seen: Seen,
    // Boxed so that each level of the recursion holds a pointer, not a
    // 2.5 KB state, in its stack frame (the search goes 150 levels deep).
    #[allow(clippy::vec_box)]
    pub(super) states: Vec<Box<GameState>>,
    /// Copies left by an earlier search: they differ from this search's
    /// states in more than the mover's part, so they are copied in full.
    #[allow(clippy::vec_box)]
    pub(super) stale: Vec<Box<GameState>>,
    pub(super) cands: Vec<Vec<Action>>,
    /// Set when a node was left unexplored for the depth limit.
    pub(super) cut: bool,
    /// Every leaf is marked visited, as before the leaf shortcut of
    /// [`GameState::search_rec`] (tests compare the two).
    pub(super) mark_leaves: bool,
    /// Nodes that cannot reach a discard within their steps are left out
    /// ([`GameState::steps_to_discard`]): the finisher's search only, not
    /// the budgeted checks of the listing, whose answers would change.
    pub(super) bound: bool,
    /// The listing's context of [`Verdicts`]: with it, the forward
    /// search reads and stores the verdicts of the states it searches.
    pub(super) verdicts: Option<u64>,
}

thread_local! {
    /// The thread's searches hand their buffers on to the next one, so
    /// that a search allocates only where the earlier ones did not reach.
    pub(super) static SEARCH_POOL: std::cell::RefCell<Option<Search>> = const { std::cell::RefCell::new(None) };
}

impl Search {
    /// The pooled search, emptied, or a new one; see [`Search::give_back`].
    pub(super) fn take(budget: u32) -> Search {
        match SEARCH_POOL.with(|s| s.borrow_mut().take()) {
            Some(mut s) => {
                s.seen.clear();
                s.bound = false;
                s.verdicts = None;
                s.stale.append(&mut s.states);
                s
            }
            None => Search::with_budget(budget),
        }
    }

    /// Leaves the buffers to the thread's next search.
    pub(super) fn give_back(self) {
        SEARCH_POOL.with(|s| *s.borrow_mut() = Some(self));
    }

    /// Room in the visited set for every state the budget allows (capped),
    /// so that it does not grow step by step.
    pub(super) fn with_budget(budget: u32) -> Search {
        Search {
            seen: Seen::with_room(budget.min(4096) as usize),
            ..Search::default()
        }
    }
}

/// The completion search's visited set: state hash → the most steps a
/// search from that state was allowed. Open addressing with linear
/// probing over keys that are hashes already; an entry belongs to the set
/// only if it carries the current generation, so emptying the set between
/// searches is one increment, not a pass over the whole table (which grows
/// to the largest search the thread has made).
pub(super) struct Seen {
    /// (key, generation, depth); generation 0 is never current.
    pub(super) slots: Vec<(u64, u32, u32)>,
    pub(super) generation: u32,
    pub(super) len: usize,
}

impl Default for Seen {
    fn default() -> Seen {
        Seen::with_room(0)
    }
}

impl Seen {
    /// An empty set with room for `n` entries before it grows.
    pub(super) fn with_room(n: usize) -> Seen {
        Seen {
            slots: vec![(0, 0, 0); (2 * n).next_power_of_two().max(16)],
            generation: 1,
            len: 0,
        }
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: entries of the old generation 1, 2, … must not
            // come back to life.
            self.slots.fill((0, 0, 0));
            self.generation = 1;
        }
    }

    /// The depth stored for `key` in this generation.
    #[cfg(test)]
    pub(super) fn get(&self, key: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let (k, g, d) = self.slots[i];
            if g != self.generation {
                return None;
            }
            if k == key {
                return Some(d);
            }
            i = (i + 1) & mask;
        }
    }

    /// A search reaches the state `key` with `depth` steps allowed:
    /// `false` if it was searched already with at least as many (nothing
    /// changes), else records `depth` for it and answers `true`.
    pub(super) fn visit(&mut self, key: u64, depth: u32) -> bool {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow_to(2 * self.slots.len());
        }
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.1 != self.generation {
                *slot = (key, self.generation, depth);
                self.len += 1;
                return true;
            }
            if slot.0 == key {
                if slot.2 >= depth {
                    return false;
                }
                slot.2 = depth;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    /// Rehashes the live entries into `cap` slots (a power of two).
    pub(super) fn grow_to(&mut self, cap: usize) {
        let old = std::mem::replace(&mut self.slots, vec![(0, 0, 0); cap]);
        let mask = cap - 1;
        for (k, g, d) in old {
            if g != self.generation {
                continue;
            }
            let mut i = k as usize & mask;
            while self.slots[i].1 == self.generation {
                i = (i + 1) & mask;
            }
            self.slots[i] = (k, g, d);
        }
    }
}

/// A word-at-a-time hash for the completion search's visited set: a
/// multiply-xorshift step per word and a splitmix64 finish.
#[derive(Default)]
pub(super) struct WordHash(u64);

impl WordHash {
    pub(super) fn word(&mut self, w: u64) {
        let x = (self.0 ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 29);
    }

    /// Two words at once: one folded multiply (the halves of the 128-bit
    /// product of the state with `a` and of `b` with a constant, xored),
    /// half the steps of two [`WordHash::word`]s for the long keys.
    #[inline]
    pub(super) fn pair(&mut self, a: u64, b: u64) {
        let x = u128::from(self.0 ^ a) * u128::from(b ^ 0x2D35_8DCC_AA6C_78A5);
        self.0 = x as u64 ^ (x >> 64) as u64;
    }

    pub(super) fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The slots of [`Verdicts`], a power of two.
pub(super) const VERDICT_SLOTS: usize = 4096;

/// The completion check's verdicts (I-9) a thread has reached, for the
/// listings of one turn to share: keyed by a state's
/// [`GameState::forward_key`] mixed with its listing's context
/// ([`GameState::verdict_context`]), which holds everything else the
/// verdict depends on. The check is exact (no budget), so a verdict found
/// once is the verdict of any later search of the same state. Direct
/// mapped, a later verdict replacing an earlier one in its slot; an entry
/// is its key with the verdict in the lowest bit, 0 for an empty slot.
/// Entries of another turn, another hand or other rules never match:
/// their contexts differ (the rules by [`rules_key`]). A key is a 64-bit
/// hash of all that, as the search's visited set is.
pub(super) struct Verdicts {
    slots: [u64; VERDICT_SLOTS],
}

thread_local! {
    pub(super) static VERDICTS: std::cell::RefCell<Verdicts> = const {
        std::cell::RefCell::new(Verdicts {
            slots: [0; VERDICT_SLOTS],
        })
    };
}

/// The rules' part of a verdict's context: a 64-bit hash of every field
/// of `rules`, made once a state ([`GameState::from_parts`]), so that a
/// listing names its rules without comparing them.
pub(super) fn rules_key(rules: &Rules) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    rules.hash(&mut h);
    h.finish()
}

impl Verdicts {
    fn entry(key: u64) -> u64 {
        // Never 0, the empty slot.
        (key & !1).max(2)
    }

    /// The verdict stored for `key`.
    pub(super) fn get(key: u64) -> Option<bool> {
        let e = Verdicts::entry(key);
        VERDICTS.with(|v| {
            let s = v.borrow().slots[(key >> 1) as usize & (VERDICT_SLOTS - 1)];
            (s & !1 == e).then_some(s & 1 == 1)
        })
    }

    /// Stores the verdict of `key`.
    pub(super) fn put(key: u64, verdict: bool) {
        let e = Verdicts::entry(key) | verdict as u64;
        VERDICTS.with(|v| v.borrow_mut().slots[(key >> 1) as usize & (VERDICT_SLOTS - 1)] = e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two listings share verdicts only under the same rules: the
    /// contexts of one position under different rules differ, however
    /// the listings alternate, and a context repeats under the same rules.
    #[test]
    fn different_rules_never_share_verdicts() {
        let mut rules = crate::rules::test_variants().to_vec();
        for (key, value) in [
            ("target", "5000"),
            ("max_hands", "7"),
            ("tax", "off"),
            ("tax_rounding", "nearest"),
            ("opening", "table"),
        ] {
            let mut r = Rules::default();
            r.set(key, value).unwrap();
            rules.push(r);
        }
        for (i, a) in rules.iter().enumerate() {
            for b in &rules[i + 1..] {
                assert_ne!(a, b);
            }
        }
        let states: Vec<GameState> = rules.iter().map(|&r| GameState::new(r, 7)).collect();
        for (i, a) in states.iter().enumerate() {
            for (j, b) in states.iter().enumerate() {
                let (ca, cb) = (a.verdict_context(), b.verdict_context());
                assert_eq!(ca == cb, i == j, "rules {i} and {j}");
                assert_eq!(a.verdict_context() == cb, i == j, "rules {i} and {j}");
            }
        }
    }
}
