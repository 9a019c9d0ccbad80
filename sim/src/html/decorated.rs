//! A replayed decorated game as page data: one snapshot a step (the deal,
//! then the state after each action), the table of each seat, and at the
//! end of a hand the score item by item (D-14) with the tax (D-15).

use super::cards;
use crate::error::CliError;
use crate::run::{black_threes_in_hand, end_kind, tax_divisor};
use kanaszta_engine::{tax, GameLog, GameState, Table};
use serde_json::{json, Value};

/// One hand to draw: its log, the notes of the actions (the index of the
/// action each belongs to: where a search left its policy), and the error
/// that ended the game, if any.
pub struct HandData<'a> {
    /// The hand's log: rules, seed, starter, totals before, actions.
    pub log: &'a GameLog,
    /// Notes under actions, by action index.
    pub notes: &'a [(usize, String)],
    /// The error that ended the game.
    pub error: Option<&'a str>,
}

/// A seat's table: its groups (canastas marked with their kind, D-10),
/// red threes, and the twins and separate ♥A as counts.
fn table(t: &Table) -> Value {
    let melds: Vec<Value> = t
        .groups()
        .iter()
        .map(|g| {
            json!({
                "cards": cards(g.cards()),
                "canasta": g.is_canasta(),
                "kind": g.canasta_kind().map(|k| k.name()),
            })
        })
        .collect();
    let mut extras = Vec::new();
    if t.twins > 0 {
        extras.push(format!("twins {}", t.twins));
    }
    if t.heart_aces > 0 {
        extras.push(format!("heart aces {}", t.heart_aces));
    }
    json!({
        "melds": melds,
        "red_threes": cards(t.red_threes),
        "extras": extras,
    })
}

/// What is drawn at a step: every hand, every table, the pile, the stock.
pub fn snapshot(g: &GameState) -> Value {
    let n = g.players();
    json!({
        "hands": (0..n).map(|p| cards(g.hand(p))).collect::<Vec<_>>(),
        "tables": (0..n).map(|p| table(g.table(p))).collect::<Vec<_>>(),
        "pile": {
            "size": g.pile().len(),
            "top": g.pile_top().map(|c| c.to_string()),
            "frozen": g.pile_frozen(),
        },
        "stock": g.stock().len(),
        "to_move": (!g.is_terminal()).then(|| g.current_player()),
    })
}

/// A row of the score table for each `(key, name, value of seat p)`: the
/// key as hands.csv names the column, the name shown, a value a seat.
type Item<'a> = (&'a str, &'a str, &'a dyn Fn(usize) -> i64);

/// The rows of `items` for `n` seats.
fn rows(n: usize, items: &[Item]) -> Vec<Value> {
    items
        .iter()
        .map(|(key, name, value)| {
            let values: Vec<i64> = (0..n).map(value).collect();
            json!({"key": key, "name": name, "values": values})
        })
        .collect()
}

/// The score of the hand item by item per seat (D-14, named as hands.csv's
/// columns), and with `taxed` the tax (D-15) on the running totals.
fn score(g: &GameState, log: &GameLog, taxed: bool) -> Value {
    let n = g.players();
    let s = g.scores();
    let black = |p: usize| black_threes_in_hand(g, p, &s[p]) as i64;
    let mut score_rows = rows(
        n,
        &[
            ("red_three_points", "red threes (D-4)", &|p| {
                s[p].red_three_points as i64
            }),
            ("twin_points", "twins (D-7)", &|p| s[p].twin_points as i64),
            ("canasta_points", "canastas (D-10)", &|p| {
                s[p].canasta_points as i64
            }),
            ("heart_ace_points", "heart aces (D-9.4)", &|p| {
                s[p].heart_ace_points as i64
            }),
            ("going_out_points", "going out", &|p| {
                s[p].going_out_points as i64
            }),
            ("from_hand_points", "out from hand", &|p| {
                s[p].from_hand_points as i64
            }),
            ("cleared_table_points", "table cleared", &|p| {
                s[p].cleared_table_points as i64
            }),
            ("base", "= base", &|p| s[p].base as i64),
            ("melded", "melded", &|p| s[p].melded as i64),
            ("cards_in_hand", "cards in hand", &|p| {
                s[p].in_hand as i64 - black(p)
            }),
            ("black_threes_in_hand", "black threes in hand", &black),
            ("card_value", "= card value", &|p| s[p].card_value as i64),
            ("raw", "= raw (D-14)", &|p| s[p].total as i64),
        ],
    );
    let tax_rows = if taxed {
        let before = |p: usize| log.totals.get(p).copied().unwrap_or(0);
        let after = |p: usize| tax(s[p].total, before(p), &log.rules);
        rows(
            n,
            &[
                ("total_before", "total before", &|p| before(p) as i64),
                ("tax_divisor", "tax divisor (D-15)", &|p| {
                    tax_divisor(&log.rules, before(p)) as i64
                }),
                ("taxed", "= taxed", &|p| after(p) as i64),
                ("total_after", "= total after", &|p| {
                    (before(p) + after(p)) as i64
                }),
            ],
        )
    } else {
        score_rows.extend(rows(
            n,
            &[("taxed", "taxed (a single hand: no tax)", &|p| {
                s[p].total as i64
            })],
        ));
        Vec::new()
    };
    json!({"rows": score_rows, "tax_rows": tax_rows})
}

/// One hand as page data: the deal, a step per action (the action, its
/// mover and turn, the notes under it, the state after it), and the end.
pub fn hand(h: &HandData, labels: &[String], taxed: bool) -> Result<Value, CliError> {
    let log = h.log;
    let mut g = log.initial();
    let start = snapshot(&g);
    let cut = g.cut_cards();
    let mut steps = Vec::with_capacity(log.actions.len());
    for (i, &a) in log.actions.iter().enumerate() {
        let p = g.current_player();
        let turn = g.turns() + 1;
        g.apply(a)
            .map_err(|e| format!("the log's action {i} (`{a}`) is refused: {e}"))?;
        let notes: Vec<&str> = h
            .notes
            .iter()
            .filter(|(at, _)| *at == i)
            .map(|(_, n)| n.as_str())
            .collect();
        steps.push(json!({
            "action": a.to_string(),
            "seat": p,
            "turn": turn,
            "notes": notes,
            "state": snapshot(&g),
        }));
    }
    let end = if let Some(e) = h.error {
        json!({"text": format!("the game ended by an error: {e}")})
    } else if !g.is_terminal() {
        json!({"text": "the log ends before the hand does"})
    } else {
        let (kind, who) = end_kind(g.end());
        let text = match who {
            Some(p) => format!(
                "{} went out ({kind}) after {} turns",
                labels[p as usize],
                g.turns()
            ),
            None => format!("the hand ended {kind} after {} turns", g.turns()),
        };
        let mut v = score(&g, log, taxed);
        v["text"] = json!(text);
        v["columns"] = json!(labels);
        v
    };
    Ok(json!({
        "seed": log.seed,
        "starter": log.starter,
        "totals_before": log.totals,
        "intro": format!(
            "hand seed {}, starter P{}; cut shows {} {} {}",
            log.seed, log.starter, cut[0], cut[1], cut[2]
        ),
        "start": start,
        "steps": steps,
        "end": end,
    }))
}

/// The page data of a decorated game: its title, the seats' labels, the
/// preselected seat (`None`: every hand shown) and its hands.
pub fn game(
    title: &str,
    labels: &[String],
    seat: Option<usize>,
    hands: &[HandData],
    taxed: bool,
) -> Result<Value, CliError> {
    let hands = hands
        .iter()
        .map(|h| hand(h, labels, taxed))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json!({
        "family": "decorated",
        "title": title,
        "seats": labels,
        "table_labels": labels,
        "table_of_seat": (0..labels.len()).collect::<Vec<_>>(),
        "seat": seat,
        "policy": "notes under an action say where a search agent left its policy",
        "hands": hands,
    }))
}

/// `kanaszta replay --html`: the page of a decorated game written to
/// `path`, `seat`'s view preselected if given.
pub fn write_replay(
    path: &std::path::Path,
    title: &str,
    labels: &[String],
    seat: Option<u32>,
    hands: &[HandData],
    taxed: bool,
) -> Result<std::process::ExitCode, CliError> {
    let seat = super::check_seat(seat, labels.len())?;
    let data = game(title, labels, seat, hands, taxed)?;
    super::write(path, &super::page(super::PageKind::Replay, title, &data))?;
    eprintln!("kanaszta: wrote {}", path.display());
    Ok(std::process::ExitCode::SUCCESS)
}
