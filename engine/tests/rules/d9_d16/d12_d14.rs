//! D-12 … D-14: what is forbidden, going out, scoring a hand.

use super::*;

// ----- D-12 Forbidden ----------------------------------------------------------------

/// D-12.1: a group is never split into parts that each hold naturals, under
/// either `groups_per_rank` setting: no action takes naturals out of a group.
#[test]
fn d12_1_no_splitting() {
    for (setting, why) in [
        ("groups_per_rank=one", "I-12"),
        ("groups_per_rank=many", "D-11.1"),
    ] {
        let mut g = P::meld()
            .rules(&[setting])
            .table(0, &["AC AC AD AD AH AS"])
            .hand(0, "KC KD KH 5C 6D")
            .state();
        // A second group of aces would have to come from the hand.
        assert_eq!(refused(&mut g, "lay AC AD AS"), why, "{setting}");
        assert_eq!(refused(&mut g, "unwild 0 AC"), "D-11.2", "{setting}");
        let moves = legal(&g);
        assert!(moves.len() > 3);
        for m in moves {
            let mut t = g.clone();
            t.apply(m).unwrap();
            let aces = t.table(0).group(0).unwrap();
            assert_eq!(aces.naturals(), 6, "`{m}` under {setting}");
        }
        act(&mut g, "lay KC KD KH; discard 5C");
    }
}

/// D-12.2: melded cards never return to the hand (except D-11.5) and are
/// never discarded.
#[test]
fn d12_2_melded_cards_stay() {
    let mut g = P::meld()
        .table(0, &["8C 8D 8S"])
        .hand(0, "KC KD KH 5C 6D")
        .state();
    assert_eq!(refused(&mut g, "takeback 0"), "D-12.2");
    assert_eq!(refused(&mut g, "discard 8S"), "D-12.2");
    act(&mut g, "lay KC KD KH; takeback 1; discard 5C");
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8S"));
}

/// D-12.3: a ♥A laid separately never joins a group of aces, and a ♥A in a
/// group of aces never leaves it to lie separately.
#[test]
fn d12_3_heart_ace_never_moves() {
    let mut g = P::meld()
        .table(0, &["AC AD AS"])
        .heart_aces(0, 1)
        .hand(0, "KC KD 5C")
        .state();
    assert_eq!(refused(&mut g, "extend 0 AH"), "D-12.3");
    act(&mut g, "discard 5C");
    assert_eq!(g.table(0).heart_aces, 1);

    let mut g = P::meld()
        .table(0, &["AH AD AS"])
        .hand(0, "KC KD 5C")
        .state();
    assert_eq!(refused(&mut g, "heart"), "D-12.3");
    assert_eq!(refused(&mut g, "unwild 0 AH"), "D-11.2");
    // A ♥A from the hand may go either way.
    let mut g = P::meld()
        .table(0, &["AC AD AS"])
        .hand(0, "AH AH 5C 6D")
        .state();
    act(&mut g, "extend 0 AH; heart; discard 5C");
    assert_eq!(g.table(0).heart_aces, 1);
    assert_eq!(group(&g, 0, 0), cs("AC AD AH AS"));
}

// ----- D-13 Going out -----------------------------------------------------------------

/// D-13.1: a player goes out by discarding his last card, with a canasta; he
/// cannot go out by melding every card (no discard is then possible).
#[test]
fn d13_1_going_out_needs_canasta_and_discard() {
    let mut g = P::meld()
        .table(0, &["KC KC KD KD KH KH KS"])
        .hand(0, "8C 8D 8S 8H")
        .hand(1, "5C 6D")
        .state();
    // Melding every card leaves nothing to discard: refused (I-9), and
    // were it made, no discard could follow.
    assert_eq!(refused(&mut g, "lay 8C 8D 8S 8H"), "I-9");
    let mut all = g.clone();
    all.apply_listed(a("lay 8C 8D 8S 8H")).unwrap();
    assert!(all.hand(0).is_empty());
    assert_eq!(refused(&mut all, "discard 8H"), "D-12.2", "8H is melded");
    act(&mut g, "lay 8C 8D 8S; discard 8H");
    assert!(g.is_terminal());
    assert_eq!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: false,
            cleared_table: false
        })
    );

    let mut g = P::meld()
        .table(0, &["KC KD KH"])
        .hand(0, "8C 8D 8S 8H")
        .state();
    let mut made = g.clone();
    made.apply_listed(a("lay 8C 8D 8S")).unwrap();
    assert_eq!(refused(&mut made, "discard 8H"), "D-13.2", "no canasta");
    assert_eq!(refused(&mut g, "lay 8C 8D 8S"), "I-9", "a dead end");
}

/// D-13.2: without a canasta a player keeps at least one card after
/// discarding.
#[test]
fn d13_2_keep_a_card_without_canasta() {
    let mut g = P::meld()
        .table(0, &["KC KD KH"])
        .hand(0, "8C 8D 8S 9H")
        .state();
    // Laid, the eights would leave one card and no canasta: that card
    // cannot go (D-13.2), so the lay is not even listed (I-9).
    let mut made = g.clone();
    made.apply_listed(a("lay 8C 8D 8S")).unwrap();
    assert_eq!(refused(&mut made, "discard 9H"), "D-13.2");
    assert!(!legal(&g).contains(&a("lay 8C 8D 8S")));
    act(&mut g, "discard 9H");
    assert!(!g.is_terminal());
    assert_eq!(g.hand(0), cs("8C 8D 8S"));
}

/// I-9, D-13.1, D-13.2: with two cards in hand, nothing laid this turn and
/// no pickup in progress, an extend leaves one card that can only go out.
/// Without a canasta in reach it is not listed, and the candidate check
/// rules it out before trying it (`surely_unlisted`); with one in reach it
/// is listed. During a pickup, before the rest is taken, the same extend
/// is listed: the rest of the pile still comes.
#[test]
fn i9_extend_leaving_one_card() {
    let check = |g: &GameState, extend: &str, listed: bool, ruled_out: bool| {
        let extend = a(extend);
        assert_eq!(legal(g).contains(&extend), listed, "listed");
        let mut buf = MoveBuf::new();
        let mut c = g.moves(&mut buf);
        assert_eq!(c.surely_unlisted(extend), ruled_out, "ruled out");
        assert_eq!(c.is_listed(extend), listed, "checked");
        assert!(c.read_table_after(extend, |_| ()).is_some(), "a step made");
    };
    // No canasta in reach: the extend is ruled out.
    let g = P::meld()
        .table(0, &["8C 8D 8S", "KC KD KH"])
        .hand(0, "8H 5C")
        .state();
    check(&g, "extend 0 8H", false, true);
    // Extended to seven, the group is a canasta and 5C goes out.
    let g = P::meld()
        .table(0, &["8C 8D 8S 8S 8D JK", "KC KD KH"])
        .hand(0, "8H 5C")
        .state();
    check(&g, "extend 0 8H", true, false);
    // A wild moved from the kings makes the canasta: going out again.
    let g = P::meld()
        .table(0, &["8C 8D 8S 8S 8D", "KC KD KH JK"])
        .hand(0, "8H 5C")
        .state();
    check(&g, "extend 0 8H", true, false);
    // During a pickup: the pile taken with 8C 8D, 8C extended; the top
    // card (8H) and 8D are left. Extending 8D, then the top card, leaves
    // the rest of the pile to take and discard from.
    let mut g = P::draw()
        .table(0, &["8S 8S 8H"])
        .hand(0, "8C 8D")
        .pile("5C 6D 9S 8H", false)
        .state();
    act(&mut g, "take; extend 0 8C");
    assert_eq!(g.hand(0), cs("8D 8H"));
    check(&g, "extend 0 8D", true, false);
    act(&mut g, "extend 0 8D; extend 0 8H; rest; discard 5C");
    assert!(!g.is_terminal());
}

/// D-13.3: when a player goes out the others may do nothing more; cards left
/// in their hands count minus.
#[test]
fn d13_3_nothing_after_going_out() {
    let mut g = P::meld()
        .table(0, &["KC KC KD KD KH KH KS"])
        .hand(0, "9C")
        .hand(1, "QC 5H 2D")
        .state();
    act(&mut g, "discard 9C");
    assert_eq!(g.phase(), Phase::Over);
    assert!(legal(&g).is_empty());
    assert_eq!(refused(&mut g, "draw"), "D-13.3");
    assert_eq!(refused(&mut g, "discard QC"), "D-13.3");
    assert_eq!(g.score_of(1).in_hand, -35);
    assert_eq!(g.hand(1), cs("QC 5H 2D"), "player 1 did not move");
}

// ----- D-14 Scoring ---------------------------------------------------------------------

/// D-14.1: going out from hand (in the opening turn: all but one card laid,
/// a canasta among them, the last discarded) scores 100 + 100; a player who
/// had opened before gets 100.
#[test]
fn d14_1_going_out_from_hand() {
    let p = P::meld()
        .hand(0, "KC KC KD KD KH KH KS 9C")
        .hand(1, "5C 6D");
    let mut g = p.clone().state();
    act(&mut g, "lay KC KC KD KD KH KH KS; discard 9C");
    assert_eq!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: true,
            cleared_table: false
        })
    );
    let s = g.score_of(0);
    assert!(s.from_hand);
    assert_eq!((s.going_out_points, s.from_hand_points), (100, 100));
    assert_eq!(s.base, 400 + 200);
    assert_eq!(s.total, 600 + 70);
    assert_eq!(g.score_of(1).total, -10);

    let mut g = p.clone().table(0, &["5C 5D 5H"]).state();
    act(&mut g, "lay KC KC KD KD KH KH KS; discard 9C");
    let s = g.score_of(0);
    assert!(s.went_out && !s.from_hand);
    assert_eq!(s.base, 400 + 100);
    assert_eq!(s.total, 500 + 70 + 15);

    // Without a canasta there is no going out, from hand or not.
    let mut g = P::meld().hand(0, "KC KD KH 9C").state();
    g.apply_listed(a("lay KC KD KH")).unwrap();
    assert_eq!(refused(&mut g, "discard 9C"), "D-13.2");
}

/// D-14.2, I-14: clearing the table: from hand, with a penalized pickup of a
/// pile of at least 10 cards (the top card included), laying everything and
/// going out: 100 + 100 + 100. Played out through a real pickup turn.
#[test]
fn d14_2_i14_clearing_the_table_in_play() {
    // 10 cards with the top: cleared.
    let mut g = P::draw()
        .pile("4C 4C 4D 4D 4H 4H 4S 9C 9D KS", false)
        .hand(0, "KC KD 9H QC")
        .hand(1, "5C 6D")
        .state();
    act(&mut g, "take");
    assert_eq!(
        g.pickup().unwrap().pile_size,
        10,
        "I-14: the top card counts"
    );
    act(&mut g, "lay KC KD KS; rest");
    act(&mut g, "lay 4C 4C 4D 4D 4H 4H 4S; lay 9C 9D 9H; discard QC");
    assert_eq!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: true,
            cleared_table: true
        })
    );
    let s = g.score_of(0);
    assert_eq!(
        (
            s.going_out_points,
            s.from_hand_points,
            s.cleared_table_points
        ),
        (100, 100, 100)
    );
    assert_eq!(s.total, 400 + 300 + 30 + 35 + 30);

    // 9 cards with the top: from hand, but the table is not cleared.
    let mut g = P::draw()
        .pile("4C 4C 4D 4D 4H 4H 4S 9C KS", false)
        .hand(0, "KC KD 9D 9H QC")
        .state();
    act(
        &mut g,
        "take; lay KC KD KS; rest; lay 4C 4C 4D 4D 4H 4H 4S; lay 9C 9D 9H; discard QC",
    );
    assert_eq!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: true,
            cleared_table: false
        })
    );
    assert_eq!(g.score_of(0).cleared_table_points, 0);
    assert_eq!(g.score_of(0).total, 400 + 200 + 95);

    // Not from hand (opened before): no clearing, whatever the pile.
    let mut g = P::draw()
        .table(0, &["5C 5D 5H"])
        .pile("4C 4C 4D 4D 4H 4H 4S 9C 9D KS", false)
        .hand(0, "KC KD 9H QC")
        .state();
    act(
        &mut g,
        "take; lay KC KD KS; rest; lay 4C 4C 4D 4D 4H 4H 4S; lay 9C 9D 9H; discard QC",
    );
    let s = g.score_of(0);
    assert!(s.went_out && !s.from_hand && !s.cleared_table);
    assert_eq!(s.base, 400 + 100);
}

/// I-15: the worked example "went out from hand with a black wild canasta,
/// four red threes, three twins" is worth base 1,500 (not 2,300), played out.
#[test]
fn i15_from_hand_black_wild_canasta_1500() {
    let mut g = P::meld()
        .red_threes(0, "3H 3H 3D 3D")
        .twins(0, 3)
        .hand(0, "2C 2D JK JK JK JK JK 9C")
        .state();
    act(&mut g, "lay 2C 2D JK JK JK JK JK; discard 9C");
    let s = g.score_of(0);
    assert!(s.from_hand);
    assert_eq!(
        s.canastas,
        [1, 0, 0, 0, 0],
        "one black wild canasta, nothing else"
    );
    assert_eq!(s.base, 800 + 300 + 200 + 100 + 100);
    assert_ne!(s.base, 2300);
    assert_eq!(s.total, 1500 + 40 + 250);
}

/// I-16: a black three left in hand costs 100 when somebody goes out, in
/// both versions — never +100.
#[test]
fn i16_black_three_in_hand_minus_100() {
    for version in ["version=decorated-2003-02", "version=decorated-2003-01"] {
        let mut g = P::meld()
            .rules(&[version])
            .table(0, &["KC KC KD KD KH KH KS"])
            .hand(0, "9C")
            .hand(1, "3S 3C 5H")
            .state();
        act(&mut g, "discard 9C");
        let s = g.score_of(1);
        assert_eq!(s.in_hand, -205, "{version}");
        assert_eq!(s.total, -205, "{version}");
    }
}
