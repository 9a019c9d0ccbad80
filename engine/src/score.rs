//! Scoring a hand (D-14): a per-player breakdown of every base item and the
//! card value.

use crate::card_set::CardSet;
use crate::group::CanastaKind;
use crate::rules::Rules;
use crate::table::Table;
use serde::{Deserialize, Serialize};

/// One player's hand score, item by item (D-14).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandScore {
    /// Red threes on the table.
    pub red_threes: u8,
    /// 100 each for 1–3, 800 for all 4.
    pub red_three_points: i32,
    /// Twins.
    pub twins: u16,
    /// 100 each.
    pub twin_points: i32,
    /// Canastas by kind: black wild, black, red, red wild, gold ([`CanastaKind::ALL`] order).
    pub canastas: [u8; 5],
    /// Sum of canasta bonuses.
    pub canasta_points: i32,
    /// Separately laid ♥A (2003-02).
    pub heart_aces: u8,
    /// 500 each.
    pub heart_ace_points: i32,
    /// This player went out.
    pub went_out: bool,
    /// 100 for going out.
    pub going_out_points: i32,
    /// Went out from hand (D-14.1).
    pub from_hand: bool,
    /// +100.
    pub from_hand_points: i32,
    /// Cleared the table (D-14.2).
    pub cleared_table: bool,
    /// +100.
    pub cleared_table_points: i32,
    /// Sum of the base items (never negative).
    pub base: i32,
    /// Card value of melded cards (plus).
    pub melded: i32,
    /// Card value of cards left in hand (zero or negative).
    pub in_hand: i32,
    /// `melded + in_hand`.
    pub card_value: i32,
    /// `base + card_value`: the raw hand score.
    pub total: i32,
}

/// How a player's hand ended, for scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoingOut {
    /// The player went out (D-13).
    pub went_out: bool,
    /// From hand (D-14.1).
    pub from_hand: bool,
    /// Cleared the table (D-14.2).
    pub cleared_table: bool,
}

impl GoingOut {
    /// Did not go out.
    pub const NO: GoingOut = GoingOut {
        went_out: false,
        from_hand: false,
        cleared_table: false,
    };
}

/// Red-three base points (D-14): 100 each for 1–3, 800 for all four.
pub const fn red_three_points(n: u32) -> i32 {
    if n >= 4 {
        800
    } else {
        100 * n as i32
    }
}

/// Scores a table and the cards left in hand (D-14). `hand_counts`: whether
/// cards in hand count minus (they do when somebody went out; I-30 for
/// exhausted and stalled hands).
pub fn score_table(
    table: &Table,
    hand: CardSet,
    out: GoingOut,
    hand_counts: bool,
    rules: &Rules,
) -> HandScore {
    let mut s = HandScore {
        red_threes: table.red_threes.len() as u8,
        ..HandScore::default()
    };
    s.red_three_points = red_three_points(table.red_threes.len());
    s.twins = table.twins;
    s.twin_points = 100 * table.twins as i32;
    for (i, k) in CanastaKind::ALL.iter().enumerate() {
        let n = table.canastas_of(*k);
        s.canastas[i] = n as u8;
        s.canasta_points += n as i32 * k.bonus();
    }
    if rules.heart_aces() {
        s.heart_aces = table.heart_aces;
        s.heart_ace_points = 500 * table.heart_aces as i32;
    }
    s.went_out = out.went_out;
    s.going_out_points = if out.went_out { 100 } else { 0 };
    s.from_hand = out.went_out && out.from_hand;
    s.from_hand_points = if s.from_hand { 100 } else { 0 };
    s.cleared_table = s.from_hand && out.cleared_table;
    s.cleared_table_points = if s.cleared_table { 100 } else { 0 };
    s.base = s.red_three_points
        + s.twin_points
        + s.canasta_points
        + s.heart_ace_points
        + s.going_out_points
        + s.from_hand_points
        + s.cleared_table_points;
    s.melded = table.melded_points();
    s.in_hand = if hand_counts { -hand.points() } else { 0 };
    s.card_value = s.melded + s.in_hand;
    s.total = s.base + s.card_value;
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{cs, table};

    /// D-14 worked example: red canasta of eights, three aces laid, two jacks
    /// in hand: card value 70 + 60 − 20 = 110.
    #[test]
    fn d14_example_card_value_110() {
        let t = table(&["8C 8C 8D 8D 8H 8H 8S", "AC AD AS"]);
        let s = score_table(&t, cs("JC JD"), GoingOut::NO, true, &Rules::default());
        assert_eq!(s.melded, 130);
        assert_eq!(s.in_hand, -20);
        assert_eq!(s.card_value, 110);
    }

    /// D-14 worked example: black canasta of 4 jacks + 3 twos, red canasta of
    /// fives, one red three, one twin, an ace in hand: base 900, card value
    /// 40 + 60 + 35 − 20 = 115, total 1,015.
    #[test]
    fn d14_example_total_1015() {
        let mut t = table(&["JC JD JH JS 2C 2D 2H", "5C 5C 5D 5D 5H 5H 5S"]);
        t.red_threes.insert("3H".parse().unwrap());
        t.twins = 1;
        let s = score_table(&t, cs("AS"), GoingOut::NO, true, &Rules::default());
        assert_eq!(s.base, 900);
        assert_eq!(s.card_value, 115);
        assert_eq!(s.total, 1015);
    }

    /// D-7, D-14: every twin is 100, however many a very long hand (up to
    /// the turn cap, I-5) brings; the count does not wrap at 256.
    #[test]
    fn d7_twins_past_255_score_100_each() {
        let mut t = table(&["5C 5C 5D"]);
        t.twins = 300;
        let s = score_table(&t, CardSet::EMPTY, GoingOut::NO, true, &Rules::default());
        assert_eq!(s.twins, 300);
        assert_eq!(s.twin_points, 30_000);
    }

    /// D-14 worked example, I-15: went out from hand with a black wild
    /// canasta, four red threes, three twins: base 800 + 300 + 200 + 100 + 100
    /// = 1,500 (not the source's 2,300).
    #[test]
    fn d14_example_from_hand_1500_i15() {
        let mut t = table(&["2C 2D JK JK JK JK JK"]);
        t.red_threes = cs("3H 3H 3D 3D");
        t.twins = 3;
        let out = GoingOut {
            went_out: true,
            from_hand: true,
            cleared_table: false,
        };
        let s = score_table(&t, CardSet::EMPTY, out, true, &Rules::default());
        assert_eq!(s.canastas[0], 1, "a black wild canasta");
        assert_eq!(s.base, 1500);
        assert_ne!(s.base, 2300);
    }

    /// D-14.2: clearing the table adds a third 100 only when from hand.
    #[test]
    fn d14_2_clearing_the_table() {
        let t = table(&["KC KC KD KD KH KH KS"]);
        let out = GoingOut {
            went_out: true,
            from_hand: true,
            cleared_table: true,
        };
        let s = score_table(&t, CardSet::EMPTY, out, true, &Rules::default());
        assert_eq!(
            s.going_out_points + s.from_hand_points + s.cleared_table_points,
            300
        );
        let not_from_hand = GoingOut {
            from_hand: false,
            ..out
        };
        let s = score_table(&t, CardSet::EMPTY, not_from_hand, true, &Rules::default());
        assert_eq!(s.cleared_table_points, 0);
        assert_eq!(s.going_out_points, 100);
    }

    /// D-14: red threes 100 each, 800 for four; heart aces 500 in 2003-02, 0
    /// card value; I-16 black three −100 in hand.
    #[test]
    fn d14_items() {
        assert_eq!(red_three_points(3), 300);
        assert_eq!(red_three_points(4), 800);
        let mut t = Table::default();
        t.heart_aces = 1;
        let s = score_table(&t, cs("3S"), GoingOut::NO, true, &Rules::default());
        assert_eq!(s.heart_ace_points, 500);
        assert_eq!(s.melded, 0);
        assert_eq!(s.in_hand, -100, "I-16: a black three costs 100");
        let s = score_table(&t, cs("3S"), GoingOut::NO, false, &Rules::default());
        assert_eq!(s.in_hand, 0, "I-30 ignore");
    }
}
