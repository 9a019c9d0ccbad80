//! Decorated canasta shown move by move: a game of a run played again
//! through the runner's own setup ([`Plan::setup`]: the same seats, rules,
//! seeds and way of playing a hand or a match as the run), its actions
//! recorded into a [`GameLog`] and printed; a demo's seeded hand; a saved
//! log.

use super::{Pick, PlayFlags, Show, Shown, Style};
use crate::error::CliError;
use crate::run::family::Decorated;
use crate::run::{black_threes_in_hand, end_kind, tax_divisor, Manifest, Mode, Plan, Shard};
use kanaszta_agents::search::Macro;
use kanaszta_agents::{play_hand, seat_rng, Agent, AgentSpec, Choice, Wrapped, Wrapper};
use kanaszta_engine::{tax, Action, GameLog, GameState, Rules};
use rand_pcg::Pcg64Mcg;
use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// What makes an agent a recorder ([`Wrapper`]): it also writes down
/// every action of the hand (it is told every action, its own included),
/// and where a search agent's move left the policy it anchors on.
pub struct Recorder {
    /// The hand's actions so far, shared by the seats' recorders.
    pub log: Rc<RefCell<Vec<Action>>>,
    /// Whether this one writes them down (one seat's recorder is enough).
    pub records: bool,
    /// The departures from the policy, shared: the index in `log` of the
    /// action they lead to, and what the search found.
    pub notes: Rc<RefCell<Vec<(usize, String)>>>,
}

/// Every agent behind a [`Recorder`], seat 0's writing down the actions:
/// the agents, the shared log and the shared notes.
#[allow(clippy::type_complexity)]
pub fn recorders(
    agents: Vec<Box<dyn Agent>>,
) -> (
    Vec<Box<dyn Agent>>,
    Rc<RefCell<Vec<Action>>>,
    Rc<RefCell<Vec<(usize, String)>>>,
) {
    let log = Rc::new(RefCell::new(Vec::new()));
    let notes = Rc::new(RefCell::new(Vec::new()));
    let agents = agents
        .into_iter()
        .enumerate()
        .map(|(i, inner)| {
            let recorder = Recorder {
                log: Rc::clone(&log),
                records: i == 0,
                notes: Rc::clone(&notes),
            };
            Box::new(Wrapped::new(inner, recorder)) as Box<dyn Agent>
        })
        .collect();
    (agents, log, notes)
}

/// Where a search left its policy at a search before the last of an
/// action: that can only be a meld-or-hold choice followed by the
/// discard's search (a `meld` plays the policy's step, no other search),
/// so a hold where the policy would meld.
const HOLD_NOTE: &str = "search: hold (lay nothing more) over the policy's meld";

/// What a search found where its move left the policy, from the options
/// of the search (`None` if it did not leave it).
fn departure_note(choices: &[Choice]) -> Option<String> {
    let option = |m: &Macro| match m {
        Macro::Meld => "meld".to_string(),
        Macro::Hold => "hold (lay nothing more)".to_string(),
        m => m.to_string(),
    };
    let played = choices.iter().find(|c| c.chosen && !c.policy)?;
    let lead = played
        .lead
        .map(|(d, se)| format!("lead {d:+.3} ± {se:.3}; "))
        .unwrap_or_default();
    Some(match choices.iter().find(|c| c.policy) {
        Some(q) => format!(
            "search: {} over the policy's {} ({lead}search means {:+.3} v {:+.3}, {} v {} playouts)",
            option(&played.option),
            option(&q.option),
            played.value,
            q.value,
            played.visits,
            q.visits
        ),
        None => format!(
            "search: {} over the policy's move ({lead}search mean {:+.3}, {} playouts)",
            option(&played.option),
            played.value,
            played.visits
        ),
    })
}

impl Wrapper for Recorder {
    fn choose(
        &mut self,
        inner: &mut dyn Agent,
        view: &kanaszta_engine::SeatView,
        moves: &mut kanaszta_engine::Moves,
        rng: &mut Pcg64Mcg,
    ) -> Action {
        let before = inner.search_totals();
        let a = inner.act(view, moves, rng);
        if let (Some(b), Some(n)) = (before, inner.search_totals()) {
            let at = self.log.borrow().len();
            let last = departure_note(inner.choices());
            let mut notes = self.notes.borrow_mut();
            for _ in u64::from(last.is_some())..n.departures - b.departures {
                notes.push((at, HOLD_NOTE.into()));
            }
            notes.extend(last.map(|note| (at, note)));
        }
        a
    }
    fn observe(&mut self, _player: usize, action: Action) {
        if self.records {
            self.log.borrow_mut().push(action);
        }
    }
}

/// A decorated run to replay a game of: its plan, and the directory it
/// was read from (for messages).
pub struct DecoratedSource {
    /// The plan of the whole run.
    pub plan: Plan,
    /// The run directory (`None`: from the flags of `play`).
    pub dir: Option<PathBuf>,
}

/// One decorated hand as played: its log, the notes of a search agent's
/// departures, and the error that ended the game, if any.
pub struct DecoratedHand {
    /// The deal, the running totals before the hand, the actions.
    pub log: GameLog,
    /// Notes printed under the action of that index.
    pub notes: Notes,
    /// The error that ended the game.
    pub error: Option<String>,
}

impl Show for Decorated {
    type Source = DecoratedSource;
    type Hand = DecoratedHand;

    fn from_run(dir: &Path, _series: u32) -> Result<DecoratedSource, CliError> {
        let m = Manifest::read(dir)?;
        let plan = Plan::new(Manifest {
            shard: Shard::all(),
            ..m
        })?;
        Ok(DecoratedSource {
            plan,
            dir: Some(dir.to_path_buf()),
        })
    }

    fn from_flags(flags: &PlayFlags<'_>, rules: Rules) -> Result<DecoratedSource, CliError> {
        let a = flags.a.parse::<AgentSpec>()?;
        let b = flags.b.parse::<AgentSpec>()?;
        let plan = Plan::new(Manifest {
            paired: flags.paired,
            ..Manifest::pair(
                "play",
                flags.seed,
                flags.mode,
                flags.game.saturating_add(1),
                &a.to_string(),
                &b.to_string(),
                rules,
            )
        })?;
        Ok(DecoratedSource { plan, dir: None })
    }

    fn replay(src: &DecoratedSource, pick: &Pick) -> Result<Shown<DecoratedHand>, CliError> {
        replay(src, pick)
    }

    fn demo(rules: Rules, a: &str, b: &str, seed: u64) -> Result<Shown<DecoratedHand>, CliError> {
        let a = a.parse::<AgentSpec>()?;
        let b = b.parse::<AgentSpec>()?;
        let mut state = GameState::new(rules, seed);
        // One agent a seat, A in the even seats and B in the odd ones.
        let players = state.players();
        let seat = |p: usize| if p.is_multiple_of(2) { &a } else { &b };
        let names: Vec<String> = (0..players).map(|p| seat(p).to_string()).collect();
        let (mut agents, log, notes) = recorders((0..players).map(|p| seat(p).build()).collect());
        let first = GameLog::new(&state, seed);
        let mut rngs: Vec<_> = (0..players).map(|p| seat_rng(seed, p)).collect();
        let r = play_hand(&mut state, &mut agents, &mut rngs);
        let hand = GameLog {
            actions: std::mem::take(&mut *log.borrow_mut()),
            ..first
        };
        let version = rules
            .settings()
            .into_iter()
            .find(|(k, _)| k == "version")
            .map(|(_, v)| v)
            .unwrap_or_default();
        let seats: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(p, n)| format!("P{p} {n}"))
            .collect();
        let header = format!(
            "kanaszta demo: seed {seed}, {} players, {version}: {}\n",
            hand.totals.len(),
            seats.join(", ")
        );
        let notes = std::mem::take(&mut *notes.borrow_mut());
        Ok(Shown {
            header,
            hands: vec![DecoratedHand {
                log: hand,
                notes,
                error: r.err().map(|e| e.to_string()),
            }],
            labels: names,
            matches: false,
        })
    }

    fn totals(hand: &DecoratedHand) -> String {
        format!("P0 {} / P1 {}", hand.log.totals[0], hand.log.totals[1])
    }

    fn print_hand(
        mut out: &mut dyn Write,
        hand: &DecoratedHand,
        labels: &[String],
        style: Style,
        matches: bool,
    ) -> Result<(), CliError> {
        let how = HandPrint {
            names: Some(labels),
            show_hand: style == Style::Demo,
            taxed: matches,
            notes: &hand.notes,
        };
        print_hand(&mut out, &hand.log, &how, hand.error.as_deref())
    }

    fn save_log(hand: &DecoratedHand, path: &Path) -> Result<(), CliError> {
        std::fs::write(path, hand.log.to_json() + "\n")
            .map_err(|e| CliError::io("write game log", path.display(), e))
    }

    fn write_html(
        path: &Path,
        title: &str,
        shown: &Shown<DecoratedHand>,
        hands: &[&DecoratedHand],
        seat: Option<u32>,
    ) -> Result<std::process::ExitCode, CliError> {
        let data: Vec<_> = hands
            .iter()
            .map(|h| crate::html::decorated::HandData {
                log: &h.log,
                notes: &h.notes,
                error: h.error.as_deref(),
            })
            .collect();
        let labels: Vec<String> = shown
            .labels
            .iter()
            .enumerate()
            .map(|(p, n)| format!("P{p} {n}"))
            .collect();
        crate::html::decorated::write_replay(path, title, &labels, seat, &data, shown.matches)
    }
}

/// Checks `pick` against the run of `src` and plays its game again.
fn replay(src: &DecoratedSource, pick: &Pick) -> Result<Shown<DecoratedHand>, CliError> {
    let plan = &src.plan;
    let m = &plan.manifest;
    if let Some(note) = &m.reproducible_note {
        eprintln!(
            "kanaszta: warning: {note}; the game replayed here may differ from the run's rows \
             for it"
        );
    }
    let run_json = || {
        src.dir.as_ref().map_or("the run".to_string(), |d| {
            d.join("run.json").display().to_string()
        })
    };
    if m.series.is_empty() || m.games == 0 {
        return Err(CliError::Input(format!(
            "{} describes no games (games {}, {} series): there is nothing to replay; \
             expected the run.json of a run of at least one game",
            run_json(),
            m.games,
            m.series.len()
        )));
    }
    if pick.series as usize >= m.series.len() {
        return Err(CliError::Input(format!(
            "--series {}: the run has series 0 to {}",
            pick.series,
            m.series.len() - 1
        )));
    }
    if let (Mode::Hands, Some(h)) = (plan.mode, pick.hand) {
        if h != 0 {
            return Err(CliError::Input(format!(
                "--hand {h}: the run plays single hands (mode hands), so each game is one \
                 hand, hand 0; --hand picks a hand of a match (leave it out here)"
            )));
        }
    }
    if pick.game >= m.games {
        return Err(CliError::Input(format!(
            "--game {}: the run has games 0 to {}",
            pick.game,
            m.games - 1
        )));
    }
    // The game as the run played it: the runner's own setup (seats,
    // rules, seeds) and its own way of playing a hand or a match; the
    // agents are only wrapped to write down the actions.
    let setup = plan.setup(pick.series, pick.game);
    let swapped = setup.swapped;
    let names = setup.names();
    let rules = setup.rules;
    let (mut agents, log, notes) = recorders(setup.agents());
    let mut hands: Vec<DecoratedHand> = Vec::new();
    match plan.mode {
        Mode::Hands => {
            let (state, r) = setup.play_hand(&mut agents);
            let actions = std::mem::take(&mut *log.borrow_mut());
            // The running totals of a hand stay as dealt.
            hands.push(DecoratedHand {
                log: GameLog {
                    actions,
                    ..GameLog::new(&state, setup.deal_seed)
                },
                notes: std::mem::take(&mut *notes.borrow_mut()),
                error: r.err().map(|e| e.to_string()),
            });
        }
        Mode::Matches => {
            let (mt, r) = setup.play_match(&mut agents, |_, rec, _| {
                let before: Vec<i32> = rec
                    .totals_after
                    .iter()
                    .zip(&rec.taxed)
                    .map(|(a, t)| a - t)
                    .collect();
                let actions = std::mem::take(&mut *log.borrow_mut());
                hands.push(DecoratedHand {
                    log: GameLog {
                        rules,
                        seed: rec.seed,
                        starter: rec.starter,
                        totals: before,
                        actions,
                    },
                    notes: std::mem::take(&mut *notes.borrow_mut()),
                    error: None,
                });
            });
            if let Err(e) = r {
                let actions = std::mem::take(&mut *log.borrow_mut());
                hands.push(DecoratedHand {
                    log: GameLog {
                        rules,
                        seed: mt.hand_seed(mt.hands_played()),
                        starter: mt.next_starter() as u8,
                        totals: mt.totals().to_vec(),
                        actions,
                    },
                    notes: std::mem::take(&mut *notes.borrow_mut()),
                    error: Some(e.to_string()),
                });
            }
            if let Some(h) = pick.hand {
                if h as usize >= hands.len() {
                    return Err(CliError::Input(format!(
                        "--hand {h}: the match has hands 0 to {}",
                        hands.len() - 1
                    )));
                }
            }
        }
    }
    let header = format!(
        "{} game {} (deal {}{}), run seed {}{}: P0 {}, P1 {}\n",
        m.command,
        pick.game,
        plan.deal(pick.game),
        if swapped { ", seats swapped" } else { "" },
        m.seed,
        if m.series.len() > 1 {
            let set = &m.series[pick.series as usize].settings;
            let sep = if set.is_empty() { "" } else { " " };
            format!(", series {}{sep}{set}", pick.series)
        } else {
            String::new()
        },
        names[0],
        names[1]
    );
    Ok(Shown {
        header,
        hands,
        labels: names.to_vec(),
        matches: plan.mode == Mode::Matches,
    })
}

/// Prints a saved game log (`replay --log`), its seats unnamed.
pub fn print_log(out: &mut impl Write, path: &Path, log: &GameLog) -> Result<(), CliError> {
    writeln!(out, "game log {}", path.display())?;
    let how = HandPrint {
        names: None,
        show_hand: false,
        taxed: true,
        notes: &[],
    };
    print_hand(out, log, &how, None)
}

/// How [`print_hand`] labels and prints a hand.
pub struct HandPrint<'a> {
    /// The agents seat by seat (`P0 rules`), one name a seat, or none
    /// (`P0`: a saved log does not name them).
    pub names: Option<&'a [String]>,
    /// After each discard, also the mover's hand (`kanaszta demo`).
    pub show_hand: bool,
    /// The hand is scored with the tax (D-15) on its running totals: a hand
    /// of a match or a saved log; single hands (mode hands) are not taxed.
    pub taxed: bool,
    /// Notes printed under the action of that index (where a search agent
    /// left its policy), in order.
    pub notes: &'a [(usize, String)],
}

/// A hand's notes: the index of the action each is printed under.
type Notes = Vec<(usize, String)>;

impl HandPrint<'_> {
    fn label(&self, p: usize) -> String {
        match self.names {
            Some(n) if p < n.len() => format!("P{p} {}", n[p]),
            _ => format!("P{p}"),
        }
    }
}

/// Prints one hand: every action with its mover and turn (numbered from 1,
/// I-24), what a draw or pickup brought, the table and the pile at each
/// turn's end; then what scores it: the cards left in each hand, the red
/// threes, the tables after the last discard, and the score item by item
/// (D-14, named as hands.csv's columns) with the tax (D-15).
pub fn print_hand(
    out: &mut impl Write,
    log: &GameLog,
    how: &HandPrint,
    error: Option<&str>,
) -> Result<(), CliError> {
    let mut g = log.initial();
    let labels: Vec<String> = (0..g.players()).map(|p| how.label(p)).collect();
    let w = labels.iter().map(|n| n.len()).max().unwrap_or(2);
    let cut = g.cut_cards();
    writeln!(
        out,
        "hand seed {}, starter P{}; cut shows {} {} {}",
        log.seed,
        g.starter(),
        cut[0],
        cut[1],
        cut[2]
    )?;
    let mut last_turn = None;
    for (i, &a) in log.actions.iter().enumerate() {
        let p = g.current_player();
        // The turn in progress, counted from 1: the turns completed, plus one.
        let turn = g.turns() + 1;
        last_turn = Some(turn);
        let before = g.hand(p);
        g.apply(a)
            .map_err(|e| format!("the log's action {i} (`{a}`) is refused: {e}"))?;
        let gained = g.hand(p).checked_sub(before).unwrap_or_default();
        let extra = match a {
            Action::Draw | Action::FreePickup | Action::TakePile | Action::TakeRest
                if !gained.is_empty() =>
            {
                format!("   +{gained}")
            }
            Action::KeepCut { .. } if how.show_hand => format!("   holds {}", g.hand(p)),
            Action::KeepCut { .. } => format!("   holds {} cards", g.hand(p).len()),
            _ => String::new(),
        };
        writeln!(out, "turn {turn:>3}  {:<w$}  {a}{extra}", labels[p])?;
        for (_, note) in how.notes.iter().filter(|(at, _)| *at == i) {
            writeln!(out, "           {note}")?;
        }
        if matches!(a, Action::Discard(_)) && !g.is_terminal() {
            writeln!(
                out,
                "           table P{p}: {}; {} in hand{}; {}",
                table_text(g.table(p)),
                g.hand(p).len(),
                if how.show_hand {
                    format!(" [{}]", g.hand(p))
                } else {
                    String::new()
                },
                pile_text(&g)
            )?;
        }
    }
    if let Some(e) = error {
        writeln!(out, "the game ended by an error: {e}")?;
        return Ok(());
    }
    if !g.is_terminal() {
        writeln!(out, "(the log ends before the hand does)")?;
        return Ok(());
    }
    let (kind, who) = end_kind(g.end());
    // The last turn listed; a hand that ends at a discard (going out, the
    // turn cap, a dead lock) ends at turn `turns`, one that runs out of
    // cards to draw (I-4) in the turn after the last completed one.
    let last = last_turn.unwrap_or(0);
    let when = if last == g.turns() {
        format!("at turn {last}")
    } else {
        format!("in turn {last}, with {} turns completed", g.turns())
    };
    match who {
        Some(p) => writeln!(out, "{} went out ({kind}) {when}", labels[p as usize])?,
        None => writeln!(out, "the hand ended {kind} {when}")?,
    }
    let scores = g.scores();
    for (p, s) in scores.iter().enumerate() {
        let before = log.totals.get(p).copied().unwrap_or(0);
        let taxed = if how.taxed {
            tax(s.total, before, &log.rules)
        } else {
            s.total
        };
        writeln!(
            out,
            "{:<w$}: base {} (red threes {}, twins {}, canastas {}, heart aces {}, going out {}) + cards {} (melded {}, in hand {}) = {}{}",
            labels[p],
            s.base,
            s.red_three_points,
            s.twin_points,
            s.canasta_points,
            s.heart_ace_points,
            s.going_out_points + s.from_hand_points + s.cleared_table_points,
            s.card_value,
            s.melded,
            s.in_hand,
            s.total,
            if how.taxed && (taxed != s.total || before != 0) {
                format!(", taxed {taxed}, total {}", before + taxed)
            } else {
                String::new()
            }
        )?;
    }
    audit(out, &g, log, how, &labels)
}

/// A table in card notation: its groups, red threes, twins, heart aces.
fn table_text(t: &kanaszta_engine::Table) -> String {
    let groups: Vec<String> = t.groups().iter().map(|x| x.to_string()).collect();
    let mut items = Vec::new();
    if !t.red_threes.is_empty() {
        items.push(format!("red threes {}", t.red_threes));
    }
    if t.twins > 0 {
        items.push(format!("twins {}", t.twins));
    }
    if t.heart_aces > 0 {
        items.push(format!("heart aces {}", t.heart_aces));
    }
    format!(
        "{}{}{}",
        if groups.is_empty() {
            "-".to_string()
        } else {
            groups.join(" | ")
        },
        if items.is_empty() { "" } else { "; " },
        items.join(", ")
    )
}

/// The pile: its size, its top card, whether it is frozen.
fn pile_text(g: &GameState) -> String {
    format!(
        "pile {} (top {}{})",
        g.pile().len(),
        g.pile_top().map_or("-".into(), |c| c.to_string()),
        if g.pile_frozen() { ", frozen" } else { "" }
    )
}

/// The end of a hand, enough to check its score by hand: the cards left in
/// each hand, the red threes, the tables after the last discard, and the
/// score items (D-14) and tax (D-15) of each seat, one row per hands.csv
/// column.
fn audit(
    out: &mut impl Write,
    g: &GameState,
    log: &GameLog,
    how: &HandPrint,
    labels: &[String],
) -> Result<(), CliError> {
    let w = labels.iter().map(|n| n.len()).max().unwrap_or(2);
    writeln!(out, "at the end of the hand:")?;
    for (p, label) in labels.iter().enumerate() {
        let hand = g.hand(p);
        writeln!(
            out,
            "  {label:<w$}  hand: {} ({} card{}); red threes: {}",
            if hand.is_empty() {
                "-".to_string()
            } else {
                hand.to_string()
            },
            hand.len(),
            if hand.len() == 1 { "" } else { "s" },
            if g.table(p).red_threes.is_empty() {
                "-".to_string()
            } else {
                g.table(p).red_threes.to_string()
            }
        )?;
        writeln!(out, "  {:<w$}  table: {}", "", table_text(g.table(p)))?;
    }
    writeln!(out, "  {}", pile_text(g))?;
    let scores = g.scores();
    let n = labels.len();
    // One row per hands.csv column, one value per seat.
    let per = |f: &dyn Fn(usize, &kanaszta_engine::HandScore) -> i64| -> Vec<String> {
        (0..n).map(|p| f(p, &scores[p]).to_string()).collect()
    };
    let rows: Vec<(&str, Vec<String>)> = vec![
        ("red_three_points", per(&|_, s| s.red_three_points as i64)),
        ("twin_points", per(&|_, s| s.twin_points as i64)),
        ("canasta_points", per(&|_, s| s.canasta_points as i64)),
        ("heart_ace_points", per(&|_, s| s.heart_ace_points as i64)),
        ("going_out_points", per(&|_, s| s.going_out_points as i64)),
        ("from_hand_points", per(&|_, s| s.from_hand_points as i64)),
        (
            "cleared_table_points",
            per(&|_, s| s.cleared_table_points as i64),
        ),
        ("= base", per(&|_, s| s.base as i64)),
        ("melded", per(&|_, s| s.melded as i64)),
        (
            "cards_in_hand",
            per(&|p, s| (s.in_hand - black_threes_in_hand(g, p, s)) as i64),
        ),
        (
            "black_threes_in_hand",
            per(&|p, s| black_threes_in_hand(g, p, s) as i64),
        ),
        ("= card_value", per(&|_, s| s.card_value as i64)),
        ("= raw", per(&|_, s| s.total as i64)),
    ];
    let cw = labels.iter().map(|l| l.len()).max().unwrap_or(2).max(8);
    let row = |out: &mut dyn Write, name: &str, v: &[String]| -> std::io::Result<()> {
        write!(out, "  {name:<40}")?;
        for x in v {
            write!(out, "  {x:>cw$}")?;
        }
        writeln!(out)
    };
    write!(out, "{:<42}", "score (D-14; rows as hands.csv's columns)")?;
    for l in labels {
        write!(out, "  {l:>cw$}")?;
    }
    writeln!(out)?;
    for (name, v) in &rows {
        row(out, name, v)?;
    }
    if !how.taxed {
        writeln!(
            out,
            "  (a single hand: no running totals, no tax; taxed = raw)"
        )?;
        return Ok(());
    }
    let before: Vec<i32> = (0..n)
        .map(|p| log.totals.get(p).copied().unwrap_or(0))
        .collect();
    let taxed: Vec<i32> = (0..n)
        .map(|p| tax(scores[p].total, before[p], &log.rules))
        .collect();
    let text =
        |v: &mut dyn Iterator<Item = i64>| -> Vec<String> { v.map(|x| x.to_string()).collect() };
    writeln!(out, "tax (D-15)")?;
    row(
        out,
        "total_before",
        &text(&mut before.iter().map(|&x| x as i64)),
    )?;
    row(
        out,
        "tax_divisor (bracket of total_before)",
        &text(&mut before.iter().map(|&b| tax_divisor(&log.rules, b) as i64)),
    )?;
    row(out, "taxed", &text(&mut taxed.iter().map(|&x| x as i64)))?;
    row(
        out,
        "= total_after",
        &text(&mut (0..n).map(|p| (before[p] + taxed[p]) as i64)),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_agents::search::SearchStats;
    use kanaszta_engine::{Card, MoveBuf, Rules};

    /// A stand-in search agent: plays the first legal action and reports
    /// what it is given to report.
    struct Scripted {
        choices: Vec<Choice>,
        departures_per_act: u64,
        totals: SearchStats,
    }

    impl Agent for Scripted {
        fn name(&self) -> String {
            "scripted".into()
        }
        fn act(
            &mut self,
            _view: &kanaszta_engine::SeatView,
            moves: &mut kanaszta_engine::Moves,
            _rng: &mut Pcg64Mcg,
        ) -> Action {
            self.totals.searches += 2;
            self.totals.departures += self.departures_per_act;
            moves.all()[0]
        }
        fn choices(&self) -> &[Choice] {
            &self.choices
        }
        fn search_totals(&self) -> Option<SearchStats> {
            Some(self.totals)
        }
    }

    fn choice(option: Macro, policy: bool, chosen: bool) -> Choice {
        Choice {
            option,
            value: if chosen { 0.25 } else { -0.125 },
            se: None,
            visits: 10,
            policy,
            chosen,
            lead: (chosen && !policy).then_some((0.0625, 0.015625)),
        }
    }

    #[test]
    fn a_departure_is_noted_with_both_options() {
        let c = [
            choice(Macro::Draw, true, false),
            choice(Macro::Take, false, true),
        ];
        assert_eq!(
            departure_note(&c).as_deref(),
            Some("search: take over the policy's draw (lead +0.062 ± 0.016; search means +0.250 v -0.125, 10 v 10 playouts)")
        );
        let kept = [
            choice(Macro::Draw, true, true),
            choice(Macro::Take, false, false),
        ];
        assert_eq!(departure_note(&kept), None);
    }

    /// The recorder notes each departure an action made under that action:
    /// the last search's from its choices, an earlier one's as a hold over
    /// the policy's meld; none where the counts do not rise.
    #[test]
    fn the_recorder_notes_every_departure_of_an_action() {
        let cases = [
            (vec![choice(Macro::Draw, true, true)], 0, vec![]),
            (
                vec![
                    choice(Macro::Discard(Card::HEART_ACE), true, false),
                    choice(Macro::Discard(Card::HEART_ACE), false, true),
                ],
                1,
                vec!["search: discard AH over the policy's discard AH"],
            ),
            (vec![choice(Macro::Draw, true, true)], 1, vec![HOLD_NOTE]),
            (
                vec![
                    choice(Macro::Draw, true, false),
                    choice(Macro::Free, false, true),
                ],
                2,
                vec![HOLD_NOTE, "search: free over the policy's draw"],
            ),
        ];
        for (choices, departures_per_act, expected) in cases {
            let inner = Box::new(Scripted {
                choices,
                departures_per_act,
                totals: SearchStats::default(),
            });
            let (mut agents, log, notes) = recorders(vec![inner]);
            log.borrow_mut().extend([Action::Draw, Action::Draw]);
            let g = GameState::new(Rules::default(), 1);
            let mut buf = MoveBuf::new();
            let p = g.current_player();
            agents[0].act(&g.view(p), &mut g.moves(&mut buf), &mut Pcg64Mcg::new(1));
            let notes = notes.borrow();
            assert_eq!(notes.len(), expected.len(), "{notes:?}");
            for ((at, note), want) in notes.iter().zip(&expected) {
                assert_eq!(*at, 2, "under the action to come");
                assert!(note.starts_with(want), "{note} v {want}");
            }
        }
    }
}
