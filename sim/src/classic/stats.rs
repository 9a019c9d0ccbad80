//! Statistics of a classic run, per agent (A and B, each a side's spec,
//! `rules` or `rules+greedy`): hand and match win rates with 95% Wilson
//! intervals, mean side scores, the paired score difference, how hands
//! ended (went out, stock out, capped), how the pile was taken, and what
//! failed "yes" answers cost its sides (C-18); per seat player too where a
//! side mixes players.

use super::pile::PICKUP_KINDS;
use super::rows::{ClassicHandRow, ClassicMatchRow};
use crate::stats::{fmt_opt, legend, num3, pct3, Mean, PairedDiff, Record};
use std::fmt::Write as _;
use std::sync::Arc;

/// How a classic hand ended, as `hands.csv`'s `end` names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClassicEndKind {
    /// A player went out (`went_out`).
    WentOut,
    /// A player went out concealed (`concealed`).
    Concealed,
    /// The stock ran out (`stock_out`).
    StockOut,
    /// The turn cap was reached (`stalled`; any name not above reads as
    /// this).
    #[default]
    Stalled,
}

impl ClassicEndKind {
    /// The name in `hands.csv`.
    pub fn name(self) -> &'static str {
        match self {
            ClassicEndKind::WentOut => "went_out",
            ClassicEndKind::Concealed => "concealed",
            ClassicEndKind::StockOut => "stock_out",
            ClassicEndKind::Stalled => "stalled",
        }
    }

    /// The end a `hands.csv` cell names.
    pub fn of_name(name: &str) -> ClassicEndKind {
        match name {
            "went_out" => ClassicEndKind::WentOut,
            "concealed" => ClassicEndKind::Concealed,
            "stock_out" => ClassicEndKind::StockOut,
            _ => ClassicEndKind::Stalled,
        }
    }
}

/// What the statistics read of one seat's classic hand: the cells of its
/// `hands.csv` row that [`ClassicStats`] counts, so that a run writing no
/// `hands.csv` builds no row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassicHandFacts {
    /// The seat.
    pub seat: u8,
    /// The swapped game of a pair.
    pub swapped: bool,
    /// The seat's player.
    pub agent: Arc<str>,
    /// Turns of the hand.
    pub turns: u32,
    /// How the hand ended.
    pub end: ClassicEndKind,
    /// This seat went out.
    pub went_out: bool,
    /// The seat's side won the hand.
    pub won: bool,
    /// The side's hand score.
    pub raw: i32,
    /// What the seat held at the end (minus).
    pub seat_in_hand: i32,
    /// What failed "yes" answers cost the side.
    pub failed_yes_points: i32,
    /// Draws.
    pub draws: u32,
    /// Turned-up pile cards.
    pub turned: u32,
    /// Turns a black three blocked.
    pub black_three_blocked: u32,
    /// Pickups by kind, in the order of [`PICKUP_KINDS`].
    pub kinds: [u32; 7],
    /// Cards taken with the pile.
    pub pile_taken_cards: u32,
}

impl ClassicHandFacts {
    /// The facts of a `hands.csv` row.
    pub fn of(r: &ClassicHandRow) -> ClassicHandFacts {
        ClassicHandFacts {
            seat: r.seat,
            swapped: r.swapped,
            agent: Arc::from(r.agent.as_str()),
            turns: r.turns,
            end: ClassicEndKind::of_name(&r.end),
            went_out: r.went_out,
            won: r.won,
            raw: r.raw,
            seat_in_hand: r.seat_in_hand,
            failed_yes_points: r.failed_yes_points,
            draws: r.draws,
            turned: r.turned,
            black_three_blocked: r.black_three_blocked,
            kinds: [
                r.pile_pair_open,
                r.pile_pair_frozen,
                r.pile_pair_unmelded,
                r.pile_natural_wild,
                r.pile_onto_meld,
                r.pile_wild_top,
                r.pile_black_three,
            ],
            pile_taken_cards: r.pile_taken_cards,
        }
    }
}

/// What the statistics read of one seat's classic match (its
/// `matches.csv` row).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassicMatchFacts {
    /// The seat.
    pub seat: u8,
    /// The swapped game of a pair.
    pub swapped: bool,
    /// Hands played.
    pub hands: u32,
    /// The match hit the hand cap.
    pub capped: bool,
    /// The seat's side won the match.
    pub won: bool,
}

impl ClassicMatchFacts {
    /// The facts of a `matches.csv` row.
    pub fn of(m: &ClassicMatchRow) -> ClassicMatchFacts {
        ClassicMatchFacts {
            seat: m.seat,
            swapped: m.swapped,
            hands: m.hands,
            capped: m.capped,
            won: m.won,
        }
    }
}

/// What one agent did.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct Agent {
    /// Hands and matches won, mean side score.
    record: Record,
    went_out: u64,
    concealed: u64,
    pile: Pile,
    failed_yes: FailedYes,
}

/// C-18: what failed "yes" answers cost an agent's sides (every seat row
/// of a side carries its side's points, so a mean over rows is a mean
/// over side-hands).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct FailedYes {
    /// Rows (seat-hands) counted.
    rows: u64,
    /// Rows whose side was charged.
    charged: u64,
    /// The points, summed over rows (minus).
    points: i64,
}

impl FailedYes {
    fn absorb(&mut self, o: &FailedYes) {
        self.rows += o.rows;
        self.charged += o.charged;
        self.points += o.points;
    }

    fn add(&mut self, r: &ClassicHandFacts) {
        self.rows += 1;
        self.charged += u64::from(r.failed_yes_points < 0);
        self.points += r.failed_yes_points as i64;
    }

    /// The share of the agent's side-hands charged.
    fn share(&self) -> Option<f64> {
        (self.rows > 0).then(|| self.charged as f64 / self.rows as f64)
    }

    /// The mean points a side-hand (minus).
    fn per_hand(&self) -> Option<f64> {
        (self.rows > 0).then(|| self.points as f64 / self.rows as f64)
    }
}

/// Turn beginnings summed over seats and hands.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct Pile {
    /// Seat-hands counted.
    seat_hands: u64,
    draws: u64,
    turned: u64,
    blocked: u64,
    kinds: [u64; 7],
    cards: u64,
}

impl Pile {
    fn absorb(&mut self, o: &Pile) {
        self.seat_hands += o.seat_hands;
        self.draws += o.draws;
        self.turned += o.turned;
        self.blocked += o.blocked;
        for (a, b) in self.kinds.iter_mut().zip(o.kinds) {
            *a += b;
        }
        self.cards += o.cards;
    }

    fn add(&mut self, r: &ClassicHandFacts) {
        self.seat_hands += 1;
        self.draws += r.draws as u64;
        self.turned += r.turned as u64;
        self.blocked += r.black_three_blocked as u64;
        for (k, n) in self.kinds.iter_mut().zip(r.kinds) {
            *k += n as u64;
        }
        self.cards += r.pile_taken_cards as u64;
    }

    fn pickups(&self) -> u64 {
        self.kinds.iter().sum()
    }

    fn per(&self, x: u64) -> Option<f64> {
        (self.seat_hands > 0).then(|| x as f64 / self.seat_hands as f64)
    }

    fn mean_cards(&self) -> Option<f64> {
        let n = self.pickups();
        (n > 0).then(|| self.cards as f64 / n as f64)
    }

    /// One line: draws, pickups by kind, the pile's size when taken.
    fn text(&self) -> String {
        let f = |x: u64| fmt_opt(self.per(x), 2);
        let kinds: Vec<String> = PICKUP_KINDS
            .iter()
            .zip(self.kinds)
            .filter(|(_, n)| *n > 0)
            .map(|(name, n)| format!("{} {}", &name[5..].replace('_', " "), f(n)))
            .collect();
        let mut s = format!(
            "{} draws, {} pickups ({})",
            f(self.draws),
            f(self.pickups()),
            if kinds.is_empty() {
                "none".to_string()
            } else {
                kinds.join(", ")
            }
        );
        if self.turned > 0 {
            s.push_str(&format!(", {} turned cards", f(self.turned)));
        }
        s.push_str(&format!(
            ", {} black-three blocks; pile {} cards when taken",
            f(self.blocked),
            fmt_opt(self.mean_cards(), 1)
        ));
        s
    }
}

/// One seat player of a side (a side of mixed players has several).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct SeatAgent {
    side: usize,
    name: String,
    went_out: u64,
    in_hand: Mean,
    pile: Pile,
}

/// Statistics of a classic series.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ClassicStats {
    /// Specs of agent A and agent B.
    pub agents: [String; 2],
    /// The series of the run (the summary's `series`).
    pub series: u32,
    /// The varied settings of a sweep (`minimum=004;players=3`), else empty.
    pub settings: String,
    /// Matches are played: [`Self::score`] and [`Self::rate`] count
    /// matches rather than hands.
    pub matches_mode: bool,
    players: usize,
    agent: [Agent; 2],
    games: u64,
    errors: u64,
    hands: u64,
    went_out: u64,
    stock_out: u64,
    stalled: u64,
    turns: Mean,
    matches: u64,
    capped: u64,
    match_hands: Mean,
    diff: PairedDiff,
    paired: bool,
    seat_agents: Vec<SeatAgent>,
}

/// The agent (0: A, 1: B) of a row: by its seat, since A and B may be
/// the same spec.
fn who(swapped: bool, seat: u8) -> usize {
    super::agent_of(seat as usize, swapped)
}

impl ClassicStats {
    /// Empty statistics.
    pub fn new(a: String, b: String, players: usize, paired: bool) -> ClassicStats {
        ClassicStats {
            agents: [a, b],
            series: 0,
            settings: String::new(),
            matches_mode: false,
            players,
            agent: Default::default(),
            games: 0,
            errors: 0,
            hands: 0,
            went_out: 0,
            stock_out: 0,
            stalled: 0,
            turns: Mean::default(),
            matches: 0,
            capped: 0,
            match_hands: Mean::default(),
            diff: PairedDiff::default(),
            paired,
            seat_agents: Vec::new(),
        }
    }

    /// Takes in the statistics of the same series from another shard of
    /// the run: the result is the statistics of both shards' games (seat
    /// players this one has not met come after its own).
    pub fn absorb(&mut self, o: &ClassicStats) {
        for (a, b) in self.agent.iter_mut().zip(&o.agent) {
            a.record.absorb(&b.record);
            a.went_out += b.went_out;
            a.concealed += b.concealed;
            a.pile.absorb(&b.pile);
            a.failed_yes.absorb(&b.failed_yes);
        }
        self.games += o.games;
        self.errors += o.errors;
        self.hands += o.hands;
        self.went_out += o.went_out;
        self.stock_out += o.stock_out;
        self.stalled += o.stalled;
        self.turns.absorb(&o.turns);
        self.matches += o.matches;
        self.capped += o.capped;
        self.match_hands.absorb(&o.match_hands);
        self.diff.absorb(&o.diff);
        for b in &o.seat_agents {
            match self
                .seat_agents
                .iter_mut()
                .find(|a| a.side == b.side && a.name == b.name)
            {
                Some(a) => {
                    a.went_out += b.went_out;
                    a.in_hand.absorb(&b.in_hand);
                    a.pile.absorb(&b.pile);
                }
                None => self.seat_agents.push(b.clone()),
            }
        }
    }

    /// A game lost to an error.
    pub fn add_error(&mut self) {
        self.games += 1;
        self.errors += 1;
    }

    /// A finished game: its hand rows (one per seat per hand) and match
    /// rows (one per seat, matches mode).
    pub fn add_game(
        &mut self,
        deal: u64,
        hands: &[ClassicHandFacts],
        matches: &[ClassicMatchFacts],
    ) {
        self.games += 1;
        let mut diff = Mean::default();
        for hand in hands.chunks(self.players) {
            let first = &hand[0];
            self.hands += 1;
            self.turns.add(first.turns as f64);
            match first.end {
                ClassicEndKind::WentOut | ClassicEndKind::Concealed => self.went_out += 1,
                ClassicEndKind::StockOut => self.stock_out += 1,
                ClassicEndKind::Stalled => self.stalled += 1,
            }
            // Each agent's mean side score over its seats' sides.
            let mut sum = [0.0f64; 2];
            let mut n = [0.0f64; 2];
            let mut winner = None;
            for r in hand {
                let i = who(r.swapped, r.seat);
                sum[i] += r.raw as f64;
                n[i] += 1.0;
                self.agent[i].pile.add(r);
                self.agent[i].failed_yes.add(r);
                self.add_seat_agent(i, r);
                if r.went_out {
                    self.agent[i].went_out += 1;
                    if r.end == ClassicEndKind::Concealed {
                        self.agent[i].concealed += 1;
                    }
                }
                if r.won {
                    winner = Some(i);
                }
            }
            for i in 0..2 {
                let r = &mut self.agent[i].record;
                r.hands += 1;
                if n[i] > 0.0 {
                    r.raw.add(sum[i] / n[i]);
                }
            }
            match winner {
                Some(i) => self.agent[i].record.wins += 1,
                None => {
                    self.agent[0].record.ties += 1;
                    self.agent[1].record.ties += 1;
                }
            }
            if n[0] > 0.0 && n[1] > 0.0 {
                diff.add(sum[0] / n[0] - sum[1] / n[1]);
            }
        }
        if let Some(d) = diff.mean() {
            self.diff.add(deal, d);
        }
        if let Some(m) = matches.first() {
            self.matches += 1;
            self.match_hands.add(m.hands as f64);
            if m.capped {
                self.capped += 1;
            }
            match matches.iter().find(|r| r.won) {
                Some(r) => self.agent[who(r.swapped, r.seat)].record.match_wins += 1,
                None => {
                    self.agent[0].record.match_draws += 1;
                    self.agent[1].record.match_draws += 1;
                }
            }
            self.agent[0].record.matches += 1;
            self.agent[1].record.matches += 1;
        }
    }

    fn add_seat_agent(&mut self, side: usize, r: &ClassicHandFacts) {
        let k = match self
            .seat_agents
            .iter()
            .position(|a| a.side == side && *a.name == *r.agent)
        {
            Some(k) => k,
            None => {
                self.seat_agents.push(SeatAgent {
                    side,
                    name: r.agent.to_string(),
                    went_out: 0,
                    in_hand: Mean::default(),
                    pile: Pile::default(),
                });
                self.seat_agents.len() - 1
            }
        };
        let a = &mut self.seat_agents[k];
        a.went_out += u64::from(r.went_out);
        a.in_hand.add(r.seat_in_hand as f64);
        a.pile.add(r);
    }

    /// Takes in an unpaired last game.
    pub fn finish(&mut self) {
        self.diff.finish();
    }

    /// What agent `i` (0: A, 1: B) scored against the other, and of how
    /// many: matches won (C-24) when matches are played, else hands won
    /// (the higher side score, C-23); ties and draws half.
    pub fn score(&self, i: usize) -> (f64, f64) {
        self.agent[i].record.score(self.matches_mode)
    }

    /// The rate of [`Self::score`] with its Wilson 95% interval.
    pub fn rate(&self, i: usize) -> Option<(f64, f64, f64)> {
        self.agent[i].record.rate(self.matches_mode)
    }

    /// The mean paired difference of points per hand, from agent `i`'s
    /// side, with its 95% interval.
    pub fn diff(&self, i: usize) -> Option<(f64, f64, f64)> {
        self.diff.of(i)
    }

    fn share(&self, x: u64) -> String {
        fmt_opt((self.hands > 0).then(|| x as f64 / self.hands as f64), 4)
    }

    /// The columns of a classic `summary.csv`.
    pub fn columns() -> Vec<&'static str> {
        vec![
            "series", "agent", "side", "opponent", "players", "games", "errors",
        ]
        .into_iter()
        .chain(Record::COLUMNS)
        .chain(PairedDiff::COLUMNS)
        .chain([
            "out_share",
            "out_concealed",
            "ended_out_share",
            "stock_out_share",
            "stalled_share",
            "mean_turns",
            "mean_match_hands",
            "capped_share",
            "seat_hands",
            "draws_per_seat_hand",
            "turned_per_seat_hand",
            "black_three_blocked_per_seat_hand",
            "pickups_per_seat_hand",
            "pile_pair_open_per_seat_hand",
            "pile_pair_frozen_per_seat_hand",
            "pile_pair_unmelded_per_seat_hand",
            "pile_natural_wild_per_seat_hand",
            "pile_onto_meld_per_seat_hand",
            "pile_wild_top_per_seat_hand",
            "pile_black_three_per_seat_hand",
            "mean_pile_taken",
            "failed_yes_share",
            "failed_yes_per_hand",
            "settings",
        ])
        .collect()
    }

    /// The summary row of agent `i` (0: A, 1: B) in [`Self::columns`] order.
    pub fn cells(&self, i: usize) -> Vec<String> {
        let a = &self.agent[i];
        let mut v = vec![
            self.series.to_string(),
            self.agents[i].clone(),
            ["a", "b"][i].to_string(),
            self.agents[1 - i].clone(),
            self.players.to_string(),
            self.games.to_string(),
            self.errors.to_string(),
        ];
        a.record.push_cells(&mut v);
        self.diff.push_cells(&mut v, i);
        v.push(self.share(a.went_out));
        v.push(self.share(a.concealed));
        v.push(self.share(self.went_out));
        v.push(self.share(self.stock_out));
        v.push(self.share(self.stalled));
        v.push(fmt_opt(self.turns.mean(), 2));
        v.push(fmt_opt(self.match_hands.mean(), 2));
        v.push(fmt_opt(
            (self.matches > 0).then(|| self.capped as f64 / self.matches as f64),
            4,
        ));
        let p = &a.pile;
        v.push(p.seat_hands.to_string());
        for x in [p.draws, p.turned, p.blocked, p.pickups()] {
            v.push(fmt_opt(p.per(x), 4));
        }
        for k in p.kinds {
            v.push(fmt_opt(p.per(k), 4));
        }
        v.push(fmt_opt(p.mean_cards(), 2));
        v.push(fmt_opt(a.failed_yes.share(), 4));
        v.push(fmt_opt(a.failed_yes.per_hand(), 2));
        v.push(self.settings.clone());
        v
    }

    /// The report's table and legend.
    pub fn table(&self, out: &mut String, seating: &str) {
        let matches = self.matches > 0;
        let _ = writeln!(
            out,
            "{:<12} {:>7}  {:<24} {:<24}{}  {:>8}",
            "agent",
            "hands",
            "hand wins [95%]",
            "points/hand [95%]",
            if matches {
                "  match wins [95%]        "
            } else {
                ""
            },
            "went out"
        );
        for i in 0..2 {
            let a = &self.agent[i];
            let _ = writeln!(
                out,
                "{:<12} {:>7}  {:<24} {:<24}{}  {:>7.1}%",
                self.agents[i],
                self.hands,
                pct3(a.record.hand_rate()),
                num3(a.record.raw.interval()),
                if matches {
                    format!("  {:<24}", pct3(a.record.match_rate()))
                } else {
                    String::new()
                },
                100.0 * a.went_out as f64 / (self.hands.max(1)) as f64
            );
        }
        let _ = writeln!(
            out,
            "{} − {}: {} points per hand over {} {}",
            self.agents[0],
            self.agents[1],
            num3(self.diff.interval()),
            self.diff.n(),
            if self.paired { "paired deals" } else { "games" }
        );
        let pct = |x: u64| 100.0 * x as f64 / self.hands.max(1) as f64;
        let _ = writeln!(
            out,
            "{} hands: went out {:.1}%, stock out {:.1}%, capped {:.1}%; turns per hand: mean {}",
            self.hands,
            pct(self.went_out),
            pct(self.stock_out),
            pct(self.stalled),
            fmt_opt(self.turns.mean(), 1)
        );
        if matches {
            let _ = writeln!(
                out,
                "{} matches to the target (C-12, C-24): mean {} hands, {:.1}% capped by max_hands (I-31)",
                self.matches,
                fmt_opt(self.match_hands.mean(), 1),
                100.0 * self.capped as f64 / self.matches as f64
            );
        }
        let _ = writeln!(out, "seats: {seating}");
        let _ = writeln!(out, "the pile, per seat and hand (C-7, C-13 … C-16):");
        for i in 0..2 {
            let _ = writeln!(
                out,
                "  {:<12} {}",
                self.agents[i],
                self.agent[i].pile.text()
            );
        }
        if self.players == 4 {
            let _ = writeln!(out, "failed \"yes\" (C-18), per side and hand:");
            for i in 0..2 {
                let f = &self.agent[i].failed_yes;
                let _ = writeln!(
                    out,
                    "  {:<12} {} points, charged in {}% of hands",
                    self.agents[i],
                    fmt_opt(f.per_hand(), 1),
                    fmt_opt(f.share().map(|x| 100.0 * x), 1)
                );
            }
        }
        for i in 0..2 {
            let players: Vec<&SeatAgent> =
                self.seat_agents.iter().filter(|a| a.side == i).collect();
            if players.len() < 2 {
                continue;
            }
            let _ = writeln!(out, "seat players of {}:", self.agents[i]);
            for a in players {
                let _ = writeln!(
                    out,
                    "  {:<12} {} seat-hands, went out {:.1}%, own cards left {} points; {}",
                    a.name,
                    a.pile.seat_hands,
                    100.0 * a.went_out as f64 / a.pile.seat_hands.max(1) as f64,
                    fmt_opt(a.in_hand.mean(), 1),
                    a.pile.text()
                );
            }
        }
        let mut l: Vec<(&str, String)> = vec![
                ("hands", "hands played".into()),
                (
                    "hand wins",
                    "share of hands whose highest side score (C-23) was a side of the agent's, ties half; Wilson 95% interval".into(),
                ),
                (
                    "points/hand",
                    "mean hand score (C-23) of the agent's side (of its sides' mean when it holds several), 95% interval".into(),
                ),
                ("went out", "share of hands the agent ended by going out (C-10)".into()),
                (
                    "A − B",
                    "mean difference of the agents' hand scores, averaged per paired deal".into(),
                ),
                (
                    "stock out",
                    "the stock ran out and nobody went out (C-11, C-23); capped: the turn cap (I-5)".into(),
                ),
                (
                    "the pile",
                    "per seat and hand: draws from the stock; pickups by way (a natural pair on an open pile, a frozen one, or one closed to a side that has not melded; a natural and a wild; the top card onto a meld; a wild on top; a black three going out); 004's turned card; turns begun with a black three on top; the pile's mean size when taken".into(),
                ),
        ];
        if self.players == 4 {
            l.push((
                "failed \"yes\"",
                "the 100 a side loses when its player, told \"yes\" to \"may I go out?\", does not go out (C-18): mean points per side and hand, and the share of the agent's side-hands charged".into(),
            ));
        }
        if matches {
            l.insert(
                3,
                (
                    "match wins",
                    "share of matches won (C-24), draws (I-31) half".into(),
                ),
            );
        }
        legend(out, &l);
    }
}
