//! I-30, I-31 and D-16 on scripted hands, and constructed positions.

use super::*;

// ----- I-30, I-31, D-16 on scripted hands --------------------------------------

/// I-30: a stalled hand (I-5) is scored like any other: cards left in hand
/// count minus under `stalled_hand_cards = minus` (the default), nothing
/// under `ignore`; nobody gets a going-out bonus.
#[test]
fn i30_stalled_hand_cards_minus_and_ignore() {
    for (setting, minus) in [
        ("stalled_hand_cards=minus", true),
        ("stalled_hand_cards=ignore", false),
    ] {
        let g = stalled_hand(&[setting], [1, 0]);
        for p in 0..2 {
            let sc = g.score_of(p);
            let in_hand = g.hand(p).points();
            assert!(in_hand > 0, "player {p} holds cards");
            assert!(!sc.went_out && sc.going_out_points == 0 && sc.from_hand_points == 0);
            assert_eq!(sc.in_hand, if minus { -in_hand } else { 0 }, "{setting}");
            assert_eq!(sc.red_three_points, if p == 0 { 100 } else { 0 });
            assert_eq!(sc.total, sc.red_three_points + sc.in_hand, "{setting}");
        }
    }
    assert_eq!(
        Rules::default().stalled_hand_cards,
        rules(&["stalled_hand_cards=minus"]).stalled_hand_cards
    );
}

/// I-31: a hand whose two best raw scores tie has no winner; a match ends
/// after `max_hands` hands (default 200) with the highest total winning, and
/// a tie then is a drawn match.
#[test]
fn i31_hand_ties_and_max_hands() {
    let tie = stalled_hand(&["stalled_hand_cards=ignore"], [0, 0]);
    let p0 = stalled_hand(&["stalled_hand_cards=ignore"], [1, 0]);
    assert_eq!(Rules::default().max_hands, 200);

    // Default cap: two tied hands leave the match going.
    let mut m = Match::new(Rules::default(), 1);
    let rec = m.record(&tie);
    assert_eq!(rec.raw, vec![0, 0]);
    assert_eq!(rec.winner, None, "I-31: tied hand, no winner");
    m.record(&tie);
    assert!(!m.is_over());

    // max_hands = 2: the second hand ends the match, drawn on a tie.
    let mut m = Match::new(rules(&["max_hands=2"]), 1);
    m.record(&tie);
    assert!(!m.is_over(), "one hand of two");
    m.record(&tie);
    let res = m.result().expect("capped after two hands");
    assert!(res.capped);
    assert_eq!(res.winner, None, "a tie at the cap is a drawn match");
    assert_eq!(res.hands, 2);

    // max_hands = 2 with a leader: the highest total wins.
    let mut m = Match::new(rules(&["max_hands=2"]), 1);
    let rec = m.record(&p0);
    assert_eq!(rec.winner, Some(0));
    m.record(&tie);
    let res = m.result().expect("capped");
    assert!(res.capped);
    assert_eq!(res.winner, Some(0));
    assert_eq!(res.totals, vec![100, 0]);
}

/// D-16.2, I-20: the match is won by a running total strictly above the
/// target (default 10,000; switch `target`), checked at the end of a hand;
/// an exact tie for the lead plays another hand.
#[test]
fn d16_2_i20_target_strictly_above_and_ties() {
    assert_eq!(Rules::default().target, 10_000);
    let tie = stalled_hand(&["stalled_hand_cards=ignore"], [0, 0]);
    let p0 = stalled_hand(&["stalled_hand_cards=ignore"], [1, 0]);
    let p1 = stalled_hand(&["stalled_hand_cards=ignore"], [0, 1]);

    // target = 100: reaching exactly 100 is not passing it.
    let mut m = Match::new(rules(&["target=100"]), 1);
    m.record(&p0);
    assert_eq!(m.totals(), &[100, 0]);
    assert!(!m.is_over(), "exactly the target does not win");
    m.record(&p0);
    let res = m.result().expect("200 > 100");
    assert_eq!(res.winner, Some(0));
    assert!(!res.capped);

    // Default target: 200 is far from 10,000.
    let mut m = Match::new(Rules::default(), 1);
    m.record(&p0);
    m.record(&p0);
    assert!(!m.is_over());

    // target = -1: both pass it with 0 — an exact tie for the lead plays on;
    // then both above it, the higher total wins.
    let mut m = Match::new(rules(&["target=-1"]), 1);
    m.record(&tie);
    assert!(!m.is_over(), "a tie for the lead plays another hand");
    m.record(&p1);
    assert_eq!(m.result().unwrap().winner, Some(1));
    assert_eq!(m.result().unwrap().totals, vec![0, 100]);
}

// ----- constructed positions ---------------------------------------------------
