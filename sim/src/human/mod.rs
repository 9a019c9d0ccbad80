//! `kanaszta human`: a person plays a hand or a match against an agent.
//!
//! The core is a state machine, [`Session`]: it takes the person's lines
//! ([`Session::input`]) and writes what he sees into a `String`; the
//! command (`cmd/human.rs`) only moves lines between it and the terminal
//! or a pipe, so the tests drive the same machine in-process and through
//! the binary. Everything shown of the game is drawn from the person's
//! [`SeatView`](kanaszta_engine::SeatView): the other hands and the
//! stock's order are out of reach until the hand is over.

pub mod classic;
pub mod save;
pub mod screen;
#[cfg(test)]
mod tests;

use crate::error::CliError;
use crate::rows::{rule_values, HandRow};
use crate::run::{hand_rows, Ids, Mode};
use kanaszta_agents::{seat_rng, Agent, AgentSpec};
use kanaszta_engine::{
    tax, Action, GameLog, GameState, Match, MoveBuf, Position, RuleError, Rules,
};
use rand_pcg::Pcg64Mcg;
use save::SaveFile;
use screen::{Names, Style};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

/// When the agents' moves wait for the person.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Never: every move is shown at once.
    None,
    /// After each of the agent's turns.
    Turn,
    /// After each of the agent's actions.
    Move,
}

impl Pace {
    /// Parses `none`, `turn` or `move`.
    pub fn parse(s: &str) -> Result<Pace, HumanError> {
        match s {
            "none" => Ok(Pace::None),
            "turn" => Ok(Pace::Turn),
            "move" => Ok(Pace::Move),
            _ => Err(HumanError::Pace(s.to_string())),
        }
    }
}

/// What went wrong in a session, apart from the person's own input: what
/// was wrong and what is accepted.
#[derive(Debug)]
#[non_exhaustive]
pub enum HumanError {
    /// `--pace` none of `none`, `turn`, `move`.
    Pace(String),
    /// A logged action replayed after the end of the hand.
    AfterEnd {
        /// Its index in the hand.
        index: usize,
        /// The action.
        action: Action,
    },
    /// A logged action the rules refuse when replayed.
    Illegal {
        /// Its index in the hand.
        index: usize,
        /// The action.
        action: Action,
        /// Why the rules refuse it.
        source: RuleError,
    },
    /// The `hands.csv` to append to cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The `hands.csv` to append to has other columns.
    Columns(PathBuf),
    /// The directory of `hands.csv` cannot be made.
    CreateDir {
        /// The directory.
        dir: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The rows cannot be written.
    Write {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
}

impl std::fmt::Display for HumanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HumanError::Pace(s) => write!(f, "pace `{s}`: expected none, turn or move"),
            HumanError::AfterEnd { index, action } => write!(
                f,
                "action {index} `{action}` comes after the end of the hand"
            ),
            HumanError::Illegal {
                index,
                action,
                source,
            } => write!(f, "action {index} `{action}`: {source}"),
            HumanError::Read { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            HumanError::Columns(path) => write!(
                f,
                "{} has other columns than kanaszta play's hands.csv: give another --out",
                path.display()
            ),
            HumanError::CreateDir { dir, source } => {
                write!(f, "cannot create {}: {source}", dir.display())
            }
            HumanError::Write { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for HumanError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HumanError::Illegal { source, .. } => Some(source),
            HumanError::Read { source, .. }
            | HumanError::CreateDir { source, .. }
            | HumanError::Write { source, .. } => Some(source),
            HumanError::Pace(_) | HumanError::AfterEnd { .. } | HumanError::Columns(_) => None,
        }
    }
}

/// A session's settings, validated.
#[derive(Clone, Debug)]
pub struct Config {
    /// The agent played against.
    pub vs: AgentSpec,
    /// The agent asked by `hint`.
    pub hint: AgentSpec,
    /// The person's seat (0 or 1).
    pub seat: usize,
    /// The person's name in the CSV's `agent` column.
    pub name: String,
    /// Seed of the deal (of the match) and of the agent.
    pub seed: u64,
    /// A whole match with the tax rather than one hand.
    pub is_match: bool,
    /// A rated game: no undo, no hints.
    pub rated: bool,
    /// When the agent's moves wait.
    pub pace: Pace,
    /// How cards are written.
    pub style: Style,
    /// The rules.
    pub rules: Rules,
    /// Play one hand from this position (JSON text) instead of a deal.
    pub position: Option<String>,
    /// Directory of `hands.csv` (appended) and `save.json`; `None`: no files.
    pub out: Option<PathBuf>,
}

/// What the session waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Await {
    /// The person's move.
    Move,
    /// A line to go on (the pace), then the next hand if `next_hand`.
    Continue {
        /// The hand is over and the match goes on.
        next_hand: bool,
    },
    /// Nothing: the game is over (or was left).
    Done,
}

/// A game at the terminal, of either family, as a state machine of
/// lines: the command (`cmd/human.rs`) moves the person's lines to it and
/// what it writes to the screen; it saves itself when it is stopped.
pub trait Terminal {
    /// The first lines and the play up to the person's first decision.
    fn start(&mut self, out: &mut String);
    /// What the game waits for.
    fn waiting(&self) -> Await;
    /// The exit status once over.
    fn exit_code(&self) -> u8;
    /// The commands, as `help` lists them.
    fn help(&self) -> &'static str;
    /// Saves the game in play to `path` (default: `save.json` in the out
    /// directory), its position and the hand's game log beside it, and
    /// says where and how to resume it.
    fn save(&mut self, path: Option<PathBuf>, out: &mut String);
    /// A line of the person's that is none of `help`, `save` and `quit`
    /// (trimmed; empty for an empty line): a move or another command of
    /// the game.
    fn play_line(&mut self, line: &str, out: &mut String);
    /// Saves the game in play where it is saved by default (`save.json`
    /// in the out directory) and stops it.
    fn save_and_stop(&mut self, out: &mut String);

    /// One line of the person's input: `help`, `save [FILE]` and `quit`
    /// mean the same in every game, whatever it waits for; any other
    /// line goes to the game.
    fn input(&mut self, line: &str, out: &mut String) {
        let line = line.trim();
        let (head, rest) = words(line);
        match head.as_str() {
            "help" | "?" => {
                let _ = writeln!(out, "{}", self.help());
            }
            "save" => self.save(rest.first().map(PathBuf::from), out),
            "quit" | "exit" => {
                if self.waiting() != Await::Done {
                    self.save_and_stop(out);
                }
            }
            _ => self.play_line(line, out),
        }
    }

    /// The prompt for the next line.
    fn prompt(&self) -> &'static str {
        match self.waiting() {
            Await::Move => "> ",
            Await::Continue { .. } => "[Enter] > ",
            Await::Done => "",
        }
    }

    /// Standard input ended: the game in play is saved; the exit status.
    fn end_of_input(&mut self, out: &mut String) -> u8 {
        if self.waiting() == Await::Done {
            return self.exit_code();
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "input ended before the end of the game");
        self.save_and_stop(out);
        1
    }

    /// A signal (`name`, e.g. SIGINT) stopped the game: the game in play
    /// is saved as at the end of the input. Whether there was one to save.
    fn interrupted(&mut self, name: &str, out: &mut String) -> bool {
        if self.waiting() == Await::Done {
            return false;
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "{name}: the game is stopped");
        self.save_and_stop(out);
        true
    }
}

/// The hand in play.
struct Hand {
    /// The state it started from.
    start: GameState,
    state: GameState,
    /// Seed of the hand (of the agent's generator).
    seed: u64,
    /// Every action so far, with its player.
    actions: Vec<(usize, Action)>,
}

/// Exit status when the agent erred.
pub const EXIT_AGENT_ERROR: u8 = 2;

/// A game between a person and an agent, as a state machine of lines.
pub struct Session {
    cfg: Config,
    agent: Box<dyn Agent>,
    rng: Pcg64Mcg,
    buf: MoveBuf,
    legal: Vec<Action>,
    m: Option<Match>,
    hand: Hand,
    /// The actions of the finished hands (for saving).
    finished: Vec<Vec<Action>>,
    wait: Await,
    exit: u8,
    /// Resumed games and undos whose agent chose otherwise than the log.
    diverged: bool,
}

const HELP: &str = "\
commands:
  N              play move number N of the list
  ACTION         play a move in notation: draw, free, take, rest, keep 101,
                 lay 8D 8S 2C, extend 0 8H, unwild 0 JK, swap 0 8H 2C,
                 convert 0 8H 8S, takeback 0, heart, takeback heart,
                 reset, discard 3S (suits as letters or as ♣ ♦ ♥ ♠)
  reset          undo the meld phase back to its start (I-25)
  hint [AGENT]   what an agent would do here and why (practice only)
  undo           take back your last whole turn (practice only)
  moves          list every legal move
  board          show the table again
  save [FILE]    save the game (default: save.json in --out); resume with
                 --resume FILE --out DIR, DIR the --out of this game
  quit           save and leave
  help           this list";

impl Session {
    /// A new game: the first hand dealt (or set up from the position).
    pub fn new(cfg: Config) -> Result<Session, CliError> {
        if cfg.rules.players != 2 {
            return Err(CliError::Input(format!(
                "a person plays one agent: players must be 2 here, got {} (set players=2)",
                cfg.rules.players
            )));
        }
        if cfg.seat > 1 {
            return Err(CliError::Input(format!(
                "--seat {}: expected 0 or 1",
                cfg.seat
            )));
        }
        check_name(&cfg.name)?;
        let m = (cfg.is_match && cfg.position.is_none())
            .then(|| Match::new(cfg.rules, kanaszta_engine::seed::deal(cfg.seed, 0)));
        let (start, seed) = match (&cfg.position, &m) {
            (Some(text), _) => {
                let g = Position::from_json(text)
                    .and_then(|p| p.to_state())
                    .map_err(|e| CliError::Input(format!("position: {e}")))?;
                if g.players() != 2 {
                    return Err(CliError::Input(format!(
                        "the position has {} players: a person plays one agent (2 players)",
                        g.players()
                    )));
                }
                if g.is_terminal() {
                    return Err(CliError::Input(format!(
                        "position: the hand is over ({}): there is nothing to play and no \
                         hand to record; give a position of a hand in play (`kanaszta score \
                         FILE` scores a finished one)",
                        screen::end_text(g.end(), &["P0".to_string(), "P1".to_string()])
                    )));
                }
                (g, cfg.seed)
            }
            (None, Some(m)) => (m.next_hand(), m.hand_seed(0)),
            (None, None) => {
                let seed = kanaszta_engine::seed::deal(cfg.seed, 0);
                (GameState::new(cfg.rules, seed), seed)
            }
        };
        let other = 1 - cfg.seat;
        let mut agent = cfg.vs.build();
        agent.restart();
        Ok(Session {
            agent,
            rng: seat_rng(seed, other),
            buf: MoveBuf::new(),
            legal: Vec::new(),
            m,
            hand: Hand {
                state: start.clone(),
                start,
                seed,
                actions: Vec::new(),
            },
            finished: Vec::new(),
            wait: Await::Done,
            exit: 0,
            diverged: false,
            cfg,
        })
    }

    /// A saved game, played again to where it was saved.
    pub fn resume(save: &SaveFile, mut cfg: Config) -> Result<Session, CliError> {
        let bad = |e: String| CliError::Input(format!("saved game: {e}"));
        cfg.vs = save.vs.parse::<AgentSpec>()?;
        cfg.hint = save.hint.parse::<AgentSpec>()?;
        cfg.seat = save.seat;
        cfg.name = save.name.clone();
        cfg.seed = save.seed;
        cfg.is_match = save.is_match;
        cfg.rated = save.rated;
        cfg.rules = save.rules;
        cfg.position = save.position.as_ref().map(|v| v.to_string());
        if cfg.position.is_some() && save.hands.len() != 1 {
            return Err(bad(
                "a game from a position is one hand, but `hands` holds more".into(),
            ));
        }
        if !cfg.is_match && save.hands.len() != 1 {
            return Err(bad(format!(
                "a game of one hand, but `hands` holds {}",
                save.hands.len()
            )));
        }
        let mut s = Session::new(cfg)?;
        let (last, done) = save.hands.split_last().unwrap_or((&save.hands[0], &[]));
        for (i, actions) in done.iter().enumerate() {
            let mut g = s.hand.start.clone();
            for (k, a) in actions.iter().enumerate() {
                g.apply(*a)
                    .map_err(|e| bad(format!("hand {i}, action {k} `{a}`: {e}")))?;
            }
            if !g.is_terminal() {
                return Err(bad(format!("hand {i} is not over, but another follows it")));
            }
            let m = s.m.as_mut().ok_or_else(|| bad("not a match".into()))?;
            m.record(&g);
            if m.is_over() {
                return Err(bad(format!("the match was over after hand {i}")));
            }
            s.finished.push(actions.clone());
            let (start, seed) = (m.next_hand(), m.hand_seed(m.hands_played()));
            s.hand = Hand {
                state: start.clone(),
                start,
                seed,
                actions: Vec::new(),
            };
        }
        s.replay(last).map_err(|e| bad(e.to_string()))?;
        Ok(s)
    }

    /// The person's seat.
    #[cfg(test)]
    pub fn seat(&self) -> usize {
        self.cfg.seat
    }

    /// The hand in play (tests read the person's view of it).
    #[cfg(test)]
    pub fn state(&self) -> &GameState {
        &self.hand.state
    }

    /// The legal moves listed on the screen.
    #[cfg(test)]
    pub fn listed(&self) -> &[Action] {
        &self.legal
    }

    fn names(&self) -> Names {
        let mut label = vec![String::new(); 2];
        label[self.cfg.seat] = "you".into();
        label[1 - self.cfg.seat] = self.cfg.vs.to_string();
        Names { label }
    }
}

impl Terminal for Session {
    /// What the session waits for.
    fn waiting(&self) -> Await {
        self.wait
    }

    /// The exit status once done.
    fn exit_code(&self) -> u8 {
        self.exit
    }

    /// The first lines and the play up to the person's first decision.
    fn start(&mut self, out: &mut String) {
        let version = self
            .cfg
            .rules
            .settings()
            .into_iter()
            .find(|(k, _)| k == "version")
            .map(|(_, v)| v)
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "kanaszta human: you (P{}) against {} (P{}), {}, seed {}, {}, {}",
            self.cfg.seat,
            self.cfg.vs,
            1 - self.cfg.seat,
            if self.cfg.position.is_some() {
                "one hand from a position"
            } else if self.cfg.is_match {
                "a match with the tax"
            } else {
                "one hand"
            },
            self.cfg.seed,
            version,
            if self.cfg.rated {
                "rated (no undo, no hints)"
            } else {
                "practice"
            }
        );
        if self.diverged {
            let _ = writeln!(
                out,
                "note: the agent now chooses otherwise than the saved game at some move; \
                 the saved moves were played"
            );
        }
        let _ = writeln!(out, "type help for the commands");
        self.advance(out);
    }

    fn help(&self) -> &'static str {
        HELP
    }

    /// A move or a command; at a pause, a line goes on (a move typed
    /// there is the person's next move).
    fn play_line(&mut self, line: &str, out: &mut String) {
        let line = screen::normalize_input(line);
        let (head, rest) = words(&line);
        match self.wait {
            Await::Done => {}
            Await::Continue { next_hand } => {
                if next_hand {
                    self.next_hand();
                }
                self.wait = Await::Done;
                self.advance(out);
                // A move typed at the pause is the person's next move.
                if !head.is_empty() && self.wait == Await::Move {
                    self.command(&head, &rest, &line, out);
                }
            }
            Await::Move => self.command(&head, &rest, &line, out),
        }
    }

    fn save(&mut self, path: Option<PathBuf>, out: &mut String) {
        let over = self.wait == Await::Done;
        let Some(path) = save::save_target(over, path, self.cfg.out.as_deref(), out) else {
            return;
        };
        let mut hands = self.finished.clone();
        hands.push(self.hand.actions.iter().map(|(_, a)| *a).collect());
        let file = SaveFile {
            format: save::FORMAT.into(),
            vs: self.cfg.vs.to_string(),
            hint: self.cfg.hint.to_string(),
            seat: self.cfg.seat,
            name: self.cfg.name.clone(),
            seed: self.cfg.seed,
            is_match: self.cfg.is_match,
            rated: self.cfg.rated,
            rules: self.cfg.rules,
            position: self
                .cfg
                .position
                .as_ref()
                .and_then(|t| serde_json::from_str(t).ok()),
            hands,
        };
        let log = (self.cfg.position.is_none()).then(|| {
            let mut log = GameLog::new(&self.hand.start, self.hand.seed);
            log.actions = self.hand.actions.iter().map(|(_, a)| *a).collect();
            log.to_json()
        });
        let position = self.hand.state.to_position_json();
        match save::write_files(&path, &file.to_json(), &position, log.as_deref()) {
            Ok(()) => {
                // Resumed elsewhere, the game's rows would go to the
                // default directory, not beside the earlier ones.
                let text = save::saved_text(&path, self.cfg.out.as_deref(), log.is_some());
                let _ = writeln!(out, "{text}");
            }
            Err(e) => {
                let _ = writeln!(out, "save failed: cannot write {}: {e}", path.display());
            }
        }
    }

    fn save_and_stop(&mut self, out: &mut String) {
        self.save(None, out);
        self.wait = Await::Done;
    }
}

impl Session {
    fn command(&mut self, head: &str, rest: &[&str], line: &str, out: &mut String) {
        match head {
            "" => {}
            "moves" => {
                screen::moves(&self.cfg.style, out, &self.legal, usize::MAX);
            }
            "board" | "show" => self.show(out),
            "hint" => self.hint(rest.first().copied(), out),
            "undo" => self.undo(out),
            _ => {
                if let Ok(n) = head.parse::<usize>() {
                    match self.legal.get(n.wrapping_sub(1)).copied() {
                        Some(a) if rest.is_empty() => self.play(a, out),
                        _ => {
                            let _ = writeln!(
                                out,
                                "no move {line}: the moves are numbered 1 to {}",
                                self.legal.len()
                            );
                        }
                    }
                    return;
                }
                match line.parse::<Action>() {
                    Ok(a) => {
                        let mut probe = self.hand.state.clone();
                        match probe.apply(a) {
                            Ok(()) => self.play(a, out),
                            Err(e) => {
                                let _ = writeln!(out, "illegal: {a}: {e}");
                            }
                        }
                    }
                    Err(e) if ACTION_WORDS.contains(&head) => {
                        let _ = writeln!(out, "{e}");
                    }
                    Err(_) => {
                        let _ = writeln!(
                            out,
                            "unknown command `{line}`: type a move number (1 to {}), a move in \
                             notation (draw, lay 8D 8S 2C, discard 3S, …), reset, hint, undo, \
                             moves, board, save, quit or help",
                            self.legal.len()
                        );
                    }
                }
            }
        }
    }

    /// Applies the person's move and goes on.
    fn play(&mut self, a: Action, out: &mut String) {
        let me = self.cfg.seat;
        match self.apply(me, a, out) {
            Ok(()) => {
                self.wait = Await::Done;
                self.advance(out);
            }
            Err(e) => {
                let _ = writeln!(out, "illegal: {a}: {e}");
            }
        }
    }

    /// Applies `a` of player `p` to the hand, tells the agent, and says
    /// what happened as the person may see it.
    fn apply(&mut self, p: usize, a: Action, out: &mut String) -> Result<(), RuleError> {
        let g = &mut self.hand.state;
        let before_hand = g.hand(p);
        let before_threes = g.table(p).red_threes;
        let before_twins = g.table(p).twins;
        let before_pile = g.pile().len();
        let cut = g.cut_cards();
        let top = g.pile_top();
        g.apply(a)?;
        self.hand.actions.push((p, a));
        self.agent.inform(p, a);
        let g = &self.hand.state;
        let st = &self.cfg.style;
        let me = self.cfg.seat;
        let who = if p == me {
            "you".to_string()
        } else {
            format!("P{p} {}", self.cfg.vs)
        };
        let mut text = match a {
            Action::Draw => "draw from the stock".to_string(),
            Action::FreePickup => format!(
                "take {} free (D-6.1)",
                top.map(|c| st.card(c)).unwrap_or_default()
            ),
            Action::TakePile => format!(
                "take the pile's top card {} (D-6.2)",
                top.map(|c| st.card(c)).unwrap_or_default()
            ),
            Action::TakeRest => format!(
                "take the rest of the pile, {} cards",
                before_pile.saturating_sub(g.pile().len())
            ),
            Action::KeepCut { mask } => {
                let kept: Vec<String> = (0..3)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| st.card(cut[i]))
                    .collect();
                if kept.is_empty() {
                    "keep no cut card (D-3.1)".into()
                } else {
                    format!("keep the cut cards {} (D-3.1)", kept.join(" "))
                }
            }
            _ => st.action(a),
        };
        if p == me {
            let gained = g.hand(p).checked_sub(before_hand).unwrap_or_default();
            if !gained.is_empty() && !matches!(a, Action::TakeRest) {
                let _ = write!(text, ": you get {}", st.cards(gained));
            }
        }
        let threes = g
            .table(p)
            .red_threes
            .checked_sub(before_threes)
            .unwrap_or_default();
        if !threes.is_empty() {
            let _ = write!(text, "; red threes laid out {} (D-4)", st.cards(threes));
        }
        if g.table(p).twins > before_twins {
            text.push_str("; a twin (D-7)");
        }
        let _ = writeln!(out, "  {who}: {text}");
        Ok(())
    }

    /// Plays the agent until the person is to move, the pace waits, or
    /// the game ends.
    fn advance(&mut self, out: &mut String) {
        let me = self.cfg.seat;
        loop {
            if self.hand.state.is_terminal() {
                self.finish_hand(out);
                let match_on = self.m.as_ref().is_some_and(|m| !m.is_over());
                if !match_on {
                    self.game_over(out);
                    self.wait = Await::Done;
                    return;
                }
                if self.cfg.pace != Pace::None {
                    let _ = writeln!(out, "press Enter for the next hand");
                    self.wait = Await::Continue { next_hand: true };
                    return;
                }
                self.next_hand();
                continue;
            }
            let p = self.hand.state.current_player();
            if p == me {
                self.show(out);
                self.wait = Await::Move;
                return;
            }
            let view = self.hand.state.view(p);
            let mut moves = self.hand.state.moves(&mut self.buf);
            let a = self.agent.act(&view, &mut moves, &mut self.rng);
            if let Err(e) = self.apply(p, a, out) {
                let _ = writeln!(
                    out,
                    "the agent {} played the illegal action `{a}`: {e}; the game ends here",
                    self.cfg.vs
                );
                self.exit = EXIT_AGENT_ERROR;
                self.wait = Await::Done;
                return;
            }
            let turn_over = self.hand.state.is_terminal() || self.hand.state.current_player() != p;
            let pause = match self.cfg.pace {
                Pace::None => false,
                Pace::Turn => turn_over && !self.hand.state.is_terminal(),
                Pace::Move => !self.hand.state.is_terminal(),
            };
            if pause {
                self.wait = Await::Continue { next_hand: false };
                return;
            }
        }
    }

    /// The board and the numbered moves.
    fn show(&mut self, out: &mut String) {
        let g = &self.hand.state;
        let me = self.cfg.seat;
        g.legal_actions(&mut self.legal);
        let title = format!(
            "{}turn {}, you are P{me}{}",
            match &self.m {
                Some(m) => format!("hand {} of the match, ", m.hands_played() + 1),
                None => String::new(),
            },
            g.turns() + 1,
            if g.starter() == me {
                ", the starter"
            } else {
                ""
            }
        );
        screen::board(&self.cfg.style, out, &g.view(me), &self.names(), &title);
        let _ = writeln!(out, "your moves:");
        screen::moves(&self.cfg.style, out, &self.legal, 24);
    }

    /// The end of a hand: every hand shown, the scores (D-14) and the tax
    /// (D-15); the hand's rows appended to the CSV.
    fn finish_hand(&mut self, out: &mut String) {
        let g = &self.hand.state;
        let names = self.names();
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{}",
            self.cfg.style.bold(&format!(
                "=== the hand is over: {} ===",
                screen::end_text(g.end(), &names.label)
            ))
        );
        for p in 0..2 {
            let _ = writeln!(
                out,
                "P{p} {} holds: {}",
                names.label[p],
                if g.hand(p).is_empty() {
                    "nothing".to_string()
                } else {
                    screen::hand(&self.cfg.style, g.hand(p))
                }
            );
        }
        let scores = g.scores();
        for (p, s) in scores.iter().enumerate() {
            let _ = writeln!(out, "P{p} {}: {}", names.label[p], screen::score(s));
        }
        let raw: Vec<i32> = scores.iter().map(|s| s.total).collect();
        let before: Vec<i32> = match &self.m {
            Some(m) => m.totals().to_vec(),
            None => g.totals().to_vec(),
        };
        let (taxed, winner, index) = match self.m.as_mut() {
            Some(m) => {
                let rec = m.record(g);
                (rec.taxed, rec.winner, rec.index)
            }
            None => {
                let taxed: Vec<i32> = raw
                    .iter()
                    .zip(&before)
                    .map(|(r, b)| tax(*r, *b, &self.cfg.rules))
                    .collect();
                (taxed, unique_max(&raw), 0)
            }
        };
        for p in 0..2 {
            let _ = writeln!(
                out,
                "tax (D-15): P{p} {} {} at a total of {} ({}): {} → {}, total {}",
                names.label[p],
                if taxed[p] == raw[p] {
                    "keeps the hand's score"
                } else {
                    "is taxed"
                },
                before[p],
                screen::bracket(&self.cfg.rules, before[p]),
                raw[p],
                taxed[p],
                before[p] + taxed[p]
            );
        }
        self.append_rows(index, &before, &taxed, winner, out);
        self.finished
            .push(self.hand.actions.iter().map(|(_, a)| *a).collect());
    }

    /// Appends the hand's two rows to `hands.csv` in the out directory, in
    /// the columns of `kanaszta play`.
    fn append_rows(
        &mut self,
        index: u32,
        before: &[i32],
        taxed: &[i32],
        winner: Option<u8>,
        out: &mut String,
    ) {
        let Some(dir) = &self.cfg.out else {
            return;
        };
        let mut names = [String::new(), String::new()];
        names[self.cfg.seat] = self.cfg.name.clone();
        names[1 - self.cfg.seat] = self.cfg.vs.to_string();
        let rules = rule_values(&self.cfg.rules);
        let deal_seed = kanaszta_engine::seed::deal(self.cfg.seed, 0);
        let ids = Ids {
            series: 0,
            game: 0,
            deal: 0,
            swapped: false,
            mode: if self.m.is_some() {
                Mode::Matches
            } else {
                Mode::Hands
            },
            run_seed: self.cfg.seed,
            deal_seed,
            names,
            rules: &rules,
        };
        let rows = hand_rows(
            &ids,
            &self.hand.state,
            index,
            self.hand.seed,
            before,
            taxed,
            winner,
            self.hand.actions.len() as u64,
        );
        let mut body = Vec::new();
        for r in &rows {
            r.write_csv(&mut body);
        }
        let path = dir.join("hands.csv");
        match append_csv(&path, &HandRow::header(), &body) {
            Ok(()) => {
                let _ = writeln!(out, "the hand's rows are appended to {}", path.display());
            }
            Err(e) => {
                let _ = writeln!(out, "error: the hand's rows were not written: {e}");
                self.exit = self.exit.max(1);
            }
        }
    }

    fn game_over(&mut self, out: &mut String) {
        if let Some(m) = &self.m {
            let names = self.names();
            let totals = m.totals();
            let res = m.result();
            let _ = writeln!(
                out,
                "{}",
                self.cfg.style.bold(&format!(
                    "=== the match is over after {} hands: {} ===",
                    m.hands_played(),
                    match res.and_then(|r| r.winner) {
                        Some(w) => format!("P{w} {} wins", names.label[w as usize]),
                        None => "a draw".into(),
                    }
                ))
            );
            for (p, (total, paid)) in totals.iter().zip(m.tax_paid()).enumerate() {
                let _ = writeln!(
                    out,
                    "P{p} {}: total {total}, tax paid {paid}",
                    names.label[p]
                );
            }
        } else {
            let _ = writeln!(out, "the game is over");
        }
    }

    fn next_hand(&mut self) {
        let Some(m) = &self.m else {
            return;
        };
        let start = m.next_hand();
        let seed = m.hand_seed(m.hands_played());
        self.hand = Hand {
            state: start.clone(),
            start,
            seed,
            actions: Vec::new(),
        };
        self.agent.restart();
        self.rng = seat_rng(seed, 1 - self.cfg.seat);
    }

    /// Plays the hand again from its start with `actions`, the agent
    /// deciding its own moves again (so its generator and memory are as
    /// they were); a move it now chooses otherwise is noted, and the
    /// logged one played.
    fn replay(&mut self, actions: &[Action]) -> Result<(), HumanError> {
        let me = self.cfg.seat;
        self.hand.state = self.hand.start.clone();
        self.hand.actions.clear();
        self.agent.restart();
        self.rng = seat_rng(self.hand.seed, 1 - me);
        let mut sink = String::new();
        for (i, a) in actions.iter().enumerate() {
            if self.hand.state.is_terminal() {
                return Err(HumanError::AfterEnd {
                    index: i,
                    action: *a,
                });
            }
            let p = self.hand.state.current_player();
            if p != me {
                let view = self.hand.state.view(p);
                let mut moves = self.hand.state.moves(&mut self.buf);
                let chosen = self.agent.act(&view, &mut moves, &mut self.rng);
                self.diverged |= chosen != *a;
            }
            self.apply(p, *a, &mut sink)
                .map_err(|source| HumanError::Illegal {
                    index: i,
                    action: *a,
                    source,
                })?;
        }
        Ok(())
    }

    /// `undo`: back to the start of the person's last whole turn.
    fn undo(&mut self, out: &mut String) {
        if self.cfg.rated {
            let _ = writeln!(out, "undo is off in a rated game (practice games allow it)");
            return;
        }
        let me = self.cfg.seat;
        let acts = &self.hand.actions;
        let n = acts.len();
        let target = (0..n)
            .rev()
            .find(|&i| acts[i].0 == me && (i == 0 || acts[i - 1].0 != me));
        let Some(target) = target else {
            let _ = writeln!(out, "nothing to undo in this hand");
            return;
        };
        let keep: Vec<Action> = acts[..target].iter().map(|(_, a)| *a).collect();
        if let Err(e) = self.replay(&keep) {
            let _ = writeln!(out, "undo failed: {e}");
            return;
        }
        let _ = writeln!(
            out,
            "undone: back to the start of your turn {}",
            self.hand.state.turns() + 1
        );
        self.wait = Await::Done;
        self.advance(out);
    }

    /// `hint`: what an agent would play here, and what its search found.
    fn hint(&mut self, spec: Option<&str>, out: &mut String) {
        if self.cfg.rated {
            let _ = writeln!(
                out,
                "hints are off in a rated game (practice games allow them)"
            );
            return;
        }
        let spec = match spec.map(str::parse::<AgentSpec>) {
            None => self.cfg.hint.clone(),
            Some(Ok(s)) => s,
            Some(Err(e)) => {
                let _ = writeln!(out, "hint: {e}");
                return;
            }
        };
        let mut agent = spec.build();
        agent.restart();
        for (p, a) in &self.hand.actions {
            agent.inform(*p, *a);
        }
        let me = self.cfg.seat;
        let g = &self.hand.state;
        // Its own stream, the same for the same point of the hand.
        let mut rng = seat_rng(
            kanaszta_engine::derive_seed(self.hand.seed, self.hand.actions.len() as u64),
            me,
        );
        let view = g.view(me);
        let mut moves = g.moves(&mut self.buf);
        let a = agent.act(&view, &mut moves, &mut rng);
        let number = self
            .legal
            .iter()
            .position(|x| *x == a)
            .map(|i| format!(" (move {})", i + 1))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{spec} would play: {}{number}",
            self.cfg.style.action(a)
        );
        let mut choices = agent.choices().to_vec();
        if choices.is_empty() {
            let _ = writeln!(
                out,
                "  ({spec} weighs no options aloud: it plays by its rules; a search agent such as ismcts shows its values)"
            );
            return;
        }
        choices.sort_by(|x, y| {
            (y.visits, y.value)
                .partial_cmp(&(x.visits, x.value))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let _ = writeln!(
            out,
            "  its search, best first (value: mean reward, from -1 a lost hand to +1 a won one):"
        );
        for c in choices.iter().take(6) {
            let what = match c.option {
                kanaszta_agents::search::Macro::Meld => "meld (lay as its policy would)".into(),
                kanaszta_agents::search::Macro::Hold => "hold (lay nothing more now)".into(),
                m => m.to_string(),
            };
            let _ = writeln!(
                out,
                "    {what:<32} value {:+.3}{}  {} playouts{}{}",
                c.value,
                c.se.map(|s| format!(" ± {s:.3}")).unwrap_or_default(),
                c.visits,
                if c.chosen { "  <- played" } else { "" },
                if c.policy {
                    "  (its policy's move)"
                } else {
                    ""
                },
            );
        }
    }
}

/// Refuses a person's name that is an agent's (`rules`, `Greedy`,
/// `ismcts:iterations=50`): the person's hands would be rated as the
/// agent's by `kanaszta ratings`, which tells players apart by that name.
fn check_name(name: &str) -> Result<(), CliError> {
    let t = name.trim();
    let head = t.split_once(':').map_or(t, |(h, _)| h).trim();
    let agents: Vec<&str> = kanaszta_agents::agent_names().collect();
    if let Some(a) = agents.iter().find(|a| a.eq_ignore_ascii_case(head)) {
        return Err(CliError::Input(format!(
            "--name {}: `{a}` is an agent's name, and `kanaszta ratings` would count your \
             hands as that agent's; give a name that is no agent's ({}), e.g. --name human",
            crate::input::clip(name),
            agents.join(", ")
        )));
    }
    if t.is_empty() {
        return Err(CliError::Input(
            "--name is empty: give the name to write in hands.csv's agent column, e.g. \
             --name human"
                .into(),
        ));
    }
    Ok(())
}

/// The first word of `line` in lower case (empty for an empty line) and
/// the words after it.
fn words(line: &str) -> (String, Vec<&str>) {
    let mut words = line.split_whitespace();
    let head = words.next().unwrap_or("").to_ascii_lowercase();
    (head, words.collect())
}

/// The index of the unique highest score (the hand's winner, I-19).
fn unique_max(v: &[i32]) -> Option<u8> {
    let max = *v.iter().max()?;
    let mut it = v.iter().enumerate().filter(|(_, x)| **x == max);
    let first = it.next()?.0;
    it.next().is_none().then_some(first as u8)
}

/// The first words of the action notation.
const ACTION_WORDS: &[&str] = &[
    "keep", "draw", "free", "take", "rest", "lay", "extend", "unwild", "swap", "convert",
    "takeback", "heart", "reset", "discard",
];

/// Appends `body` (rows in CSV) to a `hands.csv` of the columns
/// `header`, writing the header first into a new or empty file; a file
/// with other columns is left alone.
fn append_csv(path: &std::path::Path, header: &[String], body: &[u8]) -> Result<(), HumanError> {
    let header = header.join(",");
    let existing = match std::fs::read(path) {
        Ok(b) => Some(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(HumanError::Read {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let mut buf = Vec::new();
    match &existing {
        Some(b) if !b.is_empty() => {
            let first = b.split(|c| *c == b'\n').next().unwrap_or_default();
            if first != header.as_bytes() {
                return Err(HumanError::Columns(path.to_path_buf()));
            }
        }
        _ => {
            buf.extend_from_slice(header.as_bytes());
            buf.push(b'\n');
        }
    }
    buf.extend_from_slice(body);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| HumanError::CreateDir {
            dir: dir.to_path_buf(),
            source,
        })?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(&buf))
        .map_err(|source| HumanError::Write {
            path: path.to_path_buf(),
            source,
        })
}
