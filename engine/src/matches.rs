//! [`Match`]: hands to 10,000 with running totals and the tax (D-15, D-16).

use crate::score::HandScore;
use crate::state::{GameState, HandEnd, MAX_PLAYERS};
use crate::tax::tax;
use crate::Rules;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// What one finished hand of a match did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HandRecord {
    /// Hand number in the match, from 0.
    pub index: u32,
    /// The hand's seed.
    pub seed: u64,
    /// The starter.
    pub starter: u8,
    /// How it ended.
    pub end: HandEnd,
    /// Turns played (I-24).
    pub turns: u32,
    /// Score breakdowns, one per player.
    pub scores: Vec<HandScore>,
    /// Raw hand scores.
    pub raw: Vec<i32>,
    /// Taxed hand scores (D-15).
    pub taxed: Vec<i32>,
    /// Running totals after the hand.
    pub totals_after: Vec<i32>,
    /// Winner of the hand by raw score (I-19); `None` on a tie (I-31).
    pub winner: Option<u8>,
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The winner; `None` for a drawn (capped and tied) match.
    pub winner: Option<u8>,
    /// Hands played.
    pub hands: u32,
    /// Final totals.
    pub totals: Vec<i32>,
    /// Ended by the `max_hands` cap (I-31).
    pub capped: bool,
}

/// A match: hands until a running total passes the target (D-16.2).
///
/// ```
/// use kanaszta_engine::{Match, Rules};
/// let m = Match::new(Rules::default(), 1);
/// let hand = m.next_hand();
/// assert_eq!(hand.starter(), m.next_starter());
/// ```
#[derive(Clone, Debug)]
pub struct Match {
    rules: Rules,
    seed: u64,
    first_starter: u8,
    totals: [i32; MAX_PLAYERS],
    hands: u32,
    tax_paid: [i64; MAX_PLAYERS],
    result: Option<MatchResult>,
}

impl Match {
    /// A new match; the first starter is drawn from the seed (I-1).
    pub fn new(rules: Rules, seed: u64) -> Match {
        let mut rng = Pcg64Mcg::seed_from_u64(crate::seed::match_starter(seed));
        let first_starter = rng.random_range(0..rules.players.max(2));
        Match {
            rules,
            seed,
            first_starter,
            totals: [0; MAX_PLAYERS],
            hands: 0,
            tax_paid: [0; MAX_PLAYERS],
            result: None,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Running totals.
    pub fn totals(&self) -> &[i32] {
        &self.totals[..self.rules.players as usize]
    }

    /// Tax paid so far by each player (raw minus taxed, positive scores).
    pub fn tax_paid(&self) -> &[i64] {
        &self.tax_paid[..self.rules.players as usize]
    }

    /// Hands played.
    pub fn hands_played(&self) -> u32 {
        self.hands
    }

    /// The match's result, once over.
    pub fn result(&self) -> Option<&MatchResult> {
        self.result.as_ref()
    }

    /// Whether the match is over.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The starter of the next hand: rotating to the left every hand (I-1).
    pub fn next_starter(&self) -> usize {
        (self.first_starter as usize + self.hands as usize) % self.rules.players as usize
    }

    /// The seed of hand `index`.
    pub fn hand_seed(&self, index: u32) -> u64 {
        crate::seed::match_hand(self.seed, index)
    }

    /// The next hand, dealt.
    pub fn next_hand(&self) -> GameState {
        GameState::new_hand(
            self.rules,
            self.hand_seed(self.hands),
            self.next_starter() as u8,
            self.totals(),
        )
    }

    /// Records a finished hand: taxes each score by the player's total before
    /// the hand (D-15), adds it, and checks for the end of the match (D-16,
    /// I-20, I-31). Panics if the hand is not over.
    pub fn record(&mut self, hand: &GameState) -> HandRecord {
        assert!(hand.is_terminal(), "record a finished hand");
        let n = self.rules.players as usize;
        let scores = hand.scores();
        let raw: Vec<i32> = scores.iter().map(|s| s.total).collect();
        let mut taxed = Vec::with_capacity(n);
        for (p, &r) in raw.iter().enumerate() {
            let t = tax(r, self.totals[p], &self.rules);
            if r > t {
                self.tax_paid[p] += (r - t) as i64;
            }
            taxed.push(t);
            self.totals[p] += t;
        }
        let winner = top_unique(&raw);
        let rec = HandRecord {
            index: self.hands,
            seed: self.hand_seed(self.hands),
            starter: hand.starter() as u8,
            end: hand.end().unwrap_or(HandEnd::Stalled),
            turns: hand.turns(),
            scores,
            raw,
            taxed,
            totals_after: self.totals().to_vec(),
            winner,
        };
        self.hands += 1;
        let totals = self.totals().to_vec();
        let over_target = totals.iter().any(|t| *t > self.rules.target);
        if over_target {
            if let Some(w) = top_unique(&totals) {
                self.result = Some(MatchResult {
                    winner: Some(w),
                    hands: self.hands,
                    totals: totals.clone(),
                    capped: false,
                });
            }
        }
        if self.result.is_none() && self.hands >= self.rules.max_hands {
            self.result = Some(MatchResult {
                winner: top_unique(&totals),
                hands: self.hands,
                totals,
                capped: true,
            });
        }
        rec
    }
}

/// The index of the unique maximum; `None` if the top two tie.
pub fn top_unique(v: &[i32]) -> Option<u8> {
    let max = *v.iter().max()?;
    let mut it = v.iter().enumerate().filter(|(_, x)| **x == max);
    let first = it.next()?.0;
    if it.next().is_some() {
        None
    } else {
        Some(first as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// D-16.1, I-19, I-31: the hand winner by raw score; ties have none.
    #[test]
    fn d16_1_hand_winner_and_ties() {
        assert_eq!(top_unique(&[100, 50]), Some(0));
        assert_eq!(top_unique(&[100, 300, 300]), None);
        assert_eq!(top_unique(&[-5, -10]), Some(0));
    }
}
