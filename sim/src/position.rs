//! Positions of either rule family as the position commands read and
//! print them (sim/POSITIONS.md): [`AnyPosition`] loaded from a file or
//! text, the family read from the position's `family` or `rules`; the
//! texts of a position's score, of an action's effect and of an illegal
//! action's stop, shared by `legal`, `check`, `score`, `apply` and
//! `replay`.

use crate::error::CliError;
use crate::input;
use kanaszta_engine::classic::{
    is_classic_position, ClassicAction, ClassicEnd, ClassicPhase, ClassicPosition, ClassicState,
};
use kanaszta_engine::{tax, GameState, Position};
use std::fmt::Write as _;
use std::process::ExitCode;

/// Exit status of `check` and `apply` at an illegal action.
pub const EXIT_ILLEGAL: u8 = 3;

/// A position of either rule family.
pub enum AnyPosition {
    /// Decorated canasta.
    Decorated(Box<GameState>),
    /// Classic canasta.
    Classic(Box<ClassicState>),
}

/// Position text read from a file (`-`: standard input).
pub fn read(path: &str) -> Result<String, CliError> {
    input::read_text(path, "position", input::JSON_LIMIT)
}

/// Loads position text of either family.
pub fn load_text(path: &str, text: &str) -> Result<AnyPosition, CliError> {
    let bad = |source| CliError::Position {
        path: path.to_string(),
        source,
    };
    if is_classic_text(text) {
        return Ok(AnyPosition::Classic(Box::new(load_classic(path, text)?)));
    }
    let p = Position::from_json(text).map_err(bad)?;
    Ok(AnyPosition::Decorated(Box::new(p.to_state().map_err(bad)?)))
}

/// Whether position text is read as classic: its `family` or `rules` say
/// so, or it is not JSON as a whole (cut short, say) but names the classic
/// family or a classic preset. Then the classic reader tells what is wrong
/// with it, where the decorated reader would only object to the classic
/// preset it meets first.
pub fn is_classic_text(text: &str) -> bool {
    is_classic_position(text)
        || (serde_json::from_str::<serde_json::Value>(
            text.strip_prefix('\u{feff}').unwrap_or(text),
        )
        .is_err()
            && text.contains("\"classic"))
}

/// Loads classic position text.
pub fn load_classic(path: &str, text: &str) -> Result<ClassicState, CliError> {
    let bad = |source| CliError::Position {
        path: path.to_string(),
        source,
    };
    ClassicPosition::from_json(text)
        .map_err(bad)?
        .to_state()
        .map_err(bad)
}

/// Loads a position file of either family.
pub fn load(path: &str) -> Result<AnyPosition, CliError> {
    load_text(path, &read(path)?)
}

/// The position text with `seed` set (`apply --seed`), refused when the
/// position gives its own.
pub fn with_seed(path: &str, text: &str, seed: u64) -> Result<String, CliError> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Ok(serde_json::Value::Object(mut m)) = serde_json::from_str(body) {
        if m.contains_key("seed") {
            return Err(CliError::Input(format!(
                "{path}: the position fixes its stock's shuffle with `seed`; --seed is for positions that give neither (leave one of the two out)"
            )));
        }
        m.insert("seed".into(), seed.into());
        return Ok(serde_json::Value::Object(m).to_string());
    }
    Ok(text.to_string())
}

/// The columns of the classic score.
const SCORE_HEADER: &str = "side,players,red_threes,red_three_points,canastas_natural,canastas_mixed,canastas_wild,canasta_points,went_out,concealed,going_out_points,melded,in_hand,failed_yes,failed_yes_points,total,total_before,total_after";

/// The score of a classic hand item by item (C-8, C-5, C-10, C-19, C-9,
/// C-23, C-18), one CSV row per side.
pub fn score_text(g: &ClassicState) -> String {
    let mut out = String::new();
    if !g.is_terminal() {
        out.push_str("the hand is not over: scores as if it ended now, nobody going out\n");
    }
    out.push_str(SCORE_HEADER);
    out.push('\n');
    let r = g.rules();
    let (out_seat, concealed) = match g.end() {
        Some(ClassicEnd::WentOut { player, concealed }) => (Some(player as usize), concealed),
        _ => (None, false),
    };
    for side in 0..r.sides() {
        let s = g.side_score(side);
        let t = g.table(side);
        let players: Vec<String> = (0..g.players())
            .filter(|&p| r.side_of(p) == side)
            .map(|p| p.to_string())
            .collect();
        let count = |f: &dyn Fn(&kanaszta_engine::CardSet) -> bool| {
            t.melds.iter().filter(|m| m.len() >= 7 && f(m)).count()
        };
        let went = out_seat.filter(|&p| r.side_of(p) == side);
        let _ = writeln!(
            out,
            "{side},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            players.join(" "),
            t.red_threes.len(),
            s.red_threes,
            count(&|m| m.wild_count() == 0),
            count(&|m| m.wild_count() > 0),
            t.wild_canastas.iter().filter(|m| !m.is_empty()).count(),
            s.canastas,
            went.map_or(String::new(), |p| p.to_string()),
            went.is_some() && concealed,
            s.going_out,
            s.melds,
            s.in_hand,
            g.failed_yes(side),
            s.failed_yes,
            s.total,
            g.total(side),
            g.total(side) + s.total
        );
    }
    out
}

/// A seat and its side, e.g. `P2 (side 0)`.
pub fn seat_name(g: &ClassicState, p: usize) -> String {
    if g.rules().partnerships() {
        format!("P{p} (side {})", g.side_of(p))
    } else {
        format!("P{p}")
    }
}

/// The phase as positions name it.
pub fn phase_name(p: ClassicPhase) -> &'static str {
    match p {
        ClassicPhase::Draw => "draw",
        ClassicPhase::Answer => "answer",
        ClassicPhase::Meld => "meld",
        ClassicPhase::Over => "over",
    }
}

/// How a hand ended, in words.
pub fn end_text(g: &ClassicState, end: ClassicEnd) -> String {
    match end {
        ClassicEnd::WentOut { player, concealed } => format!(
            "{} went out{} (C-10)",
            seat_name(g, player as usize),
            if concealed { " concealed (C-19)" } else { "" }
        ),
        ClassicEnd::StockOut => "the hand is over: the stock ran out (C-11, C-23)".into(),
        ClassicEnd::Stalled => "the hand is over: the turn cap was reached (I-5)".into(),
    }
}

/// What an action changed: the mover's hand, red threes, the pile and
/// stock, the answer, whose turn and which phase, the end.
pub fn describe(before: &ClassicState, after: &ClassicState, act: ClassicAction) -> String {
    let p = before.current_player();
    let mut notes: Vec<String> = Vec::new();
    if let ClassicAction::Answer(yes) = act {
        notes.push(format!(
            "{} answers {} to \"may I go out?\" (C-18)",
            seat_name(before, p),
            if yes { "yes" } else { "no" }
        ));
    }
    for s in 0..after.rules().sides() {
        let (tb, ta) = (before.table(s), after.table(s));
        if ta.red_threes != tb.red_threes {
            notes.push(format!("side {s} red threes [{}] (C-8)", ta.red_threes));
        }
        if ta.canastas() > tb.canastas() {
            notes.push(format!("side {s} has {} canasta(s) (C-5)", ta.canastas()));
        }
        if ta.has_melds() && !tb.has_melds() {
            notes.push(format!("side {s} has melded"));
        }
    }
    let drawn = before.stock_len().saturating_sub(after.stock_len());
    if drawn > 0 {
        notes.push(format!(
            "{drawn} from the stock, {} left",
            after.stock_len()
        ));
    }
    if before.hand(p) != after.hand(p) {
        notes.push(format!("P{p} holds [{}]", after.hand(p)));
    }
    if after.pile() != before.pile() {
        notes.push(match after.pile_top() {
            Some(c) => format!(
                "pile {} cards, top {c}{}",
                after.pile().len(),
                if after.pile_frozen() { ", frozen" } else { "" }
            ),
            None => "pile empty".to_string(),
        });
    }
    match after.end().filter(|_| before.end().is_none()) {
        Some(end) => notes.push(end_text(after, end)),
        None => {
            if after.phase() != before.phase() || after.current_player() != p {
                notes.push(format!(
                    "{} to act, phase {}",
                    seat_name(after, after.current_player()),
                    phase_name(after.phase())
                ));
            }
        }
    }
    notes.join("; ")
}

/// The exit status of `apply` (either family): success, or the first
/// illegal action, said on `err` with how far the actions went.
pub fn stop_status(
    err: &mut String,
    n: usize,
    illegal: Option<(usize, impl std::fmt::Display, impl std::fmt::Display)>,
) -> ExitCode {
    let Some((i, act, e)) = illegal else {
        return ExitCode::SUCCESS;
    };
    let printed = if i == 0 {
        "the position printed is the one given"
    } else {
        "the position printed is the one after them"
    };
    let _ = writeln!(
        err,
        "{}/{n} {act}: illegal: {e}\nstopped at action {} of {n}: {i} applied; {printed}",
        i + 1,
        i + 1
    );
    if let Some(hint) = crate::rules_doc::see_also(&e.to_string()) {
        let _ = writeln!(err, "{hint}");
    }
    ExitCode::from(EXIT_ILLEGAL)
}

/// The scoring breakdown of a decorated hand (D-14), raw and taxed
/// (D-15), one CSV row per player, as `kanaszta score` prints it.
pub fn write_score(out: &mut impl std::io::Write, g: &GameState) -> Result<(), CliError> {
    if !g.is_terminal() {
        writeln!(
            out,
            "the hand is not over: scores as if it ended now, nobody going out"
        )?;
    }
    writeln!(
        out,
        "player,red_threes,twins,canastas,heart_aces,going_out,from_hand,cleared_table,base,melded,in_hand,card_value,raw,total_before,taxed"
    )?;
    for (p, s) in g.scores().iter().enumerate() {
        let before = g.totals()[p];
        writeln!(
            out,
            "{p},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            s.red_three_points,
            s.twin_points,
            s.canasta_points,
            s.heart_ace_points,
            s.going_out_points,
            s.from_hand_points,
            s.cleared_table_points,
            s.base,
            s.melded,
            s.in_hand,
            s.card_value,
            s.total,
            before,
            tax(s.total, before, g.rules())
        )?;
    }
    Ok(())
}
