//! A game's plan: the decorated [`Plan`] (series × games, paired seats,
//! shards) validated from a manifest, and one game of it set up and played
//! from its indices alone into a [`GameOut`].
//!
//! Determinism: game `g` of series `s` depends only on the plan and `(s, g)`:
//! its deal seed is `seed::deal(run_seed, deal)` with `deal = g / 2` when
//! paired (the odd game plays the same deal with the seats swapped), and the
//! agents draw from `seat_rng(hand_seed, seat)`.

use super::manifest::Rows;
use super::manifest::{Manifest, Mode, Shard};
use super::rows::{hand_facts, hand_rows, match_facts, match_rows, unique_max, Ids, MatchTrack};
use crate::error::CliError;
use crate::rows::{rule_values, ErrorRow, HandRow, MatchRow};
use crate::stats::{HandFacts, MatchFacts, SeriesStats};
use kanaszta_agents::{play_hand, play_match, seat_rng, Agent, AgentError, AgentSpec, HandPlay};
use kanaszta_engine::{GameState, HandRecord, Match, Rules};

/// A validated plan: the manifest with parsed agents.
pub struct Plan {
    /// What `run.json` says.
    pub manifest: Manifest,
    /// Hands or matches.
    pub mode: Mode,
    /// The shard played.
    pub shard: Shard,
    series: Vec<SeriesCtx>,
    /// Fault injection for the tests of error handling: the game whose index
    /// the environment variable `KANASZTA_FAULT_GAME` names panics.
    fault: Option<u64>,
}

struct SeriesCtx {
    specs: [AgentSpec; 2],
    names: [String; 2],
    rules: Rules,
    rule_values: std::sync::Arc<[String]>,
}

impl Plan {
    /// Validates a manifest (agents parse, rules valid, shard in range).
    pub fn new(mut manifest: Manifest) -> Result<Plan, CliError> {
        let mode = manifest.mode;
        let shard = manifest.shard.clone();
        let mut series = Vec::new();
        for s in &manifest.series {
            let a: AgentSpec = s.a.parse()?;
            let b: AgentSpec = s.b.parse()?;
            s.rules.validate()?;
            if s.rules.players != 2 {
                return Err(CliError::Input(format!(
                    "two agents play two seats: players must be 2 here, got {} (set players=2)",
                    s.rules.players
                )));
            }
            series.push(SeriesCtx {
                names: [a.to_string(), b.to_string()],
                specs: [a, b],
                rules: s.rules,
                rule_values: rule_values(&s.rules),
            });
        }
        // An agent on a wall-clock budget plays by the machine's speed and
        // load: its games cannot be played again as they were.
        let mut timed: Vec<String> = Vec::new();
        for c in &series {
            for spec in &c.specs {
                let t = spec.get("time").and_then(|v| v.parse::<f64>().ok());
                let name = spec.to_string();
                if t.is_some_and(|t| t > 0.0) && !timed.contains(&name) {
                    timed.push(name);
                }
            }
        }
        if !timed.is_empty() {
            manifest.reproducible = Some(false);
            manifest.reproducible_note =
                Some(format!(
                "{} {} on a wall-clock budget (`time`): {} moves depend on the machine's speed \
                 and load, so the games cannot be played again as they were (give iterations \
                 instead, with time=0, for a reproducible run)",
                timed.join(", "),
                if timed.len() == 1 { "searches" } else { "search" },
                if timed.len() == 1 { "its" } else { "their" }
            ));
        }
        Ok(Plan {
            manifest,
            mode,
            shard,
            series,
            fault: std::env::var("KANASZTA_FAULT_GAME")
                .ok()
                .and_then(|v| v.parse().ok()),
        })
    }

    /// The deal of game `g`.
    pub fn deal(&self, g: u64) -> u64 {
        self.manifest.deal(g)
    }

    /// Every `(series, game)` of the shard, in file order.
    pub fn jobs(&self) -> impl Iterator<Item = (u32, u64)> + Send + '_ {
        (0..self.series.len() as u32).flat_map(move |s| {
            (0..self.manifest.games)
                .filter(move |&g| self.shard.contains(self.deal(g)))
                .map(move |g| (s, g))
        })
    }

    /// Number of jobs of the shard.
    pub fn job_count(&self) -> u64 {
        self.manifest.shard_games()
    }

    /// Empty statistics, one per series.
    pub fn new_stats(&self) -> Vec<SeriesStats> {
        self.manifest
            .series
            .iter()
            .zip(&self.series)
            .map(|(s, c)| {
                SeriesStats::new(
                    c.names[0].clone(),
                    c.names[1].clone(),
                    s.settings.clone(),
                    self.mode == Mode::Matches,
                )
            })
            .collect()
    }

    /// The agents of a game, seat by seat, and whether they are swapped.
    pub fn seating(&self, series: u32, g: u64) -> ([&AgentSpec; 2], bool) {
        let c = &self.series[series as usize];
        let swapped = self.manifest.paired && g % 2 == 1;
        if swapped {
            ([&c.specs[1], &c.specs[0]], true)
        } else {
            ([&c.specs[0], &c.specs[1]], false)
        }
    }

    /// The deal seed of game `g`.
    pub fn deal_seed(&self, g: u64) -> u64 {
        kanaszta_engine::seed::deal(self.manifest.seed, self.deal(g))
    }

    /// Everything game `g` of `series` is played with, derived from the
    /// plan and the two indices alone: the run plays every game through
    /// this, and `replay` too, so that a replay cannot drift from the run.
    pub fn setup(&self, series: u32, g: u64) -> GameSetup<'_> {
        let (seats, swapped) = self.seating(series, g);
        GameSetup {
            deal: self.deal(g),
            swapped,
            seats,
            rules: self.series[series as usize].rules,
            deal_seed: self.deal_seed(g),
        }
    }

    /// Plays game `g` of `series` to its end, building the rows `rows`
    /// asks for (the statistics' facts always). A panic (a bug of an agent
    /// or the engine) becomes an error row of that game, like an agent's
    /// error.
    pub fn play(&self, series: u32, g: u64, rows: Rows) -> GameOut {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if self.fault == Some(g) {
                panic!("fault injected by KANASZTA_FAULT_GAME={g}");
            }
            self.play_unguarded(series, g, rows)
        }));
        match outcome {
            Ok(out) => out,
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown panic".into());
                let mut out = GameOut::new(series, g);
                out.error = Some(self.error_row(series, g, 0, None, format!("panic: {msg}")));
                out
            }
        }
    }

    fn error_row(
        &self,
        series: u32,
        g: u64,
        hand: u32,
        e: Option<&AgentError>,
        message: String,
    ) -> ErrorRow {
        let (seats, swapped) = self.seating(series, g);
        ErrorRow {
            series,
            game: g,
            deal: self.deal(g),
            swapped,
            mode: self.mode.name().into(),
            hand,
            run_seed: self.manifest.seed,
            deal_seed: self.deal_seed(g),
            seat: e.map(|e| e.player as u8),
            agent: e.map_or(String::new(), |e| seats[e.player.min(1)].to_string()),
            turn: e.map(|e| e.turn),
            action: e
                .and_then(|e| e.action)
                .map_or(String::new(), |a| a.to_string()),
            rule: e.map_or(String::new(), |e| e.error.rule.to_string()),
            message,
            rules: self.series[series as usize].rule_values.clone(),
        }
    }

    fn play_unguarded(&self, series: u32, g: u64, rows: Rows) -> GameOut {
        let setup = self.setup(series, g);
        let ctx = &self.series[series as usize];
        let mut agents = setup.agents();
        let deal_seed = setup.deal_seed;
        let mut out = GameOut::new(series, g);
        let ids = Ids {
            series,
            game: g,
            deal: setup.deal,
            swapped: setup.swapped,
            mode: self.mode,
            run_seed: self.manifest.seed,
            deal_seed,
            names: setup.names(),
            rules: &ctx.rule_values,
        };
        match self.mode {
            Mode::Hands => {
                let (state, r) = setup.play_hand(&mut agents);
                match r {
                    Ok(play) => {
                        let raw: Vec<i32> = state.scores().iter().map(|s| s.total).collect();
                        let winner = unique_max(&raw);
                        out.actions = play.actions;
                        out.facts = hand_facts(&ids, &state, &raw, winner).to_vec();
                        if rows == Rows::All {
                            out.hands = hand_rows(
                                &ids,
                                &state,
                                0,
                                deal_seed,
                                &[0, 0],
                                &raw,
                                winner,
                                play.actions,
                            );
                        }
                    }
                    Err(e) => {
                        out.error = Some(self.error_row(series, g, 0, Some(&e), e.to_string()))
                    }
                }
            }
            Mode::Matches => {
                let mut track = MatchTrack::default();
                let mut hands = Vec::new();
                let mut facts = Vec::new();
                let mut actions = 0;
                let (m, r) = setup.play_match(&mut agents, |state, rec, play| {
                    let before: Vec<i32> = rec
                        .totals_after
                        .iter()
                        .zip(&rec.taxed)
                        .map(|(a, t)| a - t)
                        .collect();
                    actions += play.actions;
                    facts.extend(hand_facts(&ids, state, &rec.taxed, rec.winner));
                    if rows == Rows::All {
                        hands.extend(hand_rows(
                            &ids,
                            state,
                            rec.index,
                            rec.seed,
                            &before,
                            &rec.taxed,
                            rec.winner,
                            play.actions,
                        ));
                    }
                    track.hand(
                        rec.starter,
                        &rec.raw,
                        &rec.taxed,
                        &rec.totals_after,
                        rec.winner,
                    );
                });
                match r {
                    Ok(()) => {
                        out.actions = actions;
                        out.hands = hands;
                        out.facts = facts;
                        out.match_facts = match_facts(&ids, &m, &track).to_vec();
                        if rows != Rows::None {
                            out.matches = match_rows(&ids, &m, &track);
                        }
                    }
                    Err(e) => {
                        let hand = m.hands_played();
                        out.error = Some(self.error_row(series, g, hand, Some(&e), e.to_string()));
                    }
                }
            }
        }
        out
    }
}

/// One game of a plan, ready to play: see [`Plan::setup`].
pub struct GameSetup<'a> {
    /// The deal (`g / 2` when paired).
    pub deal: u64,
    /// Whether the seats are swapped (the odd game of a pair).
    pub swapped: bool,
    /// The agents, seat by seat.
    pub seats: [&'a AgentSpec; 2],
    /// The rules of the series.
    pub rules: Rules,
    /// The seed of the deal (of the match's first hand).
    pub deal_seed: u64,
}

impl GameSetup<'_> {
    /// Fresh agents, seat by seat.
    pub fn agents(&self) -> Vec<Box<dyn Agent>> {
        self.seats.iter().map(|s| s.build()).collect()
    }

    /// The agents' names, seat by seat.
    pub fn names(&self) -> [String; 2] {
        [self.seats[0].to_string(), self.seats[1].to_string()]
    }

    /// Plays the game's hand (mode hands) with `agents`: the final state,
    /// and what the hand took or the agent error that ended it.
    pub fn play_hand(
        &self,
        agents: &mut [Box<dyn Agent>],
    ) -> (GameState, Result<HandPlay, AgentError>) {
        let mut state = GameState::new(self.rules, self.deal_seed);
        let mut rngs = vec![seat_rng(self.deal_seed, 0), seat_rng(self.deal_seed, 1)];
        let r = play_hand(&mut state, agents, &mut rngs);
        (state, r)
    }

    /// Plays the game's match (mode matches) with `agents`, calling
    /// `on_hand` after every hand: the match, and the agent error that
    /// ended it if one did.
    pub fn play_match(
        &self,
        agents: &mut [Box<dyn Agent>],
        on_hand: impl FnMut(&GameState, &HandRecord, HandPlay),
    ) -> (Match, Result<(), AgentError>) {
        let mut m = Match::new(self.rules, self.deal_seed);
        let r = play_match(&mut m, agents, on_hand);
        (m, r)
    }
}

/// What one game produced.
#[derive(Debug, Default)]
pub struct GameOut {
    /// Series.
    pub series: u32,
    /// Game.
    pub game: u64,
    /// What the statistics take of each seat's hand (none if the game
    /// erred).
    pub facts: Vec<HandFacts>,
    /// What the statistics take of each seat's match (matches mode).
    pub match_facts: Vec<MatchFacts>,
    /// Two rows per hand (none if the game erred, or the run writes no
    /// `hands.csv`).
    pub hands: Vec<HandRow>,
    /// Two rows for a match (none unless the run writes `matches.csv`).
    pub matches: Vec<MatchRow>,
    /// Why the game ended early.
    pub error: Option<ErrorRow>,
    /// Actions applied.
    pub actions: u64,
}

impl GameOut {
    fn new(series: u32, game: u64) -> GameOut {
        GameOut {
            series,
            game,
            ..GameOut::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games of greedy against random, in `mode`.
    fn plan(mode: Mode) -> Plan {
        Plan::new(Manifest::pair(
            "test",
            5,
            mode,
            6,
            "greedy",
            "random",
            Rules::default(),
        ))
        .expect("a valid plan")
    }

    #[test]
    fn the_statistics_facts_are_those_of_the_rows_whichever_rows_are_built() {
        for mode in [Mode::Hands, Mode::Matches] {
            let p = plan(mode);
            for g in 0..6 {
                let all = p.play(0, g, Rows::All);
                assert!(all.error.is_none() && !all.hands.is_empty());
                let of_rows: Vec<HandFacts> = all.hands.iter().map(HandFacts::of).collect();
                assert_eq!(all.facts, of_rows, "{mode} game {g}: hand facts");
                let of_matches: Vec<MatchFacts> = all.matches.iter().map(MatchFacts::of).collect();
                assert_eq!(all.match_facts, of_matches, "{mode} game {g}: match facts");
                assert_eq!(all.matches.len(), if mode == Mode::Matches { 2 } else { 0 });
                for rows in [Rows::Matches, Rows::None] {
                    let some = p.play(0, g, rows);
                    assert!(some.hands.is_empty(), "{mode} game {g}: no hand row built");
                    assert_eq!(
                        some.matches.len(),
                        if rows == Rows::Matches {
                            all.matches.len()
                        } else {
                            0
                        },
                        "{mode} game {g} --rows {}",
                        rows.name()
                    );
                    assert_eq!(
                        (some.facts, some.match_facts),
                        (all.facts.clone(), all.match_facts.clone())
                    );
                    assert_eq!(some.actions, all.actions);
                }
            }
        }
    }
}
