//! The ways into legality: [`ClassicState::legal_actions`] into a caller's
//! buffer and [`ClassicState::apply`], both holding every meld phase to
//! I-9's completion (a step is legal only if the turn can still end
//! legally without undoing).

use super::action::{ClassicAction, Counts, Kind, MeldKey};
use super::state::*;
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
        let p = self.mover as usize;
        let hand = self.hands[p];
        let t = &self.tables[self.side()];
        let a = kind_counts(hand);
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
        out.clear();
        match self.phase {
            ClassicPhase::Over => {}
            ClassicPhase::Answer => {
                out.push(ClassicAction::Answer(true));
                if self.clone().step(ClassicAction::Answer(false)).is_ok() {
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
                if self.turned_open && self.turns == 0 {
                    self.push_if_legal(ClassicAction::TakeTurned, out);
                }
                if let Some(top) = self.pile_top() {
                    let p = self.mover as usize;
                    let a = kind_counts(self.hands[p]);
                    match Kind::of(top) {
                        Some(k) if k.is_wild() => {
                            for (r, &n) in a.iter().enumerate().take(12) {
                                if n >= 2 {
                                    let key = if r == 11 {
                                        MeldKey::BlackThrees
                                    } else {
                                        MeldKey::Rank(Kind::from_index(r))
                                    };
                                    self.push_if_legal(
                                        ClassicAction::TakePile {
                                            key,
                                            with: SHAPES[0],
                                        },
                                        out,
                                    );
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
                                self.push_if_legal(ClassicAction::TakePile { key, with }, out);
                            }
                        }
                        None => {}
                    }
                }
            }
            ClassicPhase::Meld => {
                let rest_pending = matches!(self.turn.pickup, Some(pk) if pk.rest_pending);
                if rest_pending {
                    self.push_if_legal(ClassicAction::TakeRest, out);
                }
                self.meld_candidates(&mut |a| self.push_if_legal(a, out));
                for key in self.takeback_keys() {
                    self.push_if_legal(ClassicAction::TakeBack { key }, out);
                }
                self.push_if_legal(ClassicAction::Reset, out);
                if !rest_pending {
                    let hand = self.hands[self.mover as usize];
                    for k in Kind::ALL {
                        if k.count_in(hand) > 0 {
                            self.push_if_legal(ClassicAction::Discard(k), out);
                        }
                    }
                    self.push_if_legal(ClassicAction::End, out);
                }
            }
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

    fn push_if_legal(&self, a: ClassicAction, out: &mut Vec<ClassicAction>) {
        if self.check(a).is_ok() {
            out.push(a);
        }
    }

    /// The state after `a`, or why `a` is refused.
    fn check(&self, a: ClassicAction) -> Result<ClassicState, RuleError> {
        let mut g = self.clone();
        g.step(a)?;
        if g.phase == ClassicPhase::Meld && !g.completable() {
            return Err(RuleError::new(
                "I-9",
                "after this step the turn could not end legally without undoing",
            ));
        }
        Ok(g)
    }

    /// Whether `a` is legal now.
    pub fn is_legal(&self, a: ClassicAction) -> bool {
        self.check(a).is_ok()
    }

    /// Applies `a`, or refuses it naming the rule it breaks (the state is
    /// then unchanged).
    pub fn apply(&mut self, a: ClassicAction) -> Result<(), RuleError> {
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
        self.step(a)
    }
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
