//! Constructed positions, and D-8: the opening meld.

use super::*;

// ----- constructed positions -----------------------------------------------------

/// D-1.2: 2s and jokers are interchangeable in groups (same groups, same
/// opening value); they differ in points. Refused: wilds not fewer than
/// naturals.
#[test]
fn d1_2_twos_and_jokers_interchangeable_in_groups() {
    let g = meld0("8D 8S 2C JK KD KS KH 5C 6D 9H", "", "");
    let mut with_two = g.clone();
    let mut with_joker = g.clone();
    act(&mut with_two, "lay 8D 8S 2C");
    act(&mut with_joker, "lay 8D 8S JK");
    let (t, j) = (with_two.table(0), with_joker.table(0));
    assert_eq!(t.groups()[0].len(), 3);
    assert_eq!(j.groups()[0].len(), 3);
    assert_eq!(t.opening_value(), 30);
    assert_eq!(j.opening_value(), 30);
    assert_eq!(t.melded_points(), 40);
    assert_eq!(j.melded_points(), 70);
    // Either wild extends a group of naturals.
    for w in ["2C", "JK"] {
        let mut x = g.clone();
        act(&mut x, "lay KD KS KH");
        act(&mut x, &format!("extend 0 {w}"));
        assert_eq!(x.table(0).groups()[0].wilds(), 1);
    }
    // Refused: two wilds with one natural (D-9.1), whichever wilds.
    let mut x = g.clone();
    assert_eq!(refused(&mut x, "lay 8D 2C JK").rule, "D-9.1");
    let mut x = g.clone();
    act(&mut x, "lay 8D 8S 2C");
    assert_eq!(refused(&mut x, "extend 0 JK").rule, "D-9.1");
}

/// D-1.3: black threes can never be melded (alone, with wilds, or added to
/// a group) though they can be discarded; red threes are never in a hand
/// (a position with one there is refused) and score on the table.
#[test]
fn d1_3_black_threes_never_melded_red_threes_never_in_hand() {
    let mut g = meld0(
        "3S 3S 3C 2C KD KS 9D 9S",
        r#""groups": ["QC QD QH"], "red_threes": "3H""#,
        "",
    );
    assert_eq!(refused(&mut g, "lay 3S 3S 3C").rule, "D-9.3");
    assert_eq!(refused(&mut g, "lay 3S 3C 2C").rule, "D-9.3");
    assert_eq!(refused(&mut g, "extend 0 3S").rule, "D-9.3");
    for x in legal(&g) {
        match x {
            Action::Lay { cards } => assert_eq!(cards.black_three_count(), 0, "{x}"),
            Action::Extend { card, .. } => assert!(!card.is_black_three(), "{x}"),
            _ => {}
        }
    }
    assert!(legal(&g).contains(&a("discard 3S")));
    act(&mut g, "discard 3S");
    assert_eq!(g.pile_top(), Some(c("3S")));
    assert_eq!(g.score_of(0).red_three_points, 100);
    // A red three in a hand: not a position.
    let bad = r#"{"phase": "meld", "players": [{"hand": "3H 4C 5C"}, {}]}"#;
    let e = Position::from_json(bad).unwrap_err().to_string();
    assert!(e.contains("D-4"), "{e}");
}

/// D-1.4: suits matter only for threes, twins and heart aces: any suits (two
/// identical copies included) make a group, and the same hand in other suits
/// has the same moves; only the ♥A may be laid separately.
#[test]
fn d1_4_suits_do_not_matter_in_groups() {
    let a_ = meld0(
        "8C 8C 8H KS KD 2C 5C 6D AD",
        r#""groups": ["QC QD QH"]"#,
        "",
    );
    let b_ = meld0(
        "8S 8S 8D KC KH 2D 5H 6S AS",
        r#""groups": ["QC QD QH"]"#,
        "",
    );
    let mut x = a_.clone();
    act(&mut x, "lay 8C 8C 8H");
    let mut y = b_.clone();
    act(&mut y, "lay 8S 8S 8D");
    assert_eq!(x.table(0).groups()[1].len(), y.table(0).groups()[1].len());
    assert_eq!(legal(&a_).len(), legal(&b_).len());
    let lays = |g: &GameState| {
        legal(g)
            .iter()
            .filter(|x| matches!(x, Action::Lay { .. }))
            .count()
    };
    assert_eq!(lays(&a_), lays(&b_));
    // The ♥A may be laid separately (D-9.4), another ace may not.
    let mut x = a_.clone();
    assert_eq!(refused(&mut x, "heart").rule, "D-9.4");
    let mut h = meld0("AH 8S 8S 8D 5H 6S", r#""groups": ["QC QD QH"]"#, "");
    act(&mut h, "heart");
    assert_eq!(h.table(0).heart_aces, 1);
}

/// D-2.2: each player has his own table: group indices name the mover's own
/// groups only, and what he lays never changes another table.
#[test]
fn d2_2_nobody_touches_another_table() {
    let g = pos(&format!(
        r#"{{"phase": "meld", "turns": 10, "players": [
            {{"hand": "QS 8D 8S 8H 5C 6D KS", "table": {{"groups": ["QC QD QH"]}}}},
            {{"hand": "{P1_HAND}", "table": {{"groups": ["KC KD KH", "9C 9D 9H"]}}}}]}}"#
    ));
    let theirs = *g.table(1);
    let mut x = g.clone();
    act(&mut x, "extend 0 QS");
    act(&mut x, "lay 8D 8S 8H");
    assert_eq!(x.table(0).len(), 2);
    assert_eq!(*x.table(1), theirs);
    // Refused: group 1 is the opponent's second group, not the mover's.
    let mut x = g.clone();
    assert_eq!(refused(&mut x, "extend 1 8D").rule, "D-2.2");
    assert_eq!(refused(&mut x, "extend 5 KS").rule, "D-2.2");
    // The king cannot go to the opponent's kings: group 0 is the mover's queens.
    assert_eq!(refused(&mut x, "extend 0 KS").rule, "D-9.1");
}

/// D-5.2: a discard that empties the hand goes out and ends the hand;
/// nobody moves after it. Without a canasta the last card cannot go (D-13.2).
#[test]
fn d5_2_empty_hand_after_discard_ends_the_hand() {
    let mut g = meld0("9D", r#""groups": ["KC KC KD KD KH KH KS"]"#, "");
    act(&mut g, "discard 9D");
    assert!(g.is_terminal());
    assert_eq!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: false,
            cleared_table: false
        })
    );
    assert!(legal(&g).is_empty());
    assert_eq!(refused(&mut g, "draw").rule, "D-13.3");
    // With two cards the discard passes the turn.
    let mut g = meld0("9D 9S", r#""groups": ["KC KC KD KD KH KH KS"]"#, "");
    act(&mut g, "discard 9D");
    assert!(!g.is_terminal());
    assert_eq!((g.current_player(), g.phase()), (1, Phase::Draw));
    // Without a canasta the last card cannot be discarded.
    let mut g = meld0("9D", r#""groups": ["KC KD KH"]"#, "");
    assert_eq!(refused(&mut g, "discard 9D").rule, "D-13.2");
}

/// I-4: if stock and pile are both empty when a card must be drawn, the hand
/// ends exhausted: nobody went out, no going-out bonus, cards in hand count
/// minus. With a card left to draw it does not.
#[test]
fn i4_stock_and_pile_empty_at_a_draw_exhausts_the_hand() {
    // The last stock card is a red three: laid out, and nothing replaces it.
    let json = |stock: &str| {
        let p1 = rest_of_pack(&format!("9D 9S 3H 3H 3D 3D {stock}"));
        format!(
            r#"{{"phase": "draw", "turns": 40, "players": [
                {{"hand": "9D 9S", "table": {{"red_threes": "3D 3D"}}}},
                {{"hand": "{p1}", "table": {{"red_threes": "3H"}}}}],
              "stock": "{stock} 3H"}}"#
        )
    };
    for reshuffle in ["when_empty", "on_draw"] {
        let r = rules(&[("reshuffle", reshuffle)]);
        let mut g = with_rules(&pos(&json("")), r);
        assert_eq!(g.stock(), &[c("3H")]);
        act(&mut g, "draw");
        assert!(g.is_terminal(), "{reshuffle}");
        assert_eq!(g.end(), Some(HandEnd::Exhausted));
        assert_eq!(g.table(0).red_threes.len(), 3);
        let s = g.score_of(0);
        assert!(!s.went_out);
        assert_eq!(s.going_out_points, 0);
        assert_eq!(s.in_hand, -20);
        assert_eq!(g.score_of(1).going_out_points, 0);
        // Not exhausted: a card remains under the red three.
        let mut g = with_rules(&pos(&json("5C")), r);
        act(&mut g, "draw");
        assert!(!g.is_terminal(), "{reshuffle}");
        assert!(g.hand(0).contains(c("5C")));
    }
}

/// D-6.1: the free pickup has no precondition (no pair needed, the pile
/// need not be open) and the player may meld in that turn, with the card.
#[test]
fn d6_1_free_pickup_needs_nothing_and_allows_melding() {
    let json = |hand: &str| {
        format!(
            r#"{{"phase": "draw", "turns": 1, "players": [
                {{"hand": "{hand}", "free_pending": true}},
                {{"hand": "{P1_HAND}"}}], "pile": "8H"}}"#
        )
    };
    // No eight in hand: the free card is still his for the taking.
    let mut g = pos(&json("KD KS AD AS 2C 5C 6D"));
    assert!(g.free_pickup_offered());
    assert_eq!(refused(&mut g, "take").rule, "I-7");
    act(&mut g, "free");
    assert!(g.hand(0).contains(c("8H")));
    // With two eights he melds the free card in his opening.
    let mut g = pos(&json("8D 8S AD AS 2C 5C 6D"));
    act(&mut g, "free");
    act(&mut g, "lay 8H 8D 8S");
    act(&mut g, "lay AD AS 2C");
    act(&mut g, "discard 5C");
    assert!(g.table(0).opened);
    assert_eq!(g.table(0).groups()[0].cards(), cs("8H 8D 8S"));
    // Without the offer (chance passed) there is no free card.
    let mut g = draw0("8D 8S AD AS 2C 5C 6D", "", "8H", "");
    assert!(!g.free_pickup_offered());
    assert_eq!(refused(&mut g, "free").rule, "D-6.1");
}

/// D-6.2 with I-27: the precondition is a test of the hand only: a group of
/// the top card's rank on the table does not replace the pair in hand.
#[test]
fn d6_2_precondition_counts_the_hand_not_the_table() {
    let table = r#""groups": ["KC KC KS"]"#;
    // One king and no wild in hand: refused, although the top could join
    // the kings on the table.
    let mut g = draw0("KD 9D 9S 5C 6D 7D", table, "7H 4S KH", "");
    assert_eq!(refused(&mut g, "take").rule, "D-6.2");
    // One king and a wild: allowed.
    let mut g = draw0("KD 2C 9D 9S 5C 6D", table, "7H 4S KH", "");
    assert!(legal(&g).contains(&Action::TakePile));
    act(&mut g, "take");
    // Two kings: allowed; the top joins the existing group (I-27), the two
    // kings of the hand need not be laid.
    let mut g = draw0("KD KD 9D 9S 5C", table, "7H 4S KH", "");
    act(&mut g, "take");
    act(&mut g, "extend 0 KH");
    act(&mut g, "rest");
    assert_eq!(g.hand(0).count(c("KD")), 2);
    act(&mut g, "discard 5C");
    assert_eq!(g.stats(0).pile_pickups, 1);
    assert_eq!(g.stats(0).cards_picked, 3);
}

/// D-6.2.1: not opened: take the top card, make the opening meld with it
/// (reaching the minimum, D-8) before taking the rest of the pile (which is
/// compulsory), meld more, discard.
#[test]
fn d6_2_1_pickup_before_opening_makes_the_opening_first() {
    let g0 = draw0("KS KH AD AS 2C 6D 6S 8C", "", "5C 6C 9H 7S KD", "");
    let mut g = g0.clone();
    act(&mut g, "take");
    assert_eq!(g.pickup().unwrap().top, c("KD"));
    // The rest comes only after the top card is laid…
    assert_eq!(refused(&mut g, "rest").rule, "I-8");
    assert_eq!(refused(&mut g, "discard 8C").rule, "D-6.2");
    // … in the opening meld: an opening without it does not do.
    let mut x = g.clone();
    act(&mut x, "lay AD AS 2C");
    assert_eq!(refused(&mut x, "rest").rule, "I-8");
    act(&mut g, "lay KD KS KH");
    act(&mut g, "lay AD AS 2C");
    assert!(!g.table(0).opened);
    act(&mut g, "rest");
    assert!(g.table(0).opened);
    assert!(g.hand(0).contains_all(cs("5C 6C 9H 7S")));
    assert!(g.pile().is_empty());
    // Meld more after the rest, then discard.
    act(&mut g, "lay 6C 6D 6S");
    act(&mut g, "discard 9H");
    assert_eq!(g.table(0).len(), 3);
    assert_eq!(g.current_player(), 1);
    // Refused: the opening laid before the rest falls short (30 < 50) and
    // the player cannot go out.
    let mut g = g0.clone();
    act(&mut g, "take");
    act(&mut g, "lay KD KS KH");
    assert_eq!(refused(&mut g, "rest").rule, "I-26");
    // Refused at once: a hand that cannot open with the top card (30 < 50)
    // nor go out may not take the pile at all (I-9).
    let mut g = draw0("KS KH 5C 6D 7S", "", "9C KD", "");
    assert!(!legal(&g).contains(&Action::TakePile));
    assert_eq!(refused(&mut g, "take").rule, "I-9");
}

/// D-6.2.2: opened: take the top card, lay it (new group or an existing one;
/// other cards may be laid too), take the rest (compulsory), meld, discard.
#[test]
fn d6_2_2_pickup_after_opening_lays_the_top_card() {
    let table = r#""groups": ["QC QD QH"]"#;
    // A new group with the top card.
    let mut g = draw0("9D 9S QS 5C 6D", table, "7H 4S 9H", "");
    act(&mut g, "take");
    assert_eq!(refused(&mut g, "rest").rule, "I-8");
    assert_eq!(refused(&mut g, "discard 5C").rule, "D-6.2");
    // Laying something else first is allowed, but is not laying the top.
    act(&mut g, "extend 0 QS");
    assert_eq!(refused(&mut g, "rest").rule, "I-8");
    act(&mut g, "lay 9H 9D 9S");
    act(&mut g, "rest");
    assert!(g.hand(0).contains_all(cs("7H 4S")));
    act(&mut g, "discard 4S");
    assert_eq!(g.table(0).groups()[1].cards(), cs("9H 9D 9S"));
    // An existing group of its rank.
    let mut g = draw0("QS 2C 5C 6D", table, "7H 4S QH", "");
    act(&mut g, "take");
    act(&mut g, "extend 0 QH");
    act(&mut g, "rest");
    act(&mut g, "discard 4S");
    assert_eq!(g.table(0).groups()[0].len(), 4);
}

/// I-8: the top card must end in a group; a ♥A taken from the pile cannot
/// fulfil the duty by being laid separately (D-9.4).
#[test]
fn i8_top_card_must_go_into_a_group_heart_ace_too() {
    let table = r#""groups": ["QC QD QH"]"#;
    let mut g = draw0("AS AD 5C 6D 7S", table, "8C AH", "");
    act(&mut g, "take");
    assert_eq!(refused(&mut g, "heart").rule, "I-8");
    act(&mut g, "lay AH AS AD");
    act(&mut g, "rest");
    act(&mut g, "discard 8C");
    assert_eq!(g.table(0).heart_aces, 0);
    assert_eq!(g.table(0).groups()[1].cards(), cs("AH AS AD"));
    // With a second ♥A in hand, that one may lie separately, but the taken
    // one must still go into a group before the rest.
    let mut g = draw0("AH AS AD 5C 6D 7S", table, "8C AH", "");
    act(&mut g, "take");
    act(&mut g, "heart");
    assert_eq!(refused(&mut g, "rest").rule, "I-8");
    act(&mut g, "lay AH AS AD");
    act(&mut g, "rest");
    assert_eq!(g.table(0).heart_aces, 1);
}

/// I-8: the copies of the top card lying in groups before the pickup do
/// not count as it laid; a copy more in a group of its rank does, and a
/// natural of the rank in another suit does not.
#[test]
fn i8_top_card_laid_beyond_the_copies_in_groups() {
    let table = r#""groups": ["QC QD QH", "KC KD KH"]"#;
    let mut g = draw0("QS QS 5C 6D 7S", table, "8C QH", "");
    act(&mut g, "take");
    assert_eq!(refused(&mut g, "rest").rule, "I-8");
    act(&mut g, "extend 0 QS");
    assert_eq!(refused(&mut g, "rest").rule, "I-8", "a queen of spades");
    act(&mut g, "extend 0 QH");
    act(&mut g, "rest");
    act(&mut g, "discard 8C");
    assert_eq!(g.table(0).groups()[0].cards(), cs("QC QD QH QH QS"));
}

/// D-6.3: a black three or a wild on top freezes the pile, whatever the hand
/// holds; only the top card matters (a wild or a black three lower down
/// does not freeze it).
#[test]
fn d6_3_black_three_freezes_the_pile() {
    let table = r#""groups": ["QC QD QH"]"#;
    let hand = "KD KS 2H 5C 6D 7H 9D";
    for (pile, frozen) in [
        ("5S KH", false),
        ("JK 3C KH", false),
        ("5S 3S", true),
        ("KH 3C", true),
        ("KH 2D", true),
        ("KH JK", true),
    ] {
        let mut g = draw0(hand, table, pile, "");
        assert_eq!(g.pile_frozen(), frozen, "{pile}");
        if frozen {
            assert!(!legal(&g).contains(&Action::TakePile), "{pile}");
            assert_eq!(refused(&mut g, "take").rule, "D-6.3", "{pile}");
        } else {
            act(&mut g, "take");
            act(&mut g, "lay KH KD KS");
            act(&mut g, "rest");
            act(&mut g, "discard 5C");
        }
    }
}

/// I-9: a move is legal only if the turn can still be completed without
/// undoing anything: no pickup whose compulsory meld leaves no possible
/// discard, no lay that leaves no card to keep without a canasta.
#[test]
fn i9_dead_end_moves_are_not_legal() {
    let table = r#""groups": ["QC QD QH"]"#;
    // Taking 8H would force 8H 8D 8S out of the hand; the rest (4C) would be
    // the last card, which cannot go without a canasta.
    let mut g = draw0("8D 8S", table, "4C 8H", "");
    assert!(!legal(&g).contains(&Action::TakePile));
    assert_eq!(refused(&mut g, "take").rule, "I-9");
    // With one more card in the pile the turn can be completed.
    let mut g = draw0("8D 8S", table, "4C 5D 8H", "");
    act(&mut g, "take");
    act(&mut g, "lay 8H 8D 8S");
    act(&mut g, "rest");
    act(&mut g, "discard 4C");
    assert_eq!(g.hand(0), cs("5D"));
    // Adding to an older group (which cannot be taken back) so that one card
    // is left without a canasta: a dead end, refused.
    let mut g = meld0("QS 5C", table, "");
    assert!(!legal(&g).contains(&a("extend 0 QS")));
    assert_eq!(refused(&mut g, "extend 0 QS").rule, "I-9");
    let mut g = meld0("QS 5C 6D", table, "");
    act(&mut g, "extend 0 QS");
    act(&mut g, "discard 5C");
    // A new group leaving one card without a canasta is a dead end too:
    // only taking it back (D-11.5) would end the turn, and a step is listed
    // only if the turn can be ended without undoing anything.
    let mut g = meld0("9D 9S 9H 5C", table, "");
    assert!(!legal(&g).contains(&a("lay 9D 9S 9H")));
    assert_eq!(refused(&mut g, "lay 9D 9S 9H").rule, "I-9");
    act(&mut g, "discard 5C");
    // With a canasta the same lay leads to going out.
    let mut g = meld0("9D 9S 9H 5C", r#""groups": ["QC QC QD QD QH QH QS"]"#, "");
    act(&mut g, "lay 9D 9S 9H");
    act(&mut g, "discard 5C");
    assert!(g.is_terminal());
}

/// I-9: a step is legal whenever the turn can still be completed, however
/// many other steps could be tried first. Found in greedy play (seed 1):
/// taking a 2 out of the group of wilds breaks that group up, all three
/// wilds are pending, and laying them together again, then discarding, ends
/// the turn. The check used to search placements of the three wilds into
/// the other groups for its whole budget and refused the step.
#[test]
fn i9_a_step_with_a_way_out_is_legal_however_deep_the_detours() {
    let mut g = pos(r#"{
        "phase": "meld", "starter": 1, "current": 0, "turns": 27, "seed": 5,
        "players": [
            {"hand": "JC 2D",
             "table": {"groups": ["AC AD AS 2C", "2H 2H 2S", "JD JH JK", "5C 5S 2D"], "twins": 2},
             "stats": {"opened_turn": 1}},
            {"hand": "JK",
             "table": {"groups": ["8C 8H 8S JK", "9H 9S 2S", "7D 7H 7S", "6C 6D 6H"], "red_threes": "3D"},
             "stats": {"opened_turn": 6}}
        ],
        "pile": "3C 3C 3S 9H TH TH JH QC QS KC KD 4D 4C TD 5H 6D 4H TS QC 9S QH KH QD 6H 9D"
    }"#);
    assert!(legal(&g).contains(&a("unwild 1 2H")));
    act(&mut g, "unwild 1 2H");
    assert_eq!(g.pending_wilds(), cs("2H 2H 2S"));
    act(&mut g, "lay 2H 2H 2S");
    act(&mut g, "discard JC");
    assert_eq!(g.hand(0), cs("2D"));
}

// ----- D-8 Opening meld ------------------------------------------------------------

/// D-8.1: the first lay-down of the hand is the opening; everything laid in
/// that turn counts towards the minimum (two groups below it alone may
/// reach it together).
#[test]
fn d8_1_everything_laid_in_the_opening_turn_counts() {
    let g0 = meld0("KD KS 2C QD QS JK 5C 6D 7H 9C", "", "");
    let mut g = g0.clone();
    act(&mut g, "lay KD KS 2C");
    assert_eq!(refused(&mut g, "discard 5C").rule, "D-8.2");
    act(&mut g, "lay QD QS JK");
    assert_eq!(g.table(0).opening_value(), 60);
    act(&mut g, "discard 5C");
    assert!(g.table(0).opened);
    assert_eq!(g.stats(0).opened_turn, Some(10));
    // Taken back (D-11.5), nothing is laid and the discard is fine.
    let mut g = g0.clone();
    act(&mut g, "lay KD KS 2C");
    act(&mut g, "takeback 0");
    act(&mut g, "discard 5C");
    assert!(!g.table(0).opened);
    // Red threes and twins are no opening: the table shows them but the
    // player has not opened.
    let g = meld0("KD KS 2C 5C", r#""red_threes": "3H", "twins": 1"#, "");
    assert!(!g.table(0).opened);
}

/// D-8.1: in a penalized-pickup turn only what is laid before the rest of
/// the pile is taken counts; what is laid after it belongs to the opening
/// turn but not to the minimum.
#[test]
fn d8_1_penalized_pickup_counts_only_before_the_rest() {
    let g0 = draw0("KS KH AD AS 2C 6D 6S 8C", "", "5C 6C 9H 7S KD", "");
    // 30 before the rest, 60 more possible after it: refused.
    let mut g = g0.clone();
    act(&mut g, "take");
    act(&mut g, "lay KD KS KH");
    assert_eq!(refused(&mut g, "rest").rule, "I-26");
    // 90 before the rest: the opening; a group after it is still this turn.
    let mut g = g0.clone();
    act(&mut g, "take");
    act(&mut g, "lay KD KS KH");
    act(&mut g, "lay AD AS 2C");
    act(&mut g, "rest");
    act(&mut g, "lay 6C 6D 6S");
    assert!(g.table(0).groups()[2].is_new());
    act(&mut g, "discard 9H");
    assert_eq!(g.stats(0).opened_turn, Some(10));
}

/// D-8.2: the opening's value must reach the minimum; a wild counts as the
/// card it stands for (among kings 10, among aces 20, among fives 5), a group
/// of wilds 20 each; red threes and separate heart aces count nothing.
#[test]
fn d8_2_opening_value_and_minimum() {
    let hand = "KD KS AD AS 5D 5S 2C 2D JK 8D 8S 8H AH 9C 7H";
    let g0 = meld0(hand, "", "");
    for (lay, value, ok) in [
        ("lay KD KS 2C", 30, false),
        ("lay AD AS 2C", 60, true),
        ("lay 5D 5S 2C", 15, false),
        ("lay 2C 2D JK", 60, true),
    ] {
        let mut g = g0.clone();
        act(&mut g, lay);
        assert_eq!(g.table(0).opening_value(), value, "{lay}");
        if ok {
            act(&mut g, "discard 9C");
        } else {
            assert_eq!(refused(&mut g, "discard 9C").rule, "D-8.2", "{lay}");
        }
    }
    // A separately laid ♥A counts nothing: 30 + ♥A is still short.
    let mut g = g0.clone();
    act(&mut g, "heart");
    act(&mut g, "lay 8D 8S 8H");
    assert_eq!(g.table(0).opening_value(), 30);
    assert_eq!(refused(&mut g, "discard 9C").rule, "D-8.2");
    // Red threes on the table count nothing either (the nines would bring
    // the opening to 60).
    let mut g = meld0("8D 8S 8H 9C 9D 9H 7H 6S", r#""red_threes": "3H 3D 3D""#, "");
    act(&mut g, "lay 8D 8S 8H");
    assert_eq!(g.table(0).opening_value(), 30);
    assert_eq!(refused(&mut g, "discard 6S").rule, "D-8.2");
}

/// D-8.3: going out in the opening turn meets the minimum whatever the value.
#[test]
fn d8_3_going_out_meets_the_minimum() {
    let mut g = meld0("4C 4C 4D 4D 4H 4H 4S 9D", "", "");
    act(&mut g, "lay 4C 4C 4D 4D 4H 4H 4S");
    assert_eq!(g.table(0).opening_value(), 35);
    act(&mut g, "discard 9D");
    assert_eq!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: true,
            cleared_table: false
        })
    );
    // Not going out (cards left), the same 35 is short (the nines would
    // bring it to 65).
    let mut g = meld0("4C 4C 4D 4D 4H 4H 4S 9D 9S 9H 6C 7C", "", "");
    act(&mut g, "lay 4C 4C 4D 4D 4H 4H 4S");
    assert_eq!(refused(&mut g, "discard 6C").rule, "D-8.2");
    // With nothing to add and no way out, the short lay itself is refused:
    // the turn could not be ended without taking it back (I-9).
    let mut g = meld0("4C 4C 4D 4D 4H 4H 4S 9D 9S", "", "");
    assert_eq!(refused(&mut g, "lay 4C 4C 4D 4D 4H 4H 4S").rule, "I-9");
}

/// I-11: `opening` = 50 (default) | 75 | 90 | 120 | `table` (by the running
/// total: below 0 → 0, below 1,500 → 50, below 3,000 → 90, else 120).
#[test]
fn i11_opening_minimum_switch() {
    let hand = "AD AS 2C KD KS JK 9C 7H";
    // 60 points: enough at 50, short at 75, 90, 120.
    for (opening, ok) in [("50", true), ("75", false), ("90", false), ("120", false)] {
        let mut g = with_rules(&meld0(hand, "", ""), rules(&[("opening", opening)]));
        if opening == "120" {
            // 60 + 30 is all the hand can lay keeping two cards: the aces
            // are refused at once, the turn could not be ended (I-9).
            assert_eq!(refused(&mut g, "lay AD AS 2C").rule, "I-9");
            continue;
        }
        act(&mut g, "lay AD AS 2C");
        if ok {
            act(&mut g, "discard 9C");
        } else {
            assert_eq!(refused(&mut g, "discard 9C").rule, "D-8.2", "{opening}");
            // 60 + 30 = 90 passes 75 and 90, not 120.
            act(&mut g, "lay KD KS JK");
            if opening == "120" {
                assert_eq!(refused(&mut g, "discard 9C").rule, "D-8.2");
            } else {
                act(&mut g, "discard 9C");
            }
        }
    }
    // table: by the player's running total.
    let table = rules(&[("opening", "table")]);
    for (total, min) in [
        (-100, 0),
        (0, 50),
        (1499, 50),
        (1500, 90),
        (2999, 90),
        (3000, 120),
    ] {
        let g = with_rules(
            &meld0(hand, "", &format!(r#", "totals": [{total}, 0]"#)),
            table,
        );
        assert_eq!(g.opening_minimum(0), min, "total {total}");
        let mut x = g.clone();
        if min > 90 {
            // Beyond the 90 the hand can reach (I-9).
            assert_eq!(refused(&mut x, "lay AD AS 2C").rule, "I-9");
            continue;
        }
        act(&mut x, "lay AD AS 2C");
        if 60 >= min {
            act(&mut x, "discard 9C");
        } else {
            assert_eq!(refused(&mut x, "discard 9C").rule, "D-8.2");
        }
    }
    // Below zero the minimum is 0: three fours (15) open.
    let mut g = with_rules(
        &meld0("4C 4D 4S 9C 7H", "", r#", "totals": [-10, 0]"#),
        table,
    );
    act(&mut g, "lay 4C 4D 4S");
    act(&mut g, "discard 9C");
    assert!(g.table(0).opened);
    // The default opening is a fixed 50 whatever the total.
    let g = meld0(hand, "", r#", "totals": [5000, 0]"#);
    assert_eq!(g.opening_minimum(0), 50);
}

/// I-4 (`when_empty`): if the pile is empty when the last stock card is
/// drawn, nothing is reshuffled then; the reshuffle happens at the next draw
/// from the empty stock. Under `on_draw` the old pile may still be taken.
#[test]
fn i4_empty_pile_reshuffles_at_the_next_draw() {
    let p1 = rest_of_pack("9D 9S 5C 3H 3H 3D 3D");
    let mut g = pos(&format!(
        r#"{{"phase": "draw", "turns": 40, "players": [
            {{"hand": "9D 9S", "table": {{"red_threes": "3H 3H 3D 3D"}}}},
            {{"hand": "{p1}"}}], "stock": "5C"}}"#
    ));
    act(&mut g, "draw");
    assert_eq!((g.stock().len(), g.pile().len()), (0, 0));
    assert!(!g.is_terminal());
    act(&mut g, "discard 9D");
    assert_eq!(g.pile(), &[c("9D")]);
    // Player 1 must draw from the empty stock: the pile becomes the stock.
    let before = g.hand(1);
    act(&mut g, "draw");
    let mut expect = before;
    expect.insert(c("9D"));
    assert_eq!(g.hand(1), expect);
    assert_eq!((g.stock().len(), g.pile().len()), (0, 0));

    // on_draw: with the stock empty the pile is still there to be taken.
    let on_draw = rules(&[("reshuffle", "on_draw")]);
    let p1 = rest_of_pack("KD KS 5C 6D 5S KH QC QD QH 3H 3H 3D 3D");
    let mut g = with_rules(
        &pos(&format!(
            r#"{{"phase": "draw", "turns": 40, "players": [
                {{"hand": "KD KS 5C 6D", "table": {{"groups": ["QC QD QH"]}}}},
                {{"hand": "{p1}", "table": {{"red_threes": "3H 3H 3D 3D"}}}}],
              "stock": "", "pile": "5S KH"}}"#
        )),
        on_draw,
    );
    act(&mut g, "take");
    act(&mut g, "lay KH KD KS");
    act(&mut g, "rest");
    act(&mut g, "discard 5C");
    assert_eq!(g.stock().len(), 0);
    assert_eq!(g.pile(), &[c("5C")]);
}
