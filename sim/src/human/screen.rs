//! What the person sees: cards, tables, the pile, the totals and the moves,
//! drawn from his seat's [`SeatView`] only, so that nothing hidden can be
//! shown. Plain `8D` text, or suits as Unicode symbols in colour.

use kanaszta_engine::{
    Action, Card, CardSet, Group, HandEnd, HandScore, Phase, Rank, Rules, SeatView, Switch, Table,
};
use std::fmt::Write as _;

/// How cards are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Suits as ♣ ♦ ♥ ♠ (and `10` for tens).
    pub unicode: bool,
    /// Red suits and jokers in colour (ANSI escapes).
    pub color: bool,
}

const RED: &str = "\x1b[31m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

impl Style {
    /// One card.
    pub fn card(&self, c: Card) -> String {
        let text = match (self.unicode, c.rank(), c.suit()) {
            (true, Some(r), Some(s)) => {
                let rank = if r == Rank::Ten {
                    "10".to_string()
                } else {
                    r.char().to_string()
                };
                let suit = ['♣', '♦', '♥', '♠'][s as usize];
                format!("{rank}{suit}")
            }
            _ => c.to_string(),
        };
        let red = c.suit().is_some_and(|s| s.is_red());
        if self.color && (red || c.is_joker()) {
            let col = if red { RED } else { BOLD };
            format!("{col}{text}{RESET}")
        } else {
            text
        }
    }

    /// Cards separated by spaces, in kind order.
    pub fn cards(&self, set: CardSet) -> String {
        let v: Vec<String> = set.iter().map(|c| self.card(c)).collect();
        v.join(" ")
    }

    /// A heading.
    pub fn bold(&self, text: &str) -> String {
        if self.color {
            format!("{BOLD}{text}{RESET}")
        } else {
            text.to_string()
        }
    }

    /// An action, its cards in this style.
    pub fn action(&self, a: Action) -> String {
        if !self.unicode && !self.color {
            return a.to_string();
        }
        a.to_string()
            .split(' ')
            .map(|w| match w.parse::<Card>() {
                Ok(c) if w.len() == 2 => self.card(c),
                _ => w.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Accepts the card symbols of the Unicode style in typed input (`8♦`,
/// `10♠`), as the notation's letters.
pub fn normalize_input(line: &str) -> String {
    line.trim()
        .replace('♣', "C")
        .replace('♦', "D")
        .replace('♥', "H")
        .replace('♠', "S")
}

/// A hand sorted and grouped by rank: naturals 4 to A, then the wilds,
/// then the threes.
pub fn hand(style: &Style, hand: CardSet) -> String {
    let mut parts = Vec::new();
    let of_rank = |r: Rank| {
        let v: Vec<Card> = hand.iter().filter(|c| c.rank() == Some(r)).collect();
        v
    };
    for r in Rank::NATURALS {
        let v = of_rank(r);
        if !v.is_empty() {
            parts.push(
                v.iter()
                    .map(|c| style.card(*c))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
    }
    let wilds: Vec<Card> = hand.iter().filter(|c| c.is_wild()).collect();
    let threes = of_rank(Rank::Three);
    let mut s = parts.join("  ");
    for (label, v) in [("wild", wilds), ("threes", threes)] {
        if !v.is_empty() {
            if !s.is_empty() {
                s.push_str("  | ");
            }
            let _ = write!(
                s,
                "{label} {}",
                v.iter()
                    .map(|c| style.card(*c))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
    }
    s
}

/// One group: its index, rank, cards and, for a canasta, its kind.
fn group(style: &Style, i: usize, g: &Group) -> String {
    let rank = match g.rank() {
        Some(r) => r.char().to_string(),
        None => "wild".into(),
    };
    let mut s = format!("[{i}] {rank}: {}", style.cards(g.cards()));
    match g.canasta_kind() {
        Some(k) => {
            let _ = write!(
                s,
                "  = {} canasta ({})",
                k.name().replace('_', " "),
                k.bonus()
            );
        }
        None => {
            let _ = write!(s, "  ({} cards)", g.len());
        }
    }
    if g.is_new() {
        s.push_str("  new this turn");
    }
    s
}

/// A table: groups, canastas, red threes, twins, heart aces.
pub fn table(style: &Style, out: &mut String, t: &Table) {
    if t.is_empty() {
        let _ = writeln!(
            out,
            "    no groups{}",
            if t.opened { "" } else { " (not opened)" }
        );
    }
    for (i, g) in t.groups().iter().enumerate() {
        let _ = writeln!(out, "    {}", group(style, i, g));
    }
    let mut extras = Vec::new();
    if !t.red_threes.is_empty() {
        extras.push(format!("red threes {}", style.cards(t.red_threes)));
    }
    if t.twins > 0 {
        extras.push(format!("twins {}", t.twins));
    }
    if t.heart_aces > 0 {
        extras.push(format!(
            "heart aces laid {}{}",
            t.heart_aces,
            if t.heart_aces_new > 0 {
                format!(" ({} this turn)", t.heart_aces_new)
            } else {
                String::new()
            }
        ));
    }
    if !extras.is_empty() {
        let _ = writeln!(out, "    {}", extras.join(", "));
    }
}

/// The tax bracket a running total is in (D-15).
pub fn bracket(rules: &Rules, total: i32) -> String {
    if rules.tax == Switch::Off {
        return "no tax (tax=off)".into();
    }
    let d = rules.tax_schedule.divisor(total);
    let from = rules
        .tax_schedule
        .brackets()
        .iter()
        .rev()
        .find(|b| total >= b.from)
        .map(|b| b.from);
    match (d, from) {
        (1, _) | (_, None) => {
            let next = rules.tax_schedule.brackets().first().map(|b| b.from);
            match next {
                Some(n) => format!("untaxed below {n}"),
                None => "untaxed".into(),
            }
        }
        (2, Some(f)) => format!("hands halved from {f} (D-15)"),
        (4, Some(f)) => format!("hands quartered from {f} (D-15)"),
        (10, Some(f)) => format!("a tenth of each hand from {f} (D-15)"),
        (d, Some(f)) => format!("hands divided by {d} from {f} (D-15)"),
    }
}

/// Why the pile is frozen (D-6.3), if it is.
pub fn frozen_why(view: &SeatView) -> Option<&'static str> {
    let top = view.pile_top()?;
    if top.is_black_three() {
        Some("frozen by a black three on top (D-6.3)")
    } else if top.is_wild() {
        Some("frozen by a wild on top (D-6.3)")
    } else {
        None
    }
}

/// Names of the seats.
pub struct Names {
    /// Each seat's label, e.g. `you` or `rules`.
    pub label: Vec<String>,
}

/// The whole screen of the seat of `view`.
pub fn board(style: &Style, out: &mut String, view: &SeatView, names: &Names, title: &str) {
    let me = view.seat();
    let rules = view.rules();
    let _ = writeln!(out);
    let _ = writeln!(out, "{}", style.bold(&format!("=== {title} ===")));
    let totals: Vec<String> = (0..view.players())
        .map(|p| {
            format!(
                "P{p} {} {} ({})",
                names.label[p],
                view.totals()[p],
                bracket(rules, view.totals()[p])
            )
        })
        .collect();
    let _ = writeln!(out, "totals: {}", totals.join(" | "));
    // The stock: its size, and the unkept cut cards known at its bottom.
    let bottom = view.stock_bottom();
    let known = if bottom.is_empty() {
        String::new()
    } else {
        let cs: Vec<String> = bottom.iter().map(|c| style.card(*c)).collect();
        format!(" (at its bottom: {})", cs.join(" "))
    };
    let _ = writeln!(out, "stock: {} cards{known}", view.stock_len());
    let pile = view.pile();
    match view.pile_top() {
        None => {
            let _ = writeln!(out, "pile: empty");
        }
        Some(top) => {
            let state = frozen_why(view).unwrap_or("not frozen");
            let _ = writeln!(
                out,
                "pile: {} card{}, top {}, {state}",
                pile.len(),
                if pile.len() == 1 { "" } else { "s" },
                style.card(top)
            );
        }
    }
    for p in (0..view.players()).filter(|p| *p != me) {
        let known = view.known(p);
        let _ = writeln!(
            out,
            "P{p} {}: {} cards in hand{}{}",
            names.label[p],
            view.hand_size(p),
            if known.is_empty() {
                String::new()
            } else {
                format!(" (known: {})", style.cards(known))
            },
            if view.table(p).opened { ", opened" } else { "" }
        );
        table(style, out, view.table(p));
    }
    let mine = view.table(me);
    let _ = writeln!(
        out,
        "your table (P{me}){}:",
        if mine.opened {
            String::new()
        } else {
            format!(
                ", not opened: the opening needs {} (D-8)",
                view.opening_minimum(me)
            )
        }
    );
    table(style, out, mine);
    let h = view.hand();
    let _ = writeln!(out, "your hand ({} cards): {}", h.len(), hand(style, h));
    if view.phase() == Phase::Cut && view.current_player() == me {
        let cut = view.cut_cards();
        let _ = writeln!(
            out,
            "the cut shows {} {} {}: keep which? (D-3.1; `keep 101` keeps the first and third)",
            style.card(cut[0]),
            style.card(cut[1]),
            style.card(cut[2])
        );
    }
    if view.current_player() == me {
        if view.free_pickup_offered() {
            if let Some(top) = view.pile_top() {
                let _ = writeln!(
                    out,
                    "the free pickup of {} is offered (D-6.1)",
                    style.card(top)
                );
            }
        }
        if let Some(k) = view.pickup() {
            let _ = writeln!(
                out,
                "pile pickup of {} cards: {} taken{} (D-6.2)",
                k.pile_size,
                style.card(k.top),
                if k.rest_taken {
                    ", the rest taken"
                } else {
                    "; lay it, then take the rest"
                }
            );
        }
        let pending = view.pending_wilds();
        if !pending.is_empty() {
            let _ = writeln!(out, "wilds to place now: {} (D-11.2)", style.cards(pending));
        }
        if view.must_go_out() {
            let _ = writeln!(out, "this turn you must go out (I-26)");
        }
    }
}

/// The kind of a move, for grouping the listing.
pub fn section(a: Action) -> usize {
    match a {
        Action::KeepCut { .. }
        | Action::Draw
        | Action::FreePickup
        | Action::TakePile
        | Action::TakeRest => 0,
        Action::Discard(_) => 2,
        Action::Reset => 3,
        _ => 1,
    }
}

/// The numbered moves, grouped: draw and pickups, meld steps, discards;
/// at most `limit` meld steps shown (`moves` lists them all).
pub fn moves(style: &Style, out: &mut String, legal: &[Action], limit: usize) {
    const LABELS: [&str; 4] = ["draw/pickup", "meld", "discard", "undo"];
    for (s, label) in LABELS.iter().enumerate() {
        let items: Vec<(usize, Action)> = legal
            .iter()
            .enumerate()
            .filter(|(_, a)| section(**a) == s)
            .map(|(i, a)| (i + 1, *a))
            .collect();
        if items.is_empty() {
            continue;
        }
        let shown = if s == 1 {
            limit.min(items.len())
        } else {
            items.len()
        };
        let mut line = format!("  {label:<12}");
        let mut width = 14;
        for (n, a) in &items[..shown] {
            let plain = format!("{n} {a}");
            let text = format!("{n} {}", style.action(*a));
            if width + plain.chars().count() + 3 > 78 {
                let _ = writeln!(out, "{}", line.trim_end());
                line = " ".repeat(14);
                width = 14;
            }
            line.push_str(&text);
            line.push_str("   ");
            width += plain.chars().count() + 3;
        }
        if shown < items.len() {
            let more = format!("… {} more (`moves` lists all)", items.len() - shown);
            if width + more.len() > 78 {
                let _ = writeln!(out, "{}", line.trim_end());
                line = " ".repeat(14);
            }
            line.push_str(&more);
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// How a hand ended, in words.
pub fn end_text(end: Option<HandEnd>, label: &[String]) -> String {
    match end {
        Some(HandEnd::WentOut {
            player,
            from_hand,
            cleared_table,
        }) => format!(
            "P{player} {} went out{}{} (D-13)",
            label[player as usize],
            if from_hand { " from hand (D-14.1)" } else { "" },
            if cleared_table {
                ", clearing the table (D-14.2)"
            } else {
                ""
            }
        ),
        Some(HandEnd::Exhausted) => "the stock and the pile are exhausted (I-4)".into(),
        Some(HandEnd::Stalled) | None => "the hand stalled at the turn cap (I-5)".into(),
        Some(HandEnd::Deadlocked) => "every player is dead-locked (I-32)".into(),
    }
}

/// The score breakdown of one player (D-14).
pub fn score(s: &HandScore) -> String {
    let kinds: Vec<String> = kanaszta_engine::CanastaKind::ALL
        .iter()
        .zip(s.canastas)
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{n} {}", k.name().replace('_', " ")))
        .collect();
    format!(
        "base {} (red threes {}, twins {}, canastas {}{}, heart aces {}, going out {}) + cards {} (melded {}, in hand {}) = {}",
        s.base,
        s.red_three_points,
        s.twin_points,
        s.canasta_points,
        if kinds.is_empty() {
            String::new()
        } else {
            format!(": {}", kinds.join(", "))
        },
        s.heart_ace_points,
        s.going_out_points + s.from_hand_points + s.cleared_table_points,
        s.card_value,
        s.melded,
        s.in_hand,
        s.total
    )
}
