//! The statistics of an evaluation, as the command line counts them
//! (sim/src/stats.rs): win rates with Wilson intervals, means with
//! normal intervals, and the paired difference averaged per deal.

/// Win rate and points of paired deals, as the command line's statistics
/// count them (sim/src/stats.rs).
#[derive(Default)]
pub struct Tally {
    pub hands: u64,
    pub wins: u64,
    pub ties: u64,
    pub errors: u64,
    pub raw: Mean,
    pub diff: Mean,
    pending: Option<(u64, f64, u32)>,
}

/// A running mean with its 95% interval (normal approximation).
#[derive(Default)]
pub struct Mean {
    pub n: u64,
    sum: f64,
    sumsq: f64,
}

const Z95: f64 = 1.959_963_984_540_054;

impl Mean {
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sumsq += x * x;
    }
    pub fn interval(&self) -> Option<(f64, f64, f64)> {
        if self.n == 0 {
            return None;
        }
        let n = self.n as f64;
        let m = self.sum / n;
        if self.n < 2 {
            return Some((m, f64::NAN, f64::NAN));
        }
        let var = ((self.sumsq - self.sum * self.sum / n) / (n - 1.0)).max(0.0);
        let half = Z95 * (var / n).sqrt();
        Some((m, m - half, m + half))
    }
}

/// The Wilson score interval (95%).
pub fn wilson(successes: f64, n: f64) -> Option<(f64, f64, f64)> {
    if n <= 0.0 {
        return None;
    }
    let p = successes / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Some((p, (centre - half).max(0.0), (centre + half).min(1.0)))
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
        let d = (mine - theirs) as f64;
        match &mut self.pending {
            Some((p, sum, n)) if *p == deal => {
                *sum += d;
                *n += 1;
            }
            p => {
                if let Some((_, sum, n)) = p.take() {
                    self.diff.add(sum / n as f64);
                }
                *p = Some((deal, d, 1));
            }
        }
    }
    pub fn finish(&mut self) {
        if let Some((_, sum, n)) = self.pending.take() {
            self.diff.add(sum / n as f64);
        }
    }
}
