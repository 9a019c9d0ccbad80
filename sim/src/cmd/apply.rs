//! `kanaszta apply`: applies actions to a position and prints the position
//! they lead to (and, when the hand ended, its score), saying on stderr what
//! each action did.

use crate::error::CliError;
use crate::position::stop_status;
use clap::Args;
use kanaszta_engine::{Action, GameState, HandEnd, Phase, Position};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `kanaszta apply`.
#[derive(Args, Debug, Clone)]
pub struct ApplyArgs {
    /// The position file (`-`: standard input), in the position format of
    /// sim/POSITIONS.md.
    position: String,
    /// The actions, one argument each, in the text notation of `legal` and
    /// `check`, e.g. take "lay 8D 8S 2C" "discard 9C".
    #[arg(value_name = "ACTION", required = true)]
    actions: Vec<String>,
    /// Print the position after every action, not only after the last.
    #[arg(long)]
    each: bool,
    /// Seed of the chance generator when the position gives neither `rng`
    /// nor `seed` (default: 0, the position format's default). It shuffles
    /// a stock the position leaves out and any reshuffle; a stock the
    /// position gives is drawn in its order (top card last).
    #[arg(long)]
    seed: Option<u64>,
    /// Also write the resulting position, alone, to FILE (stdout holds the
    /// score too when the hand ended).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

/// Runs `kanaszta apply`: exit 0 when every action was applied, 3 at the
/// first illegal one (after printing the position before it).
pub fn run(a: ApplyArgs) -> Result<ExitCode, CliError> {
    let text = crate::position::read(&a.position)?;
    if crate::position::is_classic_text(&text) {
        let text = match a.seed {
            Some(seed) => crate::position::with_seed(&a.position, &text, seed)?,
            None => text,
        };
        let g = crate::position::load_classic(&a.position, &text)?;
        return super::classic_pos::apply(g, &a.actions, a.each, a.save.as_deref());
    }
    let mut g = load(&a.position, text, a.seed)?;
    let actions = a
        .actions
        .iter()
        .enumerate()
        .map(|(i, t)| parse_action(i, t, a.actions.len()))
        .collect::<Result<Vec<Action>, CliError>>()?;
    let n = actions.len();
    let mut out = String::new();
    let mut err = String::new();
    let mut illegal = None;
    for (i, &act) in actions.iter().enumerate() {
        let before = g.clone();
        if let Err(e) = g.apply(act) {
            illegal = Some((i, act, e));
            break;
        }
        let _ = writeln!(err, "{}/{n} {act}: {}", i + 1, describe(&before, &g, act));
        if a.each {
            out.push_str(&g.to_position_json());
        }
    }
    // With --each the last position is printed already, unless no action
    // was applied.
    if !a.each || out.is_empty() {
        out.push_str(&g.to_position_json());
    }
    if let Some(path) = &a.save {
        std::fs::write(path, g.to_position_json())
            .map_err(|e| CliError::io("write", path.display(), e))?;
    }
    if g.is_terminal() {
        out.push('\n');
        let mut buf = Vec::new();
        crate::position::write_score(&mut buf, &g)?;
        out.push_str(&String::from_utf8_lossy(&buf));
    }
    let code = stop_status(&mut err, n, illegal);
    eprint!("{err}");
    super::print(&out)?;
    Ok(code)
}

/// Reads the position, with `--seed` as its generator's seed when it gives
/// none.
fn load(path: &str, text: String, seed: Option<u64>) -> Result<GameState, CliError> {
    let bad = |source| CliError::Position {
        path: path.to_string(),
        source,
    };
    let mut text = text;
    if let Some(seed) = seed {
        // Only a position that parses as an object is changed; anything
        // else gets the loader's own message below.
        let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
        if let Ok(serde_json::Value::Object(mut m)) = serde_json::from_str(body) {
            if let Some(k) = ["rng", "seed"].into_iter().find(|k| m.contains_key(*k)) {
                return Err(CliError::Input(format!(
                    "{path}: the position fixes its generator with `{k}`; --seed is for positions that give neither `rng` nor `seed` (leave one of the two out)"
                )));
            }
            m.insert("seed".into(), seed.into());
            text = serde_json::Value::Object(m).to_string();
        }
    }
    Position::from_json(&text)
        .map_err(bad)?
        .to_state()
        .map_err(bad)
}

/// Action `i` (0-based) of `n`, parsed; the error says which one.
fn parse_action(i: usize, text: &str, n: usize) -> Result<Action, CliError> {
    text.parse::<Action>().map_err(|e| {
        let hint = if text.split_whitespace().count() == 1 && n > 1 {
            "; each action is one argument: quote one with cards, e.g. \"lay 8D 8S 2C\""
        } else {
            ""
        };
        CliError::Input(format!("action {} of {n} `{text}`: {e}{hint}", i + 1))
    })
}

/// The phase as the position format names it.
fn phase_name(p: Phase) -> String {
    serde_json::to_value(p)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{p:?}"))
}

/// What an action changed: the player's table, hand and pickups, the pile
/// and stock, the turn and phase, the end of the hand.
fn describe(before: &GameState, after: &GameState, act: Action) -> String {
    let p = before.current_player();
    let mut notes: Vec<String> = Vec::new();
    if matches!(act, Action::KeepCut { .. }) {
        for q in 0..after.players() {
            notes.push(format!("player {q} holds [{}]", after.hand(q)));
        }
    }
    for q in 0..after.players() {
        let (tb, ta) = (before.table(q), after.table(q));
        if ta.twins > tb.twins {
            notes.push(format!(
                "player {q} received a twin (D-7): {} now",
                ta.twins
            ));
        }
        if ta.red_threes != tb.red_threes {
            notes.push(format!(
                "player {q} laid out red threes [{}] (D-4)",
                ta.red_threes
            ));
        }
        if before.free_pickup_pending(q) && !after.free_pickup_pending(q) {
            notes.push(format!("player {q}'s free pickup (D-6.1) is used up"));
        }
        if ta.opened && !tb.opened {
            notes.push(format!("player {q} has opened (D-8)"));
        }
        if ta.canastas() > tb.canastas() {
            notes.push(format!("player {q} has {} canastas (D-10)", ta.canastas()));
        }
    }
    let drawn = before.stock().len().saturating_sub(after.stock().len());
    if drawn > 0 && !matches!(act, Action::KeepCut { .. }) {
        notes.push(format!(
            "{drawn} from the stock, {} left",
            after.stock().len()
        ));
    }
    if after.stock().len() > before.stock().len() {
        notes.push(format!(
            "the stock was reshuffled: {} cards",
            after.stock().len()
        ));
    }
    if before.hand(p) != after.hand(p) && !matches!(act, Action::KeepCut { .. }) {
        notes.push(format!("player {p} holds [{}]", after.hand(p)));
    }
    if after.pile().len() != before.pile().len() {
        notes.push(match after.pile_top() {
            Some(c) => format!("pile {} cards, top {c}", after.pile().len()),
            None => "pile empty".to_string(),
        });
    }
    if let Some(end) = after.end().filter(|_| before.end().is_none()) {
        notes.push(match end {
            HandEnd::WentOut {
                player,
                from_hand,
                cleared_table,
            } => format!(
                "player {player} went out (D-13){}{}",
                if from_hand {
                    ", from hand (D-14.1)"
                } else {
                    ""
                },
                if cleared_table {
                    ", clearing the table (D-14.2)"
                } else {
                    ""
                }
            ),
            HandEnd::Exhausted => "the hand is over: stock and pile are exhausted (I-4)".into(),
            HandEnd::Stalled => "the hand is over: the turn cap was reached (I-5)".into(),
            HandEnd::Deadlocked => "the hand is over: every player is dead-locked (I-32)".into(),
        });
    } else if after.phase() != before.phase() || after.current_player() != p {
        notes.push(format!(
            "player {} to move, phase {}",
            after.current_player(),
            phase_name(after.phase())
        ));
    }
    notes.join("; ")
}
