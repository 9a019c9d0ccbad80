//! I-9 and I-26 by search: the ways to end a turn, looked for over the
//! engine's own steps where the quick tests do not settle it.

use super::search_memory::{Search, WordHash};
use super::*;
use crate::action::{completion_class, Action};

impl GameState {
    /// The completion search's key of a state: a hash of everything of the
    /// mover's turn that the search can change (hand, table, pending wilds,
    /// pickup). Word by word, live groups only (vacated slots are cleared).
    pub(super) fn search_key(&self) -> u64 {
        let p = self.current as usize;
        let mut h = WordHash::default();
        let (lo, hi, j) = self.hands[p].raw();
        h.word(lo);
        h.word(hi);
        let table = &self.tables[p];
        let (tlo, thi, tj) = table.red_threes.raw();
        h.word(tlo);
        h.word(thi);
        let (plo, phi, pj) = self.turn.pending.raw();
        h.word(plo);
        h.word(phi);
        h.word(
            j as u64
                | (tj as u64) << 8
                | (pj as u64) << 16
                | (table.twins as u64 & 0xFF) << 24
                | (table.heart_aces as u64) << 32
                | (table.heart_aces_new as u64) << 40
                | (table.opened as u64) << 48
                | (self.turn.must_go_out as u64) << 49
                | (table.len() as u64) << 56
                // Twins past 255 (only very long hands have them) in bits 50–55.
                | ((table.twins as u64) >> 8) << 50,
        );
        h.word(self.turn.undos as u64);
        h.word(match self.turn.pickup {
            None => 0,
            Some(pk) => {
                1 | (pk.top.index() as u64) << 8
                    | (pk.group_baseline as u64) << 16
                    | (pk.pile_size as u64) << 24
                    | (pk.rest_taken as u64) << 32
            }
        });
        for g in table.groups() {
            h.word(g.packed());
        }
        h.finish()
    }

    /// A way to complete the current turn (meld actions ending with the
    /// discard), found by a bounded exact search: the shortest by iterative
    /// deepening within `budget` states, else any found by one deep search
    /// of `budget` states; `None` outside a meld phase or when neither
    /// finds one.
    /// Agents use it to finish a turn they cannot otherwise end (I-26).
    pub fn completion(&self, budget: u32) -> Option<Vec<Action>> {
        if self.phase != Phase::Meld {
            return None;
        }
        if self.surely_stuck() {
            return None;
        }
        let mut root = *self;
        root.quiet = true;
        let mut search = Search::take(budget);
        search.bound = true;
        let path = root.completion_in(budget, &mut search);
        search.give_back();
        path
    }

    /// [`GameState::completion`] with the given search buffers.
    pub(super) fn completion_in(&self, budget: u32, search: &mut Search) -> Option<Vec<Action>> {
        // Iterative deepening: the shortest way out, so that following
        // its first step and searching again makes progress.
        let mut b = budget;
        for limit in 1..=150 {
            search.seen.clear();
            search.cut = false;
            let mut path = Vec::new();
            if self.search_rec(&mut b, search, limit, &mut path) {
                path.reverse();
                return Some(path);
            }
            if b == 0 {
                break;
            }
            if !search.cut {
                // Within its budget and never stopped by the depth limit,
                // this pass visited every state reachable from here: there
                // is no way out, whatever the budget or depth.
                return None;
            }
        }
        // Deepening ran out of budget: one deep search, the kind the legality
        // checks use, gives a way out that may not be the shortest.
        let mut b = budget;
        search.seen.clear();
        let mut path = Vec::new();
        if self.search_rec(&mut b, search, 150, &mut path) {
            path.reverse();
            return Some(path);
        }
        None
    }

    /// Whether no sequence of meld steps can reach a discard from here, by
    /// counting cards; a cheap exact "no" for the completion search, which
    /// then cannot find a way either (whatever its budget). `false` means
    /// only that the count does not decide.
    ///
    /// Outside a pickup (the rest of the pile would bring new cards), the
    /// hand can only win back cards that came from it this turn: those of
    /// the groups laid this turn, except wilds moved in from older groups
    /// (a take-back returns them there, or is refused for a broken-up
    /// group of wilds), the ♥A laid separately, and pending wilds taken
    /// out of a group laid this turn. Each step keeps that count or lowers
    /// it (a wild moved into an older group, a card laid there, a natural
    /// swapped into one). With none of those cards the turn can never
    /// discard. With one, a discard goes out, which needs a canasta
    /// (D-13.2); with no canasta on the table, one can only be made from
    /// a group's naturals, at most that one hand card more, and the wilds
    /// there are (on the table, pending or in the hand). When that one
    /// card is the hand's and no group of this turn can be taken back, the
    /// going-out test decides exactly.
    pub(super) fn surely_stuck(&self) -> bool {
        if self.phase != Phase::Meld || self.before_rest() {
            return false;
        }
        let p = self.current as usize;
        let hand = self.hands[p];
        let table = &self.tables[p];
        let groups = table.groups();
        let mut own = hand.len() + table.heart_aces_new as u32;
        for g in groups {
            if g.is_new() {
                own += g.len();
            }
        }
        for &(_, ret, _) in self.turn.live_pend() {
            if ret == FROM_HAND {
                own += 1;
            }
        }
        // Wilds moved into a group laid this turn from an older one.
        let moved_in = self
            .turn
            .live_moves()
            .iter()
            .filter(|&&(to, from, _)| {
                from != FROM_HAND && groups.get(to as usize).is_some_and(|g| g.is_new())
            })
            .count() as u32;
        let Some(own) = own.checked_sub(moved_in) else {
            debug_assert!(false, "a wild moved in is one of its group's cards");
            return false;
        };
        match own {
            0 => true,
            1 if hand.len() == 1 && !table.has_new() => {
                // The hand's one card is the one card it can hold at the
                // discard, which then goes out (D-13): the turn completes
                // only by a way out. With no group of this turn to take
                // back, every meld step left moves wilds between groups,
                // places the pending ones or lays the hand card, all of
                // which the going-out test allows (it is generous), so its
                // "no" is exact.
                let all = hand.checked_add(self.turn.pending).unwrap_or(hand);
                !self.can_go_out(p, all, false, None, self.turn.pending)
            }
            1 if !table.has_canasta() => self.no_canasta_within(p),
            _ => false,
        }
    }

    pub(super) fn search_rec(
        &self,
        budget: &mut u32,
        search: &mut Search,
        depth: u32,
        path: &mut Vec<Action>,
    ) -> bool {
        if self.phase != Phase::Meld {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if depth == 0 && search.cut && !search.mark_leaves {
            // A leaf once the pass has been cut: its only question is the
            // discard. Marking it visited would change nothing: a later
            // visit at depth 0 fails as this one does (a state with a
            // discard ends the search at once), a deeper one searches it
            // whether marked at 0 or not, and the cut is already made.
            // So the state's key is not made (a leaf is most nodes).
            if self.turn.pending.is_empty() && !self.before_rest() {
                if let Some(c) = self.first_discard() {
                    path.push(Action::Discard(c));
                    return true;
                }
            }
            return false;
        }
        let key = self.search_key();
        // `depth` is the number of steps still allowed; a state already
        // searched with at least as many is not searched again.
        if !search.seen.visit(key, depth) {
            return false;
        }
        if self.turn.pending.is_empty() && !self.before_rest() {
            if let Some(c) = self.first_discard() {
                path.push(Action::Discard(c));
                return true;
            }
        }
        if depth == 0 {
            search.cut = true;
            return false;
        }
        if search.bound && self.steps_to_discard() > depth {
            search.cut = true;
            return false;
        }
        // Buffers come from the search's pools and go back on return.
        let mut cand = search.cands.pop().unwrap_or_default();
        cand.clear();
        // Discards were tried above; the reset leads back to a searched
        // state. The ways searched undo nothing, as the listing's check
        // (I-9) asks: every step of one is listed.
        self.raw_meld_candidates(&mut cand, false);
        cand.retain(|a| !matches!(a, Action::TakeBack { .. } | Action::TakeBackHeartAce));
        // Placements and lays first: they make progress.
        // During a pickup, laying the top card comes first.
        let top = self
            .turn
            .pickup
            .filter(|pk| !pk.rest_taken)
            .map(|pk| pk.top);
        let class = |a: &Action| completion_class(a, top);
        // A stable sort by class, as a counting sort: seven classes.
        let mut sorted = search.cands.pop().unwrap_or_default();
        let mut start = [0usize; 8];
        for a in &cand {
            start[class(a) + 1] += 1;
        }
        for i in 1..8 {
            start[i] += start[i - 1];
        }
        sorted.clear();
        sorted.resize(cand.len(), Action::Draw);
        for a in &cand {
            let c = class(a);
            sorted[start[c]] = *a;
            start[c] += 1;
        }
        std::mem::swap(&mut cand, &mut sorted);
        search.cands.push(sorted);
        // One copy serves every candidate: a refused step changes nothing,
        // and after a step searched in vain the mover's part is put back.
        // Every state of one search differs from its root only in the
        // mover's part, so a pooled copy needs only that part refreshed.
        let mut t = match search.states.pop() {
            Some(mut t) => {
                t.copy_mover_from(self);
                t
            }
            None => match search.stale.pop() {
                Some(mut t) => {
                    t.as_mut().clone_from(self);
                    t
                }
                None => Box::new(*self),
            },
        };
        debug_assert!(*t == *self, "pooled copy refreshed");
        let mut found = false;
        for &a in &cand {
            if t.meld_step(a).is_err() {
                debug_assert!(*t == *self, "a refused {a} changed nothing");
                continue;
            }
            if t.search_rec(budget, search, depth - 1, path) {
                path.push(a);
                found = true;
                break;
            }
            if *budget == 0 {
                // Every later node would return false at once (a meld step
                // never ends the phase), so the rest of the candidates
                // cannot change the answer.
                break;
            }
            t.copy_mover_from(self);
            debug_assert!(*t == *self, "restored after {a}");
        }
        search.states.push(t);
        search.cands.push(cand);
        found
    }

    /// A lower bound on the meld steps before the mover can discard: for
    /// the finisher's search ([`GameState::completion`]), which leaves out
    /// a node that cannot reach a discard within the steps it has left.
    ///
    /// Before the rest of the pile is taken, see
    /// [`GameState::steps_through_pickup`]. Otherwise it is 0 but with
    /// nothing laid this turn (no take-back, D-11.5). Then:
    ///
    /// - With wilds pending, the discard waits until all are placed
    ///   (D-11.2): one step places one (an extend) or three (a lay, which
    ///   makes no canasta), and the hand wins a card back only by a lay
    ///   and its take-back. One step can lead to a discard only with two
    ///   cards in hand, or a canasta on the table, or one wild pending
    ///   and a group of six; otherwise two.
    /// - With none pending, a card comes back to the hand only by taking
    ///   back a group laid from here that holds a wild taken out of
    ///   another group laid from here (I-25: such a wild came from the
    ///   hand): at least a wild taken out, a lay, a wild taken out of it,
    ///   a lay or an extend and the take-back, five steps. A hand of one
    ///   card discards sooner only by going out, with a canasta (D-13.2)
    ///   of wilds moved out of other groups, the card staying to be
    ///   discarded: a group with `k` cards to go takes `k` extends (a new
    ///   group a lay and four), and the wilds at least a step for every
    ///   three taken out (a group of three wilds broken up, D-11.3).
    pub(super) fn steps_to_discard(&self) -> u32 {
        const REGAIN: u32 = 5;
        let p = self.current as usize;
        let table = &self.tables[p];
        if self.before_rest() {
            return self.steps_through_pickup();
        }
        if table.has_new() {
            return 0;
        }
        let hand = self.hands[p].len();
        let pending = self.turn.pending.len();
        if hand >= 2 {
            return (pending > 0) as u32;
        }
        if hand == 0 && pending == 0 {
            return REGAIN;
        }
        let longest = table.groups().iter().map(|g| g.len()).max().unwrap_or(0);
        if pending > 0 {
            let one_step = longest >= 7 || (pending == 1 && longest == 6);
            return if one_step { 1 } else { 2 };
        }
        let k = 7u32.saturating_sub(longest);
        (k.min(5) + k.div_ceil(3)).min(REGAIN)
    }

    /// [`GameState::steps_to_discard`] before the rest of the pile is
    /// taken (D-6.2): taking it is a step, after the top card is laid
    /// (I-8). An unopened player needs his opening (D-8.2) on the table
    /// first, at most 60 points a step (three cards of 20, a lay; an
    /// extend adds one card, a wild moved adds no more than it takes);
    /// short of it, he must go out (I-26), laying all of his hand's cards
    /// but one, three a step at most.
    pub(super) fn steps_through_pickup(&self) -> u32 {
        let p = self.current as usize;
        let table = &self.tables[p];
        let top = !self.top_laid() as u32;
        if table.opened {
            return top + 1;
        }
        let short = (self.opening_minimum(p) - table.opening_value()).max(0) as u32;
        let open = short.div_ceil(60).max(top) + 1;
        let out = self.hands[p].len().saturating_sub(1).div_ceil(3).max(top) + 1;
        open.min(out)
    }
}
