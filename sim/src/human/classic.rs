//! `kanaszta human --rules classic-…`: a person plays classic canasta in
//! one seat, an agent in every other (with four players the partner too,
//! C-20), a hand or a match to the target (C-12, C-24). The agents' moves
//! are printed as they are made; at the person's turn the hand, the tables
//! and the pile are shown with the legal moves numbered, and a number or
//! the action notation (`draw`, `take K 2 0 0`, `lay 8 3 0 0`, `discard
//! 9`, `yes`) is a move. `undo` goes back to the start of the person's
//! last turn (practice games). A hand may start from a classic position
//! (sim/POSITIONS.md). Each finished hand is appended to `hands.csv` in
//! the columns of `kanaszta play --rules classic-…`. `save` writes the
//! game, and beside it the position in play and the hand's classic game
//! log; resuming (and `undo`) plays its moves again from the hand's
//! start, the agents deciding their own once more.

use super::save::{self, SaveError};
use super::{append_csv, check_name, words, Await, Terminal};
use crate::classic::run::StoredClassicRules;
use crate::classic::{
    classic_rule_values, hand_rows, ClassicHandRow, HandIds, PileCounts, SeatNames,
};
use crate::error::CliError;
use crate::position::{load_classic, phase_name, seat_name};
use crate::run::Mode;
use crate::show::classic::{log_json, pile_text, print_end, table_text};
use kanaszta_agents::classic::ClassicMoves;
use kanaszta_agents::seat_rng;
use kanaszta_agents::{Agent, AgentSpec};
use kanaszta_engine::classic::{
    ClassicAction, ClassicMatch, ClassicMatchResult, ClassicRules, ClassicState,
    CLASSIC_MAX_PLAYERS,
};
use kanaszta_engine::seed;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

/// The format tag of a saved classic game.
pub const FORMAT: &str = "kanaszta-human-classic/1";

/// A saved classic game (JSON).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassicSaveFile {
    /// [`FORMAT`].
    pub format: String,
    /// The agents' spec (every seat but the person's).
    pub vs: String,
    /// The hint agent's spec.
    pub hint: String,
    /// The person's seat.
    pub seat: usize,
    /// The person's name.
    pub name: String,
    /// The session's seed.
    pub seed: u64,
    /// A whole match rather than one hand.
    #[serde(rename = "match")]
    pub is_match: bool,
    /// A rated game: no undo, no hints.
    pub rated: bool,
    /// The rules, as a run's run.json holds them.
    pub rules: StoredClassicRules,
    /// The classic position the hand started from (a game of one hand);
    /// absent for a dealt game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<serde_json::Value>,
    /// The actions of every hand in notation; the last is the hand in play.
    pub hands: Vec<Vec<String>>,
}

impl ClassicSaveFile {
    /// Whether `text` is a saved classic game (its format tag).
    pub fn is_classic(text: &str) -> bool {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|v| v.get("format").and_then(|f| f.as_str()).map(str::to_owned))
            .is_some_and(|f| f == FORMAT)
    }

    /// Parses a saved classic game.
    pub fn from_json(text: &str) -> Result<ClassicSaveFile, SaveError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let s: ClassicSaveFile = serde_json::from_str(text).map_err(SaveError::ClassicFields)?;
        if s.hands.is_empty() {
            return Err(SaveError::NoHands);
        }
        if s.position.is_some() && s.hands.len() != 1 {
            return Err(SaveError::PositionHands(s.hands.len()));
        }
        if s.seat >= s.rules.0.players as usize {
            return Err(SaveError::Seat {
                seat: s.seat,
                players: s.rules.0.players,
            });
        }
        Ok(s)
    }
}

/// What a classic game is played with.
pub struct ClassicConfig {
    /// The agent in every seat but the person's.
    pub vs: AgentSpec<ClassicState>,
    /// The agent `hint` asks.
    pub hint: AgentSpec<ClassicState>,
    /// The person's seat.
    pub seat: usize,
    /// The person's name.
    pub name: String,
    /// The seed of the deals and the agents.
    pub seed: u64,
    /// A whole match.
    pub is_match: bool,
    /// No undo, no hints.
    pub rated: bool,
    /// The rules (of the position, when there is one).
    pub rules: ClassicRules,
    /// Play one hand from this classic position (JSON text) instead of a
    /// deal.
    pub position: Option<String>,
    /// Where `save` writes by default (`DIR/save.json`) and each finished
    /// hand is appended (`DIR/hands.csv`); `None`: no files.
    pub out: Option<PathBuf>,
}

const HELP: &str = "commands:
  a number      play the move of that number in the list
  an action     in classic notation: ask, yes, no, draw, turned, take KEY N T J, rest,
                lay KEY N T J, extend RANK KIND, takeback KEY, reset, discard KIND, end
                (KEY a rank 4-A, 3 or W; N T J the naturals, twos and jokers used)
  moves         the legal moves again
  board         the hand, the tables and the pile
  hint [AGENT]  what an agent would play (not in a rated game)
  undo          back to the start of your last turn (not in a rated game)
  save [FILE]   save the game (default: save.json in --out); --resume FILE goes on
  quit          save and stop";

/// A classic game at the terminal.
pub struct ClassicSession {
    cfg: ClassicConfig,
    m: ClassicMatch,
    /// The state the hand in play started from.
    start: ClassicState,
    /// The hand in play.
    state: ClassicState,
    /// One agent a seat; `None` in the person's.
    agents: Vec<Option<Box<dyn Agent<ClassicState>>>>,
    rngs: Vec<Pcg64Mcg>,
    /// The actions of the finished hands, then of the hand in play (with
    /// their players).
    finished: Vec<Vec<ClassicAction>>,
    actions: Vec<(usize, ClassicAction)>,
    /// How each seat began its turns this hand (hands.csv's columns).
    pile: [PileCounts; CLASSIC_MAX_PLAYERS],
    /// The values of hands.csv's rule columns.
    rule_values: Arc<[String]>,
    /// The person's legal moves, numbered from 1.
    legal: Vec<ClassicAction>,
    labels: Vec<String>,
    wait: Await,
    exit: u8,
    /// Saved moves still to play (resuming), in order.
    replay: std::collections::VecDeque<Vec<ClassicAction>>,
    diverged: bool,
}

impl ClassicSession {
    /// A new game: the first hand dealt, or set up from the position.
    pub fn new(mut cfg: ClassicConfig) -> Result<ClassicSession, CliError> {
        check_name(&cfg.name)?;
        let from = match &cfg.position {
            Some(text) => {
                let g = load_classic("position", text)?;
                if g.is_terminal() {
                    return Err(CliError::Input(
                        "position: the hand is over: there is nothing to play and no hand to \
                         record; give a position of a hand in play (`kanaszta score FILE` \
                         scores a finished one)"
                            .into(),
                    ));
                }
                cfg.rules = *g.rules();
                Some(g)
            }
            None => None,
        };
        let players = cfg.rules.players as usize;
        if cfg.seat >= players {
            return Err(CliError::Input(format!(
                "--seat {}: with {players} players the seats are 0 to {}",
                cfg.seat,
                players - 1
            )));
        }
        let m = ClassicMatch::new(cfg.rules, cfg.seed);
        let state = from.unwrap_or_else(|| m.next_hand());
        let agents = (0..players)
            .map(|p| (p != cfg.seat).then(|| cfg.vs.build()))
            .collect();
        let labels = (0..players)
            .map(|p| {
                let who = if p == cfg.seat {
                    "you".to_string()
                } else {
                    cfg.vs.to_string()
                };
                format!("{} {who}", seat_name(&state, p))
            })
            .collect();
        let mut s = ClassicSession {
            rngs: Vec::new(),
            rule_values: classic_rule_values(&cfg.rules),
            cfg,
            m,
            start: state.clone(),
            state,
            agents,
            finished: Vec::new(),
            actions: Vec::new(),
            pile: Default::default(),
            legal: Vec::new(),
            labels,
            wait: Await::Done,
            exit: 0,
            replay: Default::default(),
            diverged: false,
        };
        s.begin_hand(s.start.clone());
        Ok(s)
    }

    /// A saved game, its moves played again up to where it was saved.
    pub fn resume(
        save: &ClassicSaveFile,
        out: Option<PathBuf>,
    ) -> Result<ClassicSession, CliError> {
        let bad = |e: String| CliError::Input(format!("saved game: {e}"));
        let spec = |t: &str| {
            t.parse::<AgentSpec<ClassicState>>()
                .map_err(|e| bad(e.to_string()))
        };
        let cfg = ClassicConfig {
            vs: spec(&save.vs)?,
            hint: spec(&save.hint)?,
            seat: save.seat,
            name: save.name.clone(),
            seed: save.seed,
            is_match: save.is_match,
            rated: save.rated,
            rules: save.rules.0,
            position: save.position.as_ref().map(|v| v.to_string()),
            out,
        };
        let mut s = ClassicSession::new(cfg)?;
        for (h, hand) in save.hands.iter().enumerate() {
            let mut acts = Vec::new();
            for (i, t) in hand.iter().enumerate() {
                acts.push(
                    t.parse::<ClassicAction>()
                        .map_err(|e| bad(format!("hand {h} action {i}: {e}")))?,
                );
            }
            s.replay.push_back(acts);
        }
        let mut quiet = String::new();
        s.advance(&mut quiet);
        if s.exit != 0 || s.wait == Await::Done || !s.replay.is_empty() {
            return Err(bad(format!(
                "its moves do not lead to a game in play ({})",
                quiet.lines().last().unwrap_or("")
            )));
        }
        Ok(s)
    }
}

impl Terminal for ClassicSession {
    /// What the game waits for.
    fn waiting(&self) -> Await {
        self.wait
    }

    /// The exit status once over.
    fn exit_code(&self) -> u8 {
        self.exit
    }

    /// The first lines and the play up to the person's first decision.
    fn start(&mut self, out: &mut String) {
        let c = &self.cfg;
        let players = c.rules.players as usize;
        let others: Vec<String> = (0..players)
            .filter(|&p| p != c.seat)
            .map(|p| format!("P{p}"))
            .collect();
        let _ = writeln!(
            out,
            "kanaszta human: you (P{}) against {} ({}), {}, seed {}, {}, {} players{}, {}",
            c.seat,
            c.vs,
            others.join(", "),
            if c.position.is_some() {
                "one hand from a position"
            } else if c.is_match {
                "a match to the target"
            } else {
                "one hand"
            },
            c.seed,
            c.rules.preset,
            players,
            if c.rules.partnerships() {
                format!(
                    ", partnerships (C-20): your partner is P{}",
                    (c.seat + 2) % players
                )
            } else {
                String::new()
            },
            if c.rated {
                "rated (no undo, no hints)"
            } else {
                "practice"
            }
        );
        if self.diverged {
            let _ = writeln!(
                out,
                "note: an agent now chooses otherwise than the saved game at some move; the \
                 saved moves were played"
            );
        }
        let _ = writeln!(out, "type help for the commands");
        if self.wait == Await::Move {
            self.show(out);
            self.list(out);
        } else {
            self.advance(out);
        }
    }

    fn help(&self) -> &'static str {
        HELP
    }

    /// A move or a command, at the person's decision.
    fn play_line(&mut self, line: &str, out: &mut String) {
        let (head, rest) = words(line);
        if head.is_empty() || self.wait != Await::Move {
            return;
        }
        match head.as_str() {
            "moves" => self.list(out),
            "board" | "show" => self.show(out),
            "hint" => self.hint(rest.first().copied(), out),
            "undo" => self.undo(out),
            _ => {
                let chosen = match head.parse::<usize>() {
                    Ok(n) => match self.legal.get(n.wrapping_sub(1)).copied() {
                        Some(a) if rest.is_empty() => Ok(a),
                        _ => Err(format!(
                            "no move {line}: the moves are numbered 1 to {}",
                            self.legal.len()
                        )),
                    },
                    Err(_) => line
                        .parse::<ClassicAction>()
                        .map_err(|e| e.to_string())
                        .and_then(|a| {
                            let mut probe = self.state.clone();
                            probe
                                .apply(a)
                                .map(|()| a)
                                .map_err(|e| format!("illegal: {a}: {e}"))
                        }),
                };
                match chosen {
                    Ok(a) => {
                        self.play(self.cfg.seat, a, out);
                        self.advance(out);
                    }
                    Err(e) => {
                        let _ = writeln!(out, "{e}");
                    }
                }
            }
        }
    }

    fn save(&mut self, path: Option<PathBuf>, out: &mut String) {
        let over = self.wait == Await::Done;
        let Some(path) = save::save_target(over, path, self.cfg.out.as_deref(), out) else {
            return;
        };
        let text = |h: &[ClassicAction]| h.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        let mut hands: Vec<Vec<String>> = self.finished.iter().map(|h| text(h)).collect();
        let now: Vec<ClassicAction> = self.actions.iter().map(|&(_, a)| a).collect();
        hands.push(text(&now));
        let file = ClassicSaveFile {
            format: FORMAT.into(),
            vs: self.cfg.vs.to_string(),
            hint: self.cfg.hint.to_string(),
            seat: self.cfg.seat,
            name: self.cfg.name.clone(),
            seed: self.cfg.seed,
            is_match: self.cfg.is_match,
            rated: self.cfg.rated,
            rules: StoredClassicRules(self.cfg.rules),
            position: self
                .cfg
                .position
                .as_ref()
                .and_then(|t| serde_json::from_str(t).ok()),
            hands,
        };
        let json = serde_json::to_string_pretty(&file).unwrap_or_default() + "\n";
        let position = self.state.to_position_json();
        let log = log_json(&self.start, &now);
        match save::write_files(&path, &json, &position, Some(&log)) {
            Ok(()) => {
                // The --out of this game, wherever the save went: resumed
                // with another, the rows would not go beside the earlier
                // ones.
                let text = save::saved_text(&path, self.cfg.out.as_deref(), true);
                let _ = writeln!(out, "{text}");
            }
            Err(e) => {
                let _ = writeln!(out, "cannot save to {}: {e}", path.display());
            }
        }
    }

    fn save_and_stop(&mut self, out: &mut String) {
        self.save(None, out);
        self.wait = Await::Done;
    }
}

impl ClassicSession {
    /// Begins the hand in play at `state` (its start): restarts the
    /// agents and seeds their generators for the hand.
    fn begin_hand(&mut self, state: ClassicState) {
        self.start = state.clone();
        self.state = state;
        let players = self.cfg.rules.players as usize;
        let s = seed::match_hand(self.cfg.seed, self.m.hands_played());
        self.rngs = (0..players).map(|p| seat_rng(s, p)).collect();
        for a in self.agents.iter_mut().flatten() {
            a.restart();
        }
        self.actions.clear();
        self.pile = Default::default();
    }

    /// `undo`: back to the start of the person's last turn in this hand
    /// (or his last answer to his partner's question, C-18): the hand is
    /// played again from its start up to there, the agents deciding their
    /// own moves again (so their generators and memory are as they were).
    fn undo(&mut self, out: &mut String) {
        if self.cfg.rated {
            let _ = writeln!(out, "undo is off in a rated game (practice games allow it)");
            return;
        }
        let me = self.cfg.seat;
        let acts = &self.actions;
        let Some(target) = (0..acts.len())
            .rev()
            .find(|&i| acts[i].0 == me && (i == 0 || acts[i - 1].0 != me))
        else {
            let _ = writeln!(out, "nothing to undo in this hand");
            return;
        };
        let keep: Vec<ClassicAction> = acts[..target].iter().map(|&(_, a)| a).collect();
        let diverged = self.diverged;
        self.diverged = false;
        self.begin_hand(self.start.clone());
        self.replay.clear();
        self.replay.push_back(keep);
        let mut quiet = String::new();
        self.advance(&mut quiet);
        if self.wait != Await::Move {
            out.push_str(&quiet);
            return;
        }
        let _ = writeln!(
            out,
            "undone: back to turn {}, {} to play ({})",
            self.state.turns() + 1,
            seat_name(&self.state, self.state.current_player()),
            phase_name(self.state.phase())
        );
        if self.diverged {
            let _ = writeln!(
                out,
                "note: an agent now chooses otherwise than before at some move; the moves \
                 played before were played again"
            );
        }
        self.diverged |= diverged;
        self.show(out);
        self.list(out);
    }

    /// Applies `a` of seat `p` (legal: checked by the caller or the agent's
    /// list) and tells every agent.
    fn play(&mut self, p: usize, a: ClassicAction, out: &mut String) {
        let before = self.state.clone();
        self.pile[p].record(&before.view(p), a);
        if let Err(e) = self.state.apply(a) {
            let _ = writeln!(
                out,
                "the game ended by an error: {} played {a}: {e}",
                self.labels[p]
            );
            self.wait = Await::Done;
            self.exit = 1;
            return;
        }
        self.actions.push((p, a));
        for ag in self.agents.iter_mut().flatten() {
            ag.inform(p, a);
        }
        let gained = self
            .state
            .hand(p)
            .checked_sub(before.hand(p))
            .unwrap_or_default();
        let extra = match a {
            ClassicAction::Ask => "   \"may I go out?\" (C-18)".to_string(),
            ClassicAction::Draw | ClassicAction::TakeTurned | ClassicAction::TakeRest
                if p == self.cfg.seat && !gained.is_empty() =>
            {
                format!("   +{gained}")
            }
            ClassicAction::TakePile { .. } => format!(
                "   takes the pile's top {} (C-7)",
                before.pile_top().map_or("-".into(), |c| c.to_string())
            ),
            _ => String::new(),
        };
        let _ = writeln!(out, "{}: {a}{extra}", self.labels[p]);
        for s in 0..self.cfg.rules.sides() {
            let (tb, ta) = (before.table(s).red_threes, self.state.table(s).red_threes);
            if ta != tb {
                let new = ta.checked_sub(tb).unwrap_or_default();
                let _ = writeln!(out, "  side {s} lays red threes {new} (C-8)");
            }
        }
    }

    /// Plays the agents' moves (and saved moves when resuming) up to the
    /// person's decision or the end of the game.
    fn advance(&mut self, out: &mut String) {
        loop {
            if self.exit != 0 {
                self.wait = Await::Done;
                return;
            }
            if self.state.is_terminal() {
                if !self.end_hand(out) {
                    self.wait = Await::Done;
                    return;
                }
                continue;
            }
            let p = self.state.current_player();
            let saved = self.replay.front_mut().and_then(|h| {
                if h.is_empty() {
                    None
                } else {
                    Some(h.remove(0))
                }
            });
            if p == self.cfg.seat {
                match saved {
                    Some(a) => {
                        self.play(p, a, out);
                        continue;
                    }
                    None => {
                        self.replay.clear();
                        self.state.legal_actions(&mut self.legal);
                        self.wait = Await::Move;
                        self.show(out);
                        self.list(out);
                        return;
                    }
                }
            }
            let mut legal = Vec::new();
            self.state.legal_actions(&mut legal);
            let Some(agent) = self.agents[p].as_mut() else {
                return;
            };
            let chosen = agent.act(
                &self.state.view(p),
                &mut ClassicMoves::new(&legal),
                &mut self.rngs[p],
            );
            let a = match saved {
                Some(s) => {
                    self.diverged |= s != chosen;
                    s
                }
                None => {
                    self.replay.clear();
                    chosen
                }
            };
            self.play(p, a, out);
        }
    }

    /// The hand is over: its score, then the next hand of a match; whether
    /// the game goes on.
    fn end_hand(&mut self, out: &mut String) -> bool {
        let _ = writeln!(out);
        let mut end = Vec::new();
        let _ = print_end(&mut end, &self.state, &self.labels);
        out.push_str(&String::from_utf8_lossy(&end));
        // A hand played again from a save had its rows written when it
        // was first played.
        if self.replay.is_empty() {
            self.append_rows(out);
        }
        self.finished
            .push(self.actions.drain(..).map(|(_, a)| a).collect());
        if let Some(h) = self.replay.front() {
            if h.is_empty() {
                self.replay.pop_front();
            }
        }
        if !self.cfg.is_match {
            self.say_result(out);
            return false;
        }
        match self.m.record(&self.state) {
            ClassicMatchResult::Playing => {
                let totals: Vec<String> = (0..self.cfg.rules.sides())
                    .map(|s| format!("side {s} {}", self.m.totals()[s]))
                    .collect();
                let _ = writeln!(
                    out,
                    "\n== hand {}: totals {}",
                    self.m.hands_played(),
                    totals.join(" / ")
                );
                self.begin_hand(self.m.next_hand());
                true
            }
            ClassicMatchResult::Won(s) => {
                let _ = writeln!(
                    out,
                    "the match is over: side {s} wins with {} (C-24); {}",
                    self.m.totals()[s as usize],
                    self.your_side()
                );
                false
            }
            ClassicMatchResult::Drawn => {
                let _ = writeln!(out, "the match is drawn (I-31); {}", self.your_side());
                false
            }
        }
    }

    /// Appends the finished hand's rows, one per seat, to `hands.csv` in
    /// the out directory, in the columns of `kanaszta play --rules
    /// classic-…`: the person under his name, every other seat under the
    /// agent's spec; a side's players joined by `+` in seat order where
    /// they differ (`human+rules`).
    fn append_rows(&mut self, out: &mut String) {
        let Some(dir) = &self.cfg.out else {
            return;
        };
        let r = self.cfg.rules;
        let me = self.cfg.seat;
        let players = r.players as usize;
        let vs = self.cfg.vs.to_string();
        let name_of = |p: usize| {
            if p == me {
                self.cfg.name.clone()
            } else {
                vs.clone()
            }
        };
        let side_text = |side: usize| {
            let mut names: Vec<String> = (0..players)
                .filter(|&q| r.side_of(q) == side)
                .map(name_of)
                .collect();
            names.dedup();
            names.join("+")
        };
        let mine = side_text(r.side_of(me));
        let names = |p: usize| SeatNames {
            agent: name_of(p),
            opponent: if r.side_of(p) == r.side_of(me) {
                vs.clone()
            } else {
                mine.clone()
            },
            side_agents: side_text(r.side_of(p)),
        };
        let ids = HandIds {
            series: 0,
            game: 0,
            deal: 0,
            swapped: false,
            mode: if self.cfg.is_match {
                Mode::Matches
            } else {
                Mode::Hands
            },
            run_seed: self.cfg.seed,
            deal_seed: self.cfg.seed,
            rules: &self.rule_values,
        };
        let before: Vec<i32> = (0..r.sides()).map(|s| self.start.total(s)).collect();
        let mut rows = Vec::new();
        hand_rows(
            &mut rows,
            &ids,
            names,
            self.finished.len() as u32,
            &self.state,
            &before,
            self.actions.len() as u64,
            &self.pile,
        );
        let mut body = Vec::new();
        for row in &rows {
            row.write_csv(&mut body);
        }
        let path = dir.join("hands.csv");
        match append_csv(&path, &ClassicHandRow::header(), &body) {
            Ok(()) => {
                let _ = writeln!(out, "the hand's rows are appended to {}", path.display());
            }
            Err(e) => {
                let _ = writeln!(out, "error: the hand's rows were not written: {e}");
                self.exit = self.exit.max(1);
            }
        }
    }

    fn your_side(&self) -> String {
        format!(
            "your side is side {}",
            self.cfg.rules.side_of(self.cfg.seat)
        )
    }

    fn say_result(&self, out: &mut String) {
        let sides = self.cfg.rules.sides();
        let scores: Vec<i32> = (0..sides).map(|s| self.state.side_score(s).total).collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        let mine = scores[self.cfg.rules.side_of(self.cfg.seat)];
        let leaders = scores.iter().filter(|&&s| s == best).count();
        let how = if mine < best {
            "you lost the hand"
        } else if leaders > 1 {
            "the hand is a tie"
        } else {
            "you won the hand"
        };
        let _ = writeln!(out, "{how} ({})", self.your_side());
    }

    /// The person's hand, the tables, the pile, the totals.
    fn show(&self, out: &mut String) {
        let g = &self.state;
        let me = self.cfg.seat;
        let _ = writeln!(
            out,
            "\nturn {}, {} to play ({})",
            g.turns() + 1,
            seat_name(g, me),
            phase_name(g.phase())
        );
        for s in 0..self.cfg.rules.sides() {
            let _ = writeln!(
                out,
                "  side {s}{}: {} (total {})",
                if s == self.cfg.rules.side_of(me) {
                    " (yours)"
                } else {
                    ""
                },
                table_text(g.table(s)),
                g.total(s)
            );
        }
        for p in (0..g.players()).filter(|&p| p != me) {
            let _ = writeln!(out, "  {} holds {}", self.labels[p], g.hand(p).len());
        }
        let _ = writeln!(out, "  {}", pile_text(g));
        let _ = writeln!(out, "  your hand: {}", g.hand(me));
    }

    /// The legal moves, numbered.
    fn list(&self, out: &mut String) {
        let _ = writeln!(out, "your moves:");
        for (i, a) in self.legal.iter().enumerate() {
            let _ = writeln!(out, "  {:>3}  {a}", i + 1);
        }
    }

    /// What the hint agent (or `agent`) would play here.
    fn hint(&mut self, agent: Option<&str>, out: &mut String) {
        if self.cfg.rated {
            let _ = writeln!(out, "hint: not in a rated game");
            return;
        }
        let spec = match agent.map(str::parse::<AgentSpec<ClassicState>>) {
            None => self.cfg.hint.clone(),
            Some(Ok(s)) => s,
            Some(Err(e)) => {
                let _ = writeln!(out, "hint: {e}");
                return;
            }
        };
        let mut a = spec.build();
        let mut rng = seat_rng(
            seed::match_hand(self.cfg.seed ^ 0x5eed, self.m.hands_played()),
            self.cfg.seat,
        );
        let pick = a.act(
            &self.state.view(self.cfg.seat),
            &mut ClassicMoves::new(&self.legal),
            &mut rng,
        );
        let n = self
            .legal
            .iter()
            .position(|&x| x == pick)
            .map_or(0, |i| i + 1);
        let _ = writeln!(out, "hint: {spec} would play {n}: {pick}");
    }
}
