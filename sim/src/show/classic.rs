//! Classic canasta shown move by move: one game of a classic run (or of
//! `play --rules classic-…` with the same agents and seed), hand by hand,
//! turn by turn: seats and sides named, the partner's question and answer
//! (C-18), pickups, melds, red threes (C-8), the end and the score (C-23).
//! The game is played again as the run played it: the same deal seed,
//! seating (agent A in the even seats unless swapped) and seat generators.

use super::{Pick, PlayFlags, Show, Shown, Style};
use crate::classic::run::StoredClassicRules;
use crate::classic::{agent_of, parse_classic_side, SideSpec};
use crate::error::CliError;
use crate::position::{end_text, seat_name};
use crate::run::family::Classic;
use crate::run::Mode;
use kanaszta_agents::Agent;
use kanaszta_agents::{play_turns_observed, seat_rng, Observer};
use kanaszta_engine::classic::{
    ClassicAction, ClassicMatch, ClassicMatchResult, ClassicRules, ClassicState, SideTable,
};
use kanaszta_engine::seed;
use std::io::Write;
use std::path::Path;

/// A classic run to replay a game of.
pub struct ClassicReplay {
    /// The command that made the run (`play`).
    pub command: String,
    /// The rules.
    pub rules: ClassicRules,
    /// The players of sides A and B (`rules` or `rules+greedy`).
    pub specs: [SideSpec; 2],
    /// The master seed.
    pub seed: u64,
    /// Hands or matches.
    pub mode: Mode,
    /// Each deal played twice, seats swapped.
    pub paired: bool,
    /// Games in the run (`None`: not known, without `--run`).
    pub games: Option<u64>,
}

/// Series `series` of the classic run in `dir` (its run.json says
/// `"family": "classic"`).
fn from_run(dir: &Path, series: usize) -> Result<ClassicReplay, CliError> {
    let m = crate::run::read_manifest::<StoredClassicRules>(dir)?;
    let Some(s) = m.series.get(series) else {
        return Err(CliError::Input(format!(
            "--series {series}: the run in {} has series 0 to {}",
            dir.display(),
            m.series.len().saturating_sub(1)
        )));
    };
    Ok(ClassicReplay {
        command: m.command.clone(),
        rules: s.rules.0,
        specs: [parse_classic_side(&s.a)?, parse_classic_side(&s.b)?],
        seed: m.seed,
        mode: m.mode,
        paired: m.paired,
        games: Some(m.games_done.unwrap_or(m.games)),
    })
}

/// The actions of a hand as the turn loop shows them ([`Observer`]), the
/// one an agent erred with included.
#[derive(Default)]
struct ActionLog(Vec<ClassicAction>);

impl Observer<ClassicState> for ActionLog {
    fn before(&mut self, _state: &ClassicState, _p: usize, action: ClassicAction) {
        self.0.push(action);
    }
}

/// One classic hand as played: the deal (with the running totals before
/// it), the actions, and the error that ended the game, if any.
pub struct PlayedHand {
    start: ClassicState,
    actions: Vec<ClassicAction>,
    error: Option<String>,
}

impl Show for Classic {
    type Source = ClassicReplay;
    type Hand = PlayedHand;

    fn from_run(dir: &Path, series: u32) -> Result<ClassicReplay, CliError> {
        from_run(dir, series as usize)
    }

    fn from_flags(flags: &PlayFlags<'_>, rules: ClassicRules) -> Result<ClassicReplay, CliError> {
        Ok(ClassicReplay {
            command: "play".into(),
            rules,
            specs: [parse_classic_side(flags.a)?, parse_classic_side(flags.b)?],
            seed: flags.seed,
            mode: flags.mode,
            paired: flags.paired,
            games: None,
        })
    }

    fn replay(c: &ClassicReplay, pick: &Pick) -> Result<Shown<PlayedHand>, CliError> {
        replay(c, pick)
    }

    fn demo(
        rules: ClassicRules,
        a: &str,
        b: &str,
        seed: u64,
    ) -> Result<Shown<PlayedHand>, CliError> {
        demo(
            rules,
            [parse_classic_side(a)?, parse_classic_side(b)?],
            seed,
        )
    }

    fn totals(h: &PlayedHand) -> String {
        let totals: Vec<String> = (0..h.start.rules().sides())
            .map(|s| format!("side {s} {}", h.start.total(s)))
            .collect();
        totals.join(" / ")
    }

    fn print_hand(
        mut out: &mut dyn Write,
        hand: &PlayedHand,
        labels: &[String],
        _style: Style,
        _matches: bool,
    ) -> Result<(), CliError> {
        print_hand(&mut out, hand, labels)
    }

    fn save_log(hand: &PlayedHand, path: &Path) -> Result<(), CliError> {
        std::fs::write(path, log_json(&hand.start, &hand.actions))
            .map_err(|e| CliError::io("write game log", path.display(), e))
    }

    fn write_html(
        path: &Path,
        title: &str,
        shown: &Shown<PlayedHand>,
        hands: &[&PlayedHand],
        seat: Option<u32>,
    ) -> Result<std::process::ExitCode, CliError> {
        let data: Vec<_> = hands
            .iter()
            .map(|h| crate::html::classic::HandData {
                start: &h.start,
                actions: &h.actions,
                error: h.error.as_deref(),
            })
            .collect();
        crate::html::classic::write_replay(path, title, &shown.labels, seat, &data)
    }
}

/// The `format` of a classic game log.
const LOG_FORMAT: &str = "kanaszta-classic-log";

/// A classic game log as JSON (`replay --save-log`, and beside a game
/// saved in `human`): the hand's start as a classic position (its stock
/// order, totals, dealer and turn), and its actions in the classic
/// notation.
pub fn log_json(start: &ClassicState, actions: &[ClassicAction]) -> String {
    let start: serde_json::Value =
        serde_json::from_str(&start.to_position_json()).unwrap_or(serde_json::Value::Null);
    let actions: Vec<String> = actions.iter().map(|a| a.to_string()).collect();
    #[derive(serde::Serialize)]
    struct LogFile<'a> {
        format: &'a str,
        start: serde_json::Value,
        actions: Vec<String>,
    }
    let log = LogFile {
        format: LOG_FORMAT,
        start,
        actions,
    };
    serde_json::to_string_pretty(&log).unwrap_or_default() + "\n"
}

/// Whether `text` is a classic game log (its `format` says so).
pub fn is_classic_log(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str::<serde_json::Value>(text)
        .is_ok_and(|v| v.get("format").and_then(|f| f.as_str()) == Some(LOG_FORMAT))
}

/// A classic game log read back and checked completely: its start is a
/// valid classic position, and each action parses and is legal where it
/// stands.
pub fn load_log(path: &Path, text: &str) -> Result<PlayedHand, CliError> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct LogFile {
        #[allow(dead_code)]
        format: String,
        start: serde_json::Value,
        actions: Vec<String>,
    }
    let bad = |why: String| {
        CliError::Input(format!(
            "{}: bad classic game log: {why}; a classic log is {{\"format\": \"{LOG_FORMAT}\", \"start\": <a classic position>, \"actions\": [\"draw\", \"discard 9\", …]}}, as replay --save-log writes it",
            path.display()
        ))
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file: LogFile = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    let start = kanaszta_engine::classic::ClassicPosition::from_json(&file.start.to_string())
        .and_then(|p| p.to_state())
        .map_err(|e| bad(format!("start: {e}")))?;
    let mut g = start.clone();
    let mut actions = Vec::with_capacity(file.actions.len());
    for (i, t) in file.actions.iter().enumerate() {
        let a: ClassicAction = t
            .parse()
            .map_err(|e| bad(format!("action {i} (`{t}`): {e}")))?;
        g.apply(a)
            .map_err(|e| bad(format!("action {i} (`{a}`) is refused: {e}")))?;
        actions.push(a);
    }
    Ok(PlayedHand {
        start,
        actions,
        error: None,
    })
}

/// Prints a saved classic game log (`replay --log`), its seats unnamed.
pub fn print_log(out: &mut impl Write, path: &Path, h: &PlayedHand) -> Result<(), CliError> {
    writeln!(out, "game log {}", path.display())?;
    print_hand(out, h, &log_labels(h))
}

/// The seats of a saved log: `P0`, `P1`, ….
pub fn log_labels(h: &PlayedHand) -> Vec<String> {
    (0..h.start.players()).map(|p| format!("P{p}")).collect()
}

/// Draws a saved classic game log as an HTML page (`replay --log --html`).
pub fn write_log_html(
    page: &Path,
    path: &Path,
    h: &PlayedHand,
    seat: Option<u32>,
) -> Result<std::process::ExitCode, CliError> {
    let data = crate::html::classic::HandData {
        start: &h.start,
        actions: &h.actions,
        error: None,
    };
    let title = format!("game log {}", path.display());
    crate::html::classic::write_replay(page, &title, &log_labels(h), seat, &[data])
}

/// Checks `pick` against the run and plays its game again.
fn replay(c: &ClassicReplay, pick: &Pick) -> Result<Shown<PlayedHand>, CliError> {
    let (game, hand) = (pick.game, pick.hand);
    if let Some(n) = c.games {
        if game >= n {
            return Err(CliError::Input(format!(
                "--game {game}: the run has games 0 to {}",
                n.saturating_sub(1)
            )));
        }
    }
    if let (Mode::Hands, Some(h)) = (c.mode, hand) {
        if h != 0 {
            return Err(CliError::Input(format!(
                "--hand {h}: the run plays single hands (mode hands), so each game is one hand, hand 0; --hand picks a hand of a match (leave it out here)"
            )));
        }
    }
    let (hands, labels) = play_game(c, game)?;
    let deal = if c.paired { game / 2 } else { game };
    let swapped = c.paired && game % 2 == 1;
    let players = c.rules.players as usize;
    let names = [c.specs[0].name().to_string(), c.specs[1].name().to_string()];
    if let Some(h) = hand {
        if h as usize >= hands.len() {
            return Err(CliError::Input(format!(
                "--hand {h}: the match has hands 0 to {}",
                hands.len() - 1
            )));
        }
    }
    let header = format!(
        "{} game {game} (deal {deal}{}), run seed {}, {}: {}\nthis game: {}\n",
        c.command,
        if swapped { ", seats swapped" } else { "" },
        c.seed,
        c.rules.preset,
        crate::classic::seating_text(players, &names),
        labels
            .iter()
            .enumerate()
            .map(|(p, l)| format!("seat {p} {l}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(Shown {
        header,
        hands,
        labels,
        matches: c.mode == Mode::Matches,
    })
}

/// `kanaszta demo --rules classic-…`: one hand, game 0 of a `play` run of
/// the same rules, sides and seed (so `replay` with `--game 0` shows the
/// same hand), printed as `replay` prints it.
fn demo(
    rules: ClassicRules,
    specs: [SideSpec; 2],
    seed: u64,
) -> Result<Shown<PlayedHand>, CliError> {
    let c = ClassicReplay {
        command: "demo".into(),
        rules,
        specs,
        seed,
        mode: Mode::Hands,
        paired: false,
        games: None,
    };
    let (hands, labels) = play_game(&c, 0)?;
    let players = c.rules.players as usize;
    let how = if c.rules.partnerships() {
        ", partnerships (C-20)"
    } else {
        ""
    };
    let header = format!(
        "kanaszta demo: seed {seed}, {players} players{how}, {}: {}\n",
        c.rules.preset,
        labels.join(", ")
    );
    Ok(Shown {
        header,
        hands,
        labels,
        matches: false,
    })
}

/// Plays game `game` of the run as the run played it: its hands (one in
/// mode hands, else the match's) and each seat's label (`P0 rules`).
fn play_game(c: &ClassicReplay, game: u64) -> Result<(Vec<PlayedHand>, Vec<String>), CliError> {
    c.specs[0].check("--a", c.rules.players as usize)?;
    c.specs[1].check("--b", c.rules.players as usize)?;
    let deal = if c.paired { game / 2 } else { game };
    let swapped = c.paired && game % 2 == 1;
    let deal_seed = seed::deal(c.seed, deal);
    let players = c.rules.players as usize;
    let mut agents: Vec<Box<dyn Agent<ClassicState>>> = (0..players)
        .map(|p| c.specs[agent_of(p, swapped)].spec(p / 2).build())
        .collect();
    let rngs_of = |h: u32| {
        let s = seed::match_hand(deal_seed, h);
        (0..players).map(|p| seat_rng(s, p)).collect::<Vec<_>>()
    };
    let mut m = ClassicMatch::new(c.rules, deal_seed);
    let mut hands: Vec<PlayedHand> = Vec::new();
    loop {
        let start = m.next_hand();
        let mut state = start.clone();
        let mut rngs = rngs_of(m.hands_played());
        let mut log = ActionLog::default();
        let r = play_turns_observed(&mut state, &mut agents, &mut rngs, &mut log);
        if r.as_ref().is_err_and(|e| e.action.is_some()) {
            // The refused action was not played.
            log.0.pop();
        }
        let error = r.err().map(|e| e.to_string());
        hands.push(PlayedHand {
            start,
            actions: log.0,
            error: error.clone(),
        });
        if error.is_some() || c.mode == Mode::Hands {
            break;
        }
        if m.record(&state) != ClassicMatchResult::Playing {
            break;
        }
    }
    let label = |p: usize| {
        format!(
            "{} {}",
            seat_name(&hands[0].start, p),
            c.specs[agent_of(p, swapped)].spec(p / 2)
        )
    };
    let labels: Vec<String> = (0..players).map(label).collect();
    Ok((hands, labels))
}

/// A side's table in card notation.
pub fn table_text(t: &SideTable) -> String {
    let mut items: Vec<String> = t
        .melds
        .iter()
        .filter(|m| !m.is_empty())
        .map(|m| m.to_string())
        .collect();
    if !t.black_threes.is_empty() {
        items.push(format!("black threes {}", t.black_threes));
    }
    for w in t.wild_canastas.iter().filter(|w| !w.is_empty()) {
        items.push(format!("wild canasta {w}"));
    }
    let melds = if items.is_empty() {
        "-".to_string()
    } else {
        items.join(" | ")
    };
    if t.red_threes.is_empty() {
        melds
    } else {
        format!("{melds}; red threes {}", t.red_threes)
    }
}

/// The pile and the stock: their sizes, the top card, frozen or not.
pub fn pile_text(g: &ClassicState) -> String {
    format!(
        "pile {} (top {}{}), stock {}",
        g.pile().len(),
        g.pile_top().map_or("-".into(), |c| c.to_string()),
        if g.pile_frozen() { ", frozen" } else { "" },
        g.stock_len()
    )
}

/// Prints one hand: each action with its turn and seat, what a draw or a
/// pickup brought, red threes laid, the answer to "may I go out?", the
/// mover's side's table and the pile at each turn's end; then the end and
/// the score item by item per side.
fn print_hand(out: &mut impl Write, h: &PlayedHand, labels: &[String]) -> Result<(), CliError> {
    let mut g = h.start.clone();
    let w = labels.iter().map(|l| l.len()).max().unwrap_or(2);
    let sides = g.rules().sides();
    writeln!(
        out,
        "dealer P{}, first to play P{}; pile at the start: {}",
        g.dealer(),
        g.current_player(),
        g.pile()
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    )?;
    for s in 0..sides {
        if !g.table(s).red_threes.is_empty() {
            writeln!(
                out,
                "           side {s} lays red threes {} (C-8)",
                g.table(s).red_threes
            )?;
        }
    }
    for (i, &a) in h.actions.iter().enumerate() {
        let p = g.current_player();
        let mover_side = g.side_of(g.current_player());
        let turn = g.turns() + 1;
        let before = g.clone();
        g.apply(a)
            .map_err(|e| format!("the game's action {i} (`{a}`) is refused: {e}"))?;
        let gained = g.hand(p).checked_sub(before.hand(p)).unwrap_or_default();
        let extra = match a {
            ClassicAction::Ask => "   \"may I go out?\" (C-18)".to_string(),
            ClassicAction::Answer(_) => "   (C-18)".to_string(),
            ClassicAction::Draw | ClassicAction::TakeTurned | ClassicAction::TakeRest
                if !gained.is_empty() =>
            {
                format!("   +{gained}")
            }
            ClassicAction::TakePile { .. } => format!(
                "   takes the pile's top {} (C-7)",
                before.pile_top().map_or("-".into(), |c| c.to_string())
            ),
            _ => String::new(),
        };
        writeln!(out, "turn {turn:>3}  {:<w$}  {a}{extra}", labels[p])?;
        let turn_ended = g.turns() > before.turns() || g.is_terminal();
        if turn_ended && !g.is_terminal() {
            writeln!(
                out,
                "           side {mover_side}: {}; P{p} holds {}; {}",
                table_text(g.table(mover_side)),
                g.hand(p).len(),
                pile_text(&g)
            )?;
        }
        for s in 0..sides {
            let (tb, ta) = (before.table(s).red_threes, g.table(s).red_threes);
            if ta != tb {
                let new = ta.checked_sub(tb).unwrap_or_default();
                writeln!(out, "           side {s} lays red threes {new} (C-8)")?;
            }
        }
    }
    if let Some(e) = &h.error {
        writeln!(out, "the game ended by an error: {e}")?;
        return Ok(());
    }
    print_end(out, &g, labels)
}

/// The end of a hand: how it ended, every hand and table, the pile, and
/// the score item by item per side (C-23).
pub fn print_end(
    out: &mut impl Write,
    g: &ClassicState,
    labels: &[String],
) -> Result<(), CliError> {
    let w = labels.iter().map(|l| l.len()).max().unwrap_or(2);
    let sides = g.rules().sides();
    let Some(end) = g.end() else {
        writeln!(out, "(the game ends before the hand does)")?;
        return Ok(());
    };
    writeln!(out, "{} after {} turns", end_text(g, end), g.turns())?;
    writeln!(out, "at the end of the hand:")?;
    for (p, label) in labels.iter().enumerate().take(g.players()) {
        let hand = g.hand(p);
        writeln!(
            out,
            "  {:<w$}  hand: {}",
            label,
            if hand.is_empty() {
                "-".into()
            } else {
                hand.to_string()
            }
        )?;
    }
    for s in 0..sides {
        writeln!(out, "  side {s} table: {}", table_text(g.table(s)))?;
    }
    writeln!(out, "  {}", pile_text(g))?;
    let scores: Vec<_> = (0..sides).map(|s| g.side_score(s)).collect();
    let head: Vec<String> = (0..sides)
        .map(|s| format!("{:>8}", format!("side {s}")))
        .collect();
    writeln!(out, "{:<36}{}", "score (C-23)", head.join(""))?;
    let count = |s: usize, f: &dyn Fn(&kanaszta_engine::CardSet) -> bool| {
        g.table(s)
            .melds
            .iter()
            .filter(|m| m.len() >= 7 && f(m))
            .count() as i64
    };
    let rows: Vec<(&str, Vec<i64>)> = vec![
        (
            "red threes (count)",
            (0..sides)
                .map(|s| g.table(s).red_threes.len() as i64)
                .collect(),
        ),
        (
            "red_three_points (C-8)",
            scores.iter().map(|x| x.red_threes as i64).collect(),
        ),
        (
            "canastas natural",
            (0..sides)
                .map(|s| count(s, &|m| m.wild_count() == 0))
                .collect(),
        ),
        (
            "canastas mixed",
            (0..sides)
                .map(|s| count(s, &|m| m.wild_count() > 0))
                .collect(),
        ),
        (
            "canastas wild",
            (0..sides)
                .map(|s| {
                    g.table(s)
                        .wild_canastas
                        .iter()
                        .filter(|m| !m.is_empty())
                        .count() as i64
                })
                .collect(),
        ),
        (
            "canasta_points (C-5)",
            scores.iter().map(|x| x.canastas as i64).collect(),
        ),
        (
            "going_out_points (C-10, C-19)",
            scores.iter().map(|x| x.going_out as i64).collect(),
        ),
        (
            "melded (C-9)",
            scores.iter().map(|x| x.melds as i64).collect(),
        ),
        (
            "in_hand (C-23)",
            scores.iter().map(|x| x.in_hand as i64).collect(),
        ),
        (
            "failed_yes_points (C-18)",
            scores.iter().map(|x| x.failed_yes as i64).collect(),
        ),
        ("= total", scores.iter().map(|x| x.total as i64).collect()),
    ];
    for (name, v) in rows {
        let cells: Vec<String> = v.iter().map(|x| format!("{x:>8}")).collect();
        writeln!(out, "  {name:<34}{}", cells.join(""))?;
    }
    if (0..sides).any(|s| g.total(s) != 0) {
        let cells: Vec<String> = (0..sides)
            .map(|s| format!("{:>8}", g.total(s) + scores[s].total))
            .collect();
        writeln!(out, "  {:<34}{}", "total after the hand", cells.join(""))?;
    }
    Ok(())
}
