//! [`ClassicGreedy`]: a one-step player of classic canasta. It melds what
//! scores now (naturals before wilds, wilds only towards a canasta or an
//! opening), takes the pile whenever it may with natural cards (and with a
//! wild when the pile is big), goes out whenever the listing lets it, and
//! discards its least useful card. In a partnership (C-18) it asks "may I
//! go out?" only when its whole hand could be laid now (the engine's
//! completion test, C-10's canastas included), so that after "yes" it
//! goes out whatever it draws; and it answers "no" when its own hand holds
//! cards it could lay on its next turn (004's condition for "no"), "yes"
//! otherwise.
//!
//! Every choice is among the listed actions; the engine's listing already
//! holds each meld phase to a legal end (I-9), so laying greedily never
//! strands the turn.

use super::ClassicMoves;
use crate::Agent;
use kanaszta_engine::classic::{
    kind_counts, ClassicAction, ClassicPhase, ClassicState, ClassicView, Kind, MeldKey, SideTable,
};
use rand_pcg::Pcg64Mcg;

/// The greedy classic player (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct ClassicGreedy;

/// A pile is worth a wild from the hand from this many cards on.
const PILE_WORTH_A_WILD: usize = 5;

impl ClassicGreedy {
    /// The value of a meld step now; `None` for steps it does not take
    /// (take-backs, resets, wilds spent on a meld far from a canasta).
    fn meld_value(table: &SideTable, a: ClassicAction) -> Option<i32> {
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
    fn discard_value(d: &DiscardFacts, k: Kind) -> i32 {
        if k.is_wild() {
            return -1000 - k.value();
        }
        if k == Kind::BLACK_THREE {
            // C-15: a black three on the pile stops the next player taking it.
            return 500;
        }
        let n = d.counts[k.index()] as i32;
        let mut v = 100 - 40 * n - k.value();
        let bit = 1u16 << k.index();
        if d.own & bit != 0 {
            v -= 200;
        }
        // Feeding a side that has the rank melded gives it the pile.
        if d.others & bit != 0 {
            v -= 80;
        }
        v
    }
}

/// What the discard values read, gathered once a decision: the hand's
/// kind counts and the ranks melded by its side and by the others.
struct DiscardFacts {
    counts: [u8; 14],
    own: u16,
    others: u16,
}

impl DiscardFacts {
    fn of(view: &ClassicView<'_>) -> DiscardFacts {
        let side = view.rules().side_of(view.seat());
        let melded = |s: usize| {
            let t = view.table(s);
            (0..11).fold(0u16, |m, k| m | ((!t.melds[k].is_empty() as u16) << k))
        };
        let others = (0..view.rules().sides())
            .filter(|&s| s != side)
            .fold(0, |m, s| m | melded(s));
        DiscardFacts {
            counts: kind_counts(view.hand()),
            own: melded(side),
            others,
        }
    }
}

impl Agent<ClassicState> for ClassicGreedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn act(
        &mut self,
        view: &ClassicView<'_>,
        moves: &mut ClassicMoves<'_>,
        _rng: &mut Pcg64Mcg,
    ) -> ClassicAction {
        // Every choice below is the best listed action by some value; the
        // candidates are checked best first, so those it would not choose
        // are never judged.
        let moves = &*moves;
        let cands = moves.candidates();
        let listed = |a: ClassicAction| cands.contains(&a) && moves.is_listed(a);
        // A listing holds only its phase's actions: each phase asks about
        // its own.
        let phase = view.phase();
        let meld = phase == ClassicPhase::Meld;
        // Going out (C-10) or ending a turn that must end, whenever listed.
        if meld && listed(ClassicAction::End) {
            return ClassicAction::End;
        }
        // C-18: "no" while its own cards could still be laid, else "yes".
        if phase == ClassicPhase::Answer && listed(ClassicAction::Answer(true)) {
            return if listed(ClassicAction::Answer(false)) && view.could_lay() {
                ClassicAction::Answer(false)
            } else {
                ClassicAction::Answer(true)
            };
        }
        if phase == ClassicPhase::Draw {
            // C-18: it asks only when its whole hand lays out now, and
            // after "yes" it draws: the drawn card is its discard.
            if view.stock_len() > 0 && listed(ClassicAction::Ask) && view.lays_out() {
                return ClassicAction::Ask;
            }
            if view.answer() == Some(true) && listed(ClassicAction::Draw) {
                return ClassicAction::Draw;
            }
            if listed(ClassicAction::TakeTurned) {
                return ClassicAction::TakeTurned;
            }
            // The pile: with naturals always, with a wild when it is big.
            let pile = view.pile().len();
            let take = best_listed(moves, |a| match a {
                ClassicAction::TakePile { with, .. }
                    if with.wilds() == 0 || pile >= PILE_WORTH_A_WILD =>
                {
                    Some(with.naturals as i32 * 10 - with.wilds() as i32 * 20)
                }
                _ => None,
            });
            if let Some(a) = take {
                return a;
            }
            if let Some(&a) = cands.iter().find(|&&a| {
                matches!(a, ClassicAction::Draw | ClassicAction::EndHand) && moves.is_listed(a)
            }) {
                return a;
            }
        }
        // Meld steps by value, then the least useful discard.
        if meld {
            let table = view.table(view.rules().side_of(view.seat()));
            if let Some(a) = best_listed(moves, |a| Self::meld_value(table, a)) {
                return a;
            }
            let facts = DiscardFacts::of(view);
            let discard = best_listed(moves, |a| match a {
                ClassicAction::Discard(k) => Some(Self::discard_value(&facts, k)),
                _ => None,
            });
            if let Some(a) = discard {
                return a;
            }
        }
        // Only steps it would rather not take are listed (a phase held to
        // going out after "yes", C-18): the first keeps the turn legal.
        moves.all()[0]
    }
}

/// The listed action of the highest value, the later candidate of equal
/// values (as `max_by_key` over the listing chooses); `None` if no listed
/// action has a value. Candidates are checked best first, so only those
/// down to the first listed one are judged.
fn best_listed(
    moves: &ClassicMoves<'_>,
    value: impl Fn(ClassicAction) -> Option<i32>,
) -> Option<ClassicAction> {
    let cands = moves.candidates();
    // Each round takes the best (value, position) below the last refused.
    let mut below: Option<(i32, usize)> = None;
    loop {
        let mut best: Option<(i32, usize)> = None;
        for (i, &a) in cands.iter().enumerate() {
            if let Some(v) = value(a) {
                let key = (v, i);
                if below.is_none_or(|b| key < b) && best.is_none_or(|b| key > b) {
                    best = Some(key);
                }
            }
        }
        let key = best?;
        if moves.is_listed(cands[key.1]) {
            return Some(cands[key.1]);
        }
        below = Some(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::classic::testing::{position, table};
    use kanaszta_engine::classic::{ClassicEnd, ClassicRules, ClassicState, SideTable};
    use rand::SeedableRng;

    fn rules(preset: &str) -> ClassicRules {
        let mut r = ClassicRules::preset(preset).unwrap();
        r.players = 4;
        r
    }

    /// Greedy's choice for the player to act.
    fn choice(g: &ClassicState) -> ClassicAction {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        let p = g.current_player();
        let a = ClassicGreedy.act(
            &g.view(p),
            &mut ClassicMoves::new(&legal),
            &mut Pcg64Mcg::seed_from_u64(1),
        );
        assert!(legal.contains(&a));
        a
    }

    const KINGS: &str = "KS KS KH KH KD KD KC";

    /// C-18: it asks only when its whole hand lays out now (C-10's
    /// canasta on the table), not with a short hand that does not.
    #[test]
    fn c18_greedy_asks_only_when_its_hand_lays_out() {
        let tables = [table(&[KINGS], ""), SideTable::default()];
        let others = ["4C 4D 5S", "6S 6C 9H", "5D 5H 8D"];
        let with = |h: &'static str, t: &[SideTable]| {
            let hands = [h, others[0], others[1], others[2]];
            position(rules("classic-002"), &hands, t, "6D", "9D")
        };
        let g = with("9C 9S 9H", &tables);
        assert!(g.view(0).lays_out());
        assert_eq!(choice(&g), ClassicAction::Ask);
        // Two cards that do not meld: it may not go out after any draw.
        let g = with("9C 9S 4H", &tables);
        assert!(!g.view(0).lays_out());
        assert_eq!(choice(&g), ClassicAction::Draw);
        // Nine 9s lay out only with a canasta on the table (C-10).
        let g = with("9C 9S 9H", &[SideTable::default(), SideTable::default()]);
        assert!(!g.view(0).lays_out());
        assert_ne!(choice(&g), ClassicAction::Ask);
        // A hand that completes the canasta itself lays out.
        let nearly = table(&["KS KS KH KH KD KD"], "");
        let g = with("KC 9C 9S 9H", &[nearly, SideTable::default()]);
        assert!(g.view(0).lays_out());
        assert_eq!(choice(&g), ClassicAction::Ask);
    }

    /// C-18: asked by its partner, it answers "no" while its own hand
    /// holds cards it could lay (004's condition for "no"), else "yes";
    /// after "yes" it draws and goes out, never charged the 100.
    #[test]
    fn c18_greedy_answers_by_its_hand_and_goes_out_after_yes() {
        let tables = [table(&[KINGS], ""), SideTable::default()];
        for preset in ["classic-002", "classic-004"] {
            let hands = ["9C 9S 9H", "4C 4D 5S", "6S 6C 6H", "5D 5H 8D"];
            let mut g = position(rules(preset), &hands, &tables, "6D", "4H");
            g.apply(ClassicAction::Ask).unwrap();
            assert!(g.view(2).could_lay());
            assert_eq!(choice(&g), ClassicAction::Answer(false), "{preset}");

            let hands = ["9C 9S 9H", "4C 4D 5S", "6S 6C 9D", "5D 5H 8D"];
            let mut g = position(rules(preset), &hands, &tables, "6D", "4H");
            g.apply(ClassicAction::Ask).unwrap();
            assert!(!g.view(2).could_lay());
            assert_eq!(choice(&g), ClassicAction::Answer(true), "{preset}");
            g.apply(ClassicAction::Answer(true)).unwrap();
            // The pile's 6D pairs with nothing; it draws the 4H.
            assert_eq!(choice(&g), ClassicAction::Draw);
            let mut steps = 0;
            while g.current_player() == 0 && !g.is_terminal() {
                g.apply(choice(&g)).unwrap();
                steps += 1;
                assert!(steps < 50, "{preset}: the turn never ends");
            }
            assert!(
                matches!(g.end(), Some(ClassicEnd::WentOut { player: 0, .. })),
                "{preset}: {:?}",
                g.end()
            );
            assert_eq!(g.failed_yes(0), 0);
        }
    }
}
