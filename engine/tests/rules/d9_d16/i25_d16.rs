//! I-25 … I-29, and D-15 and D-16 through matches.

use super::*;

// ----- I-25 … I-29 ------------------------------------------------------------------------

/// I-25: a meld phase is judged on its final state at the discard; older
/// groups stay; a group laid this turn taken back returns wilds moved into
/// it to where they came from; in a pickup turn, what was laid before the
/// rest of the pile is committed.
#[test]
fn i25_meld_phase_judged_at_the_discard() {
    // A wild moved into a new group goes back to its old group on takeback.
    let mut g = P::meld()
        .table(0, &["8C 8D 8S JK", "KC KD KH KS"])
        .hand(0, "QC QD 5C 6D 7H")
        .state();
    act(&mut g, "unwild 0 JK; lay QC QD JK");
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8S"));
    act(&mut g, "takeback 2");
    assert_eq!(
        group(&g, 0, 0),
        cs("8C 8D 8S JK"),
        "the joker returned to its group"
    );
    assert_eq!(g.hand(0), cs("QC QD 5C 6D 7H"), "not to the hand");
    assert_eq!(refused(&mut g, "takeback 0"), "D-12.2");
    act(&mut g, "discard 5C");

    // The opening is judged at the discard, whatever happened before.
    let mut g = P::meld().hand(0, "KC KD KH KS QC QD QH 5C 6D").state();
    act(&mut g, "lay KC KD KH");
    assert_eq!(refused(&mut g, "discard 5C"), "D-8.2");
    act(&mut g, "extend 0 KS; lay QC QD QH; discard 5C");
    assert!(g.table(0).opened);

    // A pickup turn: the group laid before the rest is committed.
    let mut g = P::draw()
        .table(0, &["5C 5D 5H"])
        .pile("4C 9C KS", false)
        .hand(0, "KC KD 9H QC")
        .state();
    act(&mut g, "take; lay KC KD KS");
    let mut before_rest = g.clone();
    act(&mut before_rest, "takeback 1");
    assert_eq!(
        refused(&mut before_rest, "rest"),
        "I-8",
        "the top card must be laid"
    );
    act(&mut g, "rest");
    assert_eq!(
        refused(&mut g, "takeback 1"),
        "D-12.2",
        "committed by the rest"
    );
    assert_eq!(
        refused(&mut g, "reset"),
        "I-25",
        "nothing to undo after the rest"
    );
    act(&mut g, "discard 9H");
    assert_eq!(group(&g, 0, 1), cs("KC KD KS"));
}

/// I-26: if what is laid before the rest of the pile falls short of the
/// opening minimum, the turn is legal only if the player goes out in it.
#[test]
fn i26_short_pickup_opening_must_go_out() {
    let mut g = P::draw()
        .pile("4C 4C 4D 4D 4H 4H 4S 9C 9D KS", false)
        .hand(0, "KC KD 9H QC")
        .state();
    act(&mut g, "take; lay KC KD KS; rest");
    assert!(g.must_go_out(), "30 < 50");
    assert_eq!(refused(&mut g, "discard QC"), "I-26");
    act(&mut g, "lay 4C 4C 4D 4D 4H 4H 4S; lay 9C 9D 9H; discard QC");
    assert!(matches!(g.end(), Some(HandEnd::WentOut { player: 0, .. })));

    // No way out: the pickup itself is refused.
    let mut g = P::draw()
        .pile("4C 4D 9C KS", false)
        .hand(0, "KC KD 9H QC")
        .state();
    assert_eq!(refused(&mut g, "take"), "I-9");

    // Reaching the minimum before the rest: an ordinary turn.
    let mut g = P::draw()
        .pile("4C 4D 9C KS", false)
        .hand(0, "KC KD KH JK 9H QC")
        .state();
    act(&mut g, "take; lay KC KD KH KS JK; rest");
    assert!(!g.must_go_out());
    act(&mut g, "discard 4C");
    assert!(!g.is_terminal() && g.table(0).opened);
}

/// I-27: the pickup precondition counts the hand only; under
/// `groups_per_rank = one` the top card may then join an existing group even
/// when the two hand cards could not join it too.
#[test]
fn i27_pickup_precondition_counts_the_hand_only() {
    let mut g = P::draw()
        .table(0, &["8C 8D 8S 8H JK JK"])
        .hand(0, "8C 2D QC QD QH")
        .pile("5C 8D", false)
        .state();
    act(&mut g, "take; extend 0 8D; rest");
    assert_eq!(
        g.table(0).group(0).unwrap().canasta_kind(),
        Some(CanastaKind::Black)
    );
    assert_eq!(
        refused(&mut g, "extend 0 8C"),
        "D-11.4",
        "the hand cards could not join"
    );
    act(&mut g, "discard 5C");

    // The group on the table does not count towards the precondition.
    let mut g = P::draw()
        .table(0, &["8C 8D 8S 8H JK JK"])
        .hand(0, "8C QC QD QH")
        .pile("5C 8D", false)
        .state();
    assert_eq!(refused(&mut g, "take"), "D-6.2");
}

/// I-28: a group of wilds only stays wilds only; a wild leaves a black canasta
/// only against a natural, never another wild; under `groups_per_rank =
/// many`, groups of one rank never merge and naturals never move.
#[test]
fn i28_wild_groups_stay_wild_and_naturals_stay_put() {
    let mut g = P::meld()
        .table(0, &["2C JK JK", "8C 8D 8S 8H 8C 2H JK"])
        .hand(0, "8D 9C 9D 2D JK")
        .state();
    assert_eq!(refused(&mut g, "extend 0 9C"), "I-28");
    assert_eq!(refused(&mut g, "swap 1 JK 2H"), "I-13", "a wild for a wild");
    assert_eq!(refused(&mut g, "swap 1 2D JK"), "I-13");
    act(&mut g, "extend 0 2D; swap 1 8D JK; extend 0 JK; discard 9C");
    assert_eq!(group(&g, 0, 0), cs("2C 2D JK JK JK"));

    let mut g = P::meld()
        .rules(&["groups_per_rank=many"])
        .table(0, &["8C 8D 8S", "8C 8D 8H JK"])
        .hand(0, "8S 9C 9D 5C")
        .state();
    for m in legal(&g) {
        let mut t = g.clone();
        t.apply(m).unwrap();
        let n0 = t.table(0).group(0).unwrap().naturals();
        let n1 = t.table(0).group(1).unwrap().naturals();
        assert!(n0 >= 3 && n1 >= 3, "`{m}` moved naturals");
        assert!(t.table(0).len() >= 2, "`{m}` merged groups");
    }
    assert_eq!(refused(&mut g, "unwild 0 8C"), "D-11.2");
    act(&mut g, "extend 0 8S; discard 5C");
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8S 8S"));
    assert_eq!(group(&g, 0, 1), cs("8C 8D 8H JK"));
}

/// I-29: with `opening = table` and a minimum of 0, a separately laid ♥A may
/// be the whole opening (with a minimum of 50 it may not).
#[test]
fn i29_heart_ace_alone_opens_at_minimum_zero() {
    let p = P::meld().rules(&["opening=table"]).hand(0, "AH 5C 6D");
    let mut g = p.clone().totals([-100, 0]).state();
    assert_eq!(g.opening_minimum(0), 0);
    act(&mut g, "heart; discard 5C");
    assert!(g.table(0).opened);
    assert_eq!(g.table(0).heart_aces, 1);

    let mut g = p.totals([0, 0]).state();
    assert_eq!(g.opening_minimum(0), 50);
    let mut laid = g.clone();
    laid.apply_listed(a("heart")).unwrap();
    assert_eq!(refused(&mut laid, "discard 5C"), "D-8.2");
    // So it is not listed: the turn could not be ended without taking the
    // ♥A back (I-9).
    assert_eq!(refused(&mut g, "heart"), "I-9");
}

/// I-29: a discard that goes out can earn a twin.
#[test]
fn i29_going_out_discard_earns_a_twin() {
    let p = P::meld()
        .table(0, &["KC KC KD KD KH KH KS", "8C 8D 8S"])
        .hand(0, "8H 9C");
    let mut g = p.clone().pile("5C 9C", true).state();
    act(&mut g, "extend 1 8H; discard 9C");
    assert!(g.is_terminal());
    assert_eq!(g.table(0).twins, 1);
    assert_eq!(g.score_of(0).twin_points, 100);

    // The 9C on top is not the previous player's fresh discard: no twin.
    let mut g = p.pile("5C 9C", false).state();
    act(&mut g, "extend 1 8H; discard 9C");
    assert!(g.is_terminal());
    assert_eq!(g.table(0).twins, 0);
}

/// I-29: clearing the table needs a penalized pickup: going out from hand
/// after a free pickup from a big pile does not clear it.
#[test]
fn i29_free_pickup_does_not_clear_the_table() {
    let mut g = P::draw()
        .free_pending(0, true)
        .pile("4C 4C 4D 4D 4H 4H 4S 9C 9D 9H KS", true)
        .hand(0, "KC KC KD KD KH KH 9S")
        .state();
    assert!(g.free_pickup_offered());
    act(&mut g, "free; lay KC KC KD KD KH KH KS; discard 9S");
    assert_eq!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: true,
            cleared_table: false
        })
    );
    assert_eq!(g.score_of(0).cleared_table_points, 0);
}

// ----- D-15, D-16 through Match::record ------------------------------------------------

/// D-15, D-15.1 – D-15.3: the hand score is taxed by the running total of
/// the previous hands (below 5,000 unchanged, then halved, quartered, a
/// tenth) with the text's roundings, then added — through `Match::record`.
#[test]
fn d15_taxed_totals_through_match_record() {
    let big = hand_2375();
    let small = hand_545();
    let mut m = Match::new(Rules::default(), 1);
    let (taxed, totals) = play(
        &mut m,
        &[&big, &big, &small, &small, &big, &big, &big, &big, &big],
    );
    assert_eq!(
        taxed,
        vec![
            2375, // total 0: unchanged
            2375, // 2,375
            545,  // 4,750: still below 5,000
            275,  // 5,295: halved, D-15.1: 545 → 550 → 275
            1190, // 5,570: 2,375 → 2,380 → 1,190
            1190, // 6,760
            595,  // 7,950: quartered, D-15.2: 2,375 → 2,380 → 1,190 → 595
            595,  // 8,545
            240,  // 9,140: a tenth, D-15.3: 2,375 → 237 → 240
        ]
    );
    assert_eq!(
        totals,
        vec![2375, 4750, 5295, 5570, 6760, 7950, 8545, 9140, 9380]
    );
    // Player 1's totals stay low: his scores are never taxed.
    assert_eq!(m.totals()[1], -210 * 7 + 500 * 2);
    assert!(!m.is_over());
    assert_eq!(
        m.tax_paid()[0],
        (7 * 2375 + 2 * 545 - taxed.iter().sum::<i32>()) as i64
    );
}

/// D-16.1, I-19: the hand is won by the player with more points — the raw,
/// untaxed hand score; the record keeps the taxed one too.
#[test]
fn d16_1_i19_hand_won_on_raw_score() {
    let big = hand_2375();
    let small = hand_545();
    let mut m = Match::new(Rules::default(), 1);
    assert_eq!(m.record(&big).winner, Some(0));
    assert_eq!(m.record(&hand_minus_210()).winner, Some(1));
    m.record(&big);
    m.record(&big);
    assert!(m.totals()[0] >= 5000);
    let rec = m.record(&small);
    assert_eq!(rec.raw, vec![545, 500]);
    assert_eq!(rec.taxed, vec![275, 500], "player 0 is taxed, player 1 not");
    assert_eq!(
        rec.winner,
        Some(0),
        "I-19: 545 beats 500 although 275 < 500"
    );
}

/// I-17: negative hand scores are not taxed under `tax_negative = exempt`
/// (default); under `apply` the same rounding on the absolute value.
#[test]
fn i17_negative_scores_exempt_or_taxed() {
    let big = hand_2375();
    let neg = hand_minus_210();
    for (setting, expected) in [("tax_negative=exempt", -210), ("tax_negative=apply", -55)] {
        let mut m = Match::new(rules(&[setting]), 1);
        play(&mut m, &[&big, &big, &big]);
        assert_eq!(m.totals()[0], 7125);
        let rec = m.record(&neg);
        assert_eq!(rec.raw[0], -210);
        assert_eq!(rec.taxed[0], expected, "{setting}: 210 → 105 → 110 → 55");
        assert_eq!(m.totals()[0], 7125 + expected);
    }
    assert_eq!(
        Rules::default().tax_negative,
        rules(&["tax_negative=exempt"]).tax_negative
    );
}

/// I-18: `tax = off` leaves every score unchanged; a custom schedule
/// (thresholds and divisors) replaces D-15's.
#[test]
fn i18_tax_off_and_custom_schedule() {
    let big = hand_2375();
    let mut m = Match::new(rules(&["tax=off"]), 1);
    let (taxed, totals) = play(&mut m, &[&big, &big, &big, &big]);
    assert_eq!(taxed, vec![2375; 4]);
    assert_eq!(totals, vec![2375, 4750, 7125, 9500]);

    let mut m = Match::new(rules(&["tax=on"]), 1);
    let (taxed, _) = play(&mut m, &[&big, &big, &big, &big]);
    assert_eq!(taxed, vec![2375, 2375, 2375, 595]);

    let mut m = Match::new(rules(&["tax_schedule=2000:3"]), 1);
    let (taxed, totals) = play(&mut m, &[&big, &big, &big]);
    assert_eq!(taxed, vec![2375, 792, 792], "2,375 / 3 = 791.67 → 792");
    assert_eq!(totals, vec![2375, 3167, 3959]);
}

/// I-23: `tax_rounding = shortcut` (default, D-15.1 – D-15.3) against
/// `nearest` (the true quotient rounded to the nearest point, halves up).
#[test]
fn i23_tax_rounding_shortcut_and_nearest() {
    let big = hand_2375();
    let small = hand_545();
    let seq = [&big, &big, &small, &small, &big, &big, &big, &big, &big];
    let mut m = Match::new(rules(&["tax_rounding=shortcut"]), 1);
    let (shortcut, _) = play(&mut m, &seq);
    assert_eq!(
        shortcut,
        vec![2375, 2375, 545, 275, 1190, 1190, 595, 595, 240]
    );
    let mut m = Match::new(rules(&["tax_rounding=nearest"]), 1);
    let (nearest, totals) = play(&mut m, &seq);
    assert_eq!(
        nearest,
        vec![2375, 2375, 545, 273, 1188, 1188, 594, 594, 238],
        "272.5 → 273, 1,187.5 → 1,188, 593.75 → 594, 237.5 → 238"
    );
    assert_eq!(totals[8], 4750 + 545 + 273 + 2 * 1188 + 2 * 594 + 238);
    assert_eq!(
        Rules::default().tax_rounding,
        rules(&["tax_rounding=shortcut"]).tax_rounding
    );
}

/// D-16.2: with the default target the first total strictly above 10,000
/// wins, checked when a hand is recorded.
#[test]
fn d16_2_match_won_above_10000() {
    let big = hand_2375();
    let mut m = Match::new(rules(&["tax=off"]), 1);
    play(&mut m, &[&big, &big, &big, &big]);
    assert_eq!(m.totals()[0], 9500);
    assert!(!m.is_over());
    m.record(&big);
    let res = m.result().expect("11,875 > 10,000");
    assert_eq!(res.winner, Some(0));
    assert_eq!(res.hands, 5);
    assert!(!res.capped);
}

/// D-14: the first two worked examples, scored at the end of a real hand in
/// which the other player goes out: a red canasta of eights, three aces laid
/// and two jacks in hand make a card value of 110; a black canasta of 4
/// jacks + 3 twos, a red canasta of fives, one red three, one twin and an ace
/// in hand make 1,015.
#[test]
fn d14_worked_examples_scored_in_play() {
    let mut g = P::meld()
        .mover(1)
        .table(0, &["8C 8C 8D 8D 8H 8H 8S", "AC AD AS"])
        .hand(0, "JC JD")
        .table(1, &["KC KC KD KD KH KH KS"])
        .hand(1, "9C")
        .state();
    act(&mut g, "discard 9C");
    let s = g.score_of(0);
    assert_eq!((s.melded, s.in_hand, s.card_value), (130, -20, 110));
    assert_eq!(s.base, 400, "the red canasta; no going out");
    assert_eq!(s.total, 510);

    let mut g = P::meld()
        .mover(1)
        .table(0, &["JC JD JH JS 2C 2D 2H", "5C 5C 5D 5D 5H 5H 5S"])
        .red_threes(0, "3H")
        .twins(0, 1)
        .hand(0, "AS")
        .table(1, &["KC KC KD KD KH KH KS"])
        .hand(1, "9C")
        .state();
    act(&mut g, "discard 9C");
    let s = g.score_of(0);
    assert_eq!(s.base, 900);
    assert_eq!(s.card_value, 40 + 60 + 35 - 20);
    assert_eq!(s.total, 1015);
    assert_eq!(g.score_of(1).total, 400 + 100 + 70);
}

/// I-30: an exhausted hand (I-4: stock and pile empty when a card must be
/// drawn) is scored like any other, without a going-out bonus: cards in hand
/// count minus under `stalled_hand_cards = minus`, nothing under `ignore`.
#[test]
fn i30_exhausted_hand_cards_minus_and_ignore() {
    // Every card of the pack is on the tables or in the hands.
    let golds: Vec<String> = "4 5 6 7 8 9 T J Q K A"
        .split(' ')
        .map(|r| {
            ["C", "C", "D", "D", "H", "H", "S", "S"]
                .iter()
                .map(|s| format!("{r}{s}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let mut groups: Vec<&str> = golds.iter().map(String::as_str).collect();
    groups.push("2C 2C 2D 2D 2H 2H 2S");
    groups.push("JK JK JK JK JK JK JK");
    for (setting, minus) in [
        ("stalled_hand_cards=minus", true),
        ("stalled_hand_cards=ignore", false),
    ] {
        let mut g = P::draw()
            .rules(&[setting])
            .table(0, &groups)
            .red_threes(0, "3H 3H 3D 3D")
            .hand(0, "3S")
            .hand(1, "2S JK 3S 3C 3C")
            .stock("")
            .state();
        assert!(g.stock().is_empty() && g.pile().is_empty());
        act(&mut g, "draw");
        assert_eq!(g.end(), Some(HandEnd::Exhausted));
        let (s0, s1) = (g.score_of(0), g.score_of(1));
        assert!(!s0.went_out && s0.going_out_points == 0);
        assert_eq!(s0.in_hand, if minus { -100 } else { 0 }, "{setting}");
        assert_eq!(s1.in_hand, if minus { -370 } else { 0 }, "{setting}");
        assert_eq!(s1.total, s1.in_hand);
        assert_eq!(s0.canastas, [0, 0, 0, 2, 11], "two red wild, eleven gold");
    }
}
