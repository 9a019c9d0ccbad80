//! [`ClassicGreedy`]: a one-step player of classic canasta. It melds what
//! scores now (naturals before wilds, wilds only towards a canasta or an
//! opening), takes the pile whenever it may with natural cards (and with a
//! wild when the pile is big), goes out whenever the listing lets it (in
//! a partnership it asks first, C-18, when its hand is nearly gone and its
//! side holds a canasta), and discards its least useful card.
//!
//! Every choice is among the listed actions; the engine's listing already
//! holds each meld phase to a legal end (I-9), so laying greedily never
//! strands the turn.

use super::ClassicAgent;
use kanaszta_engine::classic::{ClassicAction, ClassicView, Kind, MeldKey};
use rand_pcg::Pcg64Mcg;

/// The greedy classic player (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct ClassicGreedy;

/// A pile is worth a wild from the hand from this many cards on.
const PILE_WORTH_A_WILD: usize = 5;

/// Asks "may I go out?" with at most this many cards in hand.
const ASK_AT: u32 = 3;

impl ClassicGreedy {
    /// The value of a meld step now; `None` for steps it does not take
    /// (take-backs, resets, wilds spent on a meld far from a canasta).
    fn meld_value(view: &ClassicView<'_>, a: ClassicAction) -> Option<i32> {
        let side = view.rules().side_of(view.seat());
        let table = view.table(side);
        match a {
            ClassicAction::TakeRest => Some(10_000),
            // A wild canasta scores at once and cannot be started later.
            ClassicAction::Lay {
                key: MeldKey::Wilds,
                ..
            } => Some(900),
            ClassicAction::Lay { key, cards } => {
                // Naturals first; a wild only where the listing needs it to
                // open or the meld scores with it.
                let base = match key {
                    MeldKey::BlackThrees => 400,
                    _ => 500,
                };
                Some(base + 10 * cards.naturals as i32 - 60 * cards.wilds() as i32)
            }
            ClassicAction::Extend { rank, kind } => {
                let len = table.melds[rank.index()].len();
                if kind == rank {
                    Some(700 + len as i32)
                } else if len >= 5 {
                    // Towards (or onto) a canasta; 2s before jokers.
                    Some(300 + len as i32 - if kind == Kind::JOKER { 5 } else { 0 })
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// How little a card is worth keeping: higher is discarded first.
    fn discard_value(view: &ClassicView<'_>, k: Kind) -> i32 {
        let hand = view.hand();
        let side = view.rules().side_of(view.seat());
        let sides = view.rules().sides();
        if k.is_wild() {
            return -1000 - k.value();
        }
        if k == Kind::BLACK_THREE {
            // C-15: a black three on the pile stops the next player taking it.
            return 500;
        }
        let n = k.count_in(hand) as i32;
        let mut v = 100 - 40 * n - k.value();
        if !view.table(side).melds[k.index()].is_empty() {
            v -= 200;
        }
        // Feeding a side that has the rank melded gives it the pile.
        if (0..sides).any(|s| s != side && !view.table(s).melds[k.index()].is_empty()) {
            v -= 80;
        }
        v
    }
}

impl ClassicAgent for ClassicGreedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn act(
        &mut self,
        view: &ClassicView<'_>,
        legal: &[ClassicAction],
        _rng: &mut Pcg64Mcg,
    ) -> ClassicAction {
        let side = view.rules().side_of(view.seat());
        // Going out (C-10) or ending a turn that must end, whenever listed.
        if legal.contains(&ClassicAction::End) {
            return ClassicAction::End;
        }
        if legal.contains(&ClassicAction::Answer(true)) {
            return ClassicAction::Answer(true);
        }
        if legal.contains(&ClassicAction::Ask)
            && view.hand().len() <= ASK_AT
            && view.table(side).canastas() > 0
        {
            return ClassicAction::Ask;
        }
        if legal.contains(&ClassicAction::TakeTurned) {
            return ClassicAction::TakeTurned;
        }
        // The pile: with naturals always, with a wild when it is big.
        let pile = view.pile().len();
        let take = legal
            .iter()
            .filter_map(|&a| match a {
                ClassicAction::TakePile { with, .. }
                    if with.wilds() == 0 || pile >= PILE_WORTH_A_WILD =>
                {
                    Some((with.naturals as i32 * 10 - with.wilds() as i32 * 20, a))
                }
                _ => None,
            })
            .max_by_key(|&(v, _)| v);
        if let Some((_, a)) = take {
            return a;
        }
        if let Some(a) = legal
            .iter()
            .find(|a| matches!(a, ClassicAction::Draw | ClassicAction::EndHand))
        {
            return *a;
        }
        // Meld steps by value, then the least useful discard.
        let best = legal
            .iter()
            .filter_map(|&a| Self::meld_value(view, a).map(|v| (v, a)))
            .max_by_key(|&(v, _)| v);
        if let Some((_, a)) = best {
            return a;
        }
        let discard = legal
            .iter()
            .filter_map(|&a| match a {
                ClassicAction::Discard(k) => Some((Self::discard_value(view, k), a)),
                _ => None,
            })
            .max_by_key(|&(v, _)| v);
        if let Some((_, a)) = discard {
            return a;
        }
        // Only steps it would rather not take are listed (a phase held to
        // going out after "yes", C-18): the first keeps the turn legal.
        legal[0]
    }
}
