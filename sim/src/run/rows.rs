//! The rows of a finished decorated game: two `hands.csv` rows per hand
//! and, in matches mode, two `matches.csv` rows per match (the course of
//! the match: leads, deficits, comebacks, the tax).

use super::manifest::Mode;
use crate::rows::{HandRow, MatchRow, COMEBACK};
use crate::stats::{End, HandFacts, MatchFacts};
use kanaszta_engine::{GameState, HandEnd, HandScore, Match, Rules};

/// What names the rows of one game (`hand_rows`, `match_rows`).
pub(crate) struct Ids<'a> {
    pub(crate) series: u32,
    pub(crate) game: u64,
    pub(crate) deal: u64,
    pub(crate) swapped: bool,
    pub(crate) mode: Mode,
    pub(crate) run_seed: u64,
    pub(crate) deal_seed: u64,
    pub(crate) names: [String; 2],
    pub(crate) rules: &'a std::sync::Arc<[String]>,
}

pub(crate) fn unique_max(v: &[i32]) -> Option<u8> {
    let max = *v.iter().max()?;
    let mut it = v.iter().enumerate().filter(|(_, x)| **x == max);
    let first = it.next()?.0;
    it.next().is_none().then_some(first as u8)
}

/// `normal`, `from_hand`, `table_cleared`, `exhausted`, `stalled` or
/// `deadlocked`.
pub fn end_kind(end: Option<HandEnd>) -> (&'static str, Option<u8>) {
    let (end, out) = end_of(end);
    (end.name(), out)
}

/// How a hand ended, and who went out.
pub fn end_of(end: Option<HandEnd>) -> (End, Option<u8>) {
    match end {
        Some(HandEnd::WentOut {
            player,
            from_hand,
            cleared_table,
        }) => (
            if cleared_table {
                End::TableCleared
            } else if from_hand {
                End::FromHand
            } else {
                End::Normal
            },
            Some(player),
        ),
        Some(HandEnd::Exhausted) => (End::Exhausted, None),
        Some(HandEnd::Deadlocked) => (End::Deadlocked, None),
        Some(HandEnd::Stalled) | None => (End::Stalled, None),
    }
}

/// What the statistics take of a finished hand, seat by seat: the facts
/// of its two `hands.csv` rows ([`hand_rows`]), built without them.
pub(crate) fn hand_facts(
    ids: &Ids,
    state: &GameState,
    taxed: &[i32],
    winner: Option<u8>,
) -> [HandFacts; 2] {
    let (end, out_seat) = end_of(state.end());
    let scores = state.scores();
    std::array::from_fn(|p| {
        let s = &scores[p];
        let st = state.stats(p);
        HandFacts {
            deal: ids.deal,
            seat: p as u8,
            swapped: ids.swapped,
            starter: state.starter() == p,
            turns: state.turns(),
            end,
            went_out: out_seat == Some(p as u8),
            won: winner == Some(p as u8),
            tied: winner.is_none(),
            raw: s.total,
            taxed: taxed[p],
            opened_turn: st.opened_turn.map(turn_number),
            first_canasta_turn: st.first_canasta_turn.map(turn_number),
            canastas: s.canastas[..5].iter().map(|&c| u32::from(c)).sum(),
            red_threes: s.red_threes,
            twins: s.twins,
            heart_aces: s.heart_aces,
            pile_pickups: st.pile_pickups,
            free_pickups: st.free_pickups,
            cards_picked: st.cards_picked,
            frozen_turns: st.frozen_turns,
        }
    })
}

/// The two `hands.csv` rows of a finished hand.
#[allow(clippy::too_many_arguments)]
pub(crate) fn hand_rows(
    ids: &Ids,
    state: &GameState,
    hand: u32,
    hand_seed: u64,
    before: &[i32],
    taxed: &[i32],
    winner: Option<u8>,
    actions: u64,
) -> Vec<HandRow> {
    let (end, out_seat) = end_kind(state.end());
    let scores = state.scores();
    let taxed_winner = unique_max(taxed);
    let black_threes: Vec<i32> = (0..2)
        .map(|p| black_threes_in_hand(state, p, &scores[p]))
        .collect();
    (0..2)
        .map(|p| {
            let s = &scores[p];
            let st = state.stats(p);
            HandRow {
                series: ids.series,
                game: ids.game,
                deal: ids.deal,
                swapped: ids.swapped,
                mode: ids.mode.name().into(),
                hand,
                run_seed: ids.run_seed,
                deal_seed: ids.deal_seed,
                hand_seed,
                seat: p as u8,
                agent: ids.names[p].clone(),
                opponent: ids.names[1 - p].clone(),
                starter: state.starter() == p,
                turns: state.turns(),
                actions,
                end: end.into(),
                out_seat,
                went_out: out_seat == Some(p as u8),
                hand_winner: winner,
                won: winner == Some(p as u8),
                raw: s.total,
                taxed: taxed[p],
                total_before: before[p],
                total_after: before[p] + taxed[p],
                red_threes: s.red_threes,
                red_three_points: s.red_three_points,
                twins: s.twins,
                twin_points: s.twin_points,
                canastas_black_wild: s.canastas[0],
                canastas_black: s.canastas[1],
                canastas_red: s.canastas[2],
                canastas_red_wild: s.canastas[3],
                canastas_gold: s.canastas[4],
                canasta_points: s.canasta_points,
                heart_aces: s.heart_aces,
                heart_ace_points: s.heart_ace_points,
                going_out_points: s.going_out_points,
                from_hand_points: s.from_hand_points,
                cleared_table_points: s.cleared_table_points,
                base: s.base,
                melded: s.melded,
                in_hand: s.in_hand,
                card_value: s.card_value,
                opened_turn: st.opened_turn.map(turn_number),
                first_canasta_turn: st.first_canasta_turn.map(turn_number),
                pile_pickups: st.pile_pickups,
                free_pickups: st.free_pickups,
                cards_picked: st.cards_picked,
                frozen_turns: st.frozen_turns,
                rules: ids.rules.clone(),
                tax_divisor: Some(match ids.mode {
                    Mode::Hands => 1,
                    Mode::Matches => tax_divisor(state.rules(), before[p]),
                }),
                opponent_total_before: Some(before[1 - p]),
                lead_before: Some(before[p] - before[1 - p]),
                taxed_winner,
                won_taxed: Some(taxed_winner == Some(p as u8)),
                cards_in_hand: Some(s.in_hand - black_threes[p]),
                black_threes_in_hand: Some(black_threes[p]),
            }
        })
        .collect()
}

/// The number, counted from 1 as people count (I-24), of the turn in which
/// the engine recorded an event: the engine keeps the turns completed
/// before it. The last turn of a hand that ends at a discard is then
/// numbered `turns`.
pub fn turn_number(completed: u16) -> u16 {
    completed.saturating_add(1)
}

/// The divisor of the tax bracket of `total_before` (D-15, I-18): 1 when
/// the score is not divided (below the first threshold, or `tax=off`).
pub fn tax_divisor(rules: &Rules, total_before: i32) -> u32 {
    if rules.tax == kanaszta_engine::Switch::Off {
        1
    } else {
        rules.tax_schedule.divisor(total_before).max(1)
    }
}

/// The part of seat `p`'s `in_hand` (D-14) from black threes: −100 each
/// (I-16) when the cards in hand count, else 0.
pub fn black_threes_in_hand(state: &GameState, p: usize, s: &HandScore) -> i32 {
    if s.in_hand == 0 {
        0
    } else {
        -100 * state.hand(p).black_three_count() as i32
    }
}

/// The course of a match: leads, deficits, hand wins.
#[derive(Default)]
pub(crate) struct MatchTrack {
    first_starter: Option<u8>,
    leader: Option<u8>,
    lead_changes: u32,
    max_deficit: [i32; 2],
    hand_wins: [u32; 2],
    taxed_hand_wins: [u32; 2],
    raw_sum: [i64; 2],
    net_tax: [i64; 2],
}

impl MatchTrack {
    pub(crate) fn hand(
        &mut self,
        starter: u8,
        raw: &[i32],
        taxed: &[i32],
        totals: &[i32],
        winner: Option<u8>,
    ) {
        self.first_starter.get_or_insert(starter);
        if let Some(w) = winner {
            self.hand_wins[w as usize & 1] += 1;
        }
        if let Some(w) = unique_max(taxed) {
            self.taxed_hand_wins[w as usize & 1] += 1;
        }
        for p in 0..2 {
            self.raw_sum[p] += raw[p] as i64;
            self.net_tax[p] += raw[p] as i64 - taxed[p] as i64;
            self.max_deficit[p] = self.max_deficit[p].max(totals[1 - p] - totals[p]);
        }
        // A lead change: the strict leader differs from the last strict one.
        if let Some(l) = unique_max(totals) {
            if self.leader.is_some_and(|prev| prev != l) {
                self.lead_changes += 1;
            }
            self.leader = Some(l);
        }
    }
}

/// The match's result, a match cut short by the hand cap included.
fn match_result(m: &Match) -> kanaszta_engine::MatchResult {
    m.result()
        .cloned()
        .unwrap_or_else(|| kanaszta_engine::MatchResult {
            winner: None,
            hands: m.hands_played(),
            totals: m.totals().to_vec(),
            capped: true,
        })
}

/// What the statistics take of a finished match, seat by seat: the facts
/// of its two `matches.csv` rows ([`match_rows`]), built without them.
pub(crate) fn match_facts(ids: &Ids, m: &Match, t: &MatchTrack) -> [MatchFacts; 2] {
    let res = match_result(m);
    std::array::from_fn(|p| {
        let won = res.winner == Some(p as u8);
        MatchFacts {
            seat: p as u8,
            swapped: ids.swapped,
            hands: res.hands,
            won,
            drawn: res.winner.is_none(),
            total: res.totals[p],
            tax_paid: m.tax_paid()[p],
            lead_changes: t.lead_changes,
            max_deficit: t.max_deficit[p],
            comeback: won && t.max_deficit[p] >= COMEBACK,
        }
    })
}

pub(crate) fn match_rows(ids: &Ids, m: &Match, t: &MatchTrack) -> Vec<MatchRow> {
    let res = match_result(m);
    (0..2)
        .map(|p| {
            let won = res.winner == Some(p as u8);
            MatchRow {
                series: ids.series,
                game: ids.game,
                deal: ids.deal,
                swapped: ids.swapped,
                run_seed: ids.run_seed,
                deal_seed: ids.deal_seed,
                seat: p as u8,
                agent: ids.names[p].clone(),
                opponent: ids.names[1 - p].clone(),
                first_starter: t.first_starter == Some(p as u8),
                hands: res.hands,
                capped: res.capped,
                winner: res.winner,
                won,
                total: res.totals[p],
                opponent_total: res.totals[1 - p],
                tax_paid: m.tax_paid()[p],
                raw_sum: t.raw_sum[p],
                hand_wins: t.hand_wins[p],
                lead_changes: t.lead_changes,
                max_deficit: t.max_deficit[p],
                comeback: won && t.max_deficit[p] >= COMEBACK,
                rules: ids.rules.clone(),
                net_tax: Some(t.net_tax[p]),
                taxed_hand_wins: Some(t.taxed_hand_wins[p]),
            }
        })
        .collect()
}
