//! `kanaszta human --rules classic-…`: a person plays classic canasta in
//! one seat, an agent in every other (with four players the partner too,
//! C-20), a hand or a match to the target (C-12, C-24). The agents' moves
//! are printed as they are made; at the person's turn the hand, the tables
//! and the pile are shown with the legal moves numbered, and a number or
//! the action notation (`draw`, `take K 2 0 0`, `lay 8 3 0 0`, `discard
//! 9`, `yes`) is a move. `save` writes the game; resuming plays its moves
//! again from the deal, the agents deciding their own once more.

use super::save::SaveError;
use super::Await;
use crate::classic::run::StoredClassicRules;
use crate::cmd::classic_replay::{pile_text, print_end, table_text};
use crate::error::CliError;
use crate::position::{phase_name, seat_name};
use kanaszta_agents::classic::ClassicMoves;
use kanaszta_agents::seat_rng;
use kanaszta_agents::{Agent, AgentSpec};
use kanaszta_engine::classic::{
    ClassicAction, ClassicMatch, ClassicMatchResult, ClassicRules, ClassicState,
};
use kanaszta_engine::seed;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::PathBuf;

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
    /// A rated game: no hints.
    pub rated: bool,
    /// The rules, as a run's run.json holds them.
    pub rules: StoredClassicRules,
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
    /// No hints.
    pub rated: bool,
    /// The rules.
    pub rules: ClassicRules,
    /// Where `save` writes by default (`DIR/save.json`).
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
  save [FILE]   save the game (default: save.json in --out); --resume FILE goes on
  quit          save and stop";

/// A classic game at the terminal.
pub struct ClassicSession {
    cfg: ClassicConfig,
    m: ClassicMatch,
    /// The hand in play.
    state: ClassicState,
    /// One agent a seat; `None` in the person's.
    agents: Vec<Option<Box<dyn Agent<ClassicState>>>>,
    rngs: Vec<Pcg64Mcg>,
    /// The actions of the finished hands, then of the hand in play.
    finished: Vec<Vec<ClassicAction>>,
    actions: Vec<ClassicAction>,
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
    /// A new game.
    pub fn new(cfg: ClassicConfig) -> Result<ClassicSession, CliError> {
        let players = cfg.rules.players as usize;
        if cfg.seat >= players {
            return Err(CliError::Input(format!(
                "--seat {}: with {players} players the seats are 0 to {}",
                cfg.seat,
                players - 1
            )));
        }
        let m = ClassicMatch::new(cfg.rules, cfg.seed);
        let state = m.next_hand();
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
            cfg,
            m,
            state,
            agents,
            finished: Vec::new(),
            actions: Vec::new(),
            legal: Vec::new(),
            labels,
            wait: Await::Done,
            exit: 0,
            replay: Default::default(),
            diverged: false,
        };
        s.begin_hand();
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

    /// What the game waits for.
    pub fn waiting(&self) -> Await {
        self.wait
    }

    /// The exit status once over.
    pub fn exit_code(&self) -> u8 {
        self.exit
    }

    /// The prompt.
    pub fn prompt(&self) -> &'static str {
        "> "
    }

    /// The first lines and the play up to the person's first decision.
    pub fn start(&mut self, out: &mut String) {
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
            if c.is_match {
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
                "rated (no hints)"
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

    /// One line of the person's input.
    pub fn input(&mut self, line: &str, out: &mut String) {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let head = words.next().unwrap_or("").to_ascii_lowercase();
        let rest: Vec<&str> = words.collect();
        match head.as_str() {
            "" => return,
            "help" | "?" => {
                let _ = writeln!(out, "{HELP}");
                return;
            }
            "save" => {
                self.save(rest.first().map(PathBuf::from), out);
                return;
            }
            "quit" | "exit" => {
                if self.wait != Await::Done {
                    self.save(None, out);
                    self.wait = Await::Done;
                }
                return;
            }
            _ => {}
        }
        if self.wait != Await::Move {
            return;
        }
        match head.as_str() {
            "moves" => self.list(out),
            "board" | "show" => self.show(out),
            "hint" => self.hint(rest.first().copied(), out),
            "undo" => {
                let _ = writeln!(out, "undo: not in classic canasta games");
            }
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

    /// Standard input ended: the game in play is saved; the exit status.
    pub fn end_of_input(&mut self, out: &mut String) -> u8 {
        if self.wait == Await::Done {
            return self.exit;
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "input ended before the end of the game");
        self.save(None, out);
        self.wait = Await::Done;
        1
    }

    /// A signal stopped the game: saved as at the end of the input.
    pub fn interrupted(&mut self, name: &str, out: &mut String) -> bool {
        if self.wait == Await::Done {
            return false;
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "{name}: the game is stopped");
        self.save(None, out);
        self.wait = Await::Done;
        true
    }

    /// Restarts the agents and seeds their generators for the hand.
    fn begin_hand(&mut self) {
        let players = self.cfg.rules.players as usize;
        let s = seed::match_hand(self.cfg.seed, self.m.hands_played());
        self.rngs = (0..players).map(|p| seat_rng(s, p)).collect();
        for a in self.agents.iter_mut().flatten() {
            a.restart();
        }
        self.actions.clear();
    }

    /// Applies `a` of seat `p` (legal: checked by the caller or the agent's
    /// list) and tells every agent.
    fn play(&mut self, p: usize, a: ClassicAction, out: &mut String) {
        let before = self.state.clone();
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
        self.actions.push(a);
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
        self.finished.push(std::mem::take(&mut self.actions));
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
                self.state = self.m.next_hand();
                self.begin_hand();
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

    fn save(&mut self, path: Option<PathBuf>, out: &mut String) {
        if self.wait == Await::Done {
            let _ = writeln!(out, "the game is over: nothing to save");
            return;
        }
        let path = match path.or_else(|| self.cfg.out.as_ref().map(|d| d.join("save.json"))) {
            Some(p) => p,
            None => {
                let _ = writeln!(out, "save: give a file, e.g. save game.json");
                return;
            }
        };
        let text = |h: &[ClassicAction]| h.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        let mut hands: Vec<Vec<String>> = self.finished.iter().map(|h| text(h)).collect();
        hands.push(text(&self.actions));
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
            hands,
        };
        let r = (|| -> std::io::Result<()> {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)?;
            }
            let json = serde_json::to_string_pretty(&file).unwrap_or_default();
            std::fs::write(&path, json + "\n")
        })();
        match r {
            Ok(()) => {
                let dir = path
                    .parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .unwrap_or(std::path::Path::new("."));
                let _ = writeln!(
                    out,
                    "saved to {}; resume with `kanaszta human --resume {} --out {}`",
                    path.display(),
                    path.display(),
                    dir.display()
                );
            }
            Err(e) => {
                let _ = writeln!(out, "cannot save to {}: {e}", path.display());
            }
        }
    }
}
