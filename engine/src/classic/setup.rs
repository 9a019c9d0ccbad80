//! [`ClassicSetup`]: a position laid out by hand (for tests, examples and
//! tools), checked into a [`ClassicState`] only through a `Result`.

use super::rules::{ClassicRules, ClassicRulesError};
use super::state::*;
use crate::card::Card;
use crate::card_set::CardSet;
use crate::error::InvariantError;
use std::fmt;

/// Why a [`ClassicSetup`] is no position ([`ClassicSetup::into_state`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassicSetupError {
    /// The rules refused.
    Rules(ClassicRulesError),
    /// Not a hand per player, a table per side and a current player.
    Shape,
    /// The hands and tables hold more copies of a card than the pack.
    TooManyCopies,
    /// A card of the pile or stock given more often than the pack holds.
    TooMany(Card),
    /// Cards that are not in this pack.
    NotInPack,
    /// The state built breaks an invariant (what was broken).
    Invariant(InvariantError),
}

impl fmt::Display for ClassicSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClassicSetupError::Rules(e) => write!(f, "{e}"),
            ClassicSetupError::Shape => f.write_str(
                "a setup needs a hand per player, a table per side and a current player",
            ),
            ClassicSetupError::TooManyCopies => {
                f.write_str("more copies of a card than the pack holds")
            }
            ClassicSetupError::TooMany(c) => {
                write!(f, "card {c} appears more often than the pack holds")
            }
            ClassicSetupError::NotInPack => {
                f.write_str("cards that are not in this pack (six jokers need jokers=6)")
            }
            ClassicSetupError::Invariant(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for ClassicSetupError {}

/// An unchecked position at the start of a player's turn: hands, the
/// sides' tables, the pile (bottom first) and the stock (top last); the
/// rest of the pack, if any, goes under the stock in card order.
#[derive(Clone, Debug, Default)]
pub struct ClassicSetup {
    /// The rules.
    pub rules: ClassicRules,
    /// Each player's hand.
    pub hands: Vec<CardSet>,
    /// Each side's table.
    pub tables: Vec<SideTable>,
    /// The pile, bottom first.
    pub pile: Vec<Card>,
    /// The top of the stock, top last (the rest of the pack lies under it).
    pub stock_top: Vec<Card>,
    /// The player whose turn begins.
    pub current: usize,
    /// The dealer.
    pub dealer: usize,
    /// Turns already played.
    pub turns: u32,
    /// The sides' running totals (C-6).
    pub totals: [i32; 6],
}

impl ClassicSetup {
    /// A setup for `rules` with empty hands and tables.
    pub fn new(rules: ClassicRules) -> ClassicSetup {
        ClassicSetup {
            rules,
            hands: vec![CardSet::EMPTY; rules.players as usize],
            tables: vec![SideTable::default(); rules.sides()],
            ..ClassicSetup::default()
        }
    }

    /// The state, with the current player's turn begun (his red threes
    /// laid and replaced); an error if the cards are not those of the pack.
    pub fn into_state(self) -> Result<ClassicState, ClassicSetupError> {
        let r = self.rules;
        r.validate().map_err(ClassicSetupError::Rules)?;
        let n = r.players as usize;
        if self.hands.len() != n || self.tables.len() != r.sides() || self.current >= n {
            return Err(ClassicSetupError::Shape);
        }
        let mut g = ClassicState::new(r, 0, self.dealer, self.totals);
        let mut used = CardSet::EMPTY;
        for h in &self.hands {
            used = used
                .checked_add(*h)
                .ok_or(ClassicSetupError::TooManyCopies)?;
        }
        for t in &self.tables {
            used = used
                .checked_add(t.all())
                .ok_or(ClassicSetupError::TooManyCopies)?;
        }
        for c in self.pile.iter().chain(self.stock_top.iter()) {
            if !used.insert(*c) {
                return Err(ClassicSetupError::TooMany(*c));
            }
        }
        let rest = classic_pack(r.jokers)
            .checked_sub(used)
            .ok_or(ClassicSetupError::NotInPack)?;
        g.hands = [CardSet::EMPTY; 6];
        g.hands[..n].copy_from_slice(&self.hands);
        g.known = [CardSet::EMPTY; 6];
        g.tables = [SideTable::default(); 6];
        g.tables[..r.sides()].copy_from_slice(&self.tables);
        g.pile_len = 0;
        g.frozen = false;
        for c in &self.pile {
            g.push_pile_top(*c);
        }
        g.stock_len = 0;
        for c in rest.iter().chain(self.stock_top.iter().copied()) {
            g.stock[g.stock_len as usize] = c;
            g.stock_len += 1;
        }
        g.turns = self.turns;
        g.turned_open = r.turned_covered && self.turns == 0;
        g.melded_before = [false; 6];
        for p in 0..n {
            g.melded_before[p] = g.tables[r.side_of(p)].has_melds();
        }
        g.begin_turn(self.current);
        g.check_invariants().map_err(ClassicSetupError::Invariant)?;
        Ok(g)
    }
}
