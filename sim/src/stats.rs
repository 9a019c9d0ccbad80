//! Statistics of a run, accumulated game by game from the rows themselves
//! (so `merge` recomputes exactly what `play` printed): win rates with
//! Wilson intervals, means with normal intervals, paired differences, and
//! a Bradley–Terry rating for tournaments.

use crate::rows::{HandRow, MatchRow, COMEBACK};
use std::fmt::Write as _;

/// 97.5% quantile of the standard normal: 95% two-sided intervals.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval (95%) of `successes` out of `n`: `(rate, lo, hi)`.
/// Ties count as half a success where the caller says so.
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

/// A running mean with its 95% interval (normal approximation).
///
/// The sums are kept exactly, in units of 2^-56 (an observation of at
/// least 1/8 in size converts without loss), so they do not depend on the
/// order of the observations: the statistics of a run's shards, added up
/// ([`Mean::absorb`]), are those of the single run. Where every partial
/// sum is a whole number below 2^53 (every mean of decorated canasta) the
/// result is the plain floating sum's.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Mean {
    n: u64,
    /// The sum of the observations, in units of [`Mean::UNIT`].
    sum: i128,
    /// The sum of their squares, in units of [`Mean::UNIT`].
    sumsq: i128,
}

impl Mean {
    /// Units of the sums in one: 2^56.
    const UNIT: f64 = (1u64 << 56) as f64;

    /// `x` in units of [`Mean::UNIT`] (exact from 1/8 up).
    fn fixed(x: f64) -> i128 {
        (x * Self::UNIT).round() as i128
    }

    /// A sum in units, as a number (rounded once, to nearest).
    fn float(v: i128) -> f64 {
        v as f64 / Self::UNIT
    }

    /// Adds one observation.
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum = self.sum.saturating_add(Self::fixed(x));
        self.sumsq = self.sumsq.saturating_add(Self::fixed(x * x));
    }

    /// Observations.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// Takes in the observations of `other` (another shard's): exactly, so
    /// the order in which shards are taken in does not matter.
    pub fn absorb(&mut self, other: &Mean) {
        self.n += other.n;
        self.sum = self.sum.saturating_add(other.sum);
        self.sumsq = self.sumsq.saturating_add(other.sumsq);
    }

    /// The mean (`None` with no observations).
    pub fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| Self::float(self.sum) / self.n as f64)
    }

    /// `(mean, lo, hi)`; with one observation the bounds are NaN (unknown).
    pub fn interval(&self) -> Option<(f64, f64, f64)> {
        let m = self.mean()?;
        if self.n < 2 {
            return Some((m, f64::NAN, f64::NAN));
        }
        let n = self.n as f64;
        let (sum, sumsq) = (Self::float(self.sum), Self::float(self.sumsq));
        let var = ((sumsq - sum * sum / n) / (n - 1.0)).max(0.0);
        let half = Z95 * (var / n).sqrt();
        Some((m, m - half, m + half))
    }
}

/// A distribution of whole numbers kept as counts, for medians.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    counts: std::collections::BTreeMap<u32, u64>,
    n: u64,
}

impl Counts {
    /// Takes in the observations of `other`.
    pub fn absorb(&mut self, other: &Counts) {
        for (&x, &c) in &other.counts {
            *self.counts.entry(x).or_insert(0) += c;
        }
        self.n += other.n;
    }

    /// Adds one observation.
    pub fn add(&mut self, x: u32) {
        *self.counts.entry(x).or_insert(0) += 1;
        self.n += 1;
    }

    /// The median: the middle value, or the mean of the two middle values
    /// of an even count (`None` with no observations).
    pub fn median(&self) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        // The values of ranks (n - 1) / 2 and n / 2, counting from 0.
        let (lo_rank, hi_rank) = ((self.n - 1) / 2, self.n / 2);
        let (mut lo, mut hi) = (None, None);
        let mut seen = 0;
        for (&x, &c) in &self.counts {
            seen += c;
            if lo.is_none() && seen > lo_rank {
                lo = Some(x);
            }
            if seen > hi_rank {
                hi = Some(x);
                break;
            }
        }
        Some((lo? as f64 + hi? as f64) / 2.0)
    }
}

/// One agent's results against the other in a series, the core of both
/// families' summaries: hands and matches won (ties and draws half) with
/// their Wilson intervals, and the mean raw hand score.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Record {
    /// Hands played.
    pub hands: u64,
    /// Hands won.
    pub wins: u64,
    /// Hands tied.
    pub ties: u64,
    /// Raw hand scores.
    pub raw: Mean,
    /// Matches played.
    pub matches: u64,
    /// Matches won.
    pub match_wins: u64,
    /// Matches drawn.
    pub match_draws: u64,
}

impl Record {
    /// The summary columns of [`Self::push_cells`].
    pub const COLUMNS: [&'static str; 15] = [
        "hands",
        "hand_wins",
        "hand_ties",
        "hand_win_rate",
        "hand_win_lo",
        "hand_win_hi",
        "matches",
        "match_wins",
        "match_draws",
        "match_win_rate",
        "match_win_lo",
        "match_win_hi",
        "mean_raw",
        "mean_raw_lo",
        "mean_raw_hi",
    ];

    /// Takes in the record of `other` (another shard's).
    pub fn absorb(&mut self, o: &Record) {
        self.hands += o.hands;
        self.wins += o.wins;
        self.ties += o.ties;
        self.raw.absorb(&o.raw);
        self.matches += o.matches;
        self.match_wins += o.match_wins;
        self.match_draws += o.match_draws;
    }

    /// `(wins + ties/2, hands)`, or of matches in matches mode.
    pub fn score(&self, matches_mode: bool) -> (f64, f64) {
        if matches_mode {
            (
                self.match_wins as f64 + self.match_draws as f64 / 2.0,
                self.matches as f64,
            )
        } else {
            (self.wins as f64 + self.ties as f64 / 2.0, self.hands as f64)
        }
    }

    /// The hand-win rate with its Wilson interval.
    pub fn hand_rate(&self) -> Option<(f64, f64, f64)> {
        let (s, n) = self.score(false);
        wilson(s, n)
    }

    /// The match-win rate with its Wilson interval.
    pub fn match_rate(&self) -> Option<(f64, f64, f64)> {
        let (s, n) = self.score(true);
        wilson(s, n)
    }

    /// The rate of the run's unit (matches in matches mode, else hands).
    pub fn rate(&self, matches_mode: bool) -> Option<(f64, f64, f64)> {
        if matches_mode {
            self.match_rate()
        } else {
            self.hand_rate()
        }
    }

    /// The cells of [`Self::COLUMNS`].
    pub fn push_cells(&self, v: &mut Vec<String>) {
        v.push(self.hands.to_string());
        v.push(self.wins.to_string());
        v.push(self.ties.to_string());
        push3(v, self.hand_rate(), 4);
        v.push(self.matches.to_string());
        v.push(self.match_wins.to_string());
        v.push(self.match_draws.to_string());
        push3(v, self.match_rate(), 4);
        push3(v, self.raw.interval(), 2);
    }
}

/// The paired difference of a series, agent A minus agent B: the
/// differences of a deal's games (in game order, each deal's together)
/// averaged into one per deal, so the luck of the cards cancels.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct PairedDiff {
    deals: Mean,
    /// The deal in progress: (deal, sum of its games' differences, games).
    pending: Option<(u64, f64, u32)>,
}

impl PairedDiff {
    /// The summary columns of [`Self::push_cells`].
    pub const COLUMNS: [&'static str; 4] = ["deals", "mean_diff", "mean_diff_lo", "mean_diff_hi"];

    /// The difference `d` of a game of `deal`.
    pub fn add(&mut self, deal: u64, d: f64) {
        match &mut self.pending {
            Some((pending, sum, n)) if *pending == deal => {
                *sum += d;
                *n += 1;
            }
            p => {
                if let Some((_, sum, n)) = p.take() {
                    self.deals.add(sum / n as f64);
                }
                *p = Some((deal, d, 1));
            }
        }
    }

    /// Closes the last deal.
    pub fn finish(&mut self) {
        if let Some((_, sum, n)) = self.pending.take() {
            self.deals.add(sum / n as f64);
        }
    }

    /// Takes in the deals of `other` (another shard's, whose deals are not
    /// this one's); both are closed first.
    pub fn absorb(&mut self, other: &PairedDiff) {
        self.finish();
        let mut o = other.clone();
        o.finish();
        self.deals.absorb(&o.deals);
    }

    /// Deals closed.
    pub fn n(&self) -> u64 {
        self.deals.n()
    }

    /// The mean difference, A minus B, with its 95% interval.
    pub fn interval(&self) -> Option<(f64, f64, f64)> {
        self.deals.interval()
    }

    /// The mean difference from agent `i`'s side (0: A, 1: B).
    pub fn of(&self, i: usize) -> Option<(f64, f64, f64)> {
        let (m, lo, hi) = self.interval()?;
        Some(if i == 0 { (m, lo, hi) } else { (-m, -hi, -lo) })
    }

    /// The cells of [`Self::COLUMNS`], from agent `i`'s side.
    pub fn push_cells(&self, v: &mut Vec<String>, i: usize) {
        v.push(self.n().to_string());
        push3(v, self.of(i), 2);
    }
}

/// How a hand ended, as `hands.csv`'s `end` names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum End {
    /// A player went out (`normal`; any name not below reads as this).
    #[default]
    Normal,
    /// Went out from hand (`from_hand`).
    FromHand,
    /// Went out clearing the table (`table_cleared`).
    TableCleared,
    /// The stock ran out (`exhausted`).
    Exhausted,
    /// The turn cap was reached (`stalled`).
    Stalled,
    /// No player could move (`deadlocked`).
    Deadlocked,
}

impl End {
    /// The name in `hands.csv`.
    pub fn name(self) -> &'static str {
        match self {
            End::Normal => "normal",
            End::FromHand => "from_hand",
            End::TableCleared => "table_cleared",
            End::Exhausted => "exhausted",
            End::Stalled => "stalled",
            End::Deadlocked => "deadlocked",
        }
    }

    /// The end a `hands.csv` cell names.
    pub fn of_name(name: &str) -> End {
        match name {
            "from_hand" => End::FromHand,
            "table_cleared" => End::TableCleared,
            "exhausted" => End::Exhausted,
            "stalled" => End::Stalled,
            "deadlocked" => End::Deadlocked,
            _ => End::Normal,
        }
    }
}

/// What the statistics read of one seat's hand: the cells of its
/// `hands.csv` row that [`SeriesStats`] counts, with no text, so that a
/// run writing no `hands.csv` builds no row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandFacts {
    /// The deal.
    pub deal: u64,
    /// The seat.
    pub seat: u8,
    /// The swapped game of a pair.
    pub swapped: bool,
    /// This seat started the hand.
    pub starter: bool,
    /// Turns of the hand.
    pub turns: u32,
    /// How the hand ended.
    pub end: End,
    /// This seat went out.
    pub went_out: bool,
    /// This seat won the hand.
    pub won: bool,
    /// No seat won the hand.
    pub tied: bool,
    /// Raw score.
    pub raw: i32,
    /// Taxed score.
    pub taxed: i32,
    /// Turn of the opening meld, from 1.
    pub opened_turn: Option<u16>,
    /// Turn of the first canasta, from 1.
    pub first_canasta_turn: Option<u16>,
    /// Canastas of every kind.
    pub canastas: u32,
    /// Red threes.
    pub red_threes: u8,
    /// Twins.
    pub twins: u16,
    /// Aces of hearts.
    pub heart_aces: u8,
    /// Pile pickups.
    pub pile_pickups: u16,
    /// Free pickups.
    pub free_pickups: u16,
    /// Cards picked up.
    pub cards_picked: u16,
    /// Turns under a frozen pile.
    pub frozen_turns: u16,
}

impl HandFacts {
    /// The facts of a `hands.csv` row.
    pub fn of(r: &HandRow) -> HandFacts {
        HandFacts {
            deal: r.deal,
            seat: r.seat,
            swapped: r.swapped,
            starter: r.starter,
            turns: r.turns,
            end: End::of_name(&r.end),
            went_out: r.went_out,
            won: r.won,
            tied: r.hand_winner.is_none(),
            raw: r.raw,
            taxed: r.taxed,
            opened_turn: r.opened_turn,
            first_canasta_turn: r.first_canasta_turn,
            canastas: [
                r.canastas_black_wild,
                r.canastas_black,
                r.canastas_red,
                r.canastas_red_wild,
                r.canastas_gold,
            ]
            .iter()
            .map(|&c| u32::from(c))
            .sum(),
            red_threes: r.red_threes,
            twins: r.twins,
            heart_aces: r.heart_aces,
            pile_pickups: r.pile_pickups,
            free_pickups: r.free_pickups,
            cards_picked: r.cards_picked,
            frozen_turns: r.frozen_turns,
        }
    }
}

/// What the statistics read of one seat's match (its `matches.csv` row).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchFacts {
    /// The seat.
    pub seat: u8,
    /// The swapped game of a pair.
    pub swapped: bool,
    /// Hands played.
    pub hands: u32,
    /// This seat won the match.
    pub won: bool,
    /// No seat won the match.
    pub drawn: bool,
    /// Final total.
    pub total: i32,
    /// Tax paid.
    pub tax_paid: i64,
    /// Lead changes of the match.
    pub lead_changes: u32,
    /// Deepest deficit.
    pub max_deficit: i32,
    /// Won after trailing by [`COMEBACK`].
    pub comeback: bool,
}

impl MatchFacts {
    /// The facts of a `matches.csv` row.
    pub fn of(m: &MatchRow) -> MatchFacts {
        MatchFacts {
            seat: m.seat,
            swapped: m.swapped,
            hands: m.hands,
            won: m.won,
            drawn: m.winner.is_none(),
            total: m.total,
            tax_paid: m.tax_paid,
            lead_changes: m.lead_changes,
            max_deficit: m.max_deficit,
            comeback: m.comeback,
        }
    }
}

/// What one agent did in one series.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Side {
    record: Record,
    taxed: Mean,
    opened: u64,
    opened_turn: Mean,
    canasta: u64,
    canasta_turn: Mean,
    went_out: [u64; 3],
    canastas: u64,
    red_threes: u64,
    twins: u64,
    heart_aces: u64,
    pile_pickups: u64,
    free_pickups: u64,
    cards_picked: u64,
    frozen_turns: u64,
    tax_paid: Mean,
    comebacks: u64,
    /// Matches in which this side trailed by at least [`COMEBACK`].
    trailed: u64,
}

/// Statistics of one series (one matchup under one rule setting).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct SeriesStats {
    /// Canonical specs of agent A and agent B.
    pub agents: [String; 2],
    /// The varied settings (`tax=off;opening=90`), empty for `play`.
    pub settings: String,
    sides: [Side; 2],
    games: u64,
    errors: u64,
    hands: u64,
    turns: Mean,
    turns_counts: Counts,
    turns_out: Mean,
    turns_out_counts: Counts,
    ended_out: u64,
    exhausted: u64,
    stalled: u64,
    deadlocked: u64,
    starter_wins: u64,
    starter_ties: u64,
    match_hands: Mean,
    lead_changes: Mean,
    matches_mode: bool,
    diff: PairedDiff,
}

/// The side (0: agent A, 1: agent B) of a seat: A sits in seat 0 unless the
/// game is the swapped one of a pair.
pub fn side_of(seat: u8, swapped: bool) -> usize {
    (seat as usize & 1) ^ swapped as usize
}

impl Side {
    fn absorb(&mut self, o: &Side) {
        self.record.absorb(&o.record);
        self.taxed.absorb(&o.taxed);
        self.opened += o.opened;
        self.opened_turn.absorb(&o.opened_turn);
        self.canasta += o.canasta;
        self.canasta_turn.absorb(&o.canasta_turn);
        for (a, b) in self.went_out.iter_mut().zip(o.went_out) {
            *a += b;
        }
        self.canastas += o.canastas;
        self.red_threes += o.red_threes;
        self.twins += o.twins;
        self.heart_aces += o.heart_aces;
        self.pile_pickups += o.pile_pickups;
        self.free_pickups += o.free_pickups;
        self.cards_picked += o.cards_picked;
        self.frozen_turns += o.frozen_turns;
        self.tax_paid.absorb(&o.tax_paid);
        self.comebacks += o.comebacks;
        self.trailed += o.trailed;
    }
}

impl SeriesStats {
    /// Takes in the statistics of the same series from another shard of
    /// the run: the result is the statistics of both shards' games.
    pub fn absorb(&mut self, o: &SeriesStats) {
        for (a, b) in self.sides.iter_mut().zip(&o.sides) {
            a.absorb(b);
        }
        self.games += o.games;
        self.errors += o.errors;
        self.hands += o.hands;
        self.turns.absorb(&o.turns);
        self.turns_counts.absorb(&o.turns_counts);
        self.turns_out.absorb(&o.turns_out);
        self.turns_out_counts.absorb(&o.turns_out_counts);
        self.ended_out += o.ended_out;
        self.exhausted += o.exhausted;
        self.stalled += o.stalled;
        self.deadlocked += o.deadlocked;
        self.starter_wins += o.starter_wins;
        self.starter_ties += o.starter_ties;
        self.match_hands.absorb(&o.match_hands);
        self.lead_changes.absorb(&o.lead_changes);
        self.diff.absorb(&o.diff);
    }

    /// Empty statistics for agents A and B.
    pub fn new(a: String, b: String, settings: String, matches_mode: bool) -> SeriesStats {
        SeriesStats {
            agents: [a, b],
            settings,
            sides: Default::default(),
            games: 0,
            errors: 0,
            hands: 0,
            turns: Mean::default(),
            turns_counts: Counts::default(),
            turns_out: Mean::default(),
            turns_out_counts: Counts::default(),
            ended_out: 0,
            exhausted: 0,
            stalled: 0,
            deadlocked: 0,
            starter_wins: 0,
            starter_ties: 0,
            match_hands: Mean::default(),
            lead_changes: Mean::default(),
            matches_mode,
            diff: PairedDiff::default(),
        }
    }

    /// A game that an agent broke: counted, not scored.
    pub fn add_error(&mut self) {
        self.errors += 1;
    }

    /// One finished game: the facts of its hands (two per hand) and, for a
    /// match, of its two match rows. Games must come in game order.
    pub fn add_game(
        &mut self,
        hands: impl IntoIterator<Item = HandFacts>,
        matches: impl IntoIterator<Item = MatchFacts>,
    ) {
        // The paired difference, A minus B: per hand in hands mode, the
        // final totals of a match in matches mode.
        let mut d = 0.0;
        let mut deal = None;
        for r in hands {
            deal.get_or_insert(r.deal);
            let a = side_of(r.seat, r.swapped) == 0;
            let s = &mut self.sides[usize::from(!a)];
            s.record.hands += 1;
            if r.won {
                s.record.wins += 1;
            } else if r.tied {
                s.record.ties += 1;
            }
            s.record.raw.add(r.raw as f64);
            s.taxed.add(r.taxed as f64);
            if let Some(t) = r.opened_turn {
                s.opened += 1;
                s.opened_turn.add(t as f64);
            }
            if let Some(t) = r.first_canasta_turn {
                s.canasta += 1;
                s.canasta_turn.add(t as f64);
            }
            if r.went_out {
                let k = match r.end {
                    End::FromHand => 1,
                    End::TableCleared => 2,
                    _ => 0,
                };
                s.went_out[k] += 1;
            }
            s.canastas += r.canastas as u64;
            s.red_threes += r.red_threes as u64;
            s.twins += r.twins as u64;
            s.heart_aces += r.heart_aces as u64;
            s.pile_pickups += r.pile_pickups as u64;
            s.free_pickups += r.free_pickups as u64;
            s.cards_picked += r.cards_picked as u64;
            s.frozen_turns += r.frozen_turns as u64;
            // Per-hand facts, once per hand: from the starter's row.
            if r.starter {
                self.hands += 1;
                self.turns.add(r.turns as f64);
                self.turns_counts.add(r.turns);
                match r.end {
                    End::Exhausted => self.exhausted += 1,
                    End::Stalled => self.stalled += 1,
                    End::Deadlocked => self.deadlocked += 1,
                    _ => {
                        self.ended_out += 1;
                        self.turns_out.add(r.turns as f64);
                        self.turns_out_counts.add(r.turns);
                    }
                }
                if r.won {
                    self.starter_wins += 1;
                } else if r.tied {
                    self.starter_ties += 1;
                }
            }
            if !self.matches_mode {
                d += if a { 1.0 } else { -1.0 } * r.raw as f64;
            }
        }
        let Some(deal) = deal else { return };
        self.games += 1;
        for m in matches {
            let a = side_of(m.seat, m.swapped) == 0;
            if self.matches_mode {
                d += if a { 1.0 } else { -1.0 } * m.total as f64;
            }
            let s = &mut self.sides[usize::from(!a)];
            s.record.matches += 1;
            if m.won {
                s.record.match_wins += 1;
            } else if m.drawn {
                s.record.match_draws += 1;
            }
            s.tax_paid.add(m.tax_paid as f64);
            if m.comeback {
                s.comebacks += 1;
            }
            if m.max_deficit >= COMEBACK {
                s.trailed += 1;
            }
            if a {
                self.match_hands.add(m.hands as f64);
                self.lead_changes.add(m.lead_changes as f64);
            }
        }
        self.diff.add(deal, d);
    }

    /// Closes the last pair.
    pub fn finish(&mut self) {
        self.diff.finish();
    }

    /// The score of side `i` in the unit of the run (hands or matches):
    /// `(wins + ties/2, games)`.
    pub fn score(&self, i: usize) -> (f64, f64) {
        self.sides[i].record.score(self.matches_mode)
    }

    /// The rate of the run's unit (matches in matches mode, else hands).
    pub fn rate(&self, i: usize) -> Option<(f64, f64, f64)> {
        self.sides[i].record.rate(self.matches_mode)
    }

    /// Mean paired difference, from side `i`'s point of view.
    pub fn diff(&self, i: usize) -> Option<(f64, f64, f64)> {
        self.diff.of(i)
    }

    /// The columns of summary rows (after `series`), as in [`Self::cells`].
    pub fn columns() -> Vec<&'static str> {
        vec!["settings", "agent", "side", "opponent", "games", "errors"]
            .into_iter()
            .chain(Record::COLUMNS)
            .chain(["mean_taxed", "diff_unit"])
            .chain(PairedDiff::COLUMNS)
            .chain([
                "opened_share",
                "mean_opened_turn",
                "canasta_share",
                "mean_first_canasta_turn",
                "mean_canastas",
                "mean_red_threes",
                "mean_twins",
                "mean_heart_aces",
                "mean_pile_pickups",
                "mean_free_pickups",
                "mean_cards_picked",
                "mean_frozen_turns",
                "out_share",
                "out_normal",
                "out_from_hand",
                "out_table_cleared",
                "ended_out_share",
                "exhausted_share",
                "stalled_share",
                "deadlocked_share",
                "mean_turns",
                "median_turns",
                "mean_turns_out",
                "median_turns_out",
                "starter_win_rate",
                "starter_win_lo",
                "starter_win_hi",
                "mean_match_hands",
                "mean_tax_paid",
                "comebacks",
                "trailed",
                "comeback_rate",
                "comeback_lo",
                "comeback_hi",
                "mean_tax_paid_lo",
                "mean_tax_paid_hi",
                "mean_lead_changes",
                "lead_changes_lo",
                "lead_changes_hi",
                "all_comeback_rate",
                "all_comeback_lo",
                "all_comeback_hi",
            ])
            .collect()
    }

    /// One summary row for side `i`, in [`Self::columns`] order.
    pub fn cells(&self, i: usize) -> Vec<String> {
        let s = &self.sides[i];
        let h = s.record.hands as f64;
        let per_hand = |x: u64| ratio(x as f64, h, 3);
        let share = |x: u64| ratio(x as f64, h, 4);
        let mut v = vec![
            self.settings.clone(),
            self.agents[i].clone(),
            if i == 0 { "a" } else { "b" }.to_string(),
            self.agents[1 - i].clone(),
            self.games.to_string(),
            self.errors.to_string(),
        ];
        s.record.push_cells(&mut v);
        v.push(fmt_opt(s.taxed.mean(), 2));
        v.push(
            if self.matches_mode {
                "match_total"
            } else {
                "hand_raw"
            }
            .to_string(),
        );
        self.diff.push_cells(&mut v, i);
        v.push(share(s.opened));
        v.push(fmt_opt(s.opened_turn.mean(), 2));
        v.push(share(s.canasta));
        v.push(fmt_opt(s.canasta_turn.mean(), 2));
        for x in [
            s.canastas,
            s.red_threes,
            s.twins,
            s.heart_aces,
            s.pile_pickups,
            s.free_pickups,
            s.cards_picked,
            s.frozen_turns,
        ] {
            v.push(per_hand(x));
        }
        v.push(share(s.went_out.iter().sum()));
        for x in s.went_out {
            v.push(share(x));
        }
        let n = self.hands as f64;
        for x in [
            self.ended_out,
            self.exhausted,
            self.stalled,
            self.deadlocked,
        ] {
            v.push(ratio(x as f64, n, 4));
        }
        v.push(fmt_opt(self.turns.mean(), 2));
        v.push(fmt_opt(self.turns_counts.median(), 1));
        v.push(fmt_opt(self.turns_out.mean(), 2));
        v.push(fmt_opt(self.turns_out_counts.median(), 1));
        push3(
            &mut v,
            wilson(self.starter_wins as f64 + self.starter_ties as f64 / 2.0, n),
            4,
        );
        v.push(fmt_opt(self.match_hands.mean(), 2));
        v.push(fmt_opt(s.tax_paid.mean(), 1));
        v.push(if self.matches_mode {
            s.comebacks.to_string()
        } else {
            String::new()
        });
        if self.matches_mode {
            v.push(s.trailed.to_string());
            push3(&mut v, self.comeback_rate(Some(i)), 4);
            // mean_tax_paid is above; its interval's bounds here.
            let mut tax = Vec::new();
            push3(&mut tax, s.tax_paid.interval(), 1);
            v.extend(tax.into_iter().skip(1));
            push3(&mut v, self.lead_changes.interval(), 2);
            push3(&mut v, self.comeback_rate(None), 4);
        } else {
            v.extend(std::iter::repeat_n(String::new(), 12));
        }
        v
    }

    /// The share of the matches in which a side trailed by at least
    /// [`COMEBACK`] that it went on to win, with its Wilson 95% interval:
    /// of side `i`, or of both sides pooled (`None`). Matches mode only.
    pub fn comeback_rate(&self, side: Option<usize>) -> Option<(f64, f64, f64)> {
        let (won, trailed) = self.comebacks(side);
        wilson(won as f64, trailed as f64)
    }

    /// The comebacks and the matches trailed by at least [`COMEBACK`], of
    /// side `i` or of both sides (`None`).
    fn comebacks(&self, side: Option<usize>) -> (u64, u64) {
        let sides: &[Side] = match side {
            Some(i) => std::slice::from_ref(&self.sides[i]),
            None => &self.sides,
        };
        (
            sides.iter().map(|s| s.comebacks).sum(),
            sides.iter().map(|s| s.trailed).sum(),
        )
    }

    /// Lead changes per match (the strict leader after a hand changed),
    /// counted once per match, with a 95% interval.
    pub fn lead_changes(&self) -> Option<(f64, f64, f64)> {
        self.lead_changes.interval()
    }

    /// Tax paid per match by side `i`, with a 95% interval.
    pub fn tax_paid(&self, i: usize) -> Option<(f64, f64, f64)> {
        self.sides[i].tax_paid.interval()
    }

    /// A few lines for a person: both agents' results and the difference.
    pub fn table(&self, out: &mut String) {
        let w = self.agents[0].len().max(self.agents[1].len()).max(5) + 4;
        let unit = if self.matches_mode {
            "matches"
        } else {
            "hands"
        };
        let _ = writeln!(
            out,
            "{:<w$}  {:>7}  {:<22}  {:<22}  {:>7}  {:>7}  {:>8}",
            "agent",
            unit,
            if self.matches_mode {
                "match wins [95%]"
            } else {
                "hand wins [95%]"
            },
            "points/hand [95%]",
            "opens@",
            "canasta@",
            "went out"
        );
        let same = self.agents[0] == self.agents[1];
        for i in 0..2 {
            let s = &self.sides[i];
            let label = if same {
                format!("{} ({})", self.agents[i], if i == 0 { "a" } else { "b" })
            } else {
                self.agents[i].clone()
            };
            let games = if self.matches_mode {
                s.record.matches
            } else {
                s.record.hands
            };
            let out_share = if s.record.hands > 0 {
                format!(
                    "{:.1}%",
                    100.0 * s.went_out.iter().sum::<u64>() as f64 / s.record.hands as f64
                )
            } else {
                "-".into()
            };
            let _ = writeln!(
                out,
                "{:<w$}  {:>7}  {:<22}  {:<22}  {:>7}  {:>7}  {:>8}",
                label,
                games,
                pct3(self.rate(i)),
                num3(s.record.raw.interval()),
                s.opened_turn
                    .mean()
                    .map_or("-".into(), |m| format!("t{m:.1}")),
                s.canasta_turn
                    .mean()
                    .map_or("-".into(), |m| format!("t{m:.1}")),
                out_share
            );
        }
        if let Some((m, lo, hi)) = self.diff(0) {
            // One deal gives no interval (its bounds are NaN).
            let interval = if lo.is_finite() && hi.is_finite() {
                format!("[{lo:+.0}, {hi:+.0}]")
            } else {
                "[no interval from one deal]".to_string()
            };
            let _ = writeln!(
                out,
                "{} − {}: {:+.0} {interval} {} over {} {}",
                self.agents[0],
                self.agents[1],
                m,
                if self.matches_mode {
                    "final total per match"
                } else {
                    "points per hand"
                },
                self.diff.n(),
                if self.sides[0].record.hands > 0 && self.diff.n() * 2 <= self.games {
                    "paired deals"
                } else {
                    "deals"
                }
            );
        }
        if self.matches_mode {
            let _ = writeln!(
                out,
                "match length {} hands; lead changes per match {}",
                fmt_opt(self.match_hands.mean(), 1),
                mean3(self.lead_changes(), 2),
            );
            let _ = writeln!(
                out,
                "tax paid per match: {} {}, {} {}",
                self.agents[0],
                mean3(self.tax_paid(0), 0),
                self.agents[1],
                mean3(self.tax_paid(1), 0),
            );
            let comeback = |side: Option<usize>| {
                let (won, trailed) = self.comebacks(side);
                format!("{won} of {trailed}, {}", pct3(self.comeback_rate(side)))
            };
            let _ = writeln!(
                out,
                "comebacks (won after trailing by ≥ 2,000): {} {}, {} {}; both {}",
                self.agents[0],
                comeback(Some(0)),
                self.agents[1],
                comeback(Some(1)),
                comeback(None),
            );
        }
        let n = self.hands as f64;
        let _ = writeln!(
            out,
            "{} hands: went out {}%, exhausted {}%, stalled {}%, deadlocked {}%; turns per hand: mean {}, median {} (went out: mean {}, median {})",
            self.hands,
            ratio(100.0 * self.ended_out as f64, n, 1),
            ratio(100.0 * self.exhausted as f64, n, 1),
            ratio(100.0 * self.stalled as f64, n, 1),
            ratio(100.0 * self.deadlocked as f64, n, 1),
            fmt_opt(self.turns.mean(), 1),
            fmt_opt(self.turns_counts.median(), 1),
            fmt_opt(self.turns_out.mean(), 1),
            fmt_opt(self.turns_out_counts.median(), 1),
        );
        let _ = writeln!(
            out,
            "starter wins {}{}",
            pct3(wilson(
                self.starter_wins as f64 + self.starter_ties as f64 / 2.0,
                n
            )),
            if self.errors > 0 {
                format!("; {} games lost to agent errors", self.errors)
            } else {
                String::new()
            }
        );
    }
}

/// Appends `lines` as a legend under a table: `legend:` and one
/// `  term: meaning` line each.
pub fn legend(out: &mut String, lines: &[(&str, String)]) {
    let _ = writeln!(out, "legend:");
    let w = lines
        .iter()
        .map(|(t, _)| t.chars().count())
        .max()
        .unwrap_or(0);
    for (term, meaning) in lines {
        let pad = w - term.chars().count();
        let _ = writeln!(out, "  {term}{:pad$}  {meaning}", "");
    }
}

impl SeriesStats {
    /// The legend of [`SeriesStats::table`]: every abbreviation, which
    /// points are raw and which taxed, what a win counts.
    pub fn legend(&self, out: &mut String) {
        let mut l: Vec<(&str, String)> = Vec::new();
        if self.matches_mode {
            l.push(("matches", "matches the agent played (both seats)".into()));
            l.push((
                "match wins",
                "share of the matches the agent won (D-16.2), drawn (capped, tied) ones half; Wilson 95% interval".into(),
            ));
        } else {
            l.push(("hands", "hands the agent played (both seats)".into()));
            l.push((
                "hand wins",
                "share of the hands the agent won: the higher raw score (D-16.1, I-19), ties half; Wilson 95% interval".into(),
            ));
        }
        l.push((
            "points/hand",
            "mean raw hand score (D-14, before the tax) with its 95% interval".into(),
        ));
        l.push((
            "opens@",
            "mean turn of the agent's opening meld, tN = turn N, counted from 1 (I-24: a turn is one discard)".into(),
        ));
        l.push((
            "canasta@",
            "mean turn of its first canasta, the same way".into(),
        ));
        l.push((
            "went out",
            "share of the agent's hands that it ended by going out (D-13)".into(),
        ));
        l.push((
            "A − B",
            if self.matches_mode {
                "mean difference of the final totals (taxed, D-15) per match, A minus B, 95% interval".into()
            } else {
                "mean difference of raw hand scores, A minus B, 95% interval".into()
            },
        ));
        if self.sides[0].record.hands > 0 && self.diff.n() * 2 <= self.games {
            l.push((
                "paired deals",
                "each deal played twice with the seats swapped, so the luck of the cards cancels; the difference is averaged per deal".into(),
            ));
        }
        if self.matches_mode {
            l.push((
                "match length",
                "mean hands per match; lead changes: times the strict leader after a hand changed, per match, 95% interval".into(),
            ));
            l.push((
                "tax paid",
                "points the tax took (D-15) from the agent's positive hands, per match, 95% interval".into(),
            ));
            l.push((
                "comebacks",
                "of the matches in which the agent trailed by 2,000 or more after some hand, those it won; Wilson 95% interval".into(),
            ));
            if self.agents[0] == self.agents[1]
                && self.sides[0].record.hands > 0
                && self.diff.n() * 2 <= self.games
            {
                l.push((
                    "one agent",
                    "the same agent on both sides on paired deals: if it is deterministic, each deal's second game mirrors the first and `both` counts every match twice, its interval too narrow; --unpaired counts each once".into(),
                ));
            }
        }
        l.push((
            "exhausted",
            "stock and pile empty, nobody went out (I-4); stalled: the turn cap reached (I-5); deadlocked: nobody can ever go out (I-32)".into(),
        ));
        l.push(("turns", "discards per hand (I-24), both seats".into()));
        l.push((
            "starter wins",
            "share of hands won by the player who started them (I-1), ties half".into(),
        ));
        legend(out, &l);
    }
}

fn ratio(x: f64, n: f64, decimals: usize) -> String {
    if n > 0.0 {
        format!("{:.*}", decimals, x / n)
    } else {
        String::new()
    }
}

/// A number with fixed decimals, empty when absent.
pub fn fmt_opt(x: Option<f64>, decimals: usize) -> String {
    x.map_or(String::new(), |x| format!("{x:.decimals$}"))
}

/// Pushes `(value, lo, hi)` as three cells; unknown values are empty.
pub fn push3(v: &mut Vec<String>, x: Option<(f64, f64, f64)>, decimals: usize) {
    let (a, b, c) = x.unwrap_or((f64::NAN, f64::NAN, f64::NAN));
    for y in [a, b, c] {
        v.push(if y.is_finite() {
            format!("{y:.decimals$}")
        } else {
            String::new()
        });
    }
}

/// `51.2% [50.2, 52.2]`.
pub fn pct3(x: Option<(f64, f64, f64)>) -> String {
    x.map_or("-".into(), |(p, lo, hi)| {
        format!("{:.1}% [{:.1}, {:.1}]", 100.0 * p, 100.0 * lo, 100.0 * hi)
    })
}

/// `2.31 [2.01, 2.61]`: a mean with its interval, unsigned.
pub fn mean3(x: Option<(f64, f64, f64)>, decimals: usize) -> String {
    x.map_or("-".into(), |(m, lo, hi)| {
        if lo.is_finite() {
            format!("{m:.decimals$} [{lo:.decimals$}, {hi:.decimals$}]")
        } else {
            format!("{m:.decimals$} [?]")
        }
    })
}

/// `+612 [598, 626]`.
pub fn num3(x: Option<(f64, f64, f64)>) -> String {
    x.map_or("-".into(), |(m, lo, hi)| {
        if lo.is_finite() {
            format!("{m:+.0} [{lo:+.0}, {hi:+.0}]")
        } else {
            format!("{m:+.0} [?]")
        }
    })
}

/// A Bradley–Terry fit: ratings on the Elo scale (400 per factor of 10 in
/// odds), centred on a mean of 0, with 95% intervals from the Fisher
/// information. `wins[i][j]`: the score of `i` against `j` (ties as half);
/// `games[i][j]`: games between them. Half a win each way is added to every
/// pair that met, so an agent that never lost still gets a finite rating.
pub fn bradley_terry(wins: &[Vec<f64>], games: &[Vec<f64>]) -> Vec<(f64, f64, f64)> {
    let k = wins.len();
    if k == 0 {
        return Vec::new();
    }
    let w = |i: usize, j: usize| {
        if games[i][j] > 0.0 {
            wins[i][j] + 0.5
        } else {
            0.0
        }
    };
    let n = |i: usize, j: usize| {
        if games[i][j] > 0.0 {
            games[i][j] + 1.0
        } else {
            0.0
        }
    };
    let sigma = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut theta = vec![0.0; k];
    // Newton's method with theta[0] fixed at 0; the log-likelihood is concave.
    let mut cov = vec![vec![0.0; k]; k];
    for _ in 0..100 {
        let mut grad = vec![0.0; k];
        let mut info = vec![vec![0.0; k]; k];
        for i in 0..k {
            for j in 0..k {
                if i == j || n(i, j) == 0.0 {
                    continue;
                }
                let p = sigma(theta[i] - theta[j]);
                grad[i] += w(i, j) - n(i, j) * p;
                let h = n(i, j) * p * (1.0 - p);
                info[i][i] += h;
                info[i][j] -= h;
            }
        }
        let m = k - 1;
        let sub: Vec<Vec<f64>> = (1..k)
            .map(|i| (1..k).map(|j| info[i][j]).collect())
            .collect();
        let Some(inv) = invert(&sub) else { break };
        let mut step = 0.0f64;
        for i in 0..m {
            let d: f64 = (0..m).map(|j| inv[i][j] * grad[j + 1]).sum();
            theta[i + 1] += d;
            step = step.max(d.abs());
        }
        for i in 0..m {
            for j in 0..m {
                cov[i + 1][j + 1] = inv[i][j];
            }
        }
        if step < 1e-10 {
            break;
        }
    }
    // Centre on mean zero: theta' = C theta with C = I - 11ᵀ/k.
    let mean = theta.iter().sum::<f64>() / k as f64;
    let kf = k as f64;
    let row_mean: Vec<f64> = (0..k).map(|i| cov[i].iter().sum::<f64>() / kf).collect();
    let all_mean = row_mean.iter().sum::<f64>() / kf;
    let scale = 400.0 / std::f64::consts::LN_10;
    (0..k)
        .map(|i| {
            let var = (cov[i][i] - 2.0 * row_mean[i] + all_mean).max(0.0);
            // `+ 0.0` turns a negative zero into zero for printing.
            let r = (theta[i] - mean) * scale + 0.0;
            let half = Z95 * var.sqrt() * scale;
            (r, r - half, r + half)
        })
        .collect()
}

/// Gauss–Jordan inverse of a small symmetric positive matrix.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = r.clone();
            row.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            row
        })
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[p][c].abs() < 1e-12 {
            return None;
        }
        m.swap(c, p);
        let d = m[c][c];
        for x in m[c].iter_mut() {
            *x /= d;
        }
        for r in 0..n {
            if r != c {
                let f = m[r][c];
                if f != 0.0 {
                    let pivot = m[c].clone();
                    for (x, p) in m[r].iter_mut().zip(&pivot) {
                        *x -= f * p;
                    }
                }
            }
        }
    }
    Some(m.into_iter().map(|r| r[n..].to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 50 of 100: 0.5 [0.4038, 0.5962]
        let (p, lo, hi) = wilson(50.0, 100.0).unwrap();
        assert_eq!(p, 0.5);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
        // 0 of 10 stays inside [0, 1]: upper 0.2775
        let (_, lo, hi) = wilson(0.0, 10.0).unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-4);
        assert!(wilson(0.0, 0.0).is_none());
    }

    /// A deal's games are averaged into one difference; a deal with one
    /// game (unpaired, or its pair lost to an error) counts as it is.
    #[test]
    fn paired_differences_average_each_deal() {
        let mut d = PairedDiff::default();
        for (deal, x) in [
            (0, 10.0),
            (0, 30.0),
            (1, -5.0),
            (2, 4.0),
            (2, 8.0),
            (3, 1.0),
        ] {
            d.add(deal, x);
        }
        assert_eq!(d.n(), 3, "the last deal waits for finish");
        d.finish();
        assert_eq!(d.n(), 4);
        let (m, lo, hi) = d.of(0).unwrap();
        assert_eq!(m, (20.0 - 5.0 + 6.0 + 1.0) / 4.0);
        assert_eq!(d.of(1), Some((-m, -hi, -lo)));
        let mut v = Vec::new();
        d.push_cells(&mut v, 1);
        assert_eq!(v.len(), PairedDiff::COLUMNS.len());
        assert_eq!(v[..2], ["4".to_string(), "-5.50".to_string()]);
    }

    /// Ties and draws count half; the rate is of the run's unit.
    #[test]
    fn a_record_scores_hands_or_matches() {
        let r = Record {
            hands: 10,
            wins: 4,
            ties: 2,
            matches: 3,
            match_wins: 1,
            match_draws: 1,
            ..Record::default()
        };
        assert_eq!(r.score(false), (5.0, 10.0));
        assert_eq!(r.score(true), (1.5, 3.0));
        assert_eq!(r.rate(false), wilson(5.0, 10.0));
        assert_eq!(r.rate(true), wilson(1.5, 3.0));
        let mut v = Vec::new();
        r.push_cells(&mut v);
        assert_eq!(v.len(), Record::COLUMNS.len());
        assert_eq!(v[3], "0.5000");
    }

    #[test]
    fn counts_median_of_odd_and_even_counts() {
        let mut c = Counts::default();
        assert_eq!(c.median(), None);
        for x in [30, 1000, 27] {
            c.add(x);
        }
        assert_eq!(c.median(), Some(30.0));
        c.add(31);
        assert_eq!(c.median(), Some(30.5));
        c.add(31);
        c.add(31);
        assert_eq!(c.median(), Some(31.0));
    }

    #[test]
    fn mean_interval() {
        let mut m = Mean::default();
        for x in [1.0, 2.0, 3.0, 4.0] {
            m.add(x);
        }
        let (mean, lo, hi) = m.interval().unwrap();
        assert_eq!(mean, 2.5);
        // sd = 1.291, se = 0.6455
        assert!((hi - mean - Z95 * 0.645_497).abs() < 1e-5);
        assert!((mean - lo - (hi - mean)).abs() < 1e-12);
    }

    #[test]
    fn a_mean_of_shards_is_the_mean_of_the_whole_in_any_order() {
        // Thirds and sevenths: a plain floating sum depends on the order.
        let xs: Vec<f64> = (0..200)
            .map(|i| (i as f64 * 7.0 - 300.0) / 3.0 / 7.0)
            .collect();
        let mut whole = Mean::default();
        xs.iter().for_each(|&x| whole.add(x));
        let (mut even, mut odd) = (Mean::default(), Mean::default());
        for (i, &x) in xs.iter().enumerate() {
            if i % 2 == 0 {
                even.add(x)
            } else {
                odd.add(x)
            }
        }
        let mut merged = odd;
        merged.absorb(&even);
        assert_eq!(merged.n(), 200);
        assert_eq!(merged.interval(), whole.interval());
        let back: Mean = serde_json::from_str(&serde_json::to_string(&merged).unwrap()).unwrap();
        assert_eq!(
            back.interval(),
            whole.interval(),
            "accum.json keeps the sums"
        );
    }

    #[test]
    fn a_mean_of_whole_numbers_is_the_plain_floating_mean() {
        let xs = [1310.0, -455.0, 95.0, 2240.0, -15.0, 0.5, -0.25];
        let mut m = Mean::default();
        let (mut sum, mut sumsq) = (0.0f64, 0.0f64);
        for x in xs {
            m.add(x);
            sum += x;
            sumsq += x * x;
        }
        let n = xs.len() as f64;
        let var = (sumsq - sum * sum / n) / (n - 1.0);
        let half = Z95 * (var / n).sqrt();
        let mean = sum / n;
        assert_eq!(m.interval(), Some((mean, mean - half, mean + half)));
    }

    #[test]
    fn bradley_terry_recovers_an_elo_gap() {
        // A beats B 76% of the time: about 200 Elo.
        let wins = vec![vec![0.0, 760.0], vec![240.0, 0.0]];
        let games = vec![vec![0.0, 1000.0], vec![1000.0, 0.0]];
        let r = bradley_terry(&wins, &games);
        let gap = r[0].0 - r[1].0;
        assert!((gap - 200.0).abs() < 5.0, "{gap}");
        assert!((r[0].0 + r[1].0).abs() < 1e-9, "centred");
        assert!(r[0].1 < r[0].0 && r[0].0 < r[0].2);
        // Three agents, a transitive ladder: order kept, never infinite.
        let wins = vec![
            vec![0.0, 70.0, 100.0],
            vec![30.0, 0.0, 65.0],
            vec![0.0, 35.0, 0.0],
        ];
        let games = vec![
            vec![0.0, 100.0, 100.0],
            vec![100.0, 0.0, 100.0],
            vec![100.0, 100.0, 0.0],
        ];
        let r = bradley_terry(&wins, &games);
        assert!(r[0].0 > r[1].0 && r[1].0 > r[2].0, "{r:?}");
        assert!(r.iter().all(|x| x.0.is_finite() && x.2.is_finite()));
    }
}
