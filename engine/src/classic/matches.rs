//! A match (C-12, C-24): hands until a side reaches the target, the deal
//! passing to the left (C-22), capped by `max_hands` (I-31).

use super::rules::ClassicRules;
use super::state::*;
use crate::seed::{match_hand, match_starter};

/// How a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassicMatchResult {
    /// Still to play.
    Playing,
    /// C-24: this side won.
    Won(u8),
    /// I-31: capped with a tie for the highest total.
    Drawn,
}

/// A match of classic canasta: the sides' totals and the next dealer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassicMatch {
    rules: ClassicRules,
    seed: u64,
    totals: [i32; CLASSIC_MAX_PLAYERS],
    dealer: usize,
    hands: u32,
    result: ClassicMatchResult,
}

impl ClassicMatch {
    /// A new match; the first dealer is drawn from the seed (C-22).
    pub fn new(rules: ClassicRules, seed: u64) -> ClassicMatch {
        ClassicMatch {
            rules,
            seed,
            totals: [0; CLASSIC_MAX_PLAYERS],
            dealer: (match_starter(seed) % rules.players as u64) as usize,
            hands: 0,
            result: ClassicMatchResult::Playing,
        }
    }

    /// The next hand to play.
    pub fn next_hand(&self) -> ClassicState {
        ClassicState::new(
            self.rules,
            match_hand(self.seed, self.hands),
            self.dealer,
            self.totals,
        )
    }

    /// Records a finished hand: its scores join the totals, the deal
    /// passes on, and the result is decided (C-24, I-31).
    pub fn record(&mut self, hand: &ClassicState) -> ClassicMatchResult {
        debug_assert!(hand.is_terminal());
        let s = hand.scores();
        let sides = self.rules.sides();
        for (t, x) in self.totals.iter_mut().zip(s).take(sides) {
            *t += x;
        }
        self.hands += 1;
        self.dealer = (self.dealer + 1) % self.rules.players as usize;
        let totals = &self.totals[..sides];
        let best = *totals.iter().max().expect("sides");
        let leaders = totals.iter().filter(|&&t| t == best).count();
        self.result = if best >= self.rules.target && leaders == 1 {
            ClassicMatchResult::Won(totals.iter().position(|&t| t == best).unwrap_or(0) as u8)
        } else if self.hands >= self.rules.max_hands {
            if leaders == 1 {
                ClassicMatchResult::Won(totals.iter().position(|&t| t == best).unwrap_or(0) as u8)
            } else {
                ClassicMatchResult::Drawn
            }
        } else {
            ClassicMatchResult::Playing
        };
        self.result
    }

    /// The sides' totals.
    pub fn totals(&self) -> &[i32] {
        &self.totals[..self.rules.sides()]
    }

    /// Hands played.
    pub fn hands_played(&self) -> u32 {
        self.hands
    }

    /// The result so far.
    pub fn result(&self) -> ClassicMatchResult {
        self.result
    }

    /// The next dealer.
    pub fn dealer(&self) -> usize {
        self.dealer
    }
}
