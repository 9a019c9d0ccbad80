//! I-9 and I-26, the quick tests: can the mover still complete the turn
//! (discard, or go out) from here?

use super::candidates::ranks_held_twice;
use super::search_memory::{Search, Verdicts, WordHash};
use super::steps::pending_part;
use super::*;
use crate::action::Action;
use crate::card::Card;
use crate::card_set::CardSet;
use crate::group::{legal_natural_counts, max_wilds, Group, FLAG_RECEIVED};
use crate::rules::{GroupsPerRank, Permit};
use crate::solver;

impl GameState {
    // ----- I-9: can the turn be completed? ---------------------------------

    /// Whether the mover can still end the turn from here without undoing
    /// anything (I-9, I-26): by meld steps that take nothing back (no
    /// take-back, no reset) and a discard. Exact, without a search budget.
    /// With no wild pending and no pickup in progress the solver's tables
    /// decide ([`GameState::plain_finish`]); otherwise a search over the
    /// steps ([`GameState::forward_finish`]), which the tables answer
    /// for most states before it looks at a step.
    pub(crate) fn can_finish(&self) -> bool {
        self.finish_verdict(None)
    }

    /// [`GameState::can_finish`]; with a listing's context
    /// ([`GameState::verdict_context`] of the listed state, whose steps
    /// led here), the verdicts of searched states are read from and kept
    /// in the thread's [`Verdicts`].
    pub(super) fn finish_verdict(&self, verdicts: Option<u64>) -> bool {
        if self.phase != Phase::Meld {
            return true;
        }
        let p = self.current as usize;
        if self.turn.pending.is_empty() {
            if !self.before_rest() {
                return self.plain_finish(p, verdicts);
            }
            // The search's first question about its root, asked without
            // the search.
            if let Some(answer) = self.pickup_quick(p, verdicts) {
                return answer;
            }
        } else {
            if self.wilds_surely_placed(p) || self.placed_finish(p, verdicts) {
                return true;
            }
            return self.pending_search(p, verdicts);
        }
        self.forward_finish(verdicts)
    }

    /// [`GameState::can_finish`] with wilds pending, once
    /// [`GameState::placed_finish`] has failed: the verdict kept for the
    /// state (a root searched before, or a node of an earlier search);
    /// else the count's exact "no" ([`GameState::pending_stuck`]); else
    /// during a pickup whose top card is not laid yet, the fourth way of
    /// placing them ([`Way::Top`]: the top card laid with a pending
    /// wild); else where the groups lack room for the wilds, the third
    /// way ([`Way::Laid`]), which settles most such states; else the
    /// second ([`Way::Longest`]); else the search's exact "no"
    /// ([`GameState::pending_may_finish`]); else the search
    /// ([`GameState::forward_finish`]), which needs none of them asked
    /// again. A verdict found is kept.
    pub(super) fn pending_search(&self, p: usize, verdicts: Option<u64>) -> bool {
        let key = self.forward_key();
        let known = verdicts.map(|c| c ^ key);
        if let Some(v) = known.and_then(Verdicts::get) {
            return v;
        }
        let stuck = self.pending_stuck(p);
        if !stuck {
            let asked = self.ways_asked(p);
            let mut t = *self;
            t.quiet = true;
            // Between the ways only the mover's part, all a step
            // changes, is put back.
            if t.pending_ways(p, verdicts, asked, |t| t.copy_mover_from(self)) {
                debug_assert!(self.forward_finish(None), "I-9 second, third or fourth way");
                if let Some(k) = known {
                    Verdicts::put(k, true);
                }
                return true;
            }
        }
        self.pending_rest(p, verdicts, key, stuck)
    }

    /// [`GameState::pending_search`] on a state whose mover's part the
    /// caller puts back afterwards (the listing's probe, quiet): the ways
    /// are tried on the state itself instead of on a copy of the whole
    /// state, its mover's part saved before them and put back after each
    /// that fails. On `true` the mover's part may be left where the way
    /// that settled it ended.
    fn pending_search_scratch(&mut self, p: usize, verdicts: Option<u64>) -> bool {
        let key = self.forward_key();
        let known = verdicts.map(|c| c ^ key);
        if let Some(v) = known.and_then(Verdicts::get) {
            return v;
        }
        let stuck = self.pending_stuck(p);
        if !stuck {
            let asked = self.ways_asked(p);
            let save = MoverSave::of(self);
            if self.pending_ways(p, verdicts, asked, |t| t.restore_mover(&save)) {
                #[cfg(debug_assertions)]
                {
                    let mut before = *self;
                    before.restore_mover(&save);
                    assert!(
                        before.forward_finish(None),
                        "I-9 second, third or fourth way"
                    );
                }
                if let Some(k) = known {
                    Verdicts::put(k, true);
                }
                return true;
            }
            self.restore_mover(&save);
        }
        self.pending_rest(p, verdicts, key, stuck)
    }

    /// Which of the ways [`GameState::pending_ways`] tries, in its order
    /// ([`Way::Top`], [`Way::Laid`], [`Way::Longest`]), asked of the state
    /// before any is tried.
    #[inline]
    fn ways_asked(&self, p: usize) -> [bool; 3] {
        [self.top_lay(p).is_some(), self.wilds_laid_first(p), true]
    }

    /// The ways of [`GameState::pending_search`] asked (`asked`, of
    /// [`GameState::ways_asked`]) tried in turn on `self` (quiet), which
    /// `restore` brings back before each way after the first; whether one
    /// settled it. On `false` the state is where the last way left it.
    #[inline]
    fn pending_ways(
        &mut self,
        p: usize,
        verdicts: Option<u64>,
        asked: [bool; 3],
        mut restore: impl FnMut(&mut GameState),
    ) -> bool {
        let mut moved = false;
        for (way, asked) in [Way::Top, Way::Laid, Way::Longest].into_iter().zip(asked) {
            if !asked {
                continue;
            }
            if moved {
                restore(self);
            }
            if self.placed_in_place(p, verdicts, way) {
                return true;
            }
            moved = true;
        }
        false
    }

    /// [`GameState::pending_search`] past the ways: the search's exact
    /// "no", else the search. `key`: [`GameState::forward_key`];
    /// `stuck`: [`GameState::pending_stuck`].
    fn pending_rest(&self, p: usize, verdicts: Option<u64>, key: u64, stuck: bool) -> bool {
        let known = verdicts.map(|c| c ^ key);
        debug_assert!(!stuck || !self.forward_finish(None), "I-9, D-13.1: stuck");
        if stuck || !self.unstuck_may_finish(p) {
            if let Some(k) = known {
                Verdicts::put(k, false);
            }
            return false;
        }
        let mut search = Search::take(0);
        search.verdicts = verdicts;
        let found = if !search.seen.visit(key, 1) {
            false
        } else if self.quiet {
            // The steps are made on the copy forward_expand makes: a
            // quiet state (the listing's probe) needs no copy of its own.
            self.forward_expand(&mut search, known, true)
        } else {
            let mut root = *self;
            root.quiet = true;
            root.forward_expand(&mut search, known, true)
        };
        search.give_back();
        debug_assert_eq!(found, self.forward_finish(None), "I-9 verdict of the root");
        found
    }

    /// The context of the verdicts of [`GameState::can_finish`] for the
    /// states a listing's steps lead to from here: what a verdict depends
    /// on besides the mover's part that [`GameState::forward_key`] reads
    /// and the steps change. That is the rules, the mover, his opening
    /// minimum (his score), the card taken by the free pickup (I-21),
    /// and during a pickup before the rest is taken, the pile (whose
    /// cards the rest brings, and whose size sets the cards to keep).
    /// The undos left, the moves' log, what is known of the hand and the
    /// other players' part are not read by the check.
    pub(super) fn verdict_context(&self) -> u64 {
        let p = self.current as usize;
        let mut h = WordHash::default();
        h.word(self.rules_key);
        h.word(
            self.current as u64
                | (self.opening_minimum(p) as u32 as u64) << 8
                | (self.turn.free_card.map_or(0xFF, |c| c.index()) as u64) << 40,
        );
        if self.before_rest() {
            h.word(self.pile_len as u64 | 1 << 8);
            for chunk in self.pile().chunks(8) {
                let mut w = 0u64;
                for (i, c) in chunk.iter().enumerate() {
                    w |= (c.index() as u64) << (8 * i);
                }
                h.word(w);
            }
        }
        h.finish()
    }

    /// With wilds pending: whether one way of placing them settles it,
    /// without the search. Each pending wild is placed in turn into the
    /// first group that takes it (the first steps the search tries:
    /// [`GameState::raw_meld_candidates`] lists these placements first,
    /// by group), or where none does, laid in a new group: with two more
    /// pending wilds, or with the first pair of naturals of the hand that
    /// makes a group with it. If all are placed and the tables then say
    /// yes (with nothing pending and no pickup in progress,
    /// [`GameState::plain_finish`]: a discard, or a way out or an opening
    /// by the solver, the search's first leaf; or a pickup
    /// [`GameState::pickup_quick`] lets through), the turn can be
    /// completed. `true` is exact (a way of steps that undo nothing);
    /// `false` decides nothing.
    ///
    /// `verdicts`: the listing's context of the thread's [`Verdicts`].
    pub(super) fn placed_finish(&self, p: usize, verdicts: Option<u64>) -> bool {
        let mut t = *self;
        t.quiet = true;
        t.placed_in_place(p, verdicts, Way::First)
    }

    /// [`GameState::finish_verdict`] on a state whose mover's part the
    /// caller puts back afterwards (the listing's probe), reached by the
    /// step `before.1` from the state `before.0` (which differs from it in
    /// the mover's part alone): the
    /// first way of [`GameState::placed_finish`] is tried on the state
    /// itself instead of on a copy of the whole state. If it fails, the
    /// state is brought back by copying the mover's part of `before.0`
    /// and making the step again (the step was accepted there), not by a second
    /// copy of the mover's part saved before the way: the way settles
    /// most states. On `true` the mover's part may be left where the
    /// first way ended.
    pub(super) fn finish_verdict_scratch(
        &mut self,
        verdicts: Option<u64>,
        before: (&GameState, Action),
    ) -> bool {
        if self.phase != Phase::Meld || self.turn.pending.is_empty() {
            return self.finish_verdict(verdicts);
        }
        let p = self.current as usize;
        if self.hands[p].is_empty() && !self.before_rest() {
            // Nothing to discard, ever ([`GameState::pending_stuck`]).
            debug_assert!(self.pending_stuck(p));
            return false;
        }
        let quiet = self.quiet;
        self.quiet = true;
        let placed = self.placed_in_place(p, verdicts, Way::First);
        if placed {
            self.quiet = quiet;
            return true;
        }
        let (listed, step) = before;
        self.copy_mover_from(listed);
        let redone = self.meld_step(step);
        debug_assert!(redone.is_ok(), "{step} made again");
        let found = self.pending_search_scratch(p, verdicts);
        self.quiet = quiet;
        found
    }

    /// With wilds pending: whether the turn surely can be completed by
    /// placing them into the groups there are, counted without a step
    /// made ([`WildRoom`]). `true` is exact; `false` decides nothing.
    #[inline]
    pub(super) fn wilds_surely_placed(&self, p: usize) -> bool {
        let sure = self.wild_room(p).is_some_and(|w| w.completes());
        #[cfg(debug_assertions)]
        if sure {
            assert!(self.forward_finish(None), "I-9 wilds placed by their room");
        }
        sure
    }

    /// The counts of [`WildRoom`] for the mover `p` of a meld phase, or
    /// `None` where they decide nothing, for the state and for every step
    /// of [`WildRoom::after`] (none of which gives the hand a card): I-26's
    /// duty to go out, a pickup before the rest by a player who had not
    /// opened or before the top card is laid, too few cards in hand.
    pub(super) fn wild_room(&self, p: usize) -> Option<WildRoom> {
        if self.phase != Phase::Meld || self.turn.must_go_out {
            return None;
        }
        let table = &self.tables[p];
        let hand = self.hands[p];
        let n = hand.len() as i32;
        let (keep, one_out) = if self.before_rest() {
            if !(table.opened && self.top_laid()) {
                return None;
            }
            // The rest's cards come to the hand ([`GameState::pickup_quick`]).
            (2i32.saturating_sub(self.pile_len as i32), false)
        } else {
            let barred = self.rules.free_pickup_return == Permit::Forbid
                && self.turn.free_card.is_some_and(|c| hand.contains(c));
            (2, n == 1 && !barred)
        };
        if n < keep && !one_out {
            return None;
        }
        // One pass over the groups; the canastas counted only where the
        // one card may go out.
        let (mut room, mut canastas) = (0u32, 0i32);
        for g in table.groups() {
            room += wild_room(g);
            if one_out {
                canastas += g.is_canasta() as i32;
            }
        }
        let (value, need) = if table.opened {
            (0, i32::MIN)
        } else {
            (table.opening_value(), self.opening_minimum(p))
        };
        Some(WildRoom {
            room: room as i32,
            hand: n,
            keep,
            one_out,
            canastas,
            pending: self.turn.pending.len() as i32,
            value,
            need,
        })
    }

    /// [`GameState::placed_finish`]'s steps made on `self` (quiet).
    /// `way`: which group takes a pending wild where several do; with
    /// [`Way::Longest`], whose caller has seen [`Way::First`] fail on the
    /// same state, `false` also where each wild went where the first way
    /// put it.
    #[inline]
    pub(super) fn placed_in_place(&mut self, p: usize, verdicts: Option<u64>, way: Way) -> bool {
        // One body a way: the first way, the hot one, without the
        // second's choice.
        match way {
            Way::First => self.placed_way::<false, false, false>(p, verdicts),
            Way::Longest => self.placed_way::<true, false, false>(p, verdicts),
            Way::Laid => self.placed_way::<false, true, false>(p, verdicts),
            Way::Top => self.placed_way::<false, false, true>(p, verdicts),
        }
    }

    /// Where [`Way::Top`] may settle what the other ways did not: during
    /// a pickup before the rest is taken, with wilds pending, the top
    /// card (I-8) not laid yet and in the hand with one natural more of
    /// its rank: the lay of the top card, the first other natural of its
    /// rank in the hand and the first pending wild (which the first way,
    /// placing the wild by an extend, leaves the top card without).
    pub(super) fn top_lay(&self, p: usize) -> Option<CardSet> {
        let pk = self.turn.pickup.filter(|pk| !pk.rest_taken)?;
        let rank = pk.top.rank()?;
        let hand = self.hands[p];
        let wild = self.turn.pending.kinds().next()?;
        if hand.rank_count(rank) < 2 || !hand.contains(pk.top) || self.top_laid() {
            return None;
        }
        let mut others = hand.of_rank(rank);
        others.remove(pk.top);
        let mut cards = first_cards(others, 1);
        cards.insert(pk.top);
        cards.insert(wild);
        Some(cards)
    }

    /// Whether [`Way::Laid`] may settle what the other ways did not: three
    /// wilds or more pending and fewer places for them by extends
    /// ([`wild_room`]) than are pending, so that the first way lays a
    /// group only with the wilds left over, if it can.
    pub(super) fn wilds_laid_first(&self, p: usize) -> bool {
        let pending = self.turn.pending.len();
        pending >= 3 && self.tables[p].groups().iter().map(wild_room).sum::<u32>() < pending
    }

    /// [`GameState::placed_in_place`], `LONGEST` for [`Way::Longest`],
    /// `LAID` for [`Way::Laid`], `TOP` for [`Way::Top`].
    fn placed_way<const LONGEST: bool, const LAID: bool, const TOP: bool>(
        &mut self,
        p: usize,
        verdicts: Option<u64>,
    ) -> bool {
        let t = self;
        let mut other = false;
        if TOP {
            // The top card laid with a pending wild before any is placed
            // by an extend; the rest as the first way.
            let Some(cards) = t.top_lay(p) else {
                return false;
            };
            if t.meld_step(Action::Lay { cards }).is_err() {
                return false;
            }
        }
        if LAID {
            // Three pending wilds laid as a group of wilds before any is
            // placed by an extend; the rest as the first way.
            let pending = t.turn.pending;
            if pending.len() < 3
                || t.meld_step(Action::Lay {
                    cards: first_cards(pending, 3),
                })
                .is_err()
            {
                return false;
            }
        }
        while let Some(w) = t.turn.pending.kinds().next() {
            // The first group the step takes the pending wild into, found
            // by the step's own checks on the group alone
            // ([`GameState::extended_group`] for a pending wild: every
            // group accepts a wild, none but a black canasta refuses one
            // that keeps it within its limits, which the counts tell as
            // the raw candidates read them), the step then made once
            // instead of tried on each group, without its checks again.
            // (Room for a wild, [`wild_room`], is that test by one
            // lookup.)
            let takes = |g: &Group| wild_room(g) > 0;
            let groups = t.tables[p].groups();
            let first = groups.iter().position(takes);
            debug_assert_eq!(
                first,
                (0..t.tables[p].len()).position(|gi| t.extended_group(p, gi, w, true).is_ok())
            );
            let chosen = if LONGEST {
                // The longest group short of a canasta that takes it
                // (the first of the longest), else the first.
                let longest = groups
                    .iter()
                    .enumerate()
                    .filter(|&(_, g)| g.len() < 7 && takes(g))
                    .min_by_key(|&(i, g)| (7 - g.len(), i))
                    .map(|(i, _)| i)
                    .or(first);
                other |= longest != first;
                longest
            } else {
                first
            };
            if let Some(gi) = chosen {
                t.extend_checked(p, gi, w);
                continue;
            }
            let pending = t.turn.pending;
            if pending.len() >= 3
                && t.meld_step(Action::Lay {
                    cards: first_cards(pending, 3),
                })
                .is_ok()
            {
                continue;
            }
            let hand = t.hands[p];
            let paired = ranks_held_twice(hand.rank_counts()).any(|r| {
                let mut cards = first_cards(hand.of_rank(r), 2);
                cards.insert(w);
                t.meld_step(Action::Lay { cards }).is_ok()
            });
            if !paired {
                return false;
            }
        }
        if LONGEST && !other {
            return false;
        }
        if t.before_rest() {
            t.pickup_quick(p, verdicts) == Some(true)
        } else {
            t.plain_finish(p, verdicts)
        }
    }

    /// [`GameState::can_finish`] with nothing pending and no pickup in
    /// progress: a discard now; else, with one card (or I-26's duty), a
    /// way out; else — two cards or more and no discard, so an opening
    /// short of its minimum (D-8.2) — an opening reaching it with two
    /// cards kept, or a way out (D-8.3).
    ///
    /// The thread's [`Verdicts`] are not read (the listing's context is
    /// taken and left alone): the tables' answer costs about what the
    /// key of a verdict and its keeping cost, and a state comes back
    /// once in four.
    pub(super) fn plain_finish(&self, p: usize, _verdicts: Option<u64>) -> bool {
        if self.discard_now() {
            return true;
        }
        let hand = self.hands[p];
        if hand.is_empty() {
            return false;
        }
        let out = || self.can_go_out(p, hand, false, None, CardSet::EMPTY);
        if hand.len() == 1 || self.turn.must_go_out {
            // The solver's question (with one card: the card's own checks,
            // then the table's alone), with the solver's own memory.
            return out();
        }
        let min = self.opening_minimum(p);
        solver::opening::opening_reaches(
            hand,
            self.tables[p].groups(),
            0,
            &self.rules,
            None,
            2,
            Some(min),
        ) || out()
    }

    /// During a pickup, before the rest is taken, with nothing pending:
    /// `Some` where the tables decide, `None` where the steps must be
    /// searched. Yes: the top card laid in a group (I-8) — by a player
    /// who has not opened, in an opening of the minimum (D-6.2.1) — with
    /// what makes two cards with the rest kept, and the rest taken. No:
    /// the top card cannot be laid with the hand and the table, or
    /// there is no way out even with the rest's cards (the only way left,
    /// I-26). Otherwise a way out after a short opening may exist, which
    /// the tables cannot tell: the top card must be laid before the rest
    /// is taken, with the hand's cards alone.
    ///
    /// `verdicts`: the listing's context of the thread's [`Verdicts`],
    /// read and kept past the quick ways (an answer kept is the check's
    /// verdict, which is this function's answer where it has one).
    pub(super) fn pickup_quick(&self, p: usize, verdicts: Option<u64>) -> Option<bool> {
        let pk = self.turn.pickup?;
        let Some(rank) = pk.top.rank() else {
            return Some(false);
        };
        let hand = self.hands[p];
        let table = &self.tables[p];
        let rest = self.pile_len as u32;
        let keep = 2u32.saturating_sub(rest);
        // Quick ways through: an opened player lays the top card into its
        // group, or with two cards of the hand, then takes the rest.
        if !table.opened {
            return self.pickup_unopened(p, pk, rank, keep, verdicts);
        }
        // One pass over the groups of the top card's rank (by the rank's
        // index, which a group of wilds only never has): whether the top
        // card lies in one (as [`GameState::top_laid`] counts it: a
        // natural lies only in a group of its rank), whether one takes a
        // natural more.
        let (mut n, mut extends, mut grouped) = (0, false, false);
        let ri = rank as u8;
        for g in table.groups() {
            if g.rank_index() != ri {
                continue;
            }
            grouped = true;
            n += g.count(pk.top);
            extends = extends || (!g.is_canasta() && g.fits_one_more(false));
        }
        let on = n > pk.group_baseline as u32;
        debug_assert_eq!(on, self.top_laid());
        if on {
            if hand.len() >= keep {
                return Some(true);
            }
        } else {
            if extends && hand.len() > keep {
                return Some(true);
            }
            let new_ok = self.rules.groups_per_rank == GroupsPerRank::Many || !grouped;
            let nat = hand.rank_count(rank) - 1;
            if new_ok
                && (nat >= 2 || (nat >= 1 && hand.wild_count() >= 1))
                && hand.len() >= keep + 3
            {
                return Some(true);
            }
            if !grouped
                && nat >= 1
                && hand.len() >= keep + 2
                && solver::opening::one_wild_frees(table.groups(), &self.rules)
            {
                // A new group of the top card, a natural of the hand and a
                // wild moved from an older group (D-11.2), the rest kept.
                debug_assert_eq!(
                    self.pickup_tables(p, pk, rank, on, keep),
                    Some(true),
                    "I-8, D-11.2: the top card laid with a moved wild"
                );
                return Some(true);
            }
            if self.top_counted_no(p, pk, rank, on, keep, grouped) {
                return Some(false);
            }
        }
        self.pickup_kept(p, pk, rank, on, keep, verdicts)
    }

    /// During a pickup before the rest is taken, the top card (of rank
    /// `rank`, in the hand, not laid) with no group of its rank on the
    /// mover's table: whether it surely cannot be laid (I-8), by
    /// counting. A new group needs two naturals of its rank at least,
    /// and with two a wild (D-9.1; naturals never leave a group, D-12.1,
    /// I-28): the hand holds no other natural of the rank, or one and
    /// no wild, while nothing is pending and no wild can ever leave a
    /// group ([`wild_may_leave`]). `true` is exact; `false` decides
    /// nothing.
    pub(super) fn top_unlayable(&self, p: usize, rank: Rank) -> bool {
        let hand = self.hands[p];
        debug_assert!(self.turn.pending.is_empty());
        match hand.rank_count(rank) {
            0 | 1 => true,
            2 => hand.wild_count() == 0 && !wild_may_leave(self.tables[p].groups(), hand),
            _ => false,
        }
    }

    /// The pickup's quick "no" of both kinds of player
    /// ([`GameState::pickup_quick`], [`GameState::pickup_unopened`]):
    /// [`GameState::top_unlayable`] where no group of the top card's rank
    /// is on the table (`grouped` false), held to the tables in debug
    /// builds. `on`: whether the top card is laid; `keep`: the cards the
    /// hand keeps after the rest is taken.
    #[inline(always)]
    fn top_counted_no(
        &self,
        p: usize,
        pk: Pickup,
        rank: Rank,
        on: bool,
        keep: u32,
        grouped: bool,
    ) -> bool {
        let no = !grouped && self.top_unlayable(p, rank);
        debug_assert!(
            !no || self.pickup_tables(p, pk, rank, on, keep) == Some(false),
            "I-8, D-9.1: the top card with no group to join"
        );
        no
    }

    /// [`GameState::pickup_quick`] for a player who has not opened: his
    /// groups, all laid this turn, are his opening (D-6.2.1). Yes where
    /// the top card lies in one and they reach the minimum with what makes
    /// two cards with the rest kept: the rest is taken, then a card
    /// discarded (the tables' first "yes", [`solver::opening::opening_reaches`]
    /// with no rank required, asked without the verdicts' key).
    #[inline(never)]
    fn pickup_unopened(
        &self,
        p: usize,
        pk: Pickup,
        rank: Rank,
        keep: u32,
        verdicts: Option<u64>,
    ) -> Option<bool> {
        let table = &self.tables[p];
        // [`GameState::top_laid`], its copies counted over the groups of
        // the top card's rank (a natural lies only in a group of its rank).
        let ri = rank as u8;
        let (mut n, mut grouped) = (0, false);
        for g in table.groups() {
            if g.rank_index() == ri {
                n += g.count(pk.top);
                grouped = true;
            }
        }
        let laid = n > pk.group_baseline as u32;
        debug_assert_eq!(laid, !table.is_empty() && self.top_laid());
        if laid && self.hands[p].len() >= keep && table.opening_value() >= self.opening_minimum(p) {
            debug_assert_eq!(
                self.pickup_tables(p, pk, rank, laid, keep),
                Some(true),
                "I-8, D-6.2.1: the opening laid with the top card"
            );
            return Some(true);
        }
        if self.top_counted_no(p, pk, rank, laid, keep, grouped) {
            return Some(false);
        }
        self.pickup_kept(p, pk, rank, laid, keep, verdicts)
    }

    /// [`GameState::pickup_quick`] past the quick ways: the verdict kept
    /// for the state, else the tables ([`GameState::pickup_tables`]),
    /// whose answer is kept. `laid`: [`GameState::top_laid`].
    #[inline(never)]
    fn pickup_kept(
        &self,
        p: usize,
        pk: Pickup,
        rank: Rank,
        laid: bool,
        keep: u32,
        verdicts: Option<u64>,
    ) -> Option<bool> {
        let key = verdicts.map(|c| c ^ self.forward_key());
        if let Some(v) = key.and_then(Verdicts::get) {
            return Some(v);
        }
        let answer = self.pickup_tables(p, pk, rank, laid, keep);
        if let (Some(k), Some(v)) = (key, answer) {
            Verdicts::put(k, v);
        }
        answer
    }

    /// [`GameState::pickup_quick`] past the quick ways: the tables.
    fn pickup_tables(
        &self,
        p: usize,
        pk: Pickup,
        rank: Rank,
        laid: bool,
        keep: u32,
    ) -> Option<bool> {
        let hand = self.hands[p];
        let table = &self.tables[p];
        let must = (!laid).then_some(rank);
        let rest = self.pile_len as u32;
        let need = (!table.opened).then(|| self.opening_minimum(p));
        // Whether the top card can be laid at all (keeping no card), where
        // the first question answers it too.
        let mut layable = None;
        let reaches = if table.is_empty() && !laid {
            // At the pickup itself, with nothing laid: the opening of the
            // hand with the top card (D-6.2.1).
            let used = (hand.len() + rest).saturating_sub(2).min(hand.len());
            let v = solver::opening::max_opening(hand, rank, used);
            v >= 0 && need.is_none_or(|n| v >= n)
        } else if need.is_none() && !laid && hand.len() >= keep {
            // Any legal table, with and without the cards kept: one table
            // of reached cells answers both (`opening_reaches` with no
            // value and a rank required asks that table alone).
            let (kept, any) = solver::opening::opening_onto_exists_keeping(
                hand,
                table.groups(),
                0,
                &self.rules,
                must,
                keep,
            );
            layable = Some(any);
            kept
        } else {
            solver::opening::opening_reaches(hand, table.groups(), 0, &self.rules, must, keep, need)
        };
        if reaches {
            return Some(true);
        }
        if !laid
            && !layable.unwrap_or_else(|| {
                solver::opening::opening_reaches(
                    hand,
                    table.groups(),
                    0,
                    &self.rules,
                    must,
                    0,
                    None,
                )
            })
        {
            // The top card cannot be laid before the rest (I-8).
            return Some(false);
        }
        let mut all = hand;
        for &c in self.pile() {
            all.insert(c);
        }
        if !self.can_go_out(p, all, false, must.map(|_| pk.top), CardSet::EMPTY) {
            return Some(false);
        }
        None
    }

    /// With wilds pending: whether the turn could end if a pending wild
    /// might go into any group (the group it left included). `false` is
    /// exact for [`GameState::can_finish`]; `true` decides nothing.
    /// [`GameState::pending_stuck`] first.
    pub(super) fn pending_may_finish(&self, p: usize) -> bool {
        !self.pending_stuck(p) && self.unstuck_may_finish(p)
    }

    /// [`GameState::pending_may_finish`] of a state that
    /// [`GameState::pending_stuck`] has said no of already.
    fn unstuck_may_finish(&self, p: usize) -> bool {
        debug_assert!(!self.pending_stuck(p));
        let hand = self.hands[p];
        let table = &self.tables[p];
        let pending = self.turn.pending;
        let all = hand.checked_add(pending).unwrap_or(hand);
        let need = (!table.opened).then(|| self.opening_minimum(p));
        if self.before_rest() {
            let Some(pk) = self.turn.pickup else {
                return true;
            };
            let Some(rank) = pk.top.rank() else {
                return false;
            };
            let must = (!self.top_laid()).then_some(rank);
            let keep = 2u32.saturating_sub(self.pile_len as u32);
            if solver::opening::opening_reaches(
                hand,
                table.groups(),
                pending.len(),
                &self.rules,
                must,
                keep,
                need,
            ) {
                return true;
            }
            let mut with_rest = all;
            for &c in self.pile() {
                with_rest.insert(c);
            }
            return self.can_go_out(p, with_rest, false, must.map(|_| pk.top), pending);
        }
        if !self.turn.must_go_out
            && solver::opening::opening_reaches(
                hand,
                table.groups(),
                pending.len(),
                &self.rules,
                None,
                2,
                need,
            )
        {
            return true;
        }
        self.can_go_out(p, all, false, None, pending)
    }

    /// With wilds pending, whether the turn surely cannot end, by
    /// counting cards: `true` is exact for [`GameState::can_finish`],
    /// `false` decides nothing. The check's steps take nothing back, so
    /// past the pickup (whose rest brings cards) the hand never wins a
    /// card: with none there is nothing to discard, and with one the
    /// discard goes out, which needs a canasta (D-13.1) made with that
    /// card kept: melded, it would leave nothing to discard. With no
    /// canasta on the table, one can come only of a group's naturals and
    /// the wilds there are (on the table or pending), or of seven wilds
    /// ([`GameState::no_canasta_of`] with no card of the hand).
    pub(super) fn pending_stuck(&self, p: usize) -> bool {
        let hand = self.hands[p];
        if hand.len() > 1 || self.before_rest() {
            return false;
        }
        if hand.is_empty() {
            return true;
        }
        !self.tables[p].has_canasta() && self.no_canasta_of(p, CardSet::EMPTY)
    }

    /// With no canasta on the mover's table, whether none can be made
    /// with at most the hand's cards of a rank more (D-9.1, D-11.4, D-13.2): a
    /// canasta can come only of a group's naturals with the hand's of its
    /// rank and the wilds there are (on the table, pending or in the
    /// hand), or of seven wilds. `true` is exact; the caller has ruled
    /// out a canasta already there.
    pub(super) fn no_canasta_within(&self, p: usize) -> bool {
        self.no_canasta_of(p, self.hands[p])
    }

    /// [`GameState::no_canasta_within`] with the cards `hand` in hand
    /// instead of the mover's: those of them that may be melded.
    pub(super) fn no_canasta_of(&self, p: usize, hand: CardSet) -> bool {
        let groups = self.tables[p].groups();
        let wilds = groups.iter().map(|g| g.wilds()).sum::<u32>()
            + self.turn.pending.len()
            + hand.wild_count();
        if wilds >= 7 {
            return false;
        }
        !groups.iter().any(|g| {
            g.rank().is_some_and(|r| {
                let n = g.naturals() + hand.rank_count(r);
                n >= 7 || n + wilds.min(max_wilds(n)) >= 7
            })
        })
    }

    /// [`GameState::can_finish`] with wilds pending or a pickup in
    /// progress: every sequence of steps that undo nothing, searched depth
    /// first with each state visited once, down to a state the tables
    /// decide: one with nothing pending and no pickup in progress
    /// ([`GameState::plain_finish`]), or a pickup they settle
    /// ([`GameState::pickup_quick`]); a state that cannot finish even if
    /// its pending wilds might go anywhere is not searched further.
    /// Finite: each step lays a card, places a wild or moves one (every
    /// wild at most once a turn), or takes the rest.
    pub(super) fn forward_finish(&self, verdicts: Option<u64>) -> bool {
        let mut search = Search::take(0);
        search.verdicts = verdicts;
        let mut root = *self;
        root.quiet = true;
        let found = root.forward_rec(&mut search);
        search.give_back();
        found
    }

    fn forward_rec(&self, search: &mut Search) -> bool {
        if self.phase != Phase::Meld {
            return true;
        }
        let p = self.current as usize;
        let pending = self.turn.pending;
        if pending.is_empty() {
            if !self.before_rest() {
                return self.plain_finish(p, search.verdicts);
            }
            if let Some(answer) = self.pickup_quick(p, search.verdicts) {
                return answer;
            }
        }
        let key = self.forward_key();
        if !search.seen.visit(key, 1) {
            return false;
        }
        let known = search.verdicts.map(|c| c ^ key);
        if let Some(k) = known {
            if let Some(v) = Verdicts::get(k) {
                return v;
            }
        }
        self.forward_expand(search, known, false)
    }

    /// [`GameState::forward_rec`] on a state visited now, whose verdict
    /// is not kept: its steps searched, the verdict kept under `known`.
    /// `may_finish`: [`GameState::pending_may_finish`] has said yes of
    /// the state already (the root of [`GameState::pending_search`]).
    fn forward_expand(&self, search: &mut Search, known: Option<u64>, may_finish: bool) -> bool {
        let p = self.current as usize;
        let pending = self.turn.pending;
        // The search's exact "no" before any step is listed or made: a
        // state it refuses refuses every step after it too.
        if !pending.is_empty() && !may_finish && !self.pending_may_finish(p) {
            if let Some(k) = known {
                Verdicts::put(k, false);
            }
            return false;
        }
        let mut cand = search.cands.pop().unwrap_or_default();
        cand.clear();
        self.raw_meld_candidates(&mut cand, false);
        cand.retain(|a| !matches!(a, Action::TakeBack { .. } | Action::TakeBackHeartAce));
        // Placements of a pending wild first: most turns end right after
        // one.
        let places = |a: &Action| match *a {
            Action::Extend { card, .. } => pending.contains(card),
            Action::Lay { cards } => !cards.wilds().min(pending).is_empty(),
            _ => false,
        };
        let mut found = false;
        let mut t = *self;
        for pass in 0..2 {
            for &a in cand.iter().filter(|a| places(a) == (pass == 0)) {
                if t.meld_step(a).is_err() {
                    continue;
                }
                if t.forward_rec(search) {
                    found = true;
                    break;
                }
                t.copy_mover_from(self);
            }
            if found {
                break;
            }
        }
        search.cands.push(cand);
        if let Some(k) = known {
            Verdicts::put(k, found);
        }
        found
    }

    /// What the forward search tells states apart by: the mover's hand and
    /// table (with the groups' flags), the pending wilds with the groups
    /// they left, the pickup, I-26's duty. Two words at a time
    /// ([`WordHash::pair`]), live groups and pending entries only (their
    /// numbers hashed before them), as the completion search's key.
    pub(super) fn forward_key(&self) -> u64 {
        let p = self.current as usize;
        let mut h = WordHash::default();
        let (lo, hi, j) = self.hands[p].raw();
        h.pair(lo, hi);
        let table = &self.tables[p];
        let (tlo, thi, tj) = table.red_threes.raw();
        h.pair(tlo, thi);
        let (plo, phi, pj) = self.turn.pending.raw();
        h.pair(plo, phi);
        let pend = self.turn.live_pend();
        h.pair(
            j as u64
                | (tj as u64) << 8
                | (pj as u64) << 16
                | (table.twins as u64) << 24
                | (table.heart_aces as u64) << 40
                | (table.heart_aces_new as u64) << 48
                | (table.opened as u64) << 56
                | (self.turn.must_go_out as u64) << 57,
            table.len() as u64 | (pend.len() as u64) << 8,
        );
        h.word(match self.turn.pickup {
            None => 0,
            Some(pk) => {
                1 | (pk.top.index() as u64) << 8
                    | (pk.group_baseline as u64) << 16
                    | (pk.pile_size as u64) << 24
                    | (pk.rest_taken as u64) << 32
            }
        });
        let mut groups = table.groups().chunks_exact(2);
        for two in &mut groups {
            h.pair(two[0].packed(), two[1].packed());
        }
        if let [g] = groups.remainder() {
            h.word(g.packed());
        }
        let entry =
            |&(a, b, c): &(u8, u8, Card)| a as u64 | (b as u64) << 8 | (c.index() as u64) << 16;
        let mut entries = pend.chunks_exact(2);
        for two in &mut entries {
            h.pair(entry(&two[0]), entry(&two[1]));
        }
        if let [e] = entries.remainder() {
            h.word(entry(e));
        }
        h.finish()
    }
}

/// How many wilds more the group `g` takes, added one at a time by
/// extends (D-9.1, D-9.2): a group of wilds only up to seven, a natural
/// group up to [`max_wilds`] of its naturals (fewer wilds than naturals,
/// seven cards at most with a wild, so none into a black canasta,
/// D-11.4). Each wild added takes one of it and leaves the rest.
#[inline]
pub(super) fn wild_room(g: &Group) -> u32 {
    // [`max_wilds`] of the naturals a suit field (two bits a suit, the
    // copies of that suit's card) counts: one lookup of the field itself.
    const MOST: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut x = 0;
        while x < 256 {
            let n = (x & 0x55usize).count_ones() + 2 * (x & 0xAAusize).count_ones();
            t[x] = max_wilds(n) as u8;
            x += 1;
        }
        t
    };
    // A group of wilds only has no naturals (a field of 0, whose count
    // takes none): seven added, without a branch.
    let (naturals, _) = g.suit_fields();
    debug_assert!(!g.is_wild_only() || naturals == 0);
    let most = MOST[naturals as usize] as u32 + 7 * g.is_wild_only() as u32;
    let room = most.saturating_sub(g.wilds());
    debug_assert_eq!(
        room > 0,
        !g.is_black_canasta() && g.fits_one_more(true),
        "room of [{g}]"
    );
    debug_assert_eq!(
        room,
        if g.is_wild_only() {
            7
        } else {
            max_wilds(g.naturals())
        }
        .saturating_sub(g.wilds())
    );
    room
}

/// The counts that tell, without a step made, that a turn with wilds
/// pending can be completed (I-9, D-11.2): with no duty to go out (I-26),
/// if the groups on the table have room ([`wild_room`]) for every wild
/// pending, each can be placed by an extend, which takes no card from the
/// hand; then, with two cards or more in hand and the opening minimum
/// reached (D-8.2, a value that extends only raise), a discard is legal
/// (of two cards at most one kind is the free pickup's card barred by
/// I-21); with one card, which I-21 does not bar, and a canasta, a
/// discard going out (D-13.2). During a pickup before the rest is taken,
/// by a player who opened before, with the top card laid (I-8), which
/// placing wilds leaves laid: the rest then taken, with the cards that
/// make two with the rest ([`GameState::pickup_quick`]). A pending wild
/// may go into any group that takes it, the group it left included (the
/// step [`GameState::extend`] asks nothing of where it came from).
#[derive(Clone, Copy)]
pub(super) struct WildRoom {
    /// The room for wilds of the mover's groups.
    room: i32,
    /// The cards in hand.
    hand: i32,
    /// The cards the hand must hold for the discard: two, or during a
    /// pickup those that make two with the rest.
    keep: i32,
    /// Whether the hand's one card may be discarded going out, given a
    /// canasta (past the pickup: I-21, D-13.2).
    one_out: bool,
    /// The canastas on the mover's table.
    canastas: i32,
    /// The wilds pending.
    pending: i32,
    /// The opening value of the table
    /// ([`crate::table::Table::opening_value`]), where the mover has not
    /// opened before this turn.
    pub(super) value: i32,
    /// The opening minimum, `i32::MIN` for a player opened before.
    pub(super) need: i32,
}

impl WildRoom {
    /// Whether the state counted can surely be completed.
    #[inline]
    pub(super) fn completes(&self) -> bool {
        let discard =
            self.hand >= self.keep || (self.one_out && self.hand == 1 && self.canastas > 0);
        discard && self.room >= self.pending && self.value >= self.need
    }

    /// Whether, after the candidate step `a` of the state `s` these are the
    /// counts of, the turn can surely be completed, the step being one
    /// that [`GameState::meld_step`] takes: an extend of
    /// [`GameState::raw_meld_candidates`] (from the hand or of a pending
    /// wild), a wild taken out or swapped that it lists (every such one is
    /// taken), or a lay of three cards that holds a pending wild if one is
    /// pending and that the table takes. `false` decides nothing.
    pub(super) fn after(&self, s: &GameState, a: Action) -> bool {
        let pending = s.turn.pending;
        let mut w = *self;
        // First what the step takes from the hand and the pending wilds,
        // then the groups it changes.
        let from_pending = match a {
            Action::Extend { card, .. } => {
                if pending.contains(card) {
                    w.pending -= 1;
                } else {
                    w.hand -= 1;
                }
                CardSet::EMPTY
            }
            Action::TakeWild { .. } => CardSet::EMPTY,
            Action::Swap { .. } => {
                w.hand -= 1;
                CardSet::EMPTY
            }
            Action::Lay { cards } => {
                let from_pending = pending_part(pending, cards);
                if cards.len() != 3 || (!pending.is_empty() && from_pending.is_empty()) {
                    return false;
                }
                w.hand -= (3 - from_pending.len()) as i32;
                w.pending -= from_pending.len() as i32;
                from_pending
            }
            _ => return false,
        };
        // The one card going out must be the one counted.
        w.one_out &= w.hand == self.hand;
        if w.hand < w.keep && !w.one_out {
            return false;
        }
        let p = s.current as usize;
        let groups = s.tables[p].groups();
        // Group `g` becomes `t`.
        // The opening value counts only for a player not opened before.
        let valued = w.need != i32::MIN;
        let change = |w: &mut WildRoom, g: &Group, t: &Group| {
            w.room += wild_room(t) as i32 - wild_room(g) as i32;
            if valued {
                w.value += t.opening_value() - g.opening_value();
            }
            if w.one_out {
                w.canastas += t.is_canasta() as i32 - g.is_canasta() as i32;
            }
        };
        match a {
            Action::Extend { group, card } => {
                let g = groups[group as usize];
                let mut t = g;
                t.add(card);
                change(&mut w, &g, &t);
            }
            Action::TakeWild { group, wild } => {
                let g = groups[group as usize];
                if g.is_wild_only() && !g.is_canasta() && g.wilds() == 3 {
                    // Broken up, all three pending (D-11.3).
                    w.pending += 3;
                    w.room -= wild_room(&g) as i32;
                    if valued {
                        w.value -= g.opening_value();
                    }
                } else {
                    let mut t = g;
                    t.remove(wild);
                    w.pending += 1;
                    change(&mut w, &g, &t);
                }
            }
            Action::Swap {
                group,
                natural,
                wild,
            } => {
                let g = groups[group as usize];
                let mut t = g;
                t.add(natural);
                t.remove(wild);
                w.pending += 1;
                change(&mut w, &g, &t);
            }
            Action::Lay { cards } => {
                let Some(g) = Group::from_cards(cards) else {
                    return false;
                };
                if !g.is_legal() || !s.lay_fits(p, cards) {
                    return false;
                }
                debug_assert!(
                    s.hands[p].contains_all(cards.checked_sub(from_pending).unwrap_or(cards))
                );
                w.room += wild_room(&g) as i32;
                if valued {
                    w.value += g.opening_value();
                }
            }
            _ => return false,
        }
        w.completes()
    }
}

/// Which group [`GameState::placed_in_place`] places a pending wild in,
/// of those that take it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Way {
    /// The first, as the search's first step.
    First,
    /// The longest short of a canasta (the first of them), else the
    /// first: the one a canasta may come of, for a way out.
    Longest,
    /// Three pending wilds laid as a group of wilds first, the rest then
    /// placed as by [`Way::First`]: where the groups lack room for them
    /// ([`GameState::wilds_laid_first`]).
    Laid,
    /// During a pickup before the rest is taken, the top card laid in a
    /// new group with a natural of its rank from the hand and a pending
    /// wild first, the rest then placed as by [`Way::First`]: where the
    /// top card is not laid yet ([`GameState::top_lay`]).
    Top,
}

/// Whether a wild may ever leave one of `groups` by steps that take
/// nothing back, the naturals of `hand` joining first (D-11.2): none
/// leaves a group that received one this turn ([`FLAG_RECEIVED`]); a
/// group of wilds only is counted as one that may always lose one (D-11.3); a
/// natural group where it is legal with one wild fewer and some of the
/// hand's naturals of its rank added (D-9.1); a canasta where the hand
/// holds a natural of its rank (D-11.4, I-13). Received wilds' limits
/// and the canastas' others are left out: they only ever keep a wild in.
/// `false` is exact; `true` decides nothing.
fn wild_may_leave(groups: &[Group], hand: CardSet) -> bool {
    groups.iter().any(|g| {
        let w = g.wilds();
        if w == 0 || g.flags() & FLAG_RECEIVED != 0 {
            // A group that received a wild this turn gives none away.
            return false;
        }
        let Some(r) = g.rank() else {
            return true;
        };
        let (n, h) = (g.naturals(), hand.rank_count(r));
        if g.is_canasta() {
            // A canasta never drops below seven: a wild leaves it only
            // with a natural of its rank joining (I-13).
            return h > 0;
        }
        (n..=n + h).any(|k| legal_natural_counts(k, w - 1))
    })
}

/// The first `n` cards of `set` (fewer if it holds fewer), in kind order.
fn first_cards(set: CardSet, n: u32) -> CardSet {
    let mut out = CardSet::EMPTY;
    for c in set.kinds() {
        for _ in 0..set.count(c).min(n - out.len()) {
            out.insert(c);
        }
        if out.len() == n {
            break;
        }
    }
    out
}

impl GameState {
    /// Whether player `p` can go out with `cards` as his hand (I-26, I-9):
    /// onto his table as it is, or onto nothing when `fresh` (an unopened
    /// player's groups of this turn dissolved into `cards`). `must`: a card
    /// that has to end in a group (the pile's top card during a penalized
    /// pickup); `keep`: cards that must be melded, never discarded (pending
    /// wilds). The going-out solver's question about this state.
    pub(crate) fn can_go_out(
        &self,
        p: usize,
        cards: CardSet,
        fresh: bool,
        must: Option<Card>,
        keep: CardSet,
    ) -> bool {
        let groups = if fresh {
            &[][..]
        } else {
            self.tables[p].groups()
        };
        solver::going_out::can_meld_all_but_one(
            cards,
            groups,
            &self.rules,
            must,
            self.turn.free_card,
            keep,
        )
    }
}
