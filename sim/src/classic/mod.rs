//! The runner's classic path: `kanaszta play` and `kanaszta bench` under
//! `--rules classic-…`. Games are played by the same executor as decorated
//! runs ([`run::execute_games`]: parallel, deterministic per game,
//! written in game order); the plan, the rows and the statistics are
//! classic's own.
//!
//! Seating: agent A sits in the even seats (0, 2, 4), agent B in the odd
//! ones, and the paired game of a deal swaps them. With four players that
//! is A holding side 0 (seats 0 and 2, C-20) and B side 1; with 2, 3, 5 or
//! 6 every player plays alone and the agents alternate round the table.
//! A side may mix players (`--a rules+greedy`): one spec per seat of the
//! side, in seat order ([`SideSpec`]); the swap moves the side whole.

mod pile;
mod rows;
pub mod run;
mod stats;

pub use pile::PileCounts;
pub use rows::{hand_rows, ClassicErrorRow, ClassicHandRow, ClassicMatchRow, HandIds, SeatNames};
pub use stats::{ClassicEndKind, ClassicHandFacts, ClassicMatchFacts, ClassicStats};

use crate::error::CliError;
use crate::run::{Mode, Played, Rows, RunResult, Sink};
use kanaszta_agents::classic::play::{play_classic_match_observed, ClassicAgentError};
use kanaszta_agents::{play_turns_observed, seat_rng, HandPlay};
use kanaszta_agents::{Agent, AgentSpec};
use kanaszta_engine::classic::{
    ClassicMatch, ClassicMatchResult, ClassicRules, ClassicState, CLASSIC_MAX_PLAYERS,
};
use kanaszta_engine::seed;
use pile::PileObserver;
pub use rows::classic_rule_values;
use std::path::Path;
use std::sync::Arc;

/// The agent (0: A, 1: B) in `seat`: A in the even seats unless swapped.
pub fn agent_of(seat: usize, swapped: bool) -> usize {
    (seat % 2) ^ usize::from(swapped)
}

/// One side's players (`--a`, `--b`): one spec for every seat of the
/// side, or one per seat in seat order joined by `+` (`rules+greedy`: the
/// side's first seat plays rules, its second greedy).
pub struct SideSpec {
    parts: Vec<AgentSpec<ClassicState>>,
    name: String,
}

impl SideSpec {
    /// One player in every seat of the side.
    pub fn single(spec: AgentSpec<ClassicState>) -> SideSpec {
        SideSpec {
            name: spec.to_string(),
            parts: vec![spec],
        }
    }

    /// Parses `text`, split on `+` first, each part by `parse_one`.
    pub fn parse(
        text: &str,
        parse_one: impl Fn(&str) -> Result<AgentSpec<ClassicState>, CliError>,
    ) -> Result<SideSpec, CliError> {
        if !text.contains('+') {
            return parse_one(text).map(SideSpec::single);
        }
        let mut parts = Vec::new();
        for part in text.split('+') {
            if part.trim().is_empty() {
                return Err(CliError::Input(format!(
                    "side `{text}` has an empty player: a side is one player spec, or one per \
                     seat of the side joined by `+` (e.g. rules+greedy)"
                )));
            }
            parts.push(parse_one(part.trim())?);
        }
        let name = parts
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join("+");
        Ok(SideSpec { parts, name })
    }

    /// Checks the spec of `flag` (`--a`) against the table: one spec, or
    /// one per seat of the side.
    pub fn check(&self, flag: &str, players: usize) -> Result<(), CliError> {
        let n = self.parts.len();
        if n == 1 {
            return Ok(());
        }
        if players % 2 == 1 {
            return Err(CliError::Input(format!(
                "{flag} {}: with {players} players every player plays alone and the two \
                 agents hold {} and {} seats by turns, so a side cannot name one player per \
                 seat; give one player spec (without `+`), or an even number of players",
                self.name,
                players / 2 + 1,
                players / 2
            )));
        }
        let seats = players / 2;
        if seats == 1 {
            return Err(CliError::Input(format!(
                "{flag} {}: with {players} players a side is one player; give one player \
                 spec (without `+`), or --set players=4 for partnerships (C-20)",
                self.name
            )));
        }
        if n != seats {
            let held = if players == 4 {
                " (partners in seats 0 and 2, or 1 and 3, C-20)".to_string()
            } else {
                String::new()
            };
            return Err(CliError::Input(format!(
                "{flag} {}: names {n} players, but with {players} players a side holds \
                 {seats} seats{held}; give one player for every seat, or {seats} joined by \
                 `+` in seat order",
                self.name,
            )));
        }
        Ok(())
    }

    /// The spec as written back (`rules+greedy`, or `rules`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The player of the side's `k`-th seat (in seat order).
    pub fn spec(&self, k: usize) -> &AgentSpec<ClassicState> {
        &self.parts[if self.parts.len() == 1 { 0 } else { k }]
    }
}

/// A classic agent spec (`--a`, `--b` under classic rules).
pub fn parse_classic_agent(text: &str) -> Result<AgentSpec<ClassicState>, CliError> {
    text.parse()
        .map_err(|e: kanaszta_agents::SpecError| CliError::Input(e.to_string()))
}

/// A classic side spec (`--a`, `--b` under classic rules): one player
/// spec, or one per seat of the side joined by `+` (`rules+greedy`);
/// split on `+` before each part is parsed.
pub fn parse_classic_side(text: &str) -> Result<SideSpec, CliError> {
    SideSpec::parse(text, parse_classic_agent)
}

/// Which seats each agent holds, for the report.
pub fn seating_text(players: usize, names: &[String; 2]) -> String {
    let seats = |i: usize| {
        (0..players)
            .filter(|&p| agent_of(p, false) == i)
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let how = if players == 4 {
        "partnerships (C-20): side 0 is seats 0 and 2"
    } else {
        "every player alone"
    };
    format!(
        "{players} players, {how}; {} in seats {}, {} in seats {}, swapped in the paired game",
        names[0],
        seats(0),
        names[1],
        seats(1)
    )
}

/// A checked classic run: the rules, the two agents, the games.
pub struct ClassicPlan {
    /// The master seed.
    pub seed: u64,
    /// Hands or matches.
    pub mode: Mode,
    /// Games (hands or matches).
    pub games: u64,
    /// Each deal played twice with the agents swapped.
    pub paired: bool,
    /// The rules.
    pub rules: ClassicRules,
    sides: [SideSpec; 2],
    /// The agents' names, A then B.
    pub names: [String; 2],
    rule_values: Arc<[String]>,
    /// Each seat's player, unswapped then swapped.
    seat_names: [Vec<Arc<str>>; 2],
    /// The series of the run this plan plays (0 for `play`).
    pub series: u32,
}

/// What [`ClassicPlan::play_wrapped`] puts round each seat's agent,
/// given its side (0: A, 1: B).
pub type Wrap<'a> =
    &'a mut dyn FnMut(usize, Box<dyn Agent<ClassicState>>) -> Box<dyn Agent<ClassicState>>;

/// One finished classic game.
#[derive(Debug, Default)]
pub struct ClassicGame {
    series: u32,
    deal: u64,
    /// Seats of a hand.
    players: usize,
    /// What the statistics take of each seat's hand (none if the game
    /// erred).
    facts: Vec<ClassicHandFacts>,
    /// What the statistics take of each seat's match (matches mode).
    match_facts: Vec<ClassicMatchFacts>,
    /// One row per seat and hand (none if the game erred, or the run
    /// writes no `hands.csv`).
    hands: Vec<ClassicHandRow>,
    /// One row per seat for a match (none unless the run writes
    /// `matches.csv`).
    matches: Vec<ClassicMatchRow>,
    error: Option<ClassicErrorRow>,
    actions: u64,
    hand_count: u64,
}

impl Played for ClassicGame {
    fn actions(&self) -> u64 {
        self.actions
    }
    fn hands(&self) -> u64 {
        self.hand_count
    }
    fn error(&self) -> Option<String> {
        self.error
            .as_ref()
            .map(|e| format!("game {}: {}", e.game, e.message))
    }
}

impl crate::sprt::SprtGame for ClassicGame {
    fn errored(&self) -> bool {
        self.error.is_some()
    }

    /// Per hand, as the summary's `mean_diff` counts it: A's mean side
    /// score (C-23) over A's seats minus B's over B's (with four players,
    /// A's partnership's score minus B's, C-20); the hand won by the agent
    /// of the winning side's seats, a tie half.
    fn tally(&self) -> crate::sprt::Tally {
        let mut t = crate::sprt::Tally::default();
        let players = self.players;
        if players == 0 || self.facts.is_empty() {
            return t;
        }
        for hand in self.facts.chunks(players) {
            let mut sum = [0.0f64; 2];
            let mut n = [0.0f64; 2];
            let mut winner = None;
            for r in hand {
                let i = agent_of(r.seat as usize, r.swapped);
                sum[i] += r.raw as f64;
                n[i] += 1.0;
                if r.won {
                    winner = Some(i);
                }
            }
            if n[0] == 0.0 || n[1] == 0.0 {
                continue;
            }
            t.hands += 1;
            t.margin += sum[0] / n[0] - sum[1] / n[1];
            t.won += match winner {
                Some(0) => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
        t
    }
}

impl ClassicPlan {
    /// A plan; the rules are validated, and the sides against them.
    pub fn new(
        rules: ClassicRules,
        sides: [SideSpec; 2],
        mode: Mode,
        games: u64,
        seed: u64,
        paired: bool,
    ) -> Result<ClassicPlan, CliError> {
        rules
            .validate()
            .map_err(|e| CliError::Input(e.to_string()))?;
        sides[0].check("--a", rules.players as usize)?;
        sides[1].check("--b", rules.players as usize)?;
        let seat_names = [false, true].map(|swapped| {
            (0..rules.players as usize)
                .map(|p| Arc::from(sides[agent_of(p, swapped)].spec(p / 2).to_string()))
                .collect()
        });
        Ok(ClassicPlan {
            seat_names,
            seed,
            mode,
            games,
            paired,
            rules,
            names: [sides[0].name().to_string(), sides[1].name().to_string()],
            sides,
            rule_values: classic_rule_values(&rules),
            series: 0,
        })
    }

    /// Which seats each agent holds and, for a side of mixed players,
    /// who plays in which seat (unswapped), for the report.
    pub fn seating(&self) -> String {
        let players = self.rules.players as usize;
        let mut text = seating_text(players, &self.names);
        for (i, side) in self.sides.iter().enumerate() {
            if side.parts.len() > 1 {
                let who: Vec<String> = (0..players)
                    .filter(|&p| agent_of(p, false) == i)
                    .map(|p| format!("{} in seat {p}", self.seat_spec(p, false)))
                    .collect();
                text.push_str(&format!("; {}: {}", side.name, who.join(", ")));
            }
        }
        text
    }

    /// The player of seat `p`: its agent's side spec, at the seat's place
    /// among the agent's seats (they alternate, so `p / 2`).
    fn seat_spec(&self, p: usize, swapped: bool) -> &AgentSpec<ClassicState> {
        self.sides[agent_of(p, swapped)].spec(p / 2)
    }

    fn deal(&self, g: u64) -> u64 {
        if self.paired {
            g / 2
        } else {
            g
        }
    }

    fn swapped(&self, g: u64) -> bool {
        self.paired && g % 2 == 1
    }

    /// Empty statistics.
    pub fn new_stats(&self) -> ClassicStats {
        ClassicStats::new(
            self.names[0].clone(),
            self.names[1].clone(),
            self.rules.players as usize,
            self.paired,
        )
    }

    /// Plays every game on `threads` threads into `sink`.
    pub fn execute(
        &self,
        threads: usize,
        sink: &mut impl Sink<ClassicGame>,
        quiet: bool,
    ) -> Result<RunResult, crate::error::RunError> {
        crate::run::execute_games(
            (0..self.games).map(|g| (0, g)),
            self.games,
            self.mode.name(),
            |_, g| self.play(g),
            sink,
            threads,
            quiet,
            crate::run::REORDER_WINDOW,
            None,
        )
    }

    /// Plays game `g`; a panic becomes an error row of the game.
    pub fn play(&self, g: u64) -> ClassicGame {
        self.play_rows(g, Rows::All)
    }

    /// Plays game `g`, building the rows `rows` asks for (the statistics'
    /// facts always); a panic becomes an error row of the game.
    pub fn play_rows(&self, g: u64, rows: Rows) -> ClassicGame {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.play_unguarded(g, None, rows)
        }));
        r.unwrap_or_else(|p| {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            ClassicGame {
                series: self.series,
                deal: self.deal(g),
                error: Some(self.error_row(g, 0, None, format!("panic: {msg}"))),
                ..ClassicGame::default()
            }
        })
    }

    fn error_row(
        &self,
        g: u64,
        hand: u32,
        e: Option<&ClassicAgentError>,
        message: String,
    ) -> ClassicErrorRow {
        ClassicErrorRow {
            series: self.series,
            game: g,
            deal: self.deal(g),
            swapped: self.swapped(g),
            mode: self.mode.name().into(),
            hand,
            run_seed: self.seed,
            deal_seed: seed::deal(self.seed, self.deal(g)),
            seat: e.map(|e| e.player as u8),
            agent: e.map_or(String::new(), |e| e.agent.clone()),
            turn: e.map(|e| e.turn),
            action: e
                .and_then(|e| e.action)
                .map_or(String::new(), |a| a.to_string()),
            rule: e.map_or(String::new(), |e| e.error.rule.to_string()),
            message,
            rules: self.rule_values.clone(),
        }
    }

    fn agents(&self, swapped: bool) -> Vec<Box<dyn Agent<ClassicState>>> {
        (0..self.rules.players as usize)
            .map(|p| self.seat_spec(p, swapped).build())
            .collect()
    }

    /// Plays game `g` as [`Self::play`] does, each seat's agent first
    /// passed to `wrap` with its side (0: A, 1: B); a panic is not caught.
    pub fn play_wrapped(&self, g: u64, wrap: Wrap<'_>) -> ClassicGame {
        self.play_unguarded(g, Some(wrap), Rows::All)
    }

    fn play_unguarded(&self, g: u64, wrap: Option<Wrap<'_>>, built: Rows) -> ClassicGame {
        let deal = self.deal(g);
        let swapped = self.swapped(g);
        let deal_seed = seed::deal(self.seed, deal);
        let players = self.rules.players as usize;
        let mut agents = self.agents(swapped);
        if let Some(wrap) = wrap {
            agents = agents
                .into_iter()
                .enumerate()
                .map(|(p, a)| wrap(agent_of(p, swapped), a))
                .collect();
        }
        let mut pile = PileObserver::default();
        let rngs_of = |hand: u32| {
            let s = seed::match_hand(deal_seed, hand);
            (0..players).map(|p| seat_rng(s, p)).collect::<Vec<_>>()
        };
        let mut out = ClassicGame {
            series: self.series,
            deal,
            ..ClassicGame::default()
        };
        let mut m = ClassicMatch::new(self.rules, deal_seed);
        let mut hand_wins = [0u32; 6];
        let mut rows = Vec::new();
        let mut facts = Vec::new();
        let mut actions = 0;
        let r = match self.mode {
            Mode::Hands => {
                let mut hand = m.next_hand();
                let mut rngs = rngs_of(0);
                play_turns_observed(&mut hand, &mut agents, &mut rngs, &mut pile).map(|play| {
                    let before = [0; 6];
                    m.record(&hand);
                    actions = play.actions;
                    let pile = pile.take();
                    let rows = (built == Rows::All).then_some(&mut rows);
                    self.hand_out(rows, &mut facts, g, 0, &hand, &before, play, &pile);
                })
            }
            Mode::Matches => {
                let mut before = [0i32; 6];
                play_classic_match_observed(
                    &mut m,
                    &mut agents,
                    rngs_of,
                    &mut pile,
                    |hand, m, play, pile| {
                        let index = m.hands_played() - 1;
                        actions += play.actions;
                        let pile = pile.take();
                        let rows = (built == Rows::All).then_some(&mut rows);
                        if let Some(w) =
                            self.hand_out(rows, &mut facts, g, index, hand, &before, play, &pile)
                        {
                            hand_wins[w] += 1;
                        }
                        before[..m.totals().len()].copy_from_slice(m.totals());
                    },
                )
            }
        };
        match r {
            Ok(()) => {
                out.actions = actions;
                out.players = players;
                out.hand_count = facts.len() as u64 / players as u64;
                out.hands = rows;
                out.facts = facts;
                if self.mode == Mode::Matches {
                    out.match_facts = self.match_facts(g, &m);
                    if built != Rows::None {
                        out.matches = self.match_rows(g, &m, &hand_wins);
                    }
                }
            }
            Err(e) => {
                out.error = Some(self.error_row(g, m.hands_played(), Some(&e), e.to_string()));
            }
        }
        out
    }

    /// Appends the facts of a finished hand, and its rows to `rows` when
    /// given; returns the winning side.
    #[allow(clippy::too_many_arguments)]
    fn hand_out(
        &self,
        rows: Option<&mut Vec<ClassicHandRow>>,
        facts: &mut Vec<ClassicHandFacts>,
        g: u64,
        index: u32,
        hand: &ClassicState,
        before: &[i32; 6],
        play: HandPlay,
        pile: &[PileCounts; CLASSIC_MAX_PLAYERS],
    ) -> Option<usize> {
        let swapped = self.swapped(g);
        let ids = HandIds {
            series: self.series,
            game: g,
            deal: self.deal(g),
            swapped,
            mode: self.mode,
            run_seed: self.seed,
            deal_seed: seed::deal(self.seed, self.deal(g)),
            rules: &self.rule_values,
        };
        let names = |p: usize| SeatNames {
            agent: self.seat_spec(p, swapped).to_string(),
            opponent: self.names[1 - agent_of(p, swapped)].clone(),
            side_agents: self.names[agent_of(p, swapped)].clone(),
        };
        let agent = |p: usize| Arc::clone(&self.seat_names[usize::from(swapped)][p]);
        rows::hand_out(
            rows,
            facts,
            &ids,
            agent,
            names,
            index,
            hand,
            before,
            play.actions,
            pile,
        )
    }

    /// What the statistics take of a finished match, seat by seat: the
    /// facts of its `matches.csv` rows ([`Self::match_rows`]).
    fn match_facts(&self, g: u64, m: &ClassicMatch) -> Vec<ClassicMatchFacts> {
        let swapped = self.swapped(g);
        let winner = match m.result() {
            ClassicMatchResult::Won(s) => Some(s),
            _ => None,
        };
        let capped = m.hands_played() >= self.rules.max_hands
            && m.totals().iter().all(|&t| t < self.rules.target);
        (0..self.rules.players as usize)
            .map(|p| ClassicMatchFacts {
                seat: p as u8,
                swapped,
                hands: m.hands_played(),
                capped,
                won: winner == Some(self.rules.side_of(p) as u8),
            })
            .collect()
    }

    fn match_rows(&self, g: u64, m: &ClassicMatch, hand_wins: &[u32; 6]) -> Vec<ClassicMatchRow> {
        let swapped = self.swapped(g);
        let totals = m.totals();
        let winner = match m.result() {
            ClassicMatchResult::Won(s) => Some(s),
            _ => None,
        };
        let capped = m.hands_played() >= self.rules.max_hands
            && totals.iter().all(|&t| t < self.rules.target);
        (0..self.rules.players as usize)
            .map(|p| {
                let side = self.rules.side_of(p);
                ClassicMatchRow {
                    series: self.series,
                    game: g,
                    deal: self.deal(g),
                    swapped,
                    run_seed: self.seed,
                    deal_seed: seed::deal(self.seed, self.deal(g)),
                    seat: p as u8,
                    side: side as u8,
                    agent: self.seat_spec(p, swapped).to_string(),
                    opponent: self.names[1 - agent_of(p, swapped)].clone(),
                    hands: m.hands_played(),
                    capped,
                    winner,
                    won: winner == Some(side as u8),
                    total: totals[side],
                    opponent_total: (0..totals.len())
                        .filter(|&s| s != side)
                        .map(|s| totals[s])
                        .max()
                        .unwrap_or(0),
                    hand_wins: hand_wins[side],
                    rules: self.rule_values.clone(),
                    side_agents: self.names[agent_of(p, swapped)].clone(),
                }
            })
            .collect()
    }
}

/// The statistics (one per series) and (optionally) the CSV files of a
/// classic run.
pub struct ClassicSink<'a> {
    /// The statistics, one per series.
    pub stats: &'a mut [ClassicStats],
    files: Option<run::ClassicFiles>,
}

impl<'a> ClassicSink<'a> {
    /// Statistics only (`bench`).
    pub fn counting(stats: &'a mut ClassicStats) -> ClassicSink<'a> {
        ClassicSink {
            stats: std::slice::from_mut(stats),
            files: None,
        }
    }

    /// Statistics and `hands.csv`, `errors.csv` (and in matches mode
    /// `matches.csv`) in `dir`.
    pub fn files(
        stats: &'a mut [ClassicStats],
        dir: &Path,
        mode: Mode,
        written: crate::run::Written,
    ) -> Result<ClassicSink<'a>, CliError> {
        Ok(ClassicSink {
            stats,
            files: Some(run::ClassicFiles::open_as(dir, mode, written)?),
        })
    }
}

impl ClassicSink<'_> {
    /// The rows the sink's files take (none without files).
    pub fn rows(&self) -> Rows {
        self.files
            .as_ref()
            .map_or(Rows::None, run::ClassicFiles::rows)
    }
}

impl Sink<ClassicGame> for ClassicSink<'_> {
    fn take(&mut self, g: &ClassicGame) -> std::io::Result<()> {
        let st = &mut self.stats[g.series as usize];
        if g.error.is_some() {
            st.add_error();
        } else {
            st.add_game(g.deal, &g.facts, &g.match_facts);
        }
        if let Some(f) = &mut self.files {
            f.game(&g.hands, &g.matches, g.error.as_ref());
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.files {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }

    fn finish(&mut self) -> std::io::Result<()> {
        match &mut self.files {
            Some(f) => f.finish(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprt::SprtGame;

    /// Games of greedy against a mixed side, four players, in `mode`.
    fn plan(mode: Mode) -> ClassicPlan {
        let mut rules = ClassicRules::default();
        rules.set("players", "4").expect("four players");
        let sides = [
            parse_classic_side("greedy").expect("a side"),
            parse_classic_side("rules+greedy").expect("a side"),
        ];
        ClassicPlan::new(rules, sides, mode, 4, 11, true).expect("a valid plan")
    }

    #[test]
    fn the_statistics_facts_are_those_of_the_rows_whichever_rows_are_built() {
        for mode in [Mode::Hands, Mode::Matches] {
            let p = plan(mode);
            for g in 0..4 {
                let all = p.play_rows(g, Rows::All);
                assert!(all.error.is_none() && !all.hands.is_empty());
                let of_rows: Vec<ClassicHandFacts> =
                    all.hands.iter().map(ClassicHandFacts::of).collect();
                assert_eq!(all.facts, of_rows, "{mode} game {g}: hand facts");
                let of_matches: Vec<ClassicMatchFacts> =
                    all.matches.iter().map(ClassicMatchFacts::of).collect();
                assert_eq!(all.match_facts, of_matches, "{mode} game {g}: match facts");
                assert_eq!(all.matches.len(), if mode == Mode::Matches { 4 } else { 0 });
                for rows in [Rows::Matches, Rows::None] {
                    let some = p.play_rows(g, rows);
                    assert!(some.hands.is_empty(), "{mode} game {g}: no hand row built");
                    let matches = if rows == Rows::Matches {
                        all.matches.len()
                    } else {
                        0
                    };
                    assert_eq!(some.matches.len(), matches, "{mode} game {g}");
                    assert_eq!(some.facts, all.facts);
                    assert_eq!(some.match_facts, all.match_facts);
                    assert_eq!(
                        (some.actions, some.hand_count),
                        (all.actions, all.hand_count)
                    );
                    assert_eq!(some.tally(), all.tally(), "{mode} game {g}: tally");
                }
            }
        }
    }
}
