//! A replayed classic game as page data: one snapshot a step (the deal,
//! then the state after each action), each side's table, and at the end of
//! a hand the score item by item per side (C-23).

use super::cards;
use crate::error::CliError;
use crate::position::end_text;
use kanaszta_engine::classic::{ClassicAction, ClassicState, SideTable};
use kanaszta_engine::CardSet;
use serde_json::{json, Value};

/// One hand to draw: the deal, the actions, the error that ended the game.
pub struct HandData<'a> {
    /// The state as dealt (red threes of the deal laid, C-8).
    pub start: &'a ClassicState,
    /// The hand's actions.
    pub actions: &'a [ClassicAction],
    /// The error that ended the game.
    pub error: Option<&'a str>,
}

/// A side's table: its melds by rank, black threes, wild canastas (all
/// melds of seven or more marked canastas, C-5), red threes.
fn table(t: &SideTable) -> Value {
    let meld = |m: &CardSet, kind: &str| {
        let canasta = m.len() >= 7;
        json!({
            "cards": cards(*m),
            "canasta": canasta,
            "kind": if canasta {
                if kind == "wild" {
                    Some("wild")
                } else if m.wild_count() == 0 {
                    Some("natural")
                } else {
                    Some("mixed")
                }
            } else {
                None
            },
        })
    };
    let mut melds: Vec<Value> = t
        .melds
        .iter()
        .filter(|m| !m.is_empty())
        .map(|m| meld(m, ""))
        .collect();
    if !t.black_threes.is_empty() {
        melds.push(meld(&t.black_threes, ""));
    }
    melds.extend(
        t.wild_canastas
            .iter()
            .filter(|w| !w.is_empty())
            .map(|w| meld(w, "wild")),
    );
    json!({
        "melds": melds,
        "red_threes": cards(t.red_threes),
        "extras": Vec::<String>::new(),
    })
}

/// What is drawn at a step: every hand, each side's table, the pile, the
/// stock.
pub fn snapshot(g: &ClassicState) -> Value {
    let sides = g.rules().sides();
    json!({
        "hands": (0..g.players()).map(|p| cards(g.hand(p))).collect::<Vec<_>>(),
        "tables": (0..sides).map(|s| table(g.table(s))).collect::<Vec<_>>(),
        "pile": {
            "size": g.pile().len(),
            "top": g.pile_top().map(|c| c.to_string()),
            "frozen": g.pile_frozen(),
        },
        "stock": g.stock_len(),
        "to_move": (!g.is_terminal()).then(|| g.current_player()),
    })
}

/// The score of the hand item by item per side (C-23).
fn score(g: &ClassicState) -> Value {
    let sides = g.rules().sides();
    let scores: Vec<_> = (0..sides).map(|s| g.side_score(s)).collect();
    let count = |s: usize, f: &dyn Fn(&CardSet) -> bool| {
        g.table(s)
            .melds
            .iter()
            .filter(|m| m.len() >= 7 && f(m))
            .count() as i64
    };
    let row = |key: &str, name: &str, v: Vec<i64>| json!({"key": key, "name": name, "values": v});
    let per = |f: &dyn Fn(usize) -> i64| -> Vec<i64> { (0..sides).map(f).collect() };
    let rows = vec![
        row(
            "red_threes",
            "red threes (count)",
            per(&|s| g.table(s).red_threes.len() as i64),
        ),
        row(
            "red_three_points",
            "red threes (C-8)",
            per(&|s| scores[s].red_threes as i64),
        ),
        row(
            "canastas_natural",
            "canastas natural",
            per(&|s| count(s, &|m| m.wild_count() == 0)),
        ),
        row(
            "canastas_mixed",
            "canastas mixed",
            per(&|s| count(s, &|m| m.wild_count() > 0)),
        ),
        row(
            "canastas_wild",
            "canastas wild",
            per(&|s| {
                g.table(s)
                    .wild_canastas
                    .iter()
                    .filter(|m| !m.is_empty())
                    .count() as i64
            }),
        ),
        row(
            "canasta_points",
            "canastas (C-5)",
            per(&|s| scores[s].canastas as i64),
        ),
        row(
            "going_out_points",
            "going out (C-10, C-19)",
            per(&|s| scores[s].going_out as i64),
        ),
        row("melded", "melded (C-9)", per(&|s| scores[s].melds as i64)),
        row(
            "in_hand",
            "in hand (C-23)",
            per(&|s| scores[s].in_hand as i64),
        ),
        row(
            "failed_yes_points",
            "failed \"yes\" (C-18)",
            per(&|s| scores[s].failed_yes as i64),
        ),
        row("raw", "= total (C-23)", per(&|s| scores[s].total as i64)),
    ];
    let tax_rows = vec![
        row("total_before", "total before", per(&|s| g.total(s) as i64)),
        row(
            "total_after",
            "= total after",
            per(&|s| (g.total(s) + scores[s].total) as i64),
        ),
    ];
    json!({"rows": rows, "tax_rows": tax_rows})
}

/// One hand as page data: the deal, a step per action (the action, its
/// seat and turn, the state after it), and the end.
pub fn hand(h: &HandData) -> Result<Value, CliError> {
    let mut g = h.start.clone();
    let start = snapshot(&g);
    let mut steps = Vec::with_capacity(h.actions.len());
    for (i, &a) in h.actions.iter().enumerate() {
        let p = g.current_player();
        let turn = g.turns() + 1;
        g.apply(a)
            .map_err(|e| format!("the game's action {i} (`{a}`) is refused: {e}"))?;
        steps.push(json!({
            "action": a.to_string(),
            "seat": p,
            "turn": turn,
            "notes": Vec::<String>::new(),
            "state": snapshot(&g),
        }));
    }
    let sides = g.rules().sides();
    let end = match (h.error, g.end()) {
        (Some(e), _) => json!({"text": format!("the game ended by an error: {e}")}),
        (None, None) => json!({"text": "the game ends before the hand does"}),
        (None, Some(end)) => {
            let mut v = score(&g);
            v["text"] = json!(format!("{} after {} turns", end_text(&g, end), g.turns()));
            v["columns"] = json!((0..sides).map(|s| format!("side {s}")).collect::<Vec<_>>());
            v
        }
    };
    Ok(json!({
        "totals_before": (0..sides).map(|s| h.start.total(s)).collect::<Vec<_>>(),
        "intro": format!(
            "dealer P{}, first to play P{}",
            h.start.dealer(),
            h.start.current_player()
        ),
        "start": start,
        "steps": steps,
        "end": end,
    }))
}

/// The page data of a classic game: its title, the seats' labels, the
/// preselected seat (`None`: every hand shown) and its hands.
pub fn game_data(
    title: &str,
    labels: &[String],
    seat: Option<usize>,
    hands: &[HandData],
) -> Result<Value, CliError> {
    let Some(first) = hands.first() else {
        return Err(CliError::Input("the game has no hand to draw".into()));
    };
    let sides = first.start.rules().sides();
    let table_labels: Vec<String> = (0..sides)
        .map(|s| {
            let seats: Vec<String> = (0..labels.len())
                .filter(|&p| first.start.side_of(p) == s)
                .map(|p| format!("P{p}"))
                .collect();
            format!("side {s} ({})", seats.join(", "))
        })
        .collect();
    let hands = hands.iter().map(hand).collect::<Result<Vec<_>, _>>()?;
    Ok(json!({
        "family": "classic",
        "title": title,
        "seats": labels,
        "table_labels": table_labels,
        "table_of_seat": (0..labels.len()).map(|p| first.start.side_of(p)).collect::<Vec<_>>(),
        "seat": seat,
        "policy": "the classic replay records no search policy",
        "hands": hands,
    }))
}

/// `kanaszta replay --html` of a classic game: its picked hands drawn in
/// `path`, `seat`'s view preselected if given.
pub fn write_replay(
    path: &std::path::Path,
    title: &str,
    labels: &[String],
    seat: Option<u32>,
    hands: &[HandData],
) -> Result<std::process::ExitCode, CliError> {
    let seat = super::check_seat(seat, labels.len())?;
    let data = game_data(title, labels, seat, hands)?;
    super::write(path, &super::page(super::PageKind::Replay, title, &data))?;
    eprintln!("kanaszta: wrote {}", path.display());
    Ok(std::process::ExitCode::SUCCESS)
}
