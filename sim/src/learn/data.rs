//! Training data from self-play (`kanaszta learn data`): paired hands or
//! matches of two agents, of either family, and for each sampled
//! decision the deciding seat's encoding, the legal ids, the id taken
//! and the hand's final margin from that seat's side (with `--views
//! all`, every other seat's encoding of the same position too). Games
//! are played on many threads and written in game order, as they end,
//! into the `.npy` files of docs/LEARNING.md: the files depend on the
//! seed only, and the memory on the threads only.

use super::npy::{NpyError, NpyWriter};
use crate::error::{CliError, RunError};
use crate::run::{Mode, Played, RunResult, Sink};
use kanaszta_agents::{play_turns_observed, seat_rng, AgentSpec, Family, Observer};
use kanaszta_engine::classic::{ClassicMatch, ClassicMatchResult, ClassicRules, ClassicState};
use kanaszta_engine::{
    seed, ActionIds, Encode, Game, GameState, Match, Rules, ACTION_IDS_VERSION, ENCODING_VERSION,
};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::path::{Path, PathBuf};

/// What the data command needs of a family beyond the agents' [`Family`]:
/// its encoding and ids, and how a hand or a match is dealt as `kanaszta
/// play` deals it.
pub trait LearnFamily: Family + Encode + ActionIds {
    /// The rules of a hand.
    type Rules: Copy + Send + Sync;
    /// A match in progress.
    type Match;
    /// Every switch of the rules with its value.
    fn settings(rules: &Self::Rules) -> Vec<(String, String)>;
    /// The hand of deal `deal_seed` in a run of hands, and the seed of
    /// its seats' generators.
    fn hand(rules: Self::Rules, deal_seed: u64) -> (Self, u64);
    /// A new match of deal `deal_seed`.
    fn new_match(rules: Self::Rules, deal_seed: u64) -> Self::Match;
    /// Whether the match is over.
    fn match_over(m: &Self::Match) -> bool;
    /// The next hand of the match of deal `deal_seed` and the seed of
    /// its seats' generators.
    fn next_hand(m: &Self::Match, deal_seed: u64) -> (Self, u64);
    /// Records a finished hand in the match.
    fn record(m: &mut Self::Match, hand: &Self);
    /// The side that won the match (`None` for a draw).
    fn winner(m: &Self::Match) -> Option<usize>;
}

impl LearnFamily for GameState {
    type Rules = Rules;
    type Match = Match;
    fn settings(rules: &Rules) -> Vec<(String, String)> {
        rules.settings()
    }
    fn hand(rules: Rules, deal_seed: u64) -> (GameState, u64) {
        (GameState::new(rules, deal_seed), deal_seed)
    }
    fn new_match(rules: Rules, deal_seed: u64) -> Match {
        Match::new(rules, deal_seed)
    }
    fn match_over(m: &Match) -> bool {
        m.is_over()
    }
    fn next_hand(m: &Match, _deal_seed: u64) -> (GameState, u64) {
        (m.next_hand(), m.hand_seed(m.hands_played()))
    }
    fn record(m: &mut Match, hand: &GameState) {
        m.record(hand);
    }
    fn winner(m: &Match) -> Option<usize> {
        m.result().and_then(|r| r.winner).map(usize::from)
    }
}

impl LearnFamily for ClassicState {
    type Rules = ClassicRules;
    type Match = ClassicMatch;
    fn settings(rules: &ClassicRules) -> Vec<(String, String)> {
        rules
            .settings()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    }
    fn hand(rules: ClassicRules, deal_seed: u64) -> (ClassicState, u64) {
        let m = ClassicMatch::new(rules, deal_seed);
        (m.next_hand(), seed::match_hand(deal_seed, 0))
    }
    fn new_match(rules: ClassicRules, deal_seed: u64) -> ClassicMatch {
        ClassicMatch::new(rules, deal_seed)
    }
    fn match_over(m: &ClassicMatch) -> bool {
        m.result() != ClassicMatchResult::Playing
    }
    fn next_hand(m: &ClassicMatch, deal_seed: u64) -> (ClassicState, u64) {
        // The seed `ClassicMatch::next_hand` deals from, as `play` seeds
        // the seats of a classic match.
        (m.next_hand(), seed::match_hand(deal_seed, m.hands_played()))
    }
    fn record(m: &mut ClassicMatch, hand: &ClassicState) {
        m.record(hand);
    }
    fn winner(m: &ClassicMatch) -> Option<usize> {
        match m.result() {
            ClassicMatchResult::Won(s) => Some(s as usize),
            _ => None,
        }
    }
}

/// Which seats' encodings a sampled decision writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Views {
    /// The deciding seat's only.
    Decider,
    /// Every seat's, the decider's first.
    All,
}

/// Which decisions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// Every decision (with `--sample`, a share of them).
    Decisions,
    /// Only the first decision of each turn but a hand's first: the
    /// position at the end of the turn before, after its discard, as a
    /// turn-level judge sees it.
    TurnEnds,
}

impl At {
    /// Its name in options and meta.json.
    pub fn name(self) -> &'static str {
        match self {
            At::Decisions => "decision",
            At::TurnEnds => "turn-end",
        }
    }
}

/// A checked data run.
pub struct DataPlan<G: LearnFamily> {
    /// The rules.
    pub rules: G::Rules,
    /// The agent of each seat, unswapped and swapped.
    pub seats: [Vec<AgentSpec<G>>; 2],
    /// The sides' names, A then B.
    pub names: [String; 2],
    /// Hands or matches.
    pub mode: Mode,
    /// Games: hands or matches.
    pub games: u64,
    /// The master seed.
    pub seed: u64,
    /// The share of decisions written, in (0, 1].
    pub sample: f64,
    /// Whose encodings are written.
    pub views: Views,
    /// Which decisions are written.
    pub at: At,
}

/// The rows of one game, as the files hold them.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Rows {
    /// Per row: the number of non-zero entries of its encoding.
    pub obs_nnz: Vec<u32>,
    /// The non-zero entries' indices, row after row.
    pub obs_index: Vec<u16>,
    /// Their values.
    pub obs_value: Vec<f32>,
    /// Per row: the number of legal ids (0 for a row of a seat not deciding).
    pub legal_len: Vec<u32>,
    /// The legal ids, ascending, row after row.
    pub legal_id: Vec<u16>,
    /// The id taken (-1 for a row of a seat not deciding, or an action without an id).
    pub action: Vec<i32>,
    /// The hand's final margin from the row's seat's side.
    pub margin: Vec<i32>,
    /// The match's outcome for the row's seat's side: 1 won, 0 lost, 0.5 drawn.
    pub outcome: Vec<f32>,
    /// The game.
    pub game: Vec<i64>,
    /// The hand within the game.
    pub hand: Vec<i32>,
    /// The row's seat.
    pub seat: Vec<u8>,
    /// 1 if the row's seat is the one deciding.
    pub decider: Vec<u8>,
    /// Turns completed when the decision was taken.
    pub turn: Vec<i32>,
}

impl Rows {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.seat.len()
    }
    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.seat.is_empty()
    }
}

/// One game's rows, or the error that ended it.
#[derive(Debug, Default)]
pub struct DataGame {
    /// The game's rows (none if it erred).
    pub rows: Rows,
    /// Why the game ended early.
    pub error: Option<String>,
    actions: u64,
    hands: u64,
}

impl Played for DataGame {
    fn actions(&self) -> u64 {
        self.actions
    }
    fn hands(&self) -> u64 {
        self.hands
    }
    fn error(&self) -> Option<String> {
        self.error.clone()
    }
}

/// Writes the sampled decisions of the hand it watches into [`Rows`].
struct Recorder<G: LearnFamily> {
    rows: Rows,
    sample: f64,
    views: Views,
    at: At,
    /// The hand and turns completed at the last decision seen.
    seen: Option<(i32, u32)>,
    coin: Pcg64Mcg,
    obs: Vec<f32>,
    legal: Vec<G::Action>,
    ids: Vec<u16>,
    game: i64,
    hand: i32,
}

impl<G: LearnFamily> Observer<G> for Recorder<G> {
    fn before(&mut self, state: &G, p: usize, action: G::Action) {
        if self.at == At::TurnEnds {
            // A turn's first decision is the end of the turn before; the
            // coin is drawn only for those.
            let key = (self.hand, state.turns());
            let first = key.1 > 0 && self.seen != Some(key);
            self.seen = Some(key);
            if !first {
                return;
            }
        }
        if self.sample < 1.0 && self.coin.random::<f64>() >= self.sample {
            return;
        }
        state.legal_actions(&mut self.legal);
        self.ids.clear();
        self.ids
            .extend(self.legal.iter().filter_map(G::action_id).map(|i| i as u16));
        self.ids.sort_unstable();
        self.ids.dedup();
        let players = state.players();
        let viewers = match self.views {
            Views::Decider => 1,
            Views::All => players,
        };
        for k in 0..viewers {
            let v = (p + k) % players;
            G::encode(&state.view(v), &mut self.obs);
            let r = &mut self.rows;
            let before = r.obs_index.len();
            for (i, &x) in self.obs[..G::OBS_LEN].iter().enumerate() {
                if x != 0.0 {
                    r.obs_index.push(i as u16);
                    r.obs_value.push(x);
                }
            }
            r.obs_nnz.push((r.obs_index.len() - before) as u32);
            if k == 0 {
                r.legal_len.push(self.ids.len() as u32);
                r.legal_id.extend_from_slice(&self.ids);
                r.action
                    .push(G::action_id(&action).map_or(-1, |i| i as i32));
            } else {
                r.legal_len.push(0);
                r.action.push(-1);
            }
            r.margin.push(0);
            r.outcome.push(0.5);
            r.game.push(self.game);
            r.hand.push(self.hand);
            r.seat.push(v as u8);
            r.decider.push(u8::from(k == 0));
            r.turn.push(state.turns() as i32);
        }
    }
}

/// The margin of `side`: its hand score less the best of the others'.
pub fn margin_of<G: Game>(state: &G, side: usize) -> i32 {
    let own = state.side_score(side);
    let best = (0..state.sides())
        .filter(|&s| s != side)
        .map(|s| state.side_score(s))
        .max()
        .unwrap_or(0);
    own - best
}

impl<G: LearnFamily> DataPlan<G> {
    fn deal(&self, g: u64) -> u64 {
        g / 2
    }

    /// Plays game `g` (deal `g / 2`, the seats swapped when `g` is odd)
    /// and keeps its sampled decisions; a panic or an agent's error
    /// becomes the game's error.
    pub fn play(&self, g: u64) -> DataGame {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.play_unguarded(g)));
        r.unwrap_or_else(|p| {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            DataGame {
                error: Some(format!("game {g}: panic: {msg}")),
                ..DataGame::default()
            }
        })
    }

    fn play_unguarded(&self, g: u64) -> DataGame {
        let swapped = g % 2 == 1;
        let deal_seed = seed::deal(self.seed, self.deal(g));
        let mut agents: Vec<_> = self.seats[usize::from(swapped)]
            .iter()
            .map(|s| s.build())
            .collect();
        let mut rec = Recorder::<G> {
            rows: Rows::default(),
            sample: self.sample,
            views: self.views,
            at: self.at,
            seen: None,
            // The sampling coin draws from its own generator: the agents'
            // play does not depend on --sample.
            coin: Pcg64Mcg::seed_from_u64(seed::seat(deal_seed ^ 0x6c65_6172_6e21, g as usize % 2)),
            obs: vec![0.0; G::OBS_LEN],
            legal: Vec::new(),
            ids: Vec::new(),
            game: g as i64,
            hand: 0,
        };
        let mut out = DataGame::default();
        let mut play_one = |state: &mut G, rng_seed: u64, rec: &mut Recorder<G>| {
            let first = rec.rows.len();
            let mut rngs: Vec<_> = (0..state.players())
                .map(|p| seat_rng(rng_seed, p))
                .collect();
            let r = play_turns_observed(state, &mut agents, &mut rngs, rec);
            match r {
                Ok(play) => {
                    for i in first..rec.rows.len() {
                        let side = state.side_of(rec.rows.seat[i] as usize);
                        rec.rows.margin[i] = margin_of(state, side);
                    }
                    out.actions += play.actions;
                    out.hands += 1;
                    Ok(())
                }
                Err(e) => Err(format!("game {g}: {e}")),
            }
        };
        let result = match self.mode {
            Mode::Hands => {
                let (mut state, s) = G::hand(self.rules, deal_seed);
                play_one(&mut state, s, &mut rec)
            }
            Mode::Matches => {
                let mut m = G::new_match(self.rules, deal_seed);
                let mut r = Ok(());
                let mut sides = Vec::new();
                while r.is_ok() && !G::match_over(&m) {
                    let (mut state, s) = G::next_hand(&m, deal_seed);
                    if sides.is_empty() {
                        sides = (0..state.players()).map(|p| state.side_of(p)).collect();
                    }
                    r = play_one(&mut state, s, &mut rec);
                    if r.is_ok() {
                        G::record(&mut m, &state);
                    }
                    rec.hand += 1;
                }
                if r.is_ok() {
                    let winner = G::winner(&m);
                    for i in 0..rec.rows.len() {
                        let side = sides[rec.rows.seat[i] as usize];
                        rec.rows.outcome[i] = match winner {
                            Some(w) if w == side => 1.0,
                            Some(_) => 0.0,
                            None => 0.5,
                        };
                    }
                }
                r
            }
        };
        match result {
            Ok(()) => out.rows = rec.rows,
            Err(e) => out.error = Some(e),
        }
        out
    }

    /// Plays every game on `threads` threads into the files of `out`.
    pub fn execute(
        &self,
        out: &Path,
        threads: usize,
        quiet: bool,
    ) -> Result<DataSummary, CliError> {
        std::fs::create_dir_all(out).map_err(|e| CliError::io("create", out.display(), e))?;
        // An earlier run's meta.json would describe files this run
        // replaces: it goes first, and comes back when the run is done.
        let meta = out.join("meta.json");
        if meta.exists() {
            std::fs::remove_file(&meta).map_err(|e| CliError::io("replace", meta.display(), e))?;
        }
        let mut files = DataFiles::create(out, self.mode == Mode::Matches)
            .map_err(|e| CliError::io("write", out.display(), e))?;
        let result = crate::run::execute_games(
            (0..self.games).map(|g| (0, g)),
            self.games,
            self.mode.name(),
            |_, g| self.play(g),
            &mut files,
            threads,
            quiet,
            64,
            None,
        )
        .map_err(|e| match e {
            RunError::Write(e) => CliError::io("write", out.display(), e),
            e => CliError::Input(e.to_string()),
        })?;
        let summary = DataSummary {
            rows: files.rows,
            decisions: files.decisions,
            errors: files.errors.clone(),
            run: result,
        };
        files
            .finish()
            .map_err(|e| CliError::io("write", out.display(), e))?;
        Ok(summary)
    }

    /// The settings of the run, as meta.json records them.
    pub fn meta(&self, summary: &DataSummary, rules_name: &str) -> serde_json::Value {
        let settings: serde_json::Map<String, serde_json::Value> = G::settings(&self.rules)
            .into_iter()
            .map(|(k, v)| (k, serde_json::Value::String(v)))
            .collect();
        serde_json::json!({
            "format": "kanaszta-learn-data",
            "format_version": 1,
            "family": G::FAMILY,
            "rules": rules_name,
            "settings": settings,
            "encoding_version": ENCODING_VERSION,
            "action_ids_version": ACTION_IDS_VERSION,
            "obs_len": G::OBS_LEN,
            "action_ids": G::ACTION_IDS,
            "a": self.names[0],
            "b": self.names[1],
            "mode": self.mode.name(),
            "games": self.games,
            "seed": self.seed,
            "sample": self.sample,
            "views": match self.views { Views::Decider => "decider", Views::All => "all" },
            "at": self.at.name(),
            "rows": summary.rows,
            "decisions": summary.decisions,
            "games_with_errors": summary.errors.len(),
            "complete": summary.run.stopped.is_none(),
        })
    }
}

/// What a data run wrote.
pub struct DataSummary {
    /// Rows written.
    pub rows: u64,
    /// Sampled decisions (rows of the deciding seat).
    pub decisions: u64,
    /// The errors of the games left out.
    pub errors: Vec<String>,
    /// The run's counts and time.
    pub run: RunResult,
}

/// The `.npy` files of a data run, appended to game by game.
struct DataFiles {
    obs_indptr: NpyWriter<i64>,
    obs_index: NpyWriter<u16>,
    obs_value: NpyWriter<f32>,
    legal_indptr: NpyWriter<i64>,
    legal_id: NpyWriter<u16>,
    action: NpyWriter<i32>,
    margin: NpyWriter<i32>,
    outcome: Option<NpyWriter<f32>>,
    game: NpyWriter<i64>,
    hand: NpyWriter<i32>,
    seat: NpyWriter<u8>,
    decider: NpyWriter<u8>,
    turn: NpyWriter<i32>,
    obs_at: i64,
    legal_at: i64,
    rows: u64,
    decisions: u64,
    errors: Vec<String>,
}

/// The names of the files of a data run (`outcome.npy` with matches only).
pub const DATA_FILES: &[&str] = &[
    "obs_indptr",
    "obs_index",
    "obs_value",
    "legal_indptr",
    "legal_id",
    "action",
    "margin",
    "outcome",
    "game",
    "hand",
    "seat",
    "decider",
    "turn",
];

impl DataFiles {
    fn create(dir: &Path, matches: bool) -> std::io::Result<DataFiles> {
        let p = |name: &str| -> PathBuf { dir.join(format!("{name}.npy")) };
        let mut f = DataFiles {
            obs_indptr: NpyWriter::create(&p("obs_indptr"), 1)?,
            obs_index: NpyWriter::create(&p("obs_index"), 1)?,
            obs_value: NpyWriter::create(&p("obs_value"), 1)?,
            legal_indptr: NpyWriter::create(&p("legal_indptr"), 1)?,
            legal_id: NpyWriter::create(&p("legal_id"), 1)?,
            action: NpyWriter::create(&p("action"), 1)?,
            margin: NpyWriter::create(&p("margin"), 1)?,
            outcome: None,
            game: NpyWriter::create(&p("game"), 1)?,
            hand: NpyWriter::create(&p("hand"), 1)?,
            seat: NpyWriter::create(&p("seat"), 1)?,
            decider: NpyWriter::create(&p("decider"), 1)?,
            turn: NpyWriter::create(&p("turn"), 1)?,
            obs_at: 0,
            legal_at: 0,
            rows: 0,
            decisions: 0,
            errors: Vec::new(),
        };
        if matches {
            f.outcome = Some(NpyWriter::create(&p("outcome"), 1)?);
        } else if p("outcome").exists() {
            // An earlier run's outcomes would read as this run's.
            std::fs::remove_file(p("outcome"))?;
        }
        f.obs_indptr.extend([0])?;
        f.legal_indptr.extend([0])?;
        Ok(f)
    }

    fn finish(self) -> std::io::Result<()> {
        self.obs_indptr.finish()?;
        self.obs_index.finish()?;
        self.obs_value.finish()?;
        self.legal_indptr.finish()?;
        self.legal_id.finish()?;
        self.action.finish()?;
        self.margin.finish()?;
        if let Some(o) = self.outcome {
            o.finish()?;
        }
        self.game.finish()?;
        self.hand.finish()?;
        self.seat.finish()?;
        self.decider.finish()?;
        self.turn.finish()
    }
}

impl Sink<DataGame> for DataFiles {
    fn take(&mut self, g: &DataGame) -> std::io::Result<()> {
        if let Some(e) = &g.error {
            self.errors.push(e.clone());
            return Ok(());
        }
        let r = &g.rows;
        let mut at = self.obs_at;
        self.obs_indptr.extend(r.obs_nnz.iter().map(|&n| {
            at += n as i64;
            at
        }))?;
        self.obs_at = at;
        let mut at = self.legal_at;
        self.legal_indptr.extend(r.legal_len.iter().map(|&n| {
            at += n as i64;
            at
        }))?;
        self.legal_at = at;
        self.obs_index.extend(r.obs_index.iter().copied())?;
        self.obs_value.extend(r.obs_value.iter().copied())?;
        self.legal_id.extend(r.legal_id.iter().copied())?;
        self.action.extend(r.action.iter().copied())?;
        self.margin.extend(r.margin.iter().copied())?;
        if let Some(o) = &mut self.outcome {
            o.extend(r.outcome.iter().copied())?;
        }
        self.game.extend(r.game.iter().copied())?;
        self.hand.extend(r.hand.iter().copied())?;
        self.seat.extend(r.seat.iter().copied())?;
        self.decider.extend(r.decider.iter().copied())?;
        self.turn.extend(r.turn.iter().copied())?;
        self.rows += r.len() as u64;
        self.decisions += r.decider.iter().filter(|&&d| d == 1).count() as u64;
        Ok(())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A data set read back whole from the files of a data run.
#[derive(Debug, Clone)]
pub struct DataSet {
    /// meta.json.
    pub meta: serde_json::Value,
    /// The family (`decorated`, `classic`).
    pub family: String,
    /// The encoding's length.
    pub obs_len: usize,
    /// Row `i`'s encoding is `obs_index/obs_value[obs_indptr[i]..obs_indptr[i + 1]]`.
    pub obs_indptr: Vec<i64>,
    /// Indices of the non-zero entries.
    pub obs_index: Vec<u16>,
    /// Their values.
    pub obs_value: Vec<f32>,
    /// Row `i`'s legal ids are `legal_id[legal_indptr[i]..legal_indptr[i + 1]]`.
    pub legal_indptr: Vec<i64>,
    /// The legal ids.
    pub legal_id: Vec<u16>,
    /// The ids taken.
    pub action: Vec<i32>,
    /// The margins.
    pub margin: Vec<i32>,
    /// The match outcomes (matches only).
    pub outcome: Option<Vec<f32>>,
    /// The games.
    pub game: Vec<i64>,
    /// The hands within the games.
    pub hand: Vec<i32>,
    /// The seats.
    pub seat: Vec<u8>,
    /// Whether each row's seat decided.
    pub decider: Vec<u8>,
    /// The turns.
    pub turn: Vec<i32>,
}

impl DataSet {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.margin.len()
    }
    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.margin.is_empty()
    }

    /// Reads the files of a data run in `dir`, checking that they agree
    /// with each other and with meta.json.
    pub fn read(dir: &Path) -> Result<DataSet, DataError> {
        use super::npy::read;
        let meta_path = dir.join("meta.json");
        let text = std::fs::read_to_string(&meta_path).map_err(|source| DataError::Meta {
            dir: dir.to_path_buf(),
            source,
        })?;
        let meta: serde_json::Value =
            serde_json::from_str(&text).map_err(|source| DataError::MetaJson {
                dir: dir.to_path_buf(),
                source,
            })?;
        if meta["format"] != "kanaszta-learn-data" {
            return Err(DataError::NotMeta {
                dir: dir.to_path_buf(),
            });
        }
        let family = meta["family"].as_str().unwrap_or("").to_string();
        let obs_len = meta["obs_len"].as_u64().unwrap_or(0) as usize;
        let one = |name: &str| dir.join(format!("{name}.npy"));
        let outcome_path = one("outcome");
        let set = DataSet {
            obs_indptr: read::<i64>(&one("obs_indptr"))?.data,
            obs_index: read::<u16>(&one("obs_index"))?.data,
            obs_value: read::<f32>(&one("obs_value"))?.data,
            legal_indptr: read::<i64>(&one("legal_indptr"))?.data,
            legal_id: read::<u16>(&one("legal_id"))?.data,
            action: read::<i32>(&one("action"))?.data,
            margin: read::<i32>(&one("margin"))?.data,
            outcome: if outcome_path.exists() {
                Some(read::<f32>(&outcome_path)?.data)
            } else {
                None
            },
            game: read::<i64>(&one("game"))?.data,
            hand: read::<i32>(&one("hand"))?.data,
            seat: read::<u8>(&one("seat"))?.data,
            decider: read::<u8>(&one("decider"))?.data,
            turn: read::<i32>(&one("turn"))?.data,
            meta,
            family,
            obs_len,
        };
        set.check().map_err(|problem| DataError::Disagree {
            dir: dir.to_path_buf(),
            problem,
        })?;
        Ok(set)
    }

    fn check(&self) -> Result<(), DataMismatch> {
        let n = self.len();
        let lens = [
            ("action", self.action.len()),
            ("game", self.game.len()),
            ("hand", self.hand.len()),
            ("seat", self.seat.len()),
            ("decider", self.decider.len()),
            ("turn", self.turn.len()),
            (
                "obs_indptr less one",
                self.obs_indptr.len().saturating_sub(1),
            ),
            (
                "legal_indptr less one",
                self.legal_indptr.len().saturating_sub(1),
            ),
        ];
        for (name, len) in lens {
            if len != n {
                return Err(DataMismatch::Rows { name, len, rows: n });
            }
        }
        if self.outcome.as_ref().is_some_and(|o| o.len() != n) {
            return Err(DataMismatch::Outcome);
        }
        if self.meta["rows"].as_u64() != Some(n as u64) {
            return Err(DataMismatch::MetaRows {
                meta: self.meta["rows"].clone(),
                rows: n,
            });
        }
        let ptr_ok = |p: &[i64], total: usize| {
            p.first() == Some(&0)
                && p.windows(2).all(|w| w[0] <= w[1])
                && p.last() == Some(&(total as i64))
        };
        if !ptr_ok(&self.obs_indptr, self.obs_index.len())
            || self.obs_index.len() != self.obs_value.len()
        {
            return Err(DataMismatch::ObsIndptr);
        }
        if !ptr_ok(&self.legal_indptr, self.legal_id.len()) {
            return Err(DataMismatch::LegalIndptr);
        }
        if self.obs_index.iter().any(|&i| i as usize >= self.obs_len) {
            return Err(DataMismatch::ObsIndex {
                obs_len: self.obs_len,
            });
        }
        Ok(())
    }

    /// Appends the rows of `other` (a run of the same family and
    /// encoding), as if both runs' files were one; meta.json's `rows`
    /// counts both. The games keep their numbers: a fit holds out the
    /// same deal numbers of both runs, which are different deals.
    pub fn append(&mut self, other: DataSet) {
        let shift = |p: &mut Vec<i64>, q: &[i64]| {
            let base = p.last().copied().unwrap_or(0);
            p.extend(q.iter().skip(1).map(|x| x + base));
        };
        shift(&mut self.obs_indptr, &other.obs_indptr);
        shift(&mut self.legal_indptr, &other.legal_indptr);
        self.obs_index.extend(other.obs_index);
        self.obs_value.extend(other.obs_value);
        self.legal_id.extend(other.legal_id);
        self.action.extend(other.action);
        self.margin.extend(other.margin);
        self.outcome = match (self.outcome.take(), other.outcome) {
            (Some(mut a), Some(b)) => {
                a.extend(b);
                Some(a)
            }
            _ => None,
        };
        self.game.extend(other.game);
        self.hand.extend(other.hand);
        self.seat.extend(other.seat);
        self.decider.extend(other.decider);
        self.turn.extend(other.turn);
        self.meta["rows"] = (self.len() as u64).into();
    }

    /// Row `i`'s encoding, written densely into `out` (at least `obs_len` long).
    pub fn dense(&self, i: usize, out: &mut [f32]) {
        out[..self.obs_len].fill(0.0);
        for (&j, &x) in self.sparse(i).0.iter().zip(self.sparse(i).1) {
            out[j as usize] = x;
        }
    }

    /// Row `i`'s encoding: its non-zero entries' indices and values.
    pub fn sparse(&self, i: usize) -> (&[u16], &[f32]) {
        let (a, b) = (self.obs_indptr[i] as usize, self.obs_indptr[i + 1] as usize);
        (&self.obs_index[a..b], &self.obs_value[a..b])
    }

    /// Row `i`'s legal ids.
    pub fn legal(&self, i: usize) -> &[u16] {
        let (a, b) = (
            self.legal_indptr[i] as usize,
            self.legal_indptr[i + 1] as usize,
        );
        &self.legal_id[a..b]
    }
}

/// Why the files of a data run cannot be read: the directory and what
/// was wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum DataError {
    /// meta.json cannot be read.
    Meta {
        /// The directory.
        dir: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// meta.json is not JSON.
    MetaJson {
        /// The directory.
        dir: PathBuf,
        /// The parser's error.
        source: serde_json::Error,
    },
    /// meta.json is not that of `kanaszta learn data`.
    NotMeta {
        /// The directory.
        dir: PathBuf,
    },
    /// A `.npy` file cannot be read.
    Npy(NpyError),
    /// The files disagree with each other or with meta.json.
    Disagree {
        /// The directory.
        dir: PathBuf,
        /// How.
        problem: DataMismatch,
    },
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DataError::Meta { dir, source } => write!(
                f,
                "{}: cannot read meta.json ({source}): DATA is a directory written by `kanaszta learn data`",
                dir.display()
            ),
            DataError::MetaJson { dir, source } => {
                write!(f, "{}/meta.json: {source}", dir.display())
            }
            DataError::NotMeta { dir } => write!(
                f,
                "{}/meta.json: not the meta.json of `kanaszta learn data` (its \"format\" is not \"kanaszta-learn-data\")",
                dir.display()
            ),
            DataError::Npy(e) => e.fmt(f),
            DataError::Disagree { dir, problem } => write!(f, "{}: {problem}", dir.display()),
        }
    }
}

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataError::Meta { source, .. } => Some(source),
            DataError::MetaJson { source, .. } => Some(source),
            DataError::Npy(e) => e.source(),
            DataError::NotMeta { .. } | DataError::Disagree { .. } => None,
        }
    }
}

impl From<NpyError> for DataError {
    fn from(e: NpyError) -> DataError {
        DataError::Npy(e)
    }
}

impl From<DataError> for CliError {
    fn from(e: DataError) -> CliError {
        CliError::Input(e.to_string())
    }
}

/// How the files of a data run disagree with each other or with meta.json.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum DataMismatch {
    /// A file holds another number of rows than margin.npy.
    Rows {
        /// The file (or index, `… less one`).
        name: &'static str,
        /// Its rows.
        len: usize,
        /// margin.npy's rows.
        rows: usize,
    },
    /// outcome.npy does not hold one value a row.
    Outcome,
    /// meta.json's `rows` is not the files' number of rows.
    MetaRows {
        /// meta.json's `rows`.
        meta: serde_json::Value,
        /// The files' rows.
        rows: usize,
    },
    /// obs_indptr.npy does not index obs_index.npy and obs_value.npy.
    ObsIndptr,
    /// legal_indptr.npy does not index legal_id.npy.
    LegalIndptr,
    /// obs_index.npy holds an index past the encoding.
    ObsIndex {
        /// The encoding's length.
        obs_len: usize,
    },
}

impl std::fmt::Display for DataMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DataMismatch::Rows { name, len, rows } => write!(
                f,
                "{name} holds {len} rows, margin.npy {rows}: the files are not of one run (or the run was cut short)"
            ),
            DataMismatch::Outcome => f.write_str("outcome.npy does not hold one value a row"),
            DataMismatch::MetaRows { meta, rows } => {
                write!(f, "meta.json says {meta} rows, the files hold {rows}")
            }
            DataMismatch::ObsIndptr => {
                f.write_str("obs_indptr.npy does not index obs_index.npy and obs_value.npy")
            }
            DataMismatch::LegalIndptr => {
                f.write_str("legal_indptr.npy does not index legal_id.npy")
            }
            DataMismatch::ObsIndex { obs_len } => write!(
                f,
                "obs_index.npy holds an index past the encoding's {obs_len} entries"
            ),
        }
    }
}

impl std::error::Error for DataMismatch {}
