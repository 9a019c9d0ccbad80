//! The ways into legality: the listing of legal actions (and the
//! candidate check one action at a time behind [`Moves`](super::moves::Moves)),
//! `apply`, and `apply_listed` for an action of the listing.

use super::completion::WildRoom;
use super::*;
use crate::action::Action;
use crate::card::Card;
use crate::card_set::CardSet;
use crate::error::{refuse, RuleError};
use crate::group::Group;
use crate::refuse_fmt;
use crate::rules::Permit;
use crate::table::Table;

/// The legality check of [`GameState::legal_actions`], one candidate at a
/// time (see [`GameState::candidate_check`]), on one quiet copy of the
/// state made at the first candidate checked.
pub(crate) struct CandidateCheck<'a> {
    state: &'a GameState,
    probe: Option<(GameState, u64)>,
    /// Whether the state itself is of the case of
    /// [`CandidateCheck::surely_unlisted`] (a meld phase, a hand of two
    /// cards, no wild pending, no pickup before the rest, nothing laid
    /// this turn), read once.
    two_card_case: Option<bool>,
    /// Whether the mover could go out from the state itself, asked once
    /// (see [`CandidateCheck::surely_unlisted`]).
    out_from_here: Option<bool>,
    /// The steps after which the turn surely completes
    /// ([`GameState::steps_surely_completed`]), read at the first extend.
    sure_steps: Option<SureSteps>,
}

/// [`GameState::steps_surely_completed`]: which candidate steps surely
/// leave a turn that can be completed.
#[derive(Clone, Copy)]
struct SureSteps {
    /// Every extend from the hand.
    hand_extends: bool,
    /// Every extend of these wilds, all pending, when the groups have
    /// room for them all ([`WildRoom`]).
    pending_extends: CardSet,
    /// Every lay the step takes.
    lays: bool,
    /// A ♥A laid apart or taken back, each the step takes.
    hand_grows: bool,
    /// With no wild pending, no pickup before the rest and no duty to go
    /// out: a take-back the step takes is sure where it leaves a discard
    /// legal ([`GameState::take_back_leaves_discard`]).
    take_backs: bool,
    /// The counts that decide the other steps ([`WildRoom::after`]),
    /// read at the first such step where no wild is pending.
    wilds: Option<Option<WildRoom>>,
}

impl SureSteps {
    /// Whether an extend of `card` (one the step takes) is sure.
    #[inline]
    fn extend(&self, card: Card) -> bool {
        self.hand_extends || self.pending_extends.contains(card)
    }

    /// Whether the candidate `a` of `s` (one of
    /// [`GameState::raw_meld_steps`]) is surely listed, by its counts
    /// ([`WildRoom::after`]).
    #[inline]
    fn by_room(&mut self, s: &GameState, a: Action) -> bool {
        if !matches!(
            a,
            Action::Extend { .. }
                | Action::TakeWild { .. }
                | Action::Swap { .. }
                | Action::Lay { .. }
        ) {
            return false;
        }
        self.wilds
            .get_or_insert_with(|| s.wild_room(s.current as usize))
            .is_some_and(|w| w.after(s, a))
    }
}

impl CandidateCheck<'_> {
    /// Whether the state's [`GameState::legal_actions`] lists `a`, an
    /// action of its [`GameState::candidate_actions`]. (An action that
    /// is not a candidate may get a "yes" here that the listing would not
    /// give: larger lays, say, which [`GameState::apply`] accepts.)
    pub(crate) fn is_listed(&mut self, a: Action) -> bool {
        let state = self.state;
        if state.phase != Phase::Meld {
            return true;
        }
        // The ends change nothing: checked on the state itself, they need
        // no copy (a decision that checks only discards makes none).
        match a {
            Action::Discard(c) => return state.discard_check(c, true).is_ok(),
            Action::Reset => return state.may_reset(),
            _ => {}
        }
        if self.surely_unlisted(a) {
            return false;
        }
        // An extend is listed if the step takes it where the turn surely
        // completes after any extend ([`GameState::steps_surely_completed`]).
        let sure = match a {
            Action::Extend { group, card } => {
                let sure = self
                    .sure_steps
                    .get_or_insert_with(|| state.steps_surely_completed());
                let p = state.current as usize;
                sure.extend(card)
                    .then(|| state.extended_group(p, group as usize, card, true).is_ok())
            }
            _ => None,
        };
        if let Some(ok) = sure {
            #[cfg(debug_assertions)]
            {
                let (probe, verdicts) = self.probe.get_or_insert_with(|| probe_of(state));
                assert_eq!(ok, probe.listed_on_probe(state, a, *verdicts), "{a} listed");
                assert!(*probe == *state, "probe restored after {a}");
            }
            return ok;
        }
        let (probe, verdicts) = self.probe.get_or_insert_with(|| probe_of(state));
        let ok = probe.listed_on_probe(state, a, *verdicts);
        debug_assert!(*probe == *state, "probe restored after {a}");
        ok
    }

    /// Whether the candidate `a` is surely not listed, by a test on the
    /// state itself: `true` only where [`CandidateCheck::is_listed`]
    /// says no (`false` decides nothing). The case is an extend from a
    /// hand of two cards, with no wild pending, no pickup in progress and
    /// nothing laid this turn: the one card left cannot be taken back
    /// into a discard, so the turn can end only by going out (I-9,
    /// D-13.1), and any way out after the extend is one from here, the
    /// card melded into the same group. So if the mover cannot go out
    /// from here, no such extend is listed. The going-out test is made
    /// once, at the first such candidate. (In a hand that can no longer
    /// end, every turn asks this of each card the hand could extend.)
    pub(crate) fn surely_unlisted(&mut self, a: Action) -> bool {
        let s = self.state;
        let Action::Extend { card, .. } = a else {
            return false;
        };
        let p = s.current as usize;
        let hand = s.hands[p];
        // What the case asks of the state, read at the first extend only.
        let case = *self.two_card_case.get_or_insert_with(|| {
            s.phase == Phase::Meld
                && hand.len() == 2
                && s.turn.pending.is_empty()
                && !s.before_rest()
                && !s.tables[p].has_new()
        });
        if !case || !hand.contains(card) {
            return false;
        }
        !*self
            .out_from_here
            .get_or_insert_with(|| s.can_go_out(p, hand, false, None, CardSet::EMPTY))
    }

    /// How many discards [`GameState::legal_actions`] lists (the meld
    /// phase's discards are candidates, one a kind of card in hand):
    /// whether one is legal depends on the card only through the card
    /// taken for free (I-21), so one check answers for the others.
    pub(crate) fn listed_discards(&self) -> u32 {
        let s = self.state;
        if s.phase != Phase::Meld {
            return 0;
        }
        let hand = s.hands[s.current as usize];
        let barred = |c: Card| {
            s.turn.free_card == Some(c)
                && s.rules.free_pickup_return == Permit::Forbid
                && hand.count(c) < 2
        };
        let mut kinds = 0;
        let mut open = None;
        let mut barred_kinds = 0;
        for c in hand.kinds() {
            kinds += 1;
            if barred(c) {
                barred_kinds += 1;
            } else if open.is_none() {
                open = Some(c);
            }
        }
        let n = match open {
            Some(c) if s.discard_check(c, true).is_ok() => kinds - barred_kinds,
            _ => 0,
        };
        debug_assert_eq!(
            n,
            hand.kinds()
                .filter(|&c| s.discard_check(c, true).is_ok())
                .count() as u32
        );
        n
    }

    /// For an extend from the hand with no wild pending, the group it
    /// extends as it is and as the step leaves it (`Some(None)` if the step
    /// is refused): an extend changes that one group of the table and
    /// nothing else of it, so this is what
    /// [`CandidateCheck::read_table_after`] would find changed, without the
    /// step made on a copy. `None` for any other action or state.
    pub(crate) fn extend_from_hand(&self, a: Action) -> Option<Option<(Group, Group)>> {
        let s = self.state;
        let Action::Extend { group, card } = a else {
            return None;
        };
        if s.phase != Phase::Meld || !s.turn.pending.is_empty() {
            return None;
        }
        let p = s.current as usize;
        let gi = group as usize;
        Some(match s.extended_group(p, gi, card, true) {
            Ok((after, _)) => Some((s.tables[p].groups()[gi], after)),
            Err(_) => None,
        })
    }

    /// `read` of the mover's table after the meld step `a` alone, read in
    /// place: the step's own rules are checked, not whether the turn can
    /// then be completed (that is [`CandidateCheck::is_listed`]). `None` if
    /// the step is refused, or `a` is a discard or the reset, or the phase
    /// is not the meld phase.
    pub(crate) fn read_table_after<R>(
        &mut self,
        a: Action,
        read: impl FnOnce(&Table) -> R,
    ) -> Option<R> {
        let state = self.state;
        if state.phase != Phase::Meld || matches!(a, Action::Discard(_) | Action::Reset) {
            return None;
        }
        let (probe, _) = self.probe.get_or_insert_with(|| probe_of(state));
        let out = match probe.meld_step(a) {
            Ok(()) => {
                let r = read(&probe.tables[state.current as usize]);
                probe.copy_mover_from(state);
                Some(r)
            }
            // A refused step changes nothing.
            Err(_) => None,
        };
        debug_assert!(*probe == *state, "probe restored after {a}");
        out
    }
}

/// A quiet copy of `state` and its verdicts' context
/// ([`GameState::verdict_context`]), to try steps on; the mover's part is
/// put back from `state` itself.
pub(super) fn probe_of(state: &GameState) -> (GameState, u64) {
    let mut probe = *state;
    probe.quiet = true;
    (probe, state.verdict_context())
}

/// The probe of [`probe_of`] in `slot`, made there at the first call
/// (the state copied once, straight into the slot), with the verdicts'
/// context into `verdicts`.
#[inline(always)]
fn probe_in<'a>(
    slot: &'a mut Option<GameState>,
    verdicts: &mut u64,
    state: &GameState,
) -> &'a mut GameState {
    if slot.is_none() {
        *slot = Some(*state);
        *verdicts = state.verdict_context();
    }
    let Some(probe) = slot.as_mut() else {
        unreachable!("the probe was just made")
    };
    probe.quiet = true;
    probe
}

impl GameState {
    // ----- legal actions --------------------------------------------------

    /// The legal actions of the mover, into `out` (cleared first). Never
    /// empty before the end. Every listed action is accepted by
    /// [`GameState::apply`] and leaves a turn that can be completed (I-9).
    /// New groups are listed as three-card lays (larger groups are a lay and
    /// extensions); `apply` accepts larger lays too.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::Cut => {
                for mask in 0..8 {
                    out.push(Action::KeepCut { mask });
                }
            }
            Phase::FirstDiscard => {
                for c in self.hands[self.current as usize].kinds() {
                    out.push(Action::Discard(c));
                }
            }
            Phase::Draw => {
                out.push(Action::Draw);
                if self.turn.free_offer {
                    out.push(Action::FreePickup);
                }
                if self.take_pile_check(true).is_ok() {
                    out.push(Action::TakePile);
                }
            }
            Phase::Meld => self.meld_candidates(out),
        }
    }

    pub(super) fn meld_candidates(&self, out: &mut Vec<Action>) {
        // Candidates go straight into the caller's buffer and the illegal
        // ones are dropped; the discards and the reset, which
        // [`GameState::raw_meld_candidates`] lists last, are checked on
        // the state itself and pushed after the steps kept. With wilds
        // pending the steps are those of the search, without the ones the
        // step then refuses whatever the position (D-11.2): dropping them
        // changes nothing of what is kept, nor its order.
        self.raw_meld_steps(out, false);
        #[cfg(debug_assertions)]
        if !self.turn.pending.is_empty() {
            // (With none pending the candidates are the same.)
            self.only_refused_unlisted(out);
        }
        if !out.is_empty() {
            let mut sure_steps = self.steps_surely_completed();
            let p = self.current as usize;
            // The probe, made at the first candidate the sure tests leave
            // open (a listing decided by them copies no state); the
            // mover's part is put back from the state itself.
            let mut probe: Option<GameState> = None;
            let mut verdicts = 0;
            out.retain(|&a| {
                // The sure steps met most often are decided here, the rest
                // by [`GameState::candidate_listed`], out of line: a small
                // closure for the common candidates.
                let sure = match a {
                    Action::Extend { card, .. } if sure_steps.extend(card) => true,
                    // With no wild pending the candidates hold no lay of a
                    // rank the table holds under one group a rank (I-12):
                    // the table takes each while it has room (D-9).
                    Action::Lay { cards } if sure_steps.lays => {
                        let fits = self.tables[p].len() < crate::table::MAX_GROUPS;
                        debug_assert_eq!(fits, self.lay_fits(p, cards), "lay [{cards}]");
                        fits
                    }
                    _ => {
                        return self.candidate_listed(a, &mut sure_steps, &mut probe, &mut verdicts)
                    }
                };
                #[cfg(debug_assertions)]
                {
                    let probe = probe_in(&mut probe, &mut verdicts, self);
                    assert_eq!(
                        sure,
                        probe.listed_candidate_on_probe(self, a, verdicts),
                        "{a} listed"
                    );
                }
                sure
            });
            debug_assert!(probe.is_none_or(|probe| probe == *self), "probe restored");
        }
        // The discards (one a kind of card in hand, in kind order): whether
        // one is legal depends on the card only through the card taken for
        // free (I-21), so one check answers for the others, which are
        // pushed from the hand's word of kinds present.
        let p = self.current as usize;
        let hand = self.hands[p];
        let barred = self
            .turn
            .free_card
            .filter(|&c| self.rules.free_pickup_return == Permit::Forbid && hand.count(c) < 2);
        let (mut bits, _, jokers) = hand.raw();
        let mut joker = jokers > 0;
        match barred {
            Some(c) if c.is_joker() => joker = false,
            Some(c) => bits &= !(1u64 << c.index()),
            None => {}
        }
        let open = if bits != 0 {
            Some(Card::of_index(bits.trailing_zeros() as u8))
        } else if joker {
            Some(Card::JOKER)
        } else {
            None
        };
        #[cfg(debug_assertions)]
        let start = out.len();
        if open.is_some_and(|c| self.discard_allowed(c)) {
            out.reserve(bits.count_ones() as usize + 2);
            while bits != 0 {
                out.push(Action::Discard(Card::of_index(bits.trailing_zeros() as u8)));
                bits &= bits - 1;
            }
            if joker {
                out.push(Action::Discard(Card::JOKER));
            }
        }
        #[cfg(debug_assertions)]
        {
            let mut i = start;
            for c in hand.kinds() {
                if self.discard_check(c, true).is_ok() {
                    assert_eq!(out.get(i), Some(&Action::Discard(c)), "discard {c}");
                    i += 1;
                }
            }
            assert_eq!(i, out.len(), "the discards");
        }
        if self.may_reset() {
            out.push(Action::Reset);
        }
    }

    /// Whether [`GameState::meld_candidates`] lists the candidate `a`, one
    /// its closure does not decide: by the sure tests on the state itself
    /// (`sure_steps`, [`GameState::steps_surely_completed`]), else on the
    /// probe (`probe`, made here at the first candidate that needs it,
    /// with the verdicts' context into `verdicts`). Kept out of line, so
    /// that the closure stays small for the candidates it decides.
    #[inline(never)]
    fn candidate_listed(
        &self,
        a: Action,
        sure_steps: &mut SureSteps,
        probe: &mut Option<GameState>,
        verdicts: &mut u64,
    ) -> bool {
        let p = self.current as usize;
        let pending = !self.turn.pending.is_empty();
        let decided = match a {
            // A lay candidate with wilds pending is a legal three-card
            // group of cards held or pending, holding a pending kind: the
            // step refuses it only by the table's limits (I-12, D-9).
            Action::Lay { cards } if pending && !self.lay_fits(p, cards) => Some(false),
            // The rest is listed only while a pickup is in progress; the
            // step refuses it until the top card is laid (I-8).
            Action::TakeRest if !self.top_laid() => Some(false),
            // Steps that leave the hand as large as it was, or one card
            // smaller, and the table's value as it was or above, for a
            // player who opened before this turn: the turn then ends with
            // a discard, so each is listed if the step takes it. A ♥A laid
            // apart is a candidate only while the hand holds one, and (no
            // pickup before the rest) I-8 does not hold it back; a ♥A
            // taken back only while the undos allow, of one laid this turn.
            Action::LayHeartAce if sure_steps.hand_grows => Some(self.rules.heart_aces()),
            Action::TakeBackHeartAce if sure_steps.hand_grows => Some(true),
            // A take-back (only while the undos allow, of a group laid
            // this turn) is listed where the step takes it and a discard
            // is then legal (I-9): whatever the opening where the player
            // opened, else where the groups laid this turn that are left
            // reach the opening minimum or none is left (D-8.2).
            Action::TakeBack { group } if sure_steps.take_backs => {
                match self.take_back_leaves_discard(p, group as usize) {
                    None => Some(false),
                    Some(true) => Some(true),
                    Some(false) => None,
                }
            }
            _ if sure_steps.by_room(self, a) => Some(true),
            _ => None,
        };
        // The rest on the probe (one call of it, inlined).
        let Some(sure) = decided else {
            let probe = probe_in(probe, verdicts, self);
            return probe.listed_candidate_on_probe(self, a, *verdicts);
        };
        #[cfg(debug_assertions)]
        {
            let probe = probe_in(probe, verdicts, self);
            assert_eq!(
                sure,
                probe.listed_candidate_on_probe(self, a, *verdicts),
                "{a} listed"
            );
        }
        sure
    }

    /// That the steps of [`GameState::raw_meld_candidates`] missing from
    /// `steps`, the listing's candidates before their check, are steps
    /// that [`GameState::meld_step`] refuses, and that `steps` keeps their
    /// order (the debug check of [`GameState::meld_candidates`]).
    #[cfg(debug_assertions)]
    fn only_refused_unlisted(&self, steps: &[Action]) {
        let mut all = Vec::new();
        self.raw_meld_steps(&mut all, true);
        let mut kept = steps.iter();
        let mut next = kept.next();
        for a in all {
            if next == Some(&a) {
                next = kept.next();
                continue;
            }
            let mut t = *self;
            t.quiet = true;
            assert!(
                t.meld_step(a).is_err(),
                "{a} not listed, yet the step takes it"
            );
        }
        assert_eq!(next, None, "a candidate out of order");
    }

    /// The check of [`GameState::legal_actions`] for the candidate `a`, on
    /// a quiet copy of the `listed` state: a step refused changes
    /// nothing, and after a step made only the mover's part is put back,
    /// copied from `listed`. Discards and the reset are checked
    /// without changing anything.
    /// `verdicts`: the listed state's [`GameState::verdict_context`].
    pub(super) fn listed_on_probe(&mut self, listed: &GameState, a: Action, verdicts: u64) -> bool {
        match a {
            Action::Discard(c) => self.check_discard(c).is_ok(),
            Action::Reset => self.may_reset(),
            _ => {
                let mut touched = false;
                let ok = self
                    .meld_try(a, &mut touched, Some((verdicts, listed)))
                    .is_ok();
                if touched {
                    self.copy_mover_from(listed);
                }
                ok
            }
        }
    }

    /// [`GameState::listed_on_probe`] for a candidate of
    /// [`GameState::raw_meld_candidates`] of the listed state: an extend
    /// there passes the step's own checks, so it is made without them
    /// ([`GameState::extend_checked`]). An extend from the hand with no
    /// wild pending changes the hand, what is known of it, the one group
    /// and the anchor's flag, and the completion check then changes
    /// nothing ([`GameState::finish_verdict_scratch`] tries steps only
    /// with wilds pending): those alone are put back. So with a lay made
    /// with no wild pending ([`GameState::lay_checked`]), which adds one
    /// group at the end of the table instead. A take-wild there passes
    /// the step's own checks too ([`GameState::take_wild_checked`]); it
    /// leaves a wild pending, so the whole mover's part is put back.
    fn listed_candidate_on_probe(&mut self, listed: &GameState, a: Action, verdicts: u64) -> bool {
        let p = self.current as usize;
        let (group, card) = match a {
            Action::Extend { group, card } => (group, card),
            Action::Lay { cards } if self.turn.pending.is_empty() => {
                if !self.lay_checked(p, cards) {
                    return false;
                }
                let ok = self.check_after_step(Some((verdicts, listed)), a);
                self.put_back_hand(listed, p);
                let last = self.tables[p].len() - 1;
                self.tables[p].remove(last);
                return ok;
            }
            Action::TakeWild { group, wild } => {
                self.take_wild_checked(p, group as usize, wild);
                let ok = self.check_after_step(Some((verdicts, listed)), a);
                self.copy_mover_from(listed);
                return ok;
            }
            _ => return self.listed_on_probe(listed, a, verdicts),
        };
        let gi = group as usize;
        let plain = self.turn.pending.is_empty();
        self.extend_checked(p, gi, card);
        let ok = self.check_after_step(Some((verdicts, listed)), a);
        if plain {
            self.put_back_hand(listed, p);
            self.tables[p].groups_mut()[gi] = listed.tables[p].groups()[gi];
        } else {
            self.copy_mover_from(listed);
        }
        ok
    }

    /// The candidate steps after which the turn can surely be completed
    /// (I-9), a discard being then legal: an extend of
    /// [`GameState::raw_meld_candidates`] or one the step takes, and a lay
    /// candidate that the step takes. With no pickup before the rest and
    /// no duty to go out (I-26), a discard with no wild pending needs only
    /// the opening minimum reached (D-8.2), which the player who opened
    /// before this turn has no more and which a step adding cards to the
    /// table never loses, and two cards or more left: of two cards at
    /// most one kind is the free pickup's card barred by I-21, and a kind
    /// held twice never is. With no wild pending an extend takes one card
    /// from the hand and a lay three; with wilds pending and room for
    /// them all in the groups, an extend of one takes none and leaves
    /// room for the rest ([`WildRoom`]), whose counts also decide the
    /// other steps ([`WildRoom::after`]).
    #[inline]
    fn steps_surely_completed(&self) -> SureSteps {
        let p = self.current as usize;
        let pending = self.turn.pending;
        if !pending.is_empty() {
            let wilds = self.wild_room(p);
            return SureSteps {
                hand_extends: false,
                pending_extends: match wilds {
                    Some(w) if w.completes() => pending,
                    _ => CardSet::EMPTY,
                },
                lays: false,
                hand_grows: false,
                take_backs: false,
                wilds: Some(wilds),
            };
        }
        let table = &self.tables[p];
        let free = self.phase == Phase::Meld && !self.before_rest() && !self.turn.must_go_out;
        let base = free && (table.opened || table.opening_value() >= self.opening_minimum(p));
        let n = self.hands[p].len();
        SureSteps {
            hand_extends: base && n >= 3,
            pending_extends: CardSet::EMPTY,
            lays: base && n >= 5,
            hand_grows: free && table.opened && n >= 3,
            take_backs: free,
            wilds: None,
        }
    }

    /// For a take-back of group `gi` of `p` with no wild pending, no
    /// pickup before the rest and no duty to go out: `None` if
    /// [`GameState::take_back`] refuses it, else whether it surely leaves
    /// a discard legal, so that the turn can be completed (I-9), tried on
    /// copies of the mover's parts it changes. The discard then needs two
    /// cards or more in hand (of two at most one kind is barred by I-21)
    /// and, for a player not opened, the opening minimum reached by the
    /// groups laid this turn, or none laid (D-8.2, D-11.5): the test of
    /// [`GameState::discard_check`]. (A take-back usually brings two cards
    /// or more back to the hand, but the wilds moved in from other groups
    /// go back there, I-25.) `Some(false)` decides nothing.
    pub(super) fn take_back_leaves_discard(&self, p: usize, gi: usize) -> Option<bool> {
        let mut table = self.tables[p];
        let mut hand = self.hands[p];
        let mut turn = self.turn;
        super::steps::take_back_in(&mut table, &mut hand, &mut turn, p, gi, true).ok()?;
        debug_assert!(turn.pending.is_empty() && !self.before_rest() && !turn.must_go_out);
        Some(
            hand.len() >= 2
                && (table.opened
                    || !table.has_new()
                    || table.opening_value() >= self.opening_minimum(p)),
        )
    }

    /// What a step from the hand with no wild pending changes besides the
    /// table, put back from the `listed` state: the hand of `p`, what is
    /// known of it, and the anchor's flag.
    fn put_back_hand(&mut self, listed: &GameState, p: usize) {
        self.hands[p] = listed.hands[p];
        self.known[p] = listed.known[p];
        self.turn.at_anchor = listed.turn.at_anchor;
    }

    /// The actions [`GameState::legal_actions`] chooses from, into `out`
    /// (cleared first): in the meld phase every step worth trying, the
    /// discards and the reset, none of them checked yet, in the listing's
    /// order (the legal actions are this list with the illegal ones
    /// dropped); in any other phase the legal actions themselves. With
    /// [`GameState::candidate_check`], a player who wants one action of a
    /// preference order checks only the candidates it gets to, instead of
    /// having every step's turn completion (I-9) checked.
    pub(crate) fn candidate_actions(&self, out: &mut Vec<Action>) {
        if self.phase == Phase::Meld {
            out.clear();
            self.raw_meld_candidates(out, true);
        } else {
            self.legal_actions(out);
        }
    }

    /// Checks candidates of [`GameState::candidate_actions`] one at a
    /// time: [`CandidateCheck::is_listed`] answers as
    /// [`GameState::legal_actions`] would list them.
    pub(crate) fn candidate_check(&self) -> CandidateCheck<'_> {
        CandidateCheck {
            state: self,
            probe: None,
            two_card_case: None,
            out_from_here: None,
            sure_steps: None,
        }
    }

    // ----- apply -------------------------------------------------------------

    /// Applies an action of the mover. On error nothing changes and the error
    /// names the rule the action breaks.
    pub fn apply(&mut self, action: Action) -> Result<(), RuleError> {
        match self.phase {
            Phase::Over => refuse("D-13.3", "the hand is over"),
            Phase::Cut => match action {
                Action::KeepCut { mask } if mask < 8 => {
                    self.keep_cut(mask);
                    Ok(())
                }
                _ => refuse_fmt!(self.quiet, "D-3.1", "the starter must first decide which cut cards to keep (keep 000 … keep 111), not `{action}`"),
            },
            Phase::FirstDiscard => match action {
                Action::Discard(c) => self.discard(c),
                _ => refuse_fmt!(self.quiet, "D-5.4", "the starter's first turn is a discard and nothing else, not `{action}`"),
            },
            Phase::Draw => match action {
                Action::Draw => {
                    self.end_draw_choice();
                    self.draw_for_turn();
                    self.set_anchor();
                    Ok(())
                }
                Action::FreePickup => {
                    self.free_pickup()?;
                    self.set_anchor();
                    Ok(())
                }
                Action::TakePile => {
                    self.check_take_pile()?;
                    self.take_pile();
                    self.set_anchor();
                    Ok(())
                }
                _ => refuse_fmt!(self.quiet, "D-5.1", "a turn begins by drawing or taking from the pile, not `{action}`"),
            },
            Phase::Meld => {
                if let Action::Discard(c) = action {
                    return self.discard(c);
                }
                if matches!(action, Action::Reset) {
                    if !self.resettable() {
                        return refuse("I-25", "nothing has been laid or moved this meld phase");
                    }
                    if !self.may_reset() {
                        return refuse(
                            "I-25",
                            "the undos of this meld phase are spent (at most 8, the last a reset)",
                        );
                    }
                    let p = self.current as usize;
                    let undos = self.turn.undos + 1;
                    self.hands[p] = self.anchor.hand;
                    self.known[p] = self.anchor.known;
                    self.tables[p] = self.anchor.table;
                    self.turn = self.anchor.turn;
                    self.turn.undos = undos;
                    return Ok(());
                }
                self.meld_action(action, true)
            }
        }
    }

    /// A meld-phase action other than a discard or a reset, in place.
    /// With `check`, the I-9 / I-26 completion check too: the step is made
    /// in place, and if the check refuses it the mover's part is put back
    /// as it was. Without, only the step's own rules (a refused step
    /// changes nothing).
    pub(super) fn meld_action(&mut self, action: Action, check: bool) -> Result<(), RuleError> {
        if check {
            let save = MoverSave::of(self);
            let mut touched = false;
            if let Err(e) = self.meld_try(action, &mut touched, None) {
                if touched {
                    self.restore_mover(&save);
                }
                return Err(e);
            }
        } else {
            self.meld_step(action)?;
        }
        if matches!(action, Action::TakeRest) {
            self.set_anchor();
        }
        Ok(())
    }

    /// A meld-phase action other than a discard or a reset, in place, with
    /// the I-9 completion check. A refusal by the step itself changes
    /// nothing (`touched` stays false); after a refusal by the completion
    /// check the step has been made (`touched`) and the caller restores the
    /// mover's part ([`GameState::restore_mover`]).
    /// `listing`: the listing's context for the completion check
    /// ([`GameState::finish_verdict`]) and the listed state, which `self`
    /// is a copy of; with it the caller puts back the mover's part
    /// whenever `touched`, on success too, and the check may try
    /// its steps on the state itself
    /// ([`GameState::finish_verdict_scratch`]).
    pub(super) fn meld_try(
        &mut self,
        action: Action,
        touched: &mut bool,
        listing: Option<(u64, &GameState)>,
    ) -> Result<(), RuleError> {
        self.meld_step(action)?;
        *touched = true;
        if matches!(action, Action::TakeRest) {
            // With the opening made and two cards in hand the turn
            // surely ends with a discard; otherwise search.
            let sure = !self.turn.must_go_out && self.hands[self.current as usize].len() >= 2;
            if !sure && !self.check_after_step(listing, action) {
                return refuse(
                    "I-26",
                    "taking the rest of the pile would leave a turn that cannot be completed (the opening fell short and no way out exists)",
                );
            }
            return Ok(());
        }
        if !self.check_after_step(listing, action) {
            return refuse_fmt!(
                self.quiet,
                "I-9",
                "`{action}` would leave a turn that cannot be completed"
            );
        }
        Ok(())
    }

    /// The completion check of [`GameState::meld_try`] after `step`: with
    /// a listing's context on its probe, which the caller puts back.
    fn check_after_step(&mut self, listing: Option<(u64, &GameState)>, step: Action) -> bool {
        match listing {
            Some((verdicts, listed)) => self.finish_verdict_scratch(Some(verdicts), (listed, step)),
            None => self.finish_verdict(None),
        }
    }

    /// Applies an action listed by [`GameState::legal_actions`] (or by
    /// [`Moves`](super::moves::Moves)) for this state, or for a state with
    /// the same mover's hand, table and turn (such as a determinization of
    /// the mover's view). The listing has already made the I-9 / I-26
    /// completion check of a meld step, the costly part of
    /// [`GameState::apply`], so it is not made here; the step's own rules
    /// still are (a refused step changes nothing), and every other action
    /// goes through `apply`. For a listed action the result is `apply`'s.
    /// A meld step that is not listed but keeps the step's own rules is
    /// made all the same: a player planning on a copy of a world may try
    /// such steps, which a game never accepts from it.
    pub fn apply_listed(&mut self, action: Action) -> Result<(), RuleError> {
        if self.phase != Phase::Meld || matches!(action, Action::Discard(_) | Action::Reset) {
            return self.apply(action);
        }
        self.meld_action(action, false)
    }

    /// D-6.2, D-6.3, I-7, I-9: whether the penalized pickup is allowed now.
    pub(crate) fn check_take_pile(&self) -> Result<(), RuleError> {
        self.take_pile_check(self.quiet)
    }

    /// [`GameState::check_take_pile`], formatting no message when `quiet`
    /// (the listing asks without copying the state to make it quiet).
    pub(super) fn take_pile_check(&self, quiet: bool) -> Result<(), RuleError> {
        if self.phase != Phase::Draw {
            return refuse("D-6.2", "the pile is taken at the start of a turn");
        }
        let p = self.current as usize;
        let Some(top) = self.pile_top() else {
            return refuse("D-6.2", "the pile is empty");
        };
        if self.turn.free_offer {
            return refuse(
                "I-7",
                "on the turn the free pickup is offered the pile cannot be taken (draw or take the free card)",
            );
        }
        if self.free_pending[p] {
            return refuse(
                "D-6.2",
                "the pile can be taken only once the free-pickup chance has passed",
            );
        }
        if top.is_black_three() {
            return refuse("D-6.3", "the pile is frozen by a black three");
        }
        if top.is_wild() {
            return refuse("D-6.3", "the pile is frozen by a wild");
        }
        let Some(rank) = top.rank() else {
            return refuse("D-6.3", "the pile is frozen");
        };
        let hand = self.hands[p];
        let nat = hand.rank_count(rank);
        if !(nat >= 2 || (nat >= 1 && hand.wild_count() >= 1)) {
            return refuse_fmt!(quiet, "D-6.2", "to take the pile the hand must hold two {}s, or one and a wild, to lay with the top card {top}",
                    rank_name(rank));
        }
        let mut s = *self;
        s.quiet = true;
        s.take_pile();
        s.set_anchor();
        if !s.can_finish() {
            return refuse(
                "I-9",
                "taking the pile would leave a turn that cannot be completed (the top card cannot be laid, or the opening cannot be made and no way out exists)",
            );
        }
        Ok(())
    }
}
