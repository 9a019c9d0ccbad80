//! The statistics of an evaluation, counted by the command line's own
//! accumulators (`kanaszta::stats`): win rates with Wilson intervals,
//! means with normal intervals, and the paired difference averaged per
//! deal.

use kanaszta_sim::stats::{Mean, PairedDiff};

/// Win rate and points of paired deals, as `kanaszta play` counts them.
#[derive(Default)]
pub struct Tally {
    pub hands: u64,
    pub wins: u64,
    pub ties: u64,
    pub errors: u64,
    pub raw: Mean,
    pub diff: PairedDiff,
}

impl Tally {
    /// A finished game of `deal`: the policy's and the opponent's side
    /// scores.
    pub fn add(&mut self, deal: u64, mine: i32, theirs: i32) {
        self.hands += 1;
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => self.wins += 1,
            std::cmp::Ordering::Equal => self.ties += 1,
            std::cmp::Ordering::Less => {}
        }
        self.raw.add(mine as f64);
        self.diff.add(deal, (mine - theirs) as f64);
    }

    /// Closes the last deal.
    pub fn finish(&mut self) {
        self.diff.finish();
    }
}
