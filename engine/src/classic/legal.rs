//! The ways into legality: [`ClassicState::legal_actions`] into a caller's
//! buffer and [`ClassicState::apply`], both holding every meld phase to
//! I-9's completion (a step is legal only if the turn can still end
//! legally without undoing).

use super::action::{ClassicAction, Counts, Kind, MeldKey};
use super::state::*;
use crate::card_set::CardSet;
use crate::error::RuleError;

const SHAPES: [Counts; 4] = [
    Counts {
        naturals: 2,
        twos: 0,
        jokers: 0,
    },
    Counts {
        naturals: 1,
        twos: 1,
        jokers: 0,
    },
    Counts {
        naturals: 1,
        twos: 0,
        jokers: 1,
    },
    Counts {
        naturals: 0,
        twos: 0,
        jokers: 0,
    },
];

impl ClassicState {
    /// Every meld step worth trying from the mover's cards (unchecked):
    /// new melds of three, black-three melds, wild canastas, one-card
    /// extensions.
    pub(crate) fn meld_candidates(&self, f: &mut impl FnMut(ClassicAction)) {
        let a = kind_counts(self.hands[self.mover as usize]);
        self.meld_candidates_of(&a, f);
    }

    /// [`ClassicState::meld_candidates`] of the mover's kind counts `a`.
    fn meld_candidates_of(&self, a: &[u8; 14], f: &mut impl FnMut(ClassicAction)) {
        let t = &self.tables[self.side()];
        let twos = a[Kind::TWO.index()];
        let jokers = a[Kind::JOKER.index()];
        for (k, &n) in a.iter().enumerate().take(11) {
            let kind = Kind::from_index(k);
            if t.melds[k].is_empty() {
                if n >= 2 {
                    let key = MeldKey::Rank(kind);
                    if n >= 3 {
                        f(ClassicAction::Lay {
                            key,
                            cards: Counts {
                                naturals: 3,
                                twos: 0,
                                jokers: 0,
                            },
                        });
                    }
                    if twos > 0 {
                        f(ClassicAction::Lay {
                            key,
                            cards: SHAPES[0].with_wild(1, 0),
                        });
                    }
                    if jokers > 0 {
                        f(ClassicAction::Lay {
                            key,
                            cards: SHAPES[0].with_wild(0, 1),
                        });
                    }
                }
            } else {
                if n > 0 {
                    f(ClassicAction::Extend { rank: kind, kind });
                }
                if twos > 0 {
                    f(ClassicAction::Extend {
                        rank: kind,
                        kind: Kind::TWO,
                    });
                }
                if jokers > 0 {
                    f(ClassicAction::Extend {
                        rank: kind,
                        kind: Kind::JOKER,
                    });
                }
            }
        }
        let b = a[Kind::BLACK_THREE.index()];
        if b >= 2 && t.black_threes.is_empty() {
            for kb in 2..=b {
                for tw in 0..=twos.min(4) {
                    for j in 0..=jokers.min(4) {
                        if self.rules.black_three_meld_ok(kb as u32, (tw + j) as u32) {
                            f(ClassicAction::Lay {
                                key: MeldKey::BlackThrees,
                                cards: Counts {
                                    naturals: kb,
                                    twos: tw,
                                    jokers: j,
                                },
                            });
                        }
                    }
                }
            }
        }
        if self.rules.wild_canasta > 0 && twos + jokers >= 7 && t.wild_canastas[1].is_empty() {
            for j in 0..=jokers.min(7) {
                let tw = 7 - j;
                if tw <= twos {
                    f(ClassicAction::Lay {
                        key: MeldKey::Wilds,
                        cards: Counts {
                            naturals: 0,
                            twos: tw,
                            jokers: j,
                        },
                    });
                }
            }
        }
    }

    /// The legal actions, in a fixed order, into `out` (cleared first).
    /// Never empty before the end of the hand.
    pub fn legal_actions(&self, out: &mut Vec<ClassicAction>) {
        self.walk::<true>(out);
    }

    /// The candidates of the listing, unchecked, in the listing's order,
    /// into `out` (cleared first): [`ClassicState::legal_actions`] lists
    /// exactly those of them that [`ClassicState::is_legal`] passes. A
    /// player that wants the best of a few actions checks them in its own
    /// order, one at a time, instead of having every candidate judged.
    pub fn candidates(&self, out: &mut Vec<ClassicAction>) {
        self.walk::<false>(out);
    }

    /// The one walk over the candidates, in the listing's order, into
    /// `out` (cleared first): with `JUDGE`, only those that are legal
    /// (the listing), else all of them (the candidates). The verdicts
    /// that the state itself gives come first; a copy of the state to
    /// step meld candidates on is made at the first that needs one.
    fn walk<const JUDGE: bool>(&self, out: &mut Vec<ClassicAction>) {
        out.clear();
        match self.phase {
            ClassicPhase::Over => {}
            ClassicPhase::Answer => {
                out.push(ClassicAction::Answer(true));
                // The answer's step is its whole check: the phase after it
                // is a draw, which I-9 does not judge.
                if !JUDGE || self.answer_check(false).is_ok() {
                    out.push(ClassicAction::Answer(false));
                }
            }
            ClassicPhase::Draw => {
                if self.rules.partnerships() && !self.turn.asked {
                    out.push(ClassicAction::Ask);
                }
                if self.stock_len > 0 {
                    out.push(ClassicAction::Draw);
                } else {
                    out.push(ClassicAction::EndHand);
                }
                if self.turned_open
                    && self.turns == 0
                    && (!JUDGE || self.check(ClassicAction::TakeTurned).is_ok())
                {
                    out.push(ClassicAction::TakeTurned);
                }
                let mut rest = None;
                self.pickup_candidates(&mut |key, with| {
                    if !JUDGE || self.pickup_legal(key, with, &mut rest) {
                        out.push(ClassicAction::TakePile { key, with });
                    }
                });
            }
            ClassicPhase::Meld => {
                let rest_pending = matches!(self.turn.pickup, Some(pk) if pk.rest_pending);
                // One copy for the whole listing, made when first needed:
                // each meld step is made on it, judged, and undone (it
                // touches only the mover's hand, his side's table and the
                // turn's masks).
                let mut trial = Trial::default();
                if rest_pending && (!JUDGE || self.take_rest_listed(&mut trial)) {
                    out.push(ClassicAction::TakeRest);
                }
                let hand = self.hands[self.mover as usize];
                let counts = kind_counts(hand);
                let mut judge = |a| !JUDGE || self.meld_step_listed(&mut trial, &counts, a);
                self.meld_candidates_of(&counts, &mut |a| {
                    if judge(a) {
                        out.push(a);
                    }
                });
                for key in self.takeback_keys() {
                    let a = ClassicAction::TakeBack { key };
                    if judge(a) {
                        out.push(a);
                    }
                }
                if judge(ClassicAction::Reset) {
                    out.push(ClassicAction::Reset);
                }
                if !rest_pending {
                    // A discard ends the turn (I-9 does not judge it): every
                    // discard leaving cards shares one verdict. The turn
                    // ends only with every meld legal as a whole (I-25)
                    // and the minimum met (C-17): asked once, the melds'
                    // verdicts read as the meld steps' were
                    // (`end_check`'s tests, the pile's rest not pending).
                    let mut ends = None;
                    let mut end_ok = |going_out| {
                        let whole_min = *ends.get_or_insert_with(|| {
                            trial.not_whole(self) == 0 && self.minimum_met()
                        });
                        whole_min && self.end_rest_check(going_out).is_ok()
                    };
                    let last = hand.len() == 1;
                    if !JUDGE || !self.turn.last_red_three && end_ok(last) {
                        for k in Kind::ALL {
                            if counts[k.index()] > 0 {
                                out.push(ClassicAction::Discard(k));
                            }
                        }
                    }
                    if (hand.is_empty() || self.turn.last_red_three)
                        && (!JUDGE || end_ok(hand.is_empty()))
                    {
                        out.push(ClassicAction::End);
                    }
                }
            }
        }
    }

    /// Whether the meld step `a`, a candidate of the listing, is legal
    /// (`counts`: the mover's kind counts): undos spent or nothing to
    /// reset is read off the state, and so is a lay or an extension of a
    /// rank's meld wherever the counts settle it
    /// ([`ClassicState::rank_step_quick`]); any other step is made on
    /// `trial`'s copy (made now if not yet) and undone.
    fn meld_step_listed(&self, trial: &mut Trial, counts: &[u8; 14], a: ClassicAction) -> bool {
        let quick = match a {
            ClassicAction::Lay {
                key: MeldKey::Rank(k),
                cards,
            } if k.index() < 11 => self.rank_step_quick(trial, counts, k.index(), cards, true),
            ClassicAction::Extend { rank, kind } if rank.index() < 11 => {
                let one = |naturals, twos, jokers| Counts {
                    naturals,
                    twos,
                    jokers,
                };
                let cards = match kind {
                    Kind::TWO => one(0, 1, 0),
                    Kind::JOKER => one(0, 0, 1),
                    _ if kind == rank => one(1, 0, 0),
                    // C-4: a meld takes naturals of its rank and wilds.
                    _ => return false,
                };
                self.rank_step_quick(trial, counts, rank.index(), cards, false)
            }
            ClassicAction::Lay {
                key: MeldKey::BlackThrees,
                cards,
            } => self.black_threes_quick_no(trial, counts, cards),
            _ => None,
        };
        if let Some(ok) = quick {
            return ok;
        }
        match a {
            // Take-backs are listed only of melds laid this turn and not
            // committed: the undos left decide them before any step.
            ClassicAction::TakeBack { .. } | ClassicAction::Reset
                if self.turn.undos >= CLASSIC_MAX_UNDOS =>
            {
                return false
            }
            ClassicAction::Reset => {
                let t = &self.tables[self.side()];
                if t.melded() == self.turn.anchor.melded() {
                    // Nothing to undo.
                    return false;
                }
            }
            _ => {}
        }
        if let Some(ok) = self.undo_quick(trial, a) {
            return ok;
        }
        let Trial {
            copy, not_whole, ..
        } = trial;
        let copy = copy.get_or_insert_with(|| self.clone());
        // The melds the step leaves as they were keep their verdicts
        // (I-25): only the one it lays, extends or takes back is asked,
        // and the others' verdicts are read once a listing, if asked.
        let changed = match a {
            ClassicAction::Lay {
                key: MeldKey::Rank(k),
                ..
            }
            | ClassicAction::Extend { rank: k, .. } => Some(k.index()),
            ClassicAction::TakeBack {
                key: MeldKey::Rank(k),
            } => Some(k.index()),
            ClassicAction::Lay { .. } | ClassicAction::TakeBack { .. } => Some(11),
            _ => None,
        };
        let ok = copy.step(a).is_ok() && {
            let copy = &*copy;
            match changed {
                Some(k) => copy.completable_whole(&mut || {
                    let others = *not_whole.get_or_insert_with(|| self.melds_not_whole());
                    others & !(1 << k) == 0 && (k == 11 || copy.meld_whole_at(k))
                }),
                None => copy.completable(),
            }
        };
        match a {
            // A lay or an extension of a rank's meld changes the mover's
            // hand and known cards, that meld and the mask of new melds
            // (nothing if refused): only they are put back.
            ClassicAction::Lay {
                key: MeldKey::Rank(k),
                ..
            }
            | ClassicAction::Extend { rank: k, .. }
                if k.index() < 11 =>
            {
                let (p, side, k) = (self.mover as usize, self.side(), k.index());
                copy.hands[p] = self.hands[p];
                copy.known[p] = self.known[p];
                copy.tables[side].melds[k] = self.tables[side].melds[k];
                copy.turn.new_mask = self.turn.new_mask;
            }
            _ => MoverPart::of(self).put(copy),
        }
        ok
    }

    /// Whether taking the rest of the pile (pending) is legal: refused
    /// by its own step unless every meld is legal as a whole (I-25) and,
    /// in an opening turn, the minimum is met (C-17); after it nothing is
    /// pending and the table is the anchor, every meld legal as it lies,
    /// so [`ClassicState::completable`]'s quick yes holds where nothing
    /// binds the mover to go out and two cards are kept. Else the step on
    /// a copy answers.
    fn take_rest_listed(&self, trial: &mut Trial) -> bool {
        if trial.not_whole(self) != 0 || self.turn.opening && !self.minimum_met() {
            return false;
        }
        let b = *trial.base.get_or_insert_with(|| self.listing_base());
        let kept = b.hand_len + b.rest.unwrap_or(0);
        if !b.bound && !self.turn.last_red_three && kept >= 2 {
            return true;
        }
        self.check(ClassicAction::TakeRest).is_ok()
    }

    /// The verdict of a lay (`lay`) or an extension of the meld of kind
    /// index `k` by `cards` from the hand, read off the kind counts of
    /// the hand (`counts`) and of the meld, without a step: the step's
    /// own rules (C-4, C-20, D-5.1, I-25's fixable extension), then
    /// [`ClassicState::completable`]'s quick yes on the state after it
    /// (nothing binds the mover to go out, no rest of the pile pending,
    /// two cards kept to discard from, the minimum met, every meld legal
    /// as a whole). `None` where only the programme answers.
    fn rank_step_quick(
        &self,
        trial: &mut Trial,
        counts: &[u8; 14],
        k: usize,
        cards: Counts,
        lay: bool,
    ) -> Option<bool> {
        let r = &self.rules;
        let kind = Kind::from_index(k);
        let m = self.tables[self.side()].melds[k];
        let (dn, dw) = (cards.naturals as u32, cards.wilds());
        if counts[k] < cards.naturals
            || counts[Kind::TWO.index()] < cards.twos
            || counts[Kind::JOKER.index()] < cards.jokers
        {
            // D-5.1: the hand does not hold those cards.
            return Some(false);
        }
        let (n, w) = if m.is_empty() {
            (dn, dw)
        } else {
            (kind.count_in(m) + dn, m.wild_count() + dw)
        };
        // I-25: the meld after the step, legal as a whole (it differs from
        // the anchor's, having grown from it).
        let whole = (w == 0 && n >= 3) || self.meld_whole_ok(r, k, n, w);
        if lay {
            // C-20, C-4: a new meld of three, two or three naturals.
            if !m.is_empty() || dn + dw != 3 || !r.meld_ok(dn, dw) {
                return Some(false);
            }
        } else {
            if m.is_empty() {
                return Some(false);
            }
            // I-25: the naturals left in the hand can make it legal.
            let left = counts[k] as u32 - dn;
            if !whole && !(1..=left).any(|j| self.meld_whole_ok(r, k, n + j, w)) {
                return Some(false);
            }
        }
        let b = *trial.base.get_or_insert_with(|| self.listing_base());
        let bit = 1u16 << k;
        b.quick_yes(
            b.hand_len - dn - dw,
            || {
                let value = b.value
                    + dn as i32 * kind.value()
                    + cards.twos as i32 * Kind::TWO.value()
                    + cards.jokers as i32 * Kind::JOKER.value();
                let waiver = b.waiver
                    || r.minimum_waived
                        && (lay || self.turn.new_mask & bit != 0)
                        && b.top_bit & bit == 0
                        && n + w >= 7;
                value >= b.need || waiver
            },
            || whole && trial.not_whole(self) & !bit == 0,
        )
    }

    /// The "no" to laying the black-three meld `cards` read off the
    /// counts, without a step: the step's own rules (C-16, D-5.1), then,
    /// the meld binding the mover to go out (C-16), going out refused
    /// (C-18) or the programme's quick no where only going out ends the
    /// turn ([`super::solver::out_only_quick_no`], which reads of the
    /// table after the lay only that the black threes are melded: asked
    /// of the table before it with none to meld). `None` where the step
    /// on the copy answers (also with the pile's rest pending).
    fn black_threes_quick_no(
        &self,
        trial: &mut Trial,
        counts: &[u8; 14],
        cards: Counts,
    ) -> Option<bool> {
        let t = &self.tables[self.side()];
        let (b, twos, jokers) = (
            Kind::BLACK_THREE.index(),
            Kind::TWO.index(),
            Kind::JOKER.index(),
        );
        if !t.black_threes.is_empty()
            || !self
                .rules
                .black_three_meld_ok(cards.naturals as u32, cards.wilds())
            || counts[b] < cards.naturals
            || counts[twos] < cards.twos
            || counts[jokers] < cards.jokers
        {
            return Some(false);
        }
        if trial
            .base
            .get_or_insert_with(|| self.listing_base())
            .rest
            .is_some()
        {
            return None;
        }
        if !self.going_out_permitted() {
            return Some(false);
        }
        let mut hand = *counts;
        hand[b] -= cards.naturals;
        hand[twos] -= cards.twos;
        hand[jokers] -= cards.jokers;
        let pb = super::solver::Problem {
            rules: &self.rules,
            hand,
            table: t,
            anchor: &self.turn.anchor,
            new_mask: self.turn.new_mask,
            top_bit: 0,
            base_value: 0,
            waiver_now: false,
        };
        let goal = super::solver::Goal {
            normal: false,
            out: true,
            no_discard: self.turn.last_red_three,
            kept_free: false,
            min: None,
            nothing_ok: false,
            black_threes: false,
        };
        super::solver::out_only_quick_no(&pb, goal).then_some(false)
    }

    /// The verdict of a take-back of a rank's meld or of the reset `a`
    /// (the undos left and something to reset already asked), read off
    /// the state without a step where [`ClassicState::completable`]'s
    /// quick yes holds after it: nothing binds the mover to go out, two
    /// cards kept, the minimum met (C-17: the value left on the table
    /// reaches it, or nothing is left), every meld left legal as a whole
    /// (I-25; after the reset, the melds of the anchor). `None` where the
    /// step on the copy answers.
    fn undo_quick(&self, trial: &mut Trial, a: ClassicAction) -> Option<bool> {
        let b = *trial.base.get_or_insert_with(|| self.listing_base());
        match a {
            ClassicAction::TakeBack {
                key: MeldKey::Rank(k),
            } if k.index() < 11 => {
                let bit = 1u16 << k.index();
                let m = self.tables[self.side()].melds[k.index()];
                if m.is_empty()
                    || self.turn.new_mask & bit == 0
                    || self.turn.committed_mask & bit != 0
                {
                    // I-25: only a meld laid this turn and not committed.
                    return Some(false);
                }
                b.quick_yes(
                    b.hand_len + m.len(),
                    || {
                        // Every melded card has a value: nothing left on
                        // the table is a value of 0. A waiver before may
                        // have been this meld's: not read here.
                        let value = b.value
                            - k.count_in(m) as i32 * k.value()
                            - Kind::TWO.count_in(m) as i32 * Kind::TWO.value()
                            - Kind::JOKER.count_in(m) as i32 * Kind::JOKER.value();
                        !b.waiver && (value == 0 || value >= b.need)
                    },
                    || trial.not_whole(self) & !bit == 0,
                )
            }
            ClassicAction::Reset => {
                let anchor = &self.turn.anchor;
                // The hand takes back at least a card: `hand_len` kept at
                // least.
                b.quick_yes(
                    b.hand_len,
                    || !anchor.has_melds(),
                    // Each meld is as it was at the anchor.
                    || self.legal_as_laid(anchor),
                )
            }
            _ => None,
        }
    }

    /// Whether every meld of `t` is legal as it lies: what I-25 asks of
    /// a meld as it was at the anchor ([`ClassicState::meld_whole_at`]).
    fn legal_as_laid(&self, t: &SideTable) -> bool {
        t.melds.iter().enumerate().all(|(k, &m)| {
            let (n, w) = (Kind::from_index(k).count_in(m), m.wild_count());
            m.is_empty() || (w == 0 && n >= 3) || self.rules.meld_ok(n, w)
        })
    }

    /// What [`ClassicState::rank_step_quick`] reads of the state before
    /// any step, once a listing.
    fn listing_base(&self) -> ListingBase {
        let t = &self.tables[self.side()];
        let opening = self.turn.opening;
        let rest = match self.turn.pickup {
            Some(pk) if pk.rest_pending => {
                Some(self.pile().iter().filter(|c| !c.is_red_three()).count() as u32)
            }
            _ => None,
        };
        ListingBase {
            bound: self.turn.must_go_out
                || self.turn.black_three_pickup
                || !t.black_threes.is_empty()
                || rest.is_none() && self.turn.last_red_three,
            rest,
            hand_len: self.hands[self.mover as usize].len(),
            opening,
            value: if opening { self.opening_value() } else { 0 },
            need: if opening {
                self.minimum(self.side())
            } else {
                0
            },
            waiver: opening && self.waiver(),
            top_bit: self.top_bit(),
        }
    }

    /// The ways of taking the pile the listing tries, in its order: the
    /// meld key and the cards from the hand.
    fn pickup_candidates(&self, f: &mut impl FnMut(MeldKey, Counts)) {
        let Some(top) = self.pile_top() else {
            return;
        };
        let a = kind_counts(self.hands[self.mover as usize]);
        match Kind::of(top) {
            Some(k) if k.is_wild() => {
                for (r, &n) in a.iter().enumerate().take(12) {
                    if n >= 2 {
                        let key = if r == 11 {
                            MeldKey::BlackThrees
                        } else {
                            MeldKey::Rank(Kind::from_index(r))
                        };
                        f(key, SHAPES[0]);
                    }
                }
            }
            Some(k) => {
                let key = if k == Kind::BLACK_THREE {
                    MeldKey::BlackThrees
                } else {
                    MeldKey::Rank(k)
                };
                for with in SHAPES {
                    f(key, with);
                }
            }
            None => {}
        }
    }

    fn takeback_keys(&self) -> impl Iterator<Item = MeldKey> + '_ {
        let m = self.turn.new_mask & !self.turn.committed_mask;
        (0..11)
            .filter(move |k| m & (1 << k) != 0)
            .map(|k| MeldKey::Rank(Kind::from_index(k)))
            .chain((m & (1 << 11) != 0).then_some(MeldKey::BlackThrees))
            .chain((m & (3 << 12) != 0).then_some(MeldKey::Wilds))
    }

    /// Whether taking the pile this way is legal; the checks of the
    /// pickup itself first, on the state as it is, so a copy is stepped
    /// only for a pickup that passes them.
    /// `rest`: what [`ClassicState::pickup_quick`] reads once a listing.
    fn pickup_legal(&self, key: MeldKey, with: Counts, rest: &mut Option<Option<u32>>) -> bool {
        let first_turn_004 = self.rules.turned_covered && self.turns == 0;
        if first_turn_004 || self.pickup_check(key, with).is_err() {
            return false;
        }
        if let Some(ok) = self.pickup_quick(key, with, rest) {
            return ok;
        }
        self.check(ClassicAction::TakePile { key, with }).is_ok()
    }

    /// The verdict of taking the pile onto the meld of a rank with `with`
    /// from the hand, the pickup's own checks passed, without a step,
    /// where [`ClassicState::completable`] says yes without its
    /// programme: a side that has melded (no opening turn, C-17), nothing
    /// binding the mover to go out (no "yes" asked of him, C-18; no
    /// black-three meld, C-16), every meld legal as it lies (the meld
    /// phase is judged from the table after the pickup, I-25; the meld
    /// taking the top card is legal by the pickup's checks), and two
    /// cards among the hand and the pile's rest: anything laid before the
    /// rest may be laid after it. `rest`: the cards of the pile (red
    /// threes aside) if every meld on the table is legal as it lies, read
    /// once a listing. `None` where the step on a copy answers.
    fn pickup_quick(
        &self,
        key: MeldKey,
        with: Counts,
        rest: &mut Option<Option<u32>>,
    ) -> Option<bool> {
        let t = &self.tables[self.side()];
        if self.turn.opening
            || self.turn.answer == Some(true)
            || self.turn.must_go_out
            || self.turn.black_three_pickup
            || !t.black_threes.is_empty()
            || !matches!(key, MeldKey::Rank(_))
        {
            return None;
        }
        let rest = (*rest.get_or_insert_with(|| {
            self.legal_as_laid(t)
                .then(|| self.pile().iter().filter(|c| !c.is_red_three()).count() as u32)
        }))?;
        // The top card goes to the meld; the rest to the hand.
        let kept = (self.hands[self.mover as usize].len() + rest).checked_sub(with.len() + 1)?;
        (kept >= 2).then_some(true)
    }

    /// The meld steps that change only the mover's hand and known cards,
    /// his side's table and the turn's masks, stay in the meld phase, and
    /// change nothing when refused.
    fn undoable(phase: ClassicPhase, a: ClassicAction) -> bool {
        phase == ClassicPhase::Meld
            && matches!(
                a,
                ClassicAction::Lay { .. }
                    | ClassicAction::Extend { .. }
                    | ClassicAction::TakeBack { .. }
                    | ClassicAction::Reset
            )
    }

    /// The actions after which the phase is never a meld phase (so I-9
    /// does not judge them) and whose refused step changes nothing.
    fn ends_outside_meld(phase: ClassicPhase, a: ClassicAction) -> bool {
        match phase {
            ClassicPhase::Answer | ClassicPhase::Over => true,
            ClassicPhase::Draw => matches!(a, ClassicAction::Ask | ClassicAction::EndHand),
            ClassicPhase::Meld => matches!(a, ClassicAction::Discard(_) | ClassicAction::End),
        }
    }

    /// The state after `a`, or why `a` is refused.
    fn check(&self, a: ClassicAction) -> Result<ClassicState, RuleError> {
        let mut g = self.clone();
        g.step(a)?;
        if g.phase == ClassicPhase::Meld && !g.completable() {
            return Err(i9());
        }
        Ok(g)
    }

    /// Whether `a` is legal now: whether the listing holds it.
    pub fn is_legal(&self, a: ClassicAction) -> bool {
        // The steps whose own checks come before any change are answered
        // by those checks, without a copy; they end outside a meld phase,
        // so I-9 does not judge them.
        match (self.phase, a) {
            (ClassicPhase::Answer, ClassicAction::Answer(yes)) => {
                return self.answer_check(yes).is_ok()
            }
            (ClassicPhase::Draw, ClassicAction::Ask) => {
                return self.rules.partnerships() && !self.turn.asked
            }
            (ClassicPhase::Draw, ClassicAction::Draw) => return self.stock_len > 0,
            (ClassicPhase::Draw, ClassicAction::EndHand) => return self.stock_len == 0,
            (ClassicPhase::Meld, ClassicAction::Discard(kind)) => {
                let hand = self.hands[self.mover as usize];
                return kind.count_in(hand) > 0
                    && !self.turn.last_red_three
                    && self.end_check(hand.len() == 1).is_ok();
            }
            // The pickup's own checks on the state as it is first, as the
            // listing makes them: a copy only for one that passes.
            (ClassicPhase::Draw, ClassicAction::TakePile { key, with })
                if self.rules.turned_covered && self.turns == 0
                    || self.pickup_check(key, with).is_err() =>
            {
                return false
            }
            (ClassicPhase::Meld, ClassicAction::End) => {
                let hand = self.hands[self.mover as usize];
                return (hand.is_empty() || self.turn.last_red_three)
                    && self.end_check(hand.is_empty()).is_ok();
            }
            _ => {}
        }
        if Self::ends_outside_meld(self.phase, a) {
            return self.clone().step(a).is_ok();
        }
        self.check(a).is_ok()
    }

    /// Applies `a`, or refuses it naming the rule it breaks (the state is
    /// then unchanged).
    pub fn apply(&mut self, a: ClassicAction) -> Result<(), RuleError> {
        if Self::ends_outside_meld(self.phase, a) {
            // Judged by the step alone, which changes nothing if refused.
            return self.step(a);
        }
        if Self::undoable(self.phase, a) {
            // Made in place; undone if the turn could not end after it.
            let saved = MoverPart::of(self);
            self.step(a)?;
            if !self.completable() {
                saved.put(self);
                return Err(i9());
            }
            return Ok(());
        }
        *self = self.check(a)?;
        Ok(())
    }

    /// [`ClassicState::apply`] of an action the listing of this very
    /// state holds: the listing has already made the I-9 check that the
    /// turn can still end (the costly part), so only the step is made.
    /// For a listed action the result is `apply`'s. The step is made in
    /// place, without the copy `apply` makes to stay unchanged on a
    /// refusal: an action that is not listed may be refused with the
    /// state left part-way, so pass only listed ones.
    pub fn apply_listed(&mut self, a: ClassicAction) -> Result<(), RuleError> {
        match (self.phase, a) {
            // A listed discard has passed the end check (the shared verdict
            // of the listing's discards): it is not made again.
            (ClassicPhase::Meld, ClassicAction::Discard(kind)) => self.discard(kind, false),
            _ => self.step(a),
        }
    }
}

/// What the listing makes when first needed: the copy of the state its
/// meld steps are judged on, the melds of the mover's side not legal as
/// a whole (I-25, [`ClassicState::melds_not_whole`]), and what the quick
/// verdicts read of the state.
#[derive(Default)]
struct Trial {
    copy: Option<ClassicState>,
    not_whole: Option<u16>,
    base: Option<ListingBase>,
}

impl Trial {
    /// The melds of the mover's side not legal as a whole before any
    /// step (I-25), asked once.
    fn not_whole(&mut self, s: &ClassicState) -> u16 {
        *self.not_whole.get_or_insert_with(|| s.melds_not_whole())
    }
}

/// The state before the listing's meld steps as the quick verdicts
/// ([`ClassicState::rank_step_quick`], [`ClassicState::undo_quick`])
/// read it.
#[derive(Clone, Copy)]
struct ListingBase {
    /// The mover must go out (C-15, C-16, C-18), or has no discard
    /// (C-23): the programme answers.
    bound: bool,
    /// The cards of the pile's rest still to be taken (red threes
    /// aside), if pending (C-14).
    rest: Option<u32>,
    /// The cards of the mover's hand.
    hand_len: u32,
    /// The side's opening turn (C-17): the value on its table, the
    /// minimum, and whether the waiver holds already.
    opening: bool,
    value: i32,
    need: i32,
    waiver: bool,
    /// The turn's masks' bit of the meld holding the pile's top card.
    top_bit: u16,
}

impl ListingBase {
    /// [`ClassicState::completable`]'s yes without its programme, after
    /// a meld step that leaves `kept` cards in the hand, the minimum met
    /// after it (`min_ok`, asked in an opening turn only) and every meld
    /// legal as a whole (`whole`, asked last): a normal end keeps two
    /// cards to discard from; with the pile's rest pending, outside an
    /// opening turn, anything laid before the rest may be laid after it,
    /// so the rest counts as kept. `None` where the programme answers.
    fn quick_yes(
        &self,
        kept: u32,
        min_ok: impl FnOnce() -> bool,
        whole: impl FnOnce() -> bool,
    ) -> Option<bool> {
        if self.bound {
            return None;
        }
        let ends = match self.rest {
            Some(rest) => !self.opening && kept + rest >= 2,
            None => kept >= 2 && (!self.opening || min_ok()),
        };
        (ends && whole()).then_some(true)
    }
}

/// What a meld step ([`ClassicState::undoable`]) changes: the mover's
/// hand and known cards, his side's table and the turn's masks. Saved
/// before a step and put back to undo it, instead of copying the state.
#[derive(Clone, Copy)]
struct MoverPart {
    hand: CardSet,
    known: CardSet,
    table: SideTable,
    new_mask: u16,
    undos: u8,
}

impl MoverPart {
    #[inline]
    fn of(s: &ClassicState) -> MoverPart {
        let p = s.mover as usize;
        MoverPart {
            hand: s.hands[p],
            known: s.known[p],
            table: s.tables[s.side()],
            new_mask: s.turn.new_mask,
            undos: s.turn.undos,
        }
    }

    /// Puts the part back into `s`, whose mover and side are those it was
    /// taken of.
    #[inline]
    fn put(self, s: &mut ClassicState) {
        let p = s.mover as usize;
        let side = s.side();
        s.hands[p] = self.hand;
        s.known[p] = self.known;
        s.tables[side] = self.table;
        s.turn.new_mask = self.new_mask;
        s.turn.undos = self.undos;
    }
}

/// I-9's refusal.
fn i9() -> RuleError {
    RuleError::new(
        "I-9",
        "after this step the turn could not end legally without undoing",
    )
}

impl Counts {
    const fn with_wild(self, twos: u8, jokers: u8) -> Counts {
        Counts {
            naturals: self.naturals,
            twos,
            jokers,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::rules::{ClassicRules, CLASSIC_PRESETS};
    use rand::{RngExt, SeedableRng};

    /// Every action worth asking about in `g`: the listing's candidates,
    /// the other phases' actions and shapes no listing makes.
    fn universe(g: &ClassicState) -> Vec<ClassicAction> {
        let mut u = vec![
            ClassicAction::Answer(true),
            ClassicAction::Answer(false),
            ClassicAction::Ask,
            ClassicAction::Draw,
            ClassicAction::EndHand,
            ClassicAction::TakeTurned,
            ClassicAction::TakeRest,
            ClassicAction::Reset,
            ClassicAction::End,
        ];
        g.meld_candidates(&mut |a| u.push(a));
        let mut keys: Vec<MeldKey> = (0..11)
            .map(|k| MeldKey::Rank(Kind::from_index(k)))
            .collect();
        keys.extend([MeldKey::BlackThrees, MeldKey::Wilds]);
        for &key in &keys {
            u.push(ClassicAction::TakeBack { key });
            for with in SHAPES {
                u.push(ClassicAction::TakePile { key, with });
            }
            u.push(ClassicAction::Lay {
                key,
                cards: SHAPES[1].with_wild(2, 0),
            });
        }
        for k in Kind::ALL {
            u.push(ClassicAction::Discard(k));
            for rank in Kind::ALL {
                u.push(ClassicAction::Extend { rank, kind: k });
            }
        }
        u
    }

    /// The listing is the candidates that `is_legal` passes, in their
    /// order, for the states of random hands of every preset and 2, 3, 4
    /// and 6 players.
    #[test]
    fn the_listing_is_the_candidates_is_legal_passes() {
        let mut states = 0u32;
        for preset in CLASSIC_PRESETS {
            for players in [2u8, 3, 4, 6] {
                let rules = ClassicRules {
                    players,
                    ..ClassicRules::preset(preset).unwrap()
                };
                for seed in 10..16 {
                    let mut g = ClassicState::new(rules, seed, seed as usize, [0; 6]);
                    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
                    let (mut legal, mut cands) = (Vec::new(), Vec::new());
                    while !g.is_terminal() {
                        g.legal_actions(&mut legal);
                        g.candidates(&mut cands);
                        cands.retain(|&a| g.is_legal(a));
                        assert_eq!(cands, legal, "{preset} {players} seed {seed}");
                        states += 1;
                        let a = legal[rng.random_range(0..legal.len())];
                        g.apply(a).unwrap();
                    }
                }
            }
        }
        assert!(states > 2_000, "{states} states");
    }

    /// I-9: the listing made in place (one copy a listing, steps undone,
    /// discards judged without a step) holds exactly the actions whose
    /// step on a copy of their own passes and leaves a turn that can end;
    /// `apply` and `is_legal` answer as that copy does, the refusal's rule
    /// and the state after included. Random hands of every preset and
    /// number of players.
    #[test]
    fn i9_listing_in_place_agrees_with_a_copy_per_candidate() {
        let (mut states, mut asked) = (0u32, 0u32);
        for preset in CLASSIC_PRESETS {
            for players in [2u8, 3, 4, 6] {
                let rules = ClassicRules {
                    players,
                    ..ClassicRules::preset(preset).unwrap()
                };
                for seed in 0..6 {
                    let mut g = ClassicState::new(rules, seed, seed as usize, [0; 6]);
                    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
                    let mut legal = Vec::new();
                    while !g.is_terminal() {
                        g.legal_actions(&mut legal);
                        states += 1;
                        for a in universe(&g) {
                            asked += 1;
                            let by_copy = g.check(a);
                            assert_eq!(
                                legal.contains(&a),
                                by_copy.is_ok(),
                                "{preset} {players} seed {seed}: {a}"
                            );
                            assert_eq!(g.is_legal(a), by_copy.is_ok(), "{a}");
                            let mut h = g.clone();
                            match (h.apply(a), by_copy) {
                                (Ok(()), Ok(after)) => assert_eq!(h, after, "{a}"),
                                (Err(e), Err(want)) => {
                                    assert_eq!(e, want, "{a}");
                                    assert_eq!(h, g, "{a}: refused, changed");
                                }
                                (got, want) => panic!("{a}: {got:?} against {:?}", want.err()),
                            }
                        }
                        let mut seen = legal.clone();
                        seen.sort_by_key(|a| a.to_string());
                        seen.dedup();
                        assert_eq!(seen.len(), legal.len(), "a listing repeats an action");
                        let a = legal[rng.random_range(0..legal.len())];
                        g.apply(a).unwrap();
                    }
                }
            }
        }
        assert!(states > 2_000, "{states} states");
        assert!(asked > 100_000, "{asked} actions asked");
    }
}
