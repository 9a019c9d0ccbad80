//! D-9 … D-11: groups, canastas, rearranging.

use super::*;

// ----- D-9 Groups ----------------------------------------------------------------

/// D-9.1: a group is one natural rank plus wilds, 3 to 8 cards, wilds
/// strictly fewer than naturals (3–4 cards: 1 wild, 5–6: 2, 7: 3), and a
/// group of 8 holds no wild — checked on `lay` and `extend` in play.
#[test]
fn d9_1_group_limits_in_play() {
    let mut g = P::meld()
        .table(0, &["KC KC KD KD KH KH KS"])
        .hand(0, "8C 8D 8S 8H 9C 2C 2D JK KS QC QD")
        .state();
    assert_eq!(
        refused(&mut g, "lay 8C 2C JK"),
        "D-9.1",
        "1 natural, 2 wilds"
    );
    assert_eq!(refused(&mut g, "lay 8C 8D"), "D-9.1", "fewer than 3");
    assert_eq!(refused(&mut g, "lay 8C 9C 2C"), "D-9.1", "two ranks");
    assert_eq!(
        refused(&mut g, "lay 8C 8D 2C JK"),
        "D-9.1",
        "4 cards, 2 wilds"
    );
    assert_eq!(
        refused(&mut g, "extend 0 2C"),
        "D-9.1",
        "8 cards with a wild"
    );
    act(&mut g, "lay 8C 8D 2C");
    assert_eq!(refused(&mut g, "extend 1 JK"), "D-9.1", "4 cards, 2 wilds");
    act(&mut g, "extend 1 8S; extend 1 JK");
    assert_eq!(
        group(&g, 0, 1),
        cs("8C 8D 8S 2C JK"),
        "5 cards hold 2 wilds"
    );
    assert_eq!(refused(&mut g, "extend 1 2D"), "D-9.1", "6 cards, 3 wilds");
    act(&mut g, "extend 1 8H; extend 1 2D");
    assert_eq!(
        group(&g, 0, 1),
        cs("8C 8D 8S 8H 2C 2D JK"),
        "7 cards hold 3 wilds"
    );
    act(&mut g, "extend 0 KS");
    assert_eq!(group(&g, 0, 0).len(), 8, "8 naturals");
    act(&mut g, "discard 9C");
}

/// D-9.2: the only exception: a group of wilds only, 3 to 7 cards.
#[test]
fn d9_2_wild_groups_three_to_seven() {
    let mut g = P::meld()
        .table(0, &["2C 2D JK JK JK JK JK"])
        .hand(0, "2H 2S JK 2C 9C 9D")
        .state();
    act(&mut g, "lay 2H 2S JK");
    assert!(g.table(0).group(1).unwrap().is_wild_only());
    assert_eq!(refused(&mut g, "extend 0 2C"), "D-9.2", "8 wilds");
    act(&mut g, "extend 1 2C");
    assert_eq!(group(&g, 0, 1), cs("2C 2H 2S JK"));
    act(&mut g, "discard 9C");
}

/// D-9.3: threes are never melded, neither in a new group nor added.
#[test]
fn d9_3_threes_never_melded() {
    let mut g = P::meld()
        .table(0, &["8C 8D 8S"])
        .hand(0, "3S 3S 3C 8H 9C 9D 9H 5C")
        .state();
    assert_eq!(refused(&mut g, "lay 3S 3S 3C"), "D-9.3");
    assert_eq!(refused(&mut g, "lay 9C 9D 3S"), "D-9.3");
    assert_eq!(refused(&mut g, "extend 0 3C"), "D-9.3");
    act(&mut g, "lay 9C 9D 9H; extend 0 8H; discard 5C");
    assert_eq!(g.hand(0), cs("3S 3S 3C"));
}

/// D-9.4: in `decorated-2003-02` one or both ♥A may be laid separately, at
/// the earliest in the opening turn, counting nothing towards the minimum;
/// `decorated-2003-01` has no separate heart aces.
#[test]
fn d9_4_heart_aces_laid_separately() {
    let p = P::meld().hand(0, "AH AH AC AD AS 5C 6D");
    let mut g = p.state();
    act(&mut g, "heart; heart");
    assert_eq!(g.table(0).heart_aces, 2, "both ♥A, each on its own");
    assert_eq!(
        refused(&mut g, "discard 5C"),
        "D-8.2",
        "♥A count nothing towards 50"
    );
    act(&mut g, "lay AC AD AS; discard 5C");
    assert!(g.table(0).opened);
    assert_eq!(g.table(0).heart_aces, 2);
    assert_eq!(group(&g, 0, 0), cs("AC AD AS"), "the group holds no ♥A");

    let mut g = p.clone().rules(&["version=decorated-2003-01"]).state();
    assert_eq!(refused(&mut g, "heart"), "D-9.4");
    assert!(!is_legal(&g, "heart"));
    act(&mut g, "lay AH AH AC; discard 5C");
}

/// I-12: `groups_per_rank = one` (default): one group per natural rank, more
/// cards of it go into it; `many`: a second group of the rank may be laid.
/// Groups of wilds only may be several in either case.
#[test]
fn i12_groups_per_rank_one_and_many() {
    let p = P::meld()
        .table(0, &["8C 8D 8S", "2C JK JK"])
        .hand(0, "8H 8H 8C 2D JK JK 5C 6D");
    let mut g = p.clone().state();
    assert_eq!(
        Rules::default().groups_per_rank,
        rules(&["groups_per_rank=one"]).groups_per_rank
    );
    assert_eq!(refused(&mut g, "lay 8H 8H 8C"), "I-12");
    act(&mut g, "extend 0 8H; lay 2D JK JK; discard 5C");
    assert_eq!(g.table(0).len(), 3, "a second group of wilds only");

    let mut g = p.rules(&["groups_per_rank=many"]).state();
    act(&mut g, "lay 8H 8H 8C; lay 2D JK JK; discard 5C");
    let eights = g
        .table(0)
        .groups()
        .iter()
        .filter(|gr| gr.rank() == c("8C").rank())
        .count();
    assert_eq!(eights, 2, "two groups of eights");
}

/// I-12: under `groups_per_rank = one` a pickup whose card must join a full
/// group (here a 7-card black canasta that cannot swap a wild, under
/// `black_canasta_wilds = convert_only`) is not possible; under `many` the
/// top card starts a new group; with a swap it joins the canasta.
#[test]
fn i12_pickup_onto_a_full_group() {
    let p = P::draw()
        .table(0, &["8C 8D 8S 8H JK JK JK"])
        .hand(0, "8C 2D KC KD 5C")
        .pile("5H 8D", false);
    let mut g = p
        .clone()
        .rules(&["groups_per_rank=one", "black_canasta_wilds=convert_only"])
        .state();
    assert_eq!(refused(&mut g, "take"), "I-9");
    assert!(!is_legal(&g, "take"));

    let mut g = p
        .clone()
        .rules(&["groups_per_rank=many", "black_canasta_wilds=convert_only"])
        .state();
    act(&mut g, "take; lay 8D 8C 2D; rest; discard 5H");
    assert_eq!(g.table(0).len(), 2);

    let mut g = p
        .rules(&["groups_per_rank=one", "black_canasta_wilds=swap"])
        .state();
    act(&mut g, "take; swap 0 8D JK; lay KC KD JK; rest; discard 5H");
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8D 8S 8H JK JK"));
}

// ----- D-10 Canastas ---------------------------------------------------------------

/// D-10: a canasta is a legal group of 7 or 8 cards, of five kinds (black,
/// red, gold, black wild, red wild), each reached here by extending in play.
#[test]
fn d10_canasta_kinds_built_in_play() {
    let mut g = P::meld()
        .table(
            0,
            &[
                "8C 8D 8S 8H JK JK",
                "9C 9C 9D 9D 9H 9H",
                "2C 2C 2D 2D 2H 2H",
                "JK JK JK JK JK 2S",
            ],
        )
        .hand(0, "8H 8C 9S 9S 2S JK QC QD QH")
        .state();
    assert_eq!(g.table(0).canastas(), 0);
    let kind = |g: &GameState, i: usize| g.table(0).group(i).unwrap().canasta_kind();
    act(&mut g, "extend 0 8H");
    assert_eq!(kind(&g, 0), Some(CanastaKind::Black));
    act(&mut g, "extend 1 9S");
    assert_eq!(kind(&g, 1), Some(CanastaKind::Red));
    act(&mut g, "extend 1 9S");
    assert_eq!(kind(&g, 1), Some(CanastaKind::Gold));
    act(&mut g, "extend 2 2S");
    assert_eq!(kind(&g, 2), Some(CanastaKind::RedWild), "all 2s");
    act(&mut g, "extend 3 JK");
    assert_eq!(kind(&g, 3), Some(CanastaKind::BlackWild), "2s and jokers");
    assert_eq!(g.table(0).canastas(), 4);
    // Nothing goes beyond the kinds: no 8th card in a black canasta.
    assert_eq!(refused(&mut g, "extend 0 8C"), "D-11.4");
    act(&mut g, "lay QC QD QH; discard 8C");
    let s = g.score_of(0);
    assert_eq!(
        s.canastas,
        [1, 1, 0, 1, 1],
        "black wild, black, red, red wild, gold"
    );
    assert_eq!(s.canasta_points, 200 + 300 + 500 + 600);
}

// ----- D-11 Rearranging ------------------------------------------------------------

/// D-11.1: extend: add a card from the hand (dealt or drawn) to one of one's
/// groups, keeping D-9; only after step 1 of the turn.
#[test]
fn d11_1_extend_from_hand() {
    let p = P::meld().table(0, &["8C 8D 8S"]).hand(0, "8H KC KD QC");
    let mut g = p.clone().state();
    act(&mut g, "extend 0 8H");
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8S 8H"));
    assert!(!g.hand(0).contains(c("8H")));
    assert_eq!(
        refused(&mut g, "extend 0 8H"),
        "D-11.1",
        "no 8H left in hand"
    );
    assert_eq!(
        refused(&mut g, "extend 0 KC"),
        "D-9.1",
        "a king among eights"
    );
    act(&mut g, "discard QC");

    let mut g = P { phase: "draw", ..p }.state();
    assert_eq!(refused(&mut g, "extend 0 8H"), "D-5.1", "draw first");
}

/// D-11.2: a wild taken out of a group (which stays legal) never returns to
/// the hand: it must go at once into another group, existing or new.
#[test]
fn d11_2_moved_wild_goes_into_another_group() {
    let p = P::meld()
        .table(0, &["8C 8D 8S 2C", "KC KD KH KS", "9C 9D 2H"])
        .hand(0, "QC QD 5H 6H 7H");
    let mut g = p.clone().state();
    assert_eq!(
        refused(&mut g, "unwild 2 2H"),
        "D-11.2",
        "9C 9D alone is no group"
    );
    act(&mut g, "unwild 0 2C");
    assert_eq!(g.pending_wilds(), cs("2C"));
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8S"));
    assert!(!g.hand(0).contains(c("2C")), "not into the hand");
    assert_eq!(refused(&mut g, "discard 5H"), "D-11.2");
    assert_eq!(refused(&mut g, "takeback 1"), "D-11.2");
    act(&mut g, "extend 1 2C");
    assert_eq!(group(&g, 0, 1), cs("KC KD KH KS 2C"));
    assert!(g.pending_wilds().is_empty());
    act(&mut g, "discard 5H");

    // Into a group being laid this turn.
    let mut g = p.state();
    act(&mut g, "unwild 0 2C; lay QC QD 2C; discard 5H");
    assert_eq!(group(&g, 0, 3), cs("QC QD 2C"));
}

/// D-11.3: a group of wilds only that is not a canasta may be broken up, its
/// wilds going into other groups (a wild canasta cannot, I-22).
#[test]
fn d11_3_wild_group_broken_up() {
    let mut g = P::meld()
        .table(0, &["2C JK JK", "KC KD KH KS KC", "QC QD QH QS"])
        .hand(0, "5C 6D 7H")
        .state();
    act(&mut g, "unwild 0 JK");
    assert_eq!(g.table(0).len(), 2, "the group of wilds is gone");
    assert_eq!(
        g.pending_wilds(),
        cs("2C JK JK"),
        "all its wilds must be placed"
    );
    assert_eq!(refused(&mut g, "discard 5C"), "D-11.2");
    act(&mut g, "extend 0 JK; extend 0 JK; extend 1 2C; discard 5C");
    assert_eq!(group(&g, 0, 0), cs("KC KC KD KH KS JK JK"));
    assert_eq!(group(&g, 0, 1), cs("QC QD QH QS 2C"));

    let mut g = P::meld()
        .table(0, &["2C JK JK JK JK JK JK", "KC KD KH KS KC"])
        .hand(0, "5C 6D 7H")
        .state();
    assert_eq!(
        refused(&mut g, "unwild 0 JK"),
        "I-22",
        "a wild canasta stays"
    );
}

/// D-11.4: a group becomes a canasta when brought to 7; a black canasta never
/// exceeds 7 cards: a natural joins it only while a wild leaves (swap).
#[test]
fn d11_4_black_canasta_never_exceeds_seven() {
    let mut g = P::meld()
        .table(
            0,
            &["8C 8D 8S 8H 8C 2C JK", "KC KD KH", "9C 9C 9D 9D 9H 9H"],
        )
        .hand(0, "8D 8H 9S QC QD")
        .state();
    assert_eq!(refused(&mut g, "extend 0 8D"), "D-11.4");
    act(&mut g, "extend 2 9S");
    assert_eq!(
        g.table(0).group(2).unwrap().canasta_kind(),
        Some(CanastaKind::Red),
        "6 → 7: a canasta"
    );
    act(&mut g, "swap 0 8D JK; extend 1 JK");
    assert_eq!(group(&g, 0, 0), cs("8C 8C 8D 8D 8S 8H 2C"));
    assert_eq!(
        g.table(0).group(0).unwrap().canasta_kind(),
        Some(CanastaKind::Black)
    );
    assert_eq!(refused(&mut g, "extend 0 8H"), "D-11.4", "still 7 at most");
    act(&mut g, "discard QC");
}

/// I-13 `swap` (default): a wild leaves a black canasta only when a natural
/// of its rank replaces it in the same move, so it stays a canasta; taking
/// all wilds out for naturals makes it red. `unwild` and `convert` are refused.
#[test]
fn i13_black_canasta_wilds_swap() {
    let mut g = P::meld()
        .table(0, &["8C 8D 8S 8H 8C 2C JK", "QC QD QH QS QC"])
        .hand(0, "8D 8H KC KD 5C")
        .state();
    assert_eq!(
        Rules::default().black_canasta_wilds,
        rules(&["black_canasta_wilds=swap"]).black_canasta_wilds
    );
    assert_eq!(refused(&mut g, "unwild 0 JK"), "I-13");
    assert_eq!(refused(&mut g, "convert 0 8D 8H"), "I-13");
    assert_eq!(
        refused(&mut g, "swap 0 KC JK"),
        "I-13",
        "not a natural of its rank"
    );
    act(&mut g, "swap 0 8D JK; extend 1 JK");
    assert_eq!(
        g.table(0).group(0).unwrap().canasta_kind(),
        Some(CanastaKind::Black)
    );
    assert_eq!(g.table(0).group(0).unwrap().wilds(), 1, "5 + 2 → 6 + 1");
    act(&mut g, "swap 0 8H 2C; extend 1 2C; discard 5C");
    assert_eq!(
        g.table(0).group(0).unwrap().canasta_kind(),
        Some(CanastaKind::Red)
    );
    assert_eq!(group(&g, 0, 1), cs("QC QC QD QH QS 2C JK"));
}

/// I-13 `convert_only`: all wilds leave a black canasta at once, naturals
/// making it red (7) or gold (8); a single swap is refused.
#[test]
fn i13_black_canasta_wilds_convert_only() {
    let mut g = P::meld()
        .rules(&["black_canasta_wilds=convert_only"])
        .table(0, &["8C 8D 8S 8H 8C 2C JK", "QC QD QH QS QC"])
        .hand(0, "8D 8H KC KD 5C")
        .state();
    assert_eq!(refused(&mut g, "swap 0 8D JK"), "I-13");
    assert_eq!(refused(&mut g, "unwild 0 JK"), "I-13");
    assert_eq!(
        refused(&mut g, "convert 0 8D"),
        "I-13",
        "6 naturals is no canasta"
    );
    act(&mut g, "convert 0 8D 8H");
    assert_eq!(
        g.table(0).group(0).unwrap().canasta_kind(),
        Some(CanastaKind::Red)
    );
    assert_eq!(g.pending_wilds(), cs("2C JK"));
    act(&mut g, "extend 1 2C; extend 1 JK; discard 5C");
    assert_eq!(
        g.table(0).group(1).unwrap().canasta_kind(),
        Some(CanastaKind::Black)
    );

    // Four naturals for three wilds: gold.
    let mut g = P::meld()
        .rules(&["black_canasta_wilds=convert_only"])
        .table(0, &["8C 8D 8S 8H 2C 2D JK", "QC QD QH QS QC"])
        .hand(0, "8C 8D 8S 8H KC KD KH 5C")
        .state();
    act(&mut g, "convert 0 8C 8D 8S 8H");
    assert_eq!(
        g.table(0).group(0).unwrap().canasta_kind(),
        Some(CanastaKind::Gold)
    );
    act(&mut g, "extend 1 2C; extend 1 2D; lay KC KD JK; discard 5C");
}

/// I-22 `wild_canasta = locked` (default): no wild ever leaves a wild
/// canasta; `open`: D-11.2 applies and the group stays legal at 3–6 wilds.
#[test]
fn i22_wild_canasta_locked_and_open() {
    let p = P::meld()
        .table(0, &["2C 2D JK JK JK JK JK", "KC KD KH KS KC"])
        .hand(0, "5C 6D 7H");
    let mut g = p.clone().state();
    assert_eq!(
        Rules::default().wild_canasta,
        rules(&["wild_canasta=locked"]).wild_canasta
    );
    assert_eq!(refused(&mut g, "unwild 0 JK"), "I-22");
    assert_eq!(refused(&mut g, "unwild 0 2C"), "I-22");

    let mut g = p.rules(&["wild_canasta=open"]).state();
    act(&mut g, "unwild 0 JK; extend 1 JK; discard 5C");
    let w = g.table(0).group(0).unwrap();
    assert!(w.is_wild_only() && w.is_legal() && !w.is_canasta());
    assert_eq!(w.wilds(), 6);
    assert_eq!(group(&g, 0, 1), cs("KC KC KD KH KS JK"));
}

/// D-11.5: a group laid this turn may be taken back into the hand before the
/// discard (e.g. when the opening minimum cannot be reached); anything laid
/// in an earlier turn stays.
#[test]
fn d11_5_take_back_this_turn_only() {
    let mut g = P::meld()
        .table(0, &["8C 8D 8S"])
        .hand(0, "KC KD KH 5C 6D")
        .state();
    act(&mut g, "lay KC KD KH; takeback 1");
    assert_eq!(g.hand(0), cs("KC KD KH 5C 6D"));
    assert_eq!(g.table(0).len(), 1);
    assert_eq!(
        refused(&mut g, "takeback 0"),
        "D-12.2",
        "laid in an earlier turn"
    );

    // Short of the opening minimum: take it back and just discard (the
    // queens would have made it 60).
    let mut g = P::meld().hand(0, "KC KD KH QC QD QH 5C 6D").state();
    act(&mut g, "lay KC KD KH");
    assert_eq!(refused(&mut g, "discard 5C"), "D-8.2", "30 < 50");
    act(&mut g, "takeback 0; discard 5C");
    assert!(!g.table(0).opened && g.table(0).is_empty());
    assert_eq!(g.hand(0), cs("KC KD KH QC QD QH 6D"));
}

/// D-11.5, I-25: a group laid this turn that received no wild goes back to
/// the hand whole, a second copy of a card the hand holds included, while
/// a wild moved into a later group keeps its way back: that group's index
/// in the turn's log shifts down with it, and taking it back returns the
/// wild where it came from.
#[test]
fn d11_5_take_back_past_a_wild_moved_elsewhere() {
    let mut g = P::meld()
        .table(0, &["8C 8D 8S JK", "9C 9D 9S"])
        .hand(0, "KC KC KD KH QC QD QH 5C 6D")
        .state();
    act(
        &mut g,
        "lay KC KD KH; lay QC QD QH; unwild 0 JK; extend 3 JK",
    );
    assert_eq!(group(&g, 0, 3), cs("QC QD QH JK"));
    act(&mut g, "takeback 2");
    assert_eq!(g.hand(0), cs("KC KC KD KH 5C 6D"));
    assert_eq!(group(&g, 0, 2), cs("QC QD QH JK"));
    act(&mut g, "takeback 2");
    assert_eq!(g.table(0).len(), 2);
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8S JK"), "the joker returned");
    assert_eq!(g.hand(0), cs("KC KC KD KH QC QD QH 5C 6D"));
}

/// I-12, D-11.2: with a wild pending, a lay of a rank the table holds is
/// listed only where the rules allow more than one group a rank; lays of
/// a new rank and of wilds only are listed under either rule, lays of two
/// ranks under neither.
#[test]
fn i12_lays_listed_with_a_wild_pending() {
    let p = P::meld()
        .table(0, &["8C 8D 8S JK", "9C 9D 9S"])
        .hand(0, "8H 8H 9H KC KD 2C 2D 5C 6D");
    for (setting, same_rank) in [
        ("groups_per_rank=one", false),
        ("groups_per_rank=many", true),
    ] {
        let mut g = p.clone().rules(&[setting]).state();
        act(&mut g, "unwild 0 JK");
        assert_eq!(is_legal(&g, "lay 8H 8H JK"), same_rank, "{setting}");
        assert!(is_legal(&g, "lay KC KD JK"), "{setting}");
        assert!(is_legal(&g, "lay 2C 2D JK"), "{setting}");
        assert!(!is_legal(&g, "lay 8H 9H JK"), "{setting}");
    }
}
