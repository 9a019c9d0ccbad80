//! Positions written as card lists, for the tests of the engine and of
//! the agents (not a stable interface: the helpers panic on bad input).

use super::action::Kind;
use super::rules::ClassicRules;
use super::setup::ClassicSetup;
use super::state::{ClassicState, SideTable};
use crate::card::Card;
use crate::card_set::CardSet;

/// The cards of `s`, e.g. `"8D 8S 2C"`.
pub fn cards(s: &str) -> CardSet {
    CardSet::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The cards of `s` in their order.
pub fn ordered(s: &str) -> Vec<Card> {
    s.split_whitespace()
        .map(|c| c.parse().unwrap_or_else(|e| panic!("{c}: {e}")))
        .collect()
}

/// A side's table from melds written as card lists (a meld of wild cards
/// only is a wild canasta: the first, then the second) and its red threes.
pub fn table(melds: &[&str], red: &str) -> SideTable {
    let mut t = SideTable::default();
    for m in melds {
        let set = cards(m);
        let nat = set.iter().find(|c| !c.is_wild());
        match nat.and_then(Kind::of) {
            Some(k) if k == Kind::BLACK_THREE => t.black_threes = set,
            Some(k) => t.melds[k.index()] = set,
            None => {
                if t.wild_canastas[0].is_empty() {
                    t.wild_canastas[0] = set
                } else {
                    t.wild_canastas[1] = set
                }
            }
        }
    }
    t.red_threes = cards(red);
    t
}

/// Player 0 to move at turn 10; `hands[0]` is his; `pile` bottom first;
/// `stock` the next cards drawn, the first drawn last.
pub fn position(
    r: ClassicRules,
    hands: &[&str],
    tables: &[SideTable],
    pile: &str,
    stock: &str,
) -> ClassicState {
    let mut s = setup(r, hands, tables, pile, stock);
    s.turns = 10;
    s.into_state().unwrap_or_else(|e| panic!("position: {e}"))
}

/// The setup of [`position`] before its turn is set, for a test that
/// also sets the turn or the running totals.
pub fn setup(
    r: ClassicRules,
    hands: &[&str],
    tables: &[SideTable],
    pile: &str,
    stock: &str,
) -> ClassicSetup {
    let mut s = ClassicSetup::new(r);
    for (i, h) in hands.iter().enumerate() {
        s.hands[i] = cards(h);
    }
    for (i, t) in tables.iter().enumerate() {
        s.tables[i] = *t;
    }
    s.pile = ordered(pile);
    s.stock_top = ordered(stock);
    s
}
