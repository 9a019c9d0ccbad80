//! The rows of a classic run's `hands.csv` and `matches.csv`: one row per
//! seat, the seat's side named, the side's score by part (C-23); the
//! decorated files' column names where they mean the same (sim/CSV.md,
//! "Classic canasta").

use crate::rows::csv_row;
use kanaszta_engine::classic::ClassicRules;
use std::sync::Arc;

/// Declares a classic row ([`csv_row!`]): its fields are its columns,
/// then one `rule_KEY` column per classic switch, then the fields of its
/// `after` block (columns added later go there, so the earlier ones keep
/// their places); a file of other columns is refused.
macro_rules! classic_row {
    ($(#[$m:meta])* $name:ident { $($body:tt)* } $(after { $($after:tt)* })?) => {
        csv_row! {
            $(#[$m])* $name { $($body)* }
            tail { $($($after)*)? }
            rules {
                doc: "The classic switches, in [`ClassicRules::settings`] order.",
                columns: ClassicRules::default()
                    .settings()
                    .into_iter()
                    .map(|(k, _)| format!("rule_{k}")),
                count: rule_count(),
                legacy: false,
                upgrade: |_: &mut $name| {},
            }
        }
    };
}

/// The number of rule columns (of classic switches), computed once.
fn rule_count() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *N.get_or_init(|| ClassicRules::default().settings().len())
}

/// The values of the rule columns.
pub fn classic_rule_values(rules: &ClassicRules) -> Arc<[String]> {
    rules.settings().into_iter().map(|(_, v)| v).collect()
}

classic_row! {
    /// One row of a classic `hands.csv`: one seat of one hand.
    ClassicHandRow {
        series: u32,
        game: u64,
        deal: u64,
        swapped: bool,
        mode: String,
        hand: u32,
        run_seed: u64,
        deal_seed: u64,
        hand_seed: u64,
        seat: u8,
        /// The seat's side (C-20: seats 0 and 2 are side 0 with four
        /// players; otherwise the seat itself).
        side: u8,
        agent: String,
        opponent: String,
        /// This seat played first (the dealer's left, C-22).
        starter: bool,
        turns: u32,
        actions: u64,
        /// `went_out`, `concealed` (C-19), `stock_out` (C-11, C-23) or
        /// `stalled` (I-5).
        end: String,
        out_seat: Option<u8>,
        went_out: bool,
        /// The side with the highest hand score; empty on a tie.
        hand_winner: Option<u8>,
        won: bool,
        /// The side's hand score (C-23).
        raw: i32,
        total_before: i32,
        total_after: i32,
        red_threes: u8,
        red_three_points: i32,
        canastas_natural: u8,
        canastas_mixed: u8,
        canastas_wild: u8,
        canasta_points: i32,
        going_out_points: i32,
        melded: i32,
        /// The side's cards left in hand, minus (C-23).
        in_hand: i32,
        /// This seat's own cards left in hand, minus.
        seat_in_hand: i32,
        /// 100 per failed "yes" (C-18), minus.
        failed_yes_points: i32,
    }
    after {
        /// The seat's side's players, one spec per seat in seat order
        /// joined by `+` (`rules+greedy`), or the one spec of every seat.
        side_agents: String,
        /// Draws from the stock this hand.
        draws: u32,
        /// 004's turned card taken alone (C-22).
        turned: u32,
        /// Turns begun with a black three on top of the pile, not taken (C-15).
        black_three_blocked: u32,
        /// Pile pickups of every kind.
        pickups: u32,
        /// A natural pair, the pile open (C-7).
        pile_pair_open: u32,
        /// A natural pair, the pile frozen by a wild or red three (C-14).
        pile_pair_frozen: u32,
        /// A natural pair, the pile closed because the side had not melded (C-7).
        pile_pair_unmelded: u32,
        /// A natural and a wild (C-7).
        pile_natural_wild: u32,
        /// The top card onto the side's meld (C-7).
        pile_onto_meld: u32,
        /// A wild on top, taken with a natural pair (C-13).
        pile_wild_top: u32,
        /// A black three on top, taken going out (C-15, C-16).
        pile_black_three: u32,
        /// The pile's cards when taken, summed over the pickups.
        pile_taken_cards: u32,
        /// Discards of a natural the next player's side (an opponent's)
        /// holds six cards of, the pile not frozen, not going out (C-5, C-7).
        canasta_feeds: u32,
    }
}

classic_row! {
    /// One row of a classic `matches.csv`: one seat of one match.
    ClassicMatchRow {
        series: u32,
        game: u64,
        deal: u64,
        swapped: bool,
        run_seed: u64,
        deal_seed: u64,
        seat: u8,
        side: u8,
        agent: String,
        opponent: String,
        hands: u32,
        /// Ended by `max_hands` (I-31) before a side reached the target.
        capped: bool,
        /// The winning side; empty for a draw.
        winner: Option<u8>,
        won: bool,
        /// The side's total.
        total: i32,
        /// The best total of the other sides.
        opponent_total: i32,
        /// Hands the side won.
        hand_wins: u32,
    }
    after {
        /// The side's players (as in hands.csv).
        side_agents: String,
    }
}

classic_row! {
    /// One row of a classic `errors.csv`: a game a player broke (or a crash).
    ClassicErrorRow {
        series: u32,
        game: u64,
        deal: u64,
        swapped: bool,
        mode: String,
        hand: u32,
        run_seed: u64,
        deal_seed: u64,
        seat: Option<u8>,
        agent: String,
        turn: Option<u32>,
        action: String,
        rule: String,
        message: String,
    }
}
