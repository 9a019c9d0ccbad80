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
                self.pickup_candidates(&mut |key, with| {
                    if !JUDGE || self.pickup_legal(key, with) {
                        out.push(ClassicAction::TakePile { key, with });
                    }
                });
            }
            ClassicPhase::Meld => {
                let rest_pending = matches!(self.turn.pickup, Some(pk) if pk.rest_pending);
                if rest_pending && (!JUDGE || self.check(ClassicAction::TakeRest).is_ok()) {
                    out.push(ClassicAction::TakeRest);
                }
                let hand = self.hands[self.mover as usize];
                let counts = kind_counts(hand);
                // One copy for the whole listing, made when first needed:
                // each meld step is made on it, judged, and undone (it
                // touches only the mover's hand, his side's table and the
                // turn's masks).
                let mut trial = Trial::default();
                let mut judge = |a| !JUDGE || self.meld_step_listed(&mut trial, a);
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
                    // discard leaving cards shares one verdict.
                    let last = hand.len() == 1;
                    if !JUDGE || !self.turn.last_red_three && self.end_check(last).is_ok() {
                        for k in Kind::ALL {
                            if counts[k.index()] > 0 {
                                out.push(ClassicAction::Discard(k));
                            }
                        }
                    }
                    if (hand.is_empty() || self.turn.last_red_three)
                        && (!JUDGE || self.end_check(hand.is_empty()).is_ok())
                    {
                        out.push(ClassicAction::End);
                    }
                }
            }
        }
    }

    /// Whether the meld step `a`, a candidate of the listing, is legal:
    /// undos spent or nothing to reset is read off the state; any other
    /// step is made on `trial`'s copy (made now if not yet) and undone.
    fn meld_step_listed(&self, trial: &mut Trial, a: ClassicAction) -> bool {
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
        let Trial { copy, not_whole } = trial;
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
    fn pickup_legal(&self, key: MeldKey, with: Counts) -> bool {
        let first_turn_004 = self.rules.turned_covered && self.turns == 0;
        !first_turn_004
            && self.pickup_check(key, with).is_ok()
            && self.check(ClassicAction::TakePile { key, with }).is_ok()
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

/// What the listing makes at its first meld step judged on a copy: the
/// copy of the state, and the melds of the mover's side not legal as a
/// whole (I-25, [`ClassicState::melds_not_whole`]).
#[derive(Default)]
struct Trial {
    copy: Option<ClassicState>,
    not_whole: Option<u16>,
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
