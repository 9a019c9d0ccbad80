//! How each seat began its turns: draws from the stock, 004's turned card
//! (C-22), turns blocked by a black three (C-15), and each way of taking
//! the pile the classic rules allow (C-7, C-13 … C-16), with the pile's
//! size; and the discards that hand the next opponent a canasta. The engine does not name a pickup's kind: it is read off the
//! mover's view just before the action is applied (the top card, the
//! cards laid with it, whether the pile is frozen or closed to his side),
//! by an observer of the turn loop ([`PileObserver`]) that changes none
//! of the players' choices.

use kanaszta_agents::Observer;
use kanaszta_engine::classic::{
    ClassicAction, ClassicState, ClassicView, ClosedPile, Kind, MeldKey, CLASSIC_MAX_PLAYERS,
};

/// The ways of taking the pile, in column order; every pickup is exactly
/// one of them.
pub const PICKUP_KINDS: [&str; 7] = [
    "pile_pair_open",
    "pile_pair_frozen",
    "pile_pair_unmelded",
    "pile_natural_wild",
    "pile_onto_meld",
    "pile_wild_top",
    "pile_black_three",
];

/// A natural pair of the top card's rank, the pile open to the taker (C-7).
pub const PAIR_OPEN: usize = 0;
/// A natural pair, the pile frozen by a wild or red three in it (C-7,
/// C-14): the pair opens it.
pub const PAIR_FROZEN: usize = 1;
/// A natural pair, the pile not frozen but closed because the taker's
/// side has not melded (C-7 under 002 and 003).
pub const PAIR_UNMELDED: usize = 2;
/// One natural of the top card's rank and a wild from the hand, the pile
/// open (C-7, C-14).
pub const NATURAL_WILD: usize = 3;
/// The top card alone onto the side's meld of its rank (C-7, 002 and 003).
pub const ONTO_MELD: usize = 4;
/// A wild on top, taken with a natural pair (C-13 `pair`).
pub const WILD_TOP: usize = 5;
/// A black three on top, taken into a black-three meld by a player going
/// out (C-15 `go_out`, C-16).
pub const BLACK_THREE: usize = 6;

/// One seat's turn beginnings in one hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PileCounts {
    /// Cards drawn from the stock (a draw that turns up red threes is one).
    pub draws: u32,
    /// 004's turned card taken alone (C-22).
    pub turned: u32,
    /// Turns begun with a black three on the pile's top, the pile not
    /// taken (C-15).
    pub black_three_blocked: u32,
    /// Pickups by kind, in [`PICKUP_KINDS`] order.
    pub kinds: [u32; 7],
    /// The pile's cards when taken, summed over the pickups (the top card
    /// included).
    pub pile_cards: u32,
    /// Discards of a natural the next player's side (an opponent's) holds
    /// six cards of, the pile not frozen, by a player not going out with
    /// it: under 002 and 003 the top card alone onto that meld completes a
    /// canasta (C-5, C-7).
    pub canasta_feeds: u32,
}

impl PileCounts {
    /// Pickups of any kind.
    pub fn pickups(&self) -> u32 {
        self.kinds.iter().sum()
    }

    /// Counts the turn-beginning `a` of the mover of `view`, seen before
    /// it is applied; other actions count nothing.
    pub fn record(&mut self, view: &ClassicView<'_>, a: ClassicAction) {
        let top = view.pile().last().copied();
        let black_three_on_top = top.and_then(Kind::of) == Some(Kind::BLACK_THREE);
        match a {
            ClassicAction::Draw | ClassicAction::EndHand => {
                if a == ClassicAction::Draw {
                    self.draws += 1;
                }
                if black_three_on_top {
                    self.black_three_blocked += 1;
                }
            }
            ClassicAction::TakeTurned => self.turned += 1,
            ClassicAction::Discard(k) if k.rank().is_some() => {
                let r = view.rules();
                let next_side = r.side_of((view.seat() + 1) % r.players as usize);
                // A discard that goes out (his last card) hands nothing over.
                if next_side != r.side_of(view.seat())
                    && view.hand().len() > 1
                    && !view.pile_frozen()
                    && view.table(next_side).melds[k.index()].len() == 6
                {
                    self.canasta_feeds += 1;
                }
            }
            ClassicAction::TakePile { key, with } => {
                if let Some(k) = pickup_kind(view, key, with) {
                    self.kinds[k] += 1;
                    self.pile_cards += view.pile().len() as u32;
                }
            }
            _ => {}
        }
    }
}

/// The kind of a pickup (an index into [`PICKUP_KINDS`]) by the mover of
/// `view` before it is applied; `None` when the pile is empty (an illegal
/// action, which ends the game anyway).
pub fn pickup_kind(
    view: &ClassicView<'_>,
    key: MeldKey,
    with: kanaszta_engine::classic::Counts,
) -> Option<usize> {
    let top = *view.pile().last()?;
    if top.is_wild() {
        return Some(WILD_TOP);
    }
    if key == MeldKey::BlackThrees {
        return Some(BLACK_THREE);
    }
    if with.is_empty() {
        return Some(ONTO_MELD);
    }
    if with.wilds() > 0 {
        return Some(NATURAL_WILD);
    }
    let side = view.rules().side_of(view.seat());
    Some(if view.pile_frozen() {
        PAIR_FROZEN
    } else if view.rules().closed_pile == ClosedPile::UnmeldedWildRed
        && !view.table(side).has_melds()
    {
        PAIR_UNMELDED
    } else {
        PAIR_OPEN
    })
}

/// Every seat's counts of the hand in play, gathered by the turn loop
/// ([`Observer`]): each action is counted for its mover, on his view just
/// before it is applied.
#[derive(Clone, Debug, Default)]
pub struct PileObserver {
    counts: [PileCounts; CLASSIC_MAX_PLAYERS],
}

impl PileObserver {
    /// The counts of the hand, reset for the next one.
    pub fn take(&mut self) -> [PileCounts; CLASSIC_MAX_PLAYERS] {
        std::mem::take(&mut self.counts)
    }
}

impl Observer<ClassicState> for PileObserver {
    #[inline]
    fn before(&mut self, state: &ClassicState, p: usize, action: ClassicAction) {
        self.counts[p].record(&state.view(p), action);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::classic::{ClassicRules, ClassicSetup, ClassicState, SideTable};
    use kanaszta_engine::{Card, CardSet};

    fn rules(preset: &str, players: u8) -> ClassicRules {
        let mut r = ClassicRules::preset(preset).unwrap();
        r.players = players;
        r
    }

    /// Player 0 to move with `hand`, side 0's melds `melds`, the pile
    /// `pile` (bottom first).
    fn position(r: ClassicRules, hand: &str, melds: &[&str], pile: &str) -> ClassicState {
        let mut s = ClassicSetup::new(r);
        s.hands[0] = CardSet::parse(hand).unwrap();
        s.hands[1] = CardSet::parse("4C 4D 5S").unwrap();
        let mut t = SideTable::default();
        for m in melds {
            let set = CardSet::parse(m).unwrap();
            let k = set.iter().find_map(Kind::of).unwrap();
            t.melds[k.index()] = set;
        }
        s.tables[0] = t;
        s.pile = pile
            .split_whitespace()
            .map(|c| c.parse::<Card>().unwrap())
            .collect();
        s.turns = 10;
        s.into_state().unwrap()
    }

    /// Applies `action` (which must be legal) to `g` and returns what the
    /// mover's counts recorded.
    fn count(g: &ClassicState, action: &str) -> PileCounts {
        let a: ClassicAction = action.parse().unwrap();
        let mut c = PileCounts::default();
        c.record(&g.view(g.current_player()), a);
        let mut after = g.clone();
        after
            .apply(a)
            .unwrap_or_else(|e| panic!("{action} is legal here: {e}"));
        c
    }

    fn only(c: &PileCounts, kind: usize, pile: u32) {
        let mut want = [0; 7];
        want[kind] = 1;
        assert_eq!(c.kinds, want, "counted as {:?}", c.kinds);
        assert_eq!(c.pickups(), 1);
        assert_eq!(c.pile_cards, pile);
    }

    #[test]
    fn c7_a_natural_pair_on_an_open_pile() {
        let g = position(
            rules("classic-002", 2),
            "8C 8D 9S 9H",
            &["AS AH AD"],
            "5C 6D 8S",
        );
        only(&count(&g, "take 8 2 0 0"), PAIR_OPEN, 3);
    }

    #[test]
    fn c14_a_natural_pair_opens_a_frozen_pile() {
        // A joker in the pile freezes it for everybody (C-7).
        let g = position(
            rules("classic-002", 2),
            "8C 8D 9S 9H",
            &["AS AH AD"],
            "5C JK 6D 7H 8S",
        );
        assert!(g.pile_frozen());
        only(&count(&g, "take 8 2 0 0"), PAIR_FROZEN, 5);
    }

    #[test]
    fn c7_a_side_that_has_not_melded_takes_only_with_a_pair() {
        // The aces in hand make the opening minimum (C-17) reachable.
        let g = position(
            rules("classic-002", 2),
            "8C 8D AS AH AD 9S 9H",
            &[],
            "5C 8S",
        );
        assert!(!g.pile_frozen());
        only(&count(&g, "take 8 2 0 0"), PAIR_UNMELDED, 2);
    }

    #[test]
    fn c7_a_natural_and_a_wild_and_the_top_onto_a_meld() {
        let g = position(
            rules("classic-002", 2),
            "8C 2D 9S 9H",
            &["AS AH AD"],
            "5C 6D 8S",
        );
        only(&count(&g, "take 8 1 1 0"), NATURAL_WILD, 3);
        let g = position(
            rules("classic-002", 2),
            "9S 9H 5D",
            &["AS AH AD", "8C 8D 8H"],
            "5C 6D 7C 8S",
        );
        only(&count(&g, "take 8 0 0 0"), ONTO_MELD, 4);
    }

    #[test]
    fn c13_a_wild_on_top_taken_with_a_natural_pair() {
        let g = position(
            rules("classic-002", 2),
            "8C 8D 9S 9H",
            &["AS AH AD"],
            "5C 6D 2S",
        );
        only(&count(&g, "take 8 2 0 0"), WILD_TOP, 3);
    }

    #[test]
    fn c15_c16_a_black_three_on_top_taken_going_out_under_003() {
        let g = position(
            rules("classic-003", 2),
            "3C 3C",
            &["KS KS KH KH KD KD KC"],
            "5C 3S",
        );
        only(&count(&g, "take 3 2 0 0"), BLACK_THREE, 2);
    }

    #[test]
    fn c15_a_black_three_on_top_blocks_the_draw_is_counted() {
        let g = position(
            rules("classic-002", 2),
            "8C 8D 9S 9H",
            &["AS AH AD"],
            "5C 6D 3S",
        );
        let c = count(&g, "draw");
        assert_eq!((c.draws, c.black_three_blocked, c.pickups()), (1, 1, 0));
    }

    /// C-5, C-7: a natural discarded onto the next opponent's six-card
    /// meld of its rank, the pile open, is a canasta handed over; onto a
    /// meld of five, or of the mover's own side, or of a frozen pile, or
    /// as the last card of a player going out, not.
    #[test]
    fn c5_a_discard_completing_the_next_opponents_canasta_is_counted() {
        let r = rules("classic-002", 2);
        let with_hand = |hand: &str, theirs: &str, pile: &str| {
            let mut s = ClassicSetup::new(r);
            s.hands[0] = CardSet::parse(hand).unwrap();
            s.hands[1] = CardSet::parse("4C 4D 5S").unwrap();
            let mut t = SideTable::default();
            let set = CardSet::parse(theirs).unwrap();
            let k = set.iter().find_map(Kind::of).unwrap();
            t.melds[k.index()] = set;
            s.tables[1] = t;
            s.tables[0].melds[Kind::of("KS".parse().unwrap()).unwrap().index()] =
                CardSet::parse("KS KH KD").unwrap();
            s.pile = pile
                .split_whitespace()
                .map(|c| c.parse::<Card>().unwrap())
                .collect();
            s.turns = 10;
            s.into_state().unwrap()
        };
        let with = |theirs: &str, pile: &str| with_hand("9C 4H 5D", theirs, pile);
        let feeds = |g: &ClassicState, a: &str| {
            let mut c = PileCounts::default();
            c.record(&g.view(0), a.parse().unwrap());
            c.canasta_feeds
        };
        let g = with("9S 9S 9H 9H 9D 9D", "5C 6D");
        assert_eq!(feeds(&g, "discard 9"), 1);
        assert_eq!(feeds(&g, "discard 4"), 0);
        let g = with("9S 9S 9H 9H 9D", "5C 6D");
        assert_eq!(feeds(&g, "discard 9"), 0);
        let g = with("9S 9S 9H 9H 9D 9D", "5C JK 6D");
        assert!(g.pile_frozen());
        assert_eq!(feeds(&g, "discard 9"), 0);
        let g = with_hand("9C", "9S 9S 9H 9H 9D 9D", "5C 6D");
        assert_eq!(feeds(&g, "discard 9"), 0, "going out");
    }
}
