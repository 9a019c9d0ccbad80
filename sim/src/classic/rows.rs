//! The rows of a classic run's `hands.csv` and `matches.csv`: one row per
//! seat, the seat's side named, the side's score by part (C-23); the
//! decorated files' column names where they mean the same (sim/CSV.md,
//! "Classic canasta").

use super::pile::{self, PileCounts};
use super::stats::{ClassicEndKind, ClassicHandFacts};
use crate::rows::csv_row;
use crate::run::Mode;
use kanaszta_engine::classic::{ClassicEnd, ClassicRules, ClassicState};
use kanaszta_engine::seed;
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

/// Which game of which run a classic hand's rows belong to.
pub struct HandIds<'a> {
    /// The series of the run.
    pub series: u32,
    /// The game.
    pub game: u64,
    /// The deal.
    pub deal: u64,
    /// The paired game of the deal, its sides swapped.
    pub swapped: bool,
    /// Hands or matches.
    pub mode: Mode,
    /// The run's seed.
    pub run_seed: u64,
    /// The deal's seed (of the match; each hand's seed derives from it).
    pub deal_seed: u64,
    /// The values of the rule columns ([`classic_rule_values`]).
    pub rules: &'a Arc<[String]>,
}

/// Who played a seat, as its row names them.
pub struct SeatNames {
    /// The seat's player (`agent`).
    pub agent: String,
    /// The other side's players (`opponent`).
    pub opponent: String,
    /// The seat's side's players (`side_agents`).
    pub side_agents: String,
}

/// Appends the rows of a finished hand, one per seat, the seat's players
/// named by `names`: the side's score by part (C-23) and the seat's turn
/// beginnings `pile`; `before` holds the sides' totals before the hand,
/// `actions` the actions applied. Returns the winning side (the unique
/// highest hand score).
#[allow(clippy::too_many_arguments)]
pub fn hand_rows(
    rows: &mut Vec<ClassicHandRow>,
    ids: &HandIds<'_>,
    names: impl Fn(usize) -> SeatNames,
    index: u32,
    hand: &ClassicState,
    before: &[i32],
    actions: u64,
    pile: &[PileCounts],
) -> Option<usize> {
    let mut facts = Vec::new();
    hand_out(
        Some(rows),
        &mut facts,
        ids,
        |p| Arc::from(names(p).agent),
        &names,
        index,
        hand,
        before,
        actions,
        pile,
    )
}

/// What a finished hand gives, seat by seat: the statistics' facts,
/// appended to `facts` always, and the `hands.csv` rows of
/// [`hand_rows`], appended to `rows` when given (the seat's player is
/// `agent`, the row's names `names`, asked for only then). Returns the
/// winning side.
#[allow(clippy::too_many_arguments)]
pub(crate) fn hand_out(
    mut rows: Option<&mut Vec<ClassicHandRow>>,
    facts: &mut Vec<ClassicHandFacts>,
    ids: &HandIds<'_>,
    agent: impl Fn(usize) -> Arc<str>,
    names: impl Fn(usize) -> SeatNames,
    index: u32,
    hand: &ClassicState,
    before: &[i32],
    actions: u64,
    pile: &[PileCounts],
) -> Option<usize> {
    let r = hand.rules();
    let players = r.players as usize;
    let sides = r.sides();
    let scores: Vec<_> = (0..sides).map(|s| hand.side_score(s)).collect();
    let best = scores.iter().map(|s| s.total).max().unwrap_or(0);
    let leaders = scores.iter().filter(|s| s.total == best).count();
    let winner = (leaders == 1)
        .then(|| scores.iter().position(|s| s.total == best))
        .flatten();
    let (end, out_seat) = match hand.end() {
        Some(ClassicEnd::WentOut { player, concealed }) => (
            if concealed {
                ClassicEndKind::Concealed
            } else {
                ClassicEndKind::WentOut
            },
            Some(player),
        ),
        Some(ClassicEnd::StockOut) => (ClassicEndKind::StockOut, None),
        Some(ClassicEnd::Stalled) | None => (ClassicEndKind::Stalled, None),
    };
    let starter = (hand.dealer() + 1) % players;
    for (p, c) in pile.iter().enumerate().take(players) {
        let side = r.side_of(p);
        let s = &scores[side];
        let seat_in_hand = -kanaszta_engine::classic::value_of(hand.hand(p));
        let kinds = [
            c.kinds[pile::PAIR_OPEN],
            c.kinds[pile::PAIR_FROZEN],
            c.kinds[pile::PAIR_UNMELDED],
            c.kinds[pile::NATURAL_WILD],
            c.kinds[pile::ONTO_MELD],
            c.kinds[pile::WILD_TOP],
            c.kinds[pile::BLACK_THREE],
        ];
        facts.push(ClassicHandFacts {
            seat: p as u8,
            swapped: ids.swapped,
            agent: agent(p),
            turns: hand.turns(),
            end,
            went_out: out_seat == Some(p as u8),
            won: winner == Some(side),
            raw: s.total,
            seat_in_hand,
            failed_yes_points: s.failed_yes,
            draws: c.draws,
            turned: c.turned,
            black_three_blocked: c.black_three_blocked,
            kinds,
            pile_taken_cards: c.pile_cards,
        });
        let Some(rows) = rows.as_mut() else {
            continue;
        };
        let who = names(p);
        let t = hand.table(side);
        let natural = t
            .melds
            .iter()
            .filter(|m| m.len() >= 7 && m.wild_count() == 0)
            .count();
        let mixed = t
            .melds
            .iter()
            .filter(|m| m.len() >= 7 && m.wild_count() > 0)
            .count();
        let wild = t.wild_canastas.iter().filter(|m| !m.is_empty()).count();
        rows.push(ClassicHandRow {
            series: ids.series,
            game: ids.game,
            deal: ids.deal,
            swapped: ids.swapped,
            mode: ids.mode.name().into(),
            hand: index,
            run_seed: ids.run_seed,
            deal_seed: ids.deal_seed,
            hand_seed: seed::match_hand(ids.deal_seed, index),
            seat: p as u8,
            side: side as u8,
            agent: who.agent,
            opponent: who.opponent,
            starter: p == starter,
            turns: hand.turns(),
            actions,
            end: end.name().into(),
            out_seat,
            went_out: out_seat == Some(p as u8),
            hand_winner: winner.map(|w| w as u8),
            won: winner == Some(side),
            raw: s.total,
            total_before: before[side],
            total_after: before[side] + s.total,
            red_threes: t.red_threes.len() as u8,
            red_three_points: s.red_threes,
            canastas_natural: natural as u8,
            canastas_mixed: mixed as u8,
            canastas_wild: wild as u8,
            canasta_points: s.canastas,
            going_out_points: s.going_out,
            melded: s.melds,
            in_hand: s.in_hand,
            seat_in_hand,
            failed_yes_points: s.failed_yes,
            rules: ids.rules.clone(),
            side_agents: who.side_agents,
            draws: c.draws,
            turned: c.turned,
            black_three_blocked: c.black_three_blocked,
            pickups: c.pickups(),
            pile_pair_open: kinds[0],
            pile_pair_frozen: kinds[1],
            pile_pair_unmelded: kinds[2],
            pile_natural_wild: kinds[3],
            pile_onto_meld: kinds[4],
            pile_wild_top: kinds[5],
            pile_black_three: kinds[6],
            pile_taken_cards: c.pile_cards,
            canasta_feeds: c.canasta_feeds,
        });
    }
    winner
}
