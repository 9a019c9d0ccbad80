//! Classic canasta, rule by rule (C-1 … C-24 of RULES.md), each preset's
//! variant where the presets differ. Positions are laid out with
//! `ClassicSetup`; actions are written in the classic notation
//! (`take 8 2 0 0`, `lay 9 2 1 0`, `extend 9 JK`, `discard 4`, …).

use kanaszta_engine::classic::testing::{cards as cs, ordered, position, setup, table};
use kanaszta_engine::classic::*;

fn rules(preset: &str, players: u8) -> ClassicRules {
    let mut r = ClassicRules::preset(preset).unwrap();
    r.players = players;
    r
}

fn act(s: &str) -> ClassicAction {
    s.parse().unwrap()
}

fn legal(g: &ClassicState) -> Vec<ClassicAction> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

fn refused(g: &ClassicState, a: &str) -> String {
    let mut c = g.clone();
    let e = c.apply(act(a)).unwrap_err();
    assert_eq!(&c, g, "a refused action changes nothing");
    e.rule.to_string()
}

fn apply(g: &mut ClassicState, actions: &[&str]) {
    for a in actions {
        g.apply(act(a)).unwrap_or_else(|e| panic!("{a}: {e}"));
    }
}

#[test]
fn c1_pack_of_108_or_110() {
    assert_eq!(classic_pack(4).len(), 108);
    assert_eq!(classic_pack(6).len(), 110);
    for (p, n) in [
        ("classic-002", 108),
        ("classic-003", 108),
        ("classic-004", 110),
    ] {
        let g = ClassicState::new(rules(p, 2), 3, 0, [0; 6]);
        assert_eq!(g.all_cards().unwrap().len(), n, "{p}");
        assert_eq!(g.all_cards().unwrap().jokers(), n - 104);
    }
}

#[test]
fn c2_deal_sizes_and_partnerships() {
    for (p, three) in [
        ("classic-002", 13),
        ("classic-003", 13),
        ("classic-004", 15),
    ] {
        for (players, n) in [(2, 15), (3, three), (4, 11), (5, 11), (6, 11)] {
            let g = ClassicState::new(rules(p, players), 5, 0, [0; 6]);
            for q in 0..players as usize {
                if q != g.current_player() {
                    // the mover may have replaced red threes; the others hold the deal
                    assert_eq!(g.hand(q).len() as usize, n, "{p} {players}p");
                }
            }
        }
    }
    let r = rules("classic-002", 4);
    assert!(r.partnerships());
    assert_eq!(
        (r.side_of(0), r.side_of(1), r.side_of(2), r.side_of(3)),
        (0, 1, 0, 1)
    );
    assert_eq!(rules("classic-002", 6).sides(), 6);
}

#[test]
fn c3_turned_card_and_first_player() {
    let g = ClassicState::new(rules("classic-002", 3), 9, 1, [0; 6]);
    assert_eq!(g.current_player(), 2, "the player after the dealer begins");
    assert_eq!(g.pile().len(), 1, "one card turned under 002");
}

#[test]
fn c4_wild_limits_by_preset() {
    let (a, b, c) = (
        rules("classic-002", 2),
        rules("classic-003", 2),
        rules("classic-004", 2),
    );
    // 002: at least two naturals, at most three wilds.
    assert!(a.meld_ok(2, 1) && a.meld_ok(4, 3) && !a.meld_ok(4, 4) && !a.meld_ok(1, 2));
    // 003: no more wilds than naturals, even more than three.
    assert!(b.meld_ok(4, 4) && !b.meld_ok(3, 4) && b.meld_ok(2, 2));
    // 004: 2 naturals in 3–4 cards, 3 in 5–6, 4 in 7+, never more than 3 wilds.
    assert!(c.meld_ok(2, 2) && !c.meld_ok(2, 3) && c.meld_ok(3, 3) && !c.meld_ok(3, 4));
    assert!(c.meld_ok(4, 3) && !c.meld_ok(5, 4));
    // A lay over the limit is refused, naming C-4.
    let mut g = position(
        a,
        &["8C 8D 9S 2C 2D JK KS", "4C 4D 5S"],
        &[table(&["AS AH AD"], ""), SideTable::default()],
        "6C",
        "7D",
    );
    apply(&mut g, &["draw"]);
    assert_eq!(refused(&g, "lay 8 1 2 0"), "C-4");
    apply(&mut g, &["lay 8 2 1 0", "extend 8 2", "extend 8 JK"]);
    assert_eq!(
        g.table(0).melds[Kind::of("8C".parse().unwrap()).unwrap().index()].wild_count(),
        3
    );
}

#[test]
fn c4_wilds_once_laid_stay() {
    // No action takes a wild off the table: the listing never moves one.
    let g = position(
        rules("classic-002", 2),
        &["8C 8D 9S 9C KS", "4C 4D 5S"],
        &[table(&["AS AH 2D"], ""), SideTable::default()],
        "6C",
        "7D",
    );
    let mut g = g;
    apply(&mut g, &["draw"]);
    for a in legal(&g) {
        let mut c = g.clone();
        c.apply(a).unwrap();
        assert!(
            c.table(0).melds[Kind::natural(kanaszta_engine::Rank::Ace).unwrap().index()]
                .wild_count()
                >= 1,
            "{a}"
        );
    }
}

#[test]
fn c5_canasta_values_natural_mixed_wild() {
    let mut g = position(
        rules("classic-003", 2),
        &["8C 9S", "4C 4D 5S"],
        &[
            table(
                &[
                    "KS KS KH KH KD KD KC",
                    "QS QS QH QH 2D 2D JK",
                    "2C 2C 2H 2H 2S 2S JK",
                ],
                "",
            ),
            SideTable::default(),
        ],
        "6C",
        "7D",
    );
    apply(&mut g, &["draw"]);
    let s = g.side_score(0);
    assert_eq!(s.canastas, 500 + 300 + 700, "003: natural, mixed, wild");
    let mut r = rules("classic-004", 2);
    r.players = 2;
    assert_eq!(r.wild_canasta, 1000);
    assert_eq!(rules("classic-002", 2).wild_canasta, 0, "002 has none");
    let mut g = position(
        rules("classic-002", 2),
        &["2C 2C 2H 2H 2S 2S JK 5C", "4C 4D 5S"],
        &[table(&["AS AH AD"], ""), SideTable::default()],
        "6C",
        "7D",
    );
    apply(&mut g, &["draw"]);
    assert_eq!(refused(&g, "lay W 0 6 1"), "C-5");
}

#[test]
fn c6_opening_minimum_by_total() {
    let a = rules("classic-002", 2);
    for (t, m) in [
        (-10, 0),
        (0, 50),
        (1495, 50),
        (1500, 90),
        (2995, 90),
        (3000, 120),
    ] {
        assert_eq!(a.opening_minimum(t), m, "002 at {t}");
    }
    let c = rules("classic-004", 2);
    for (t, m) in [(-10, 50), (1500, 50), (1501, 90), (3000, 90), (3001, 120)] {
        assert_eq!(c.opening_minimum(t), m, "004 at {t}");
    }
}

#[test]
fn c7_pickup_ways_and_closed_pile() {
    // An open pile for a side that has melded: a pair, a natural and a wild,
    // or the top card onto the side's meld (002).
    let t = table(&["8S 8H 8D"], "");
    let g = position(
        rules("classic-002", 2),
        &["8C 8C 9S 2C KS QS", "4C 4D 5S"],
        &[t, SideTable::default()],
        "5D 8D",
        "7D",
    );
    let l = legal(&g);
    for a in ["take 8 2 0 0", "take 8 1 1 0", "take 8 0 0 0"] {
        assert!(l.contains(&act(a)), "{a} in {l:?}");
    }
    // 004: never the top card onto a meld.
    let g4 = position(
        rules("classic-004", 2),
        &["8C 8C 9S 2C KS QS", "4C 4D 5S"],
        &[t, SideTable::default()],
        "5D 8D",
        "7D",
    );
    assert_eq!(refused(&g4, "take 8 0 0 0"), "C-7");
    assert!(legal(&g4).contains(&act("take 8 1 1 0")));
    // 002: closed for a side that has not melded: a natural pair only.
    let g = position(
        rules("classic-002", 2),
        &["8C 8C 9S 2C KS QS JK AS AD", "4C 4D 5S"],
        &[SideTable::default(), SideTable::default()],
        "5D 8D",
        "7D",
    );
    assert_eq!(refused(&g, "take 8 1 1 0"), "C-14");
    // Taking the pile takes all of it.
    let mut g = position(
        rules("classic-002", 2),
        &["8C 8C 9S KS QS", "4C 4D 5S"],
        &[t, SideTable::default()],
        "5D 6C 8D",
        "7D",
    );
    apply(&mut g, &["take 8 2 0 0", "rest"]);
    assert!(g.pile().is_empty());
    assert!(g.hand(0).contains("5D".parse().unwrap()) && g.hand(0).contains("6C".parse().unwrap()));
}

#[test]
fn c8_red_threes_scored_and_replaced() {
    // A drawn red three is laid and replaced.
    let mut g = position(
        rules("classic-002", 2),
        &["8C 9S KS", "4C 4D 5S"],
        &[table(&["AS AH AD"], ""), SideTable::default()],
        "6C",
        "7D 3H",
    );
    apply(&mut g, &["draw"]);
    assert_eq!(g.table(0).red_threes, cs("3H"));
    assert!(g.hand(0).contains("7D".parse().unwrap()));
    // 100 each, 800 for four; minus as much for a side that melded nothing.
    let g = position(
        rules("classic-002", 2),
        &["8C 9S KS", "4C 4D 5S"],
        &[table(&["AS AH AD"], "3H 3H 3D 3D"), SideTable::default()],
        "6C",
        "7D",
    );
    let g = {
        let mut g = g;
        g.apply(act("draw")).unwrap();
        g
    };
    assert_eq!(g.side_score(0).red_threes, 800);
    let mut g = position(
        rules("classic-002", 2),
        &["8C 9S KS", "4C 4D 5S"],
        &[table(&["AS AH AD"], "3H"), table(&[], "3D")],
        "6C",
        "7D",
    );
    g.apply(act("draw")).unwrap();
    assert_eq!(g.side_score(0).red_threes, 100);
    assert_eq!(g.side_score(1).red_threes, -100);
    // 004: five more per three.
    let mut g = position(
        rules("classic-004", 2),
        &["8C 9S KS", "4C 4D 5S"],
        &[table(&["AS AH AD"], "3H"), table(&[], "3H 3D 3D")],
        "6C",
        "7D",
    );
    g.apply(act("draw")).unwrap();
    assert_eq!(g.side_score(1).red_threes, -315);
}

#[test]
fn c9_card_values() {
    let v = |s: &str| value_of(cs(s));
    assert_eq!(v("JK"), 50);
    assert_eq!(v("AS"), 20);
    assert_eq!(v("2C"), 20);
    assert_eq!(v("KD"), 10);
    assert_eq!(v("8D"), 10);
    assert_eq!(v("7D"), 5);
    assert_eq!(v("4D"), 5);
    assert_eq!(v("3S"), 5);
}

#[test]
fn c10_going_out_needs_canastas() {
    let full = "KS KS KH KH KD KD KC";
    // 002 with two players: two canastas. Laying three nines would leave
    // one card, and no way to end the turn: refused (I-9).
    let mut g = position(
        rules("classic-002", 2),
        &["9C 9S 9H", "4C 4D 5S"],
        &[table(&[full], ""), SideTable::default()],
        "6C",
        "9D",
    );
    apply(&mut g, &["draw"]);
    assert_eq!(refused(&g, "lay 9 3 0 0"), "I-9");
    // 003: one.
    let mut g = position(
        rules("classic-003", 2),
        &["9C 9S 9H", "4C 4D 5S"],
        &[table(&[full], ""), SideTable::default()],
        "6C",
        "9D",
    );
    apply(&mut g, &["draw", "lay 9 3 0 0", "discard 9"]);
    assert!(matches!(
        g.end(),
        Some(ClassicEnd::WentOut {
            player: 0,
            concealed: false
        })
    ));
    assert_eq!(g.side_score(0).going_out, 100);
    // Going out by melding every card, without a discard.
    let mut g = position(
        rules("classic-003", 2),
        &["KC", "4C 4D 5S"],
        &[table(&["KS KS KH KH KD KD"], ""), SideTable::default()],
        "6C",
        "KC",
    );
    apply(&mut g, &["draw", "extend K K", "extend K K", "end"]);
    assert!(matches!(g.end(), Some(ClassicEnd::WentOut { .. })));
}

#[test]
fn c11_stock_empty_ends_the_hand() {
    let mut s = ClassicSetup::new(rules("classic-002", 2));
    // Everything in hands, tables and pile: an empty stock.
    let mut pack = classic_pack(4);
    let h0 = cs("8C 9S KS");
    let pile = ordered("5D 6C");
    pack = pack.checked_sub(h0).unwrap();
    for c in &pile {
        pack.remove(*c);
    }
    let reds = cs("3H 3H 3D 3D");
    pack = pack.checked_sub(reds).unwrap();
    s.hands[0] = h0;
    s.hands[1] = pack;
    s.tables[0].red_threes = reds;
    s.pile = pile;
    let g = s.into_state().unwrap();
    assert_eq!(g.stock_len(), 0);
    assert_eq!(legal(&g), vec![act("endhand")]);
    let mut g = g;
    apply(&mut g, &["endhand"]);
    assert_eq!(g.end(), Some(ClassicEnd::StockOut));
}

#[test]
fn c12_c24_match_to_5000() {
    let mut r = rules("classic-002", 2);
    r.target = 1;
    let mut m = ClassicMatch::new(r, 3);
    let mut g = m.next_hand();
    let mut l = Vec::new();
    while !g.is_terminal() {
        g.legal_actions(&mut l);
        let a = *l.last().unwrap();
        g.apply(a).unwrap();
    }
    let res = m.record(&g);
    let t = m.totals().to_vec();
    match res {
        ClassicMatchResult::Won(s) => {
            assert!(t[s as usize] >= 1 && t.iter().all(|&x| x <= t[s as usize]))
        }
        ClassicMatchResult::Playing => assert!(t[0] == t[1] || t.iter().all(|&x| x < 1)),
        ClassicMatchResult::Drawn => unreachable!(),
    }
    assert_eq!(ClassicRules::default().target, 5000);
}

#[test]
fn c13_wild_on_top() {
    // 002 `pair`: any natural pair takes it.
    let g = position(
        rules("classic-002", 2),
        &["9C 9S KS QS", "4C 4D 5S"],
        &[table(&["AS AH AD"], ""), SideTable::default()],
        "5D 2C",
        "7D",
    );
    assert!(legal(&g).contains(&act("take 9 2 0 0")));
    // 003 `forbidden`.
    let g = position(
        rules("classic-003", 2),
        &["9C 9S KS QS", "4C 4D 5S"],
        &[table(&["AS AH AD"], ""), SideTable::default()],
        "5D 2C",
        "7D",
    );
    assert_eq!(refused(&g, "take 9 2 0 0"), "C-13");
    // 004 `under`: a discarded wild goes under the pile and freezes it.
    let mut g = position(
        rules("classic-004", 2),
        &["9C 2S KS QS", "4C 4D 5S"],
        &[table(&["AS AH AD"], ""), SideTable::default()],
        "5D 6C",
        "7D",
    );
    apply(&mut g, &["draw", "discard 2"]);
    assert_eq!(g.pile_top(), Some("6C".parse().unwrap()));
    assert_eq!(g.pile()[0], "2S".parse().unwrap());
    assert!(g.pile_frozen());
}

#[test]
fn c14_frozen_pile_natural_pair_only() {
    let t = table(&["8S 8H 8D"], "");
    let g = position(
        rules("classic-002", 2),
        &["8C 8C 2C KS QS", "4C 4D 5S"],
        &[t, SideTable::default()],
        "JK 5D 8D",
        "7D",
    );
    assert!(g.pile_frozen());
    assert_eq!(refused(&g, "take 8 0 0 0"), "C-14");
    assert!(legal(&g).contains(&act("take 8 2 0 0")));
}

#[test]
fn c15_black_three_on_top() {
    let t = table(&["KS KS KH KH KD KD KC"], "");
    let hands = ["3C 3S 2C", "4C 4D 5S"];
    // 002: blocked for the next player.
    let g = position(
        rules("classic-002", 2),
        &hands,
        &[t, SideTable::default()],
        "5D 3S",
        "7D",
    );
    assert!(!legal(&g)
        .iter()
        .any(|a| matches!(a, ClassicAction::TakePile { .. })));
    // 003: only by a player who goes out with it.
    let mut g = position(
        rules("classic-003", 2),
        &hands,
        &[t, SideTable::default()],
        "3S",
        "7D",
    );
    assert!(legal(&g).contains(&act("take 3 2 0 0")));
    apply(&mut g, &["take 3 2 0 0", "rest", "discard 2"]);
    assert!(matches!(g.end(), Some(ClassicEnd::WentOut { .. })));
}

#[test]
fn c16_black_three_melds_only_going_out() {
    for (p, ok, bad) in [
        ("classic-002", (2, 1), (1, 2)),
        ("classic-003", (2, 2), (2, 3)),
        ("classic-004", (2, 1), (2, 2)),
    ] {
        let r = rules(p, 2);
        assert!(r.black_three_meld_ok(ok.0, ok.1), "{p}");
        assert!(!r.black_three_meld_ok(bad.0, bad.1), "{p}");
    }
    assert!(rules("classic-004", 2).black_three_meld_ok(3, 0));
    let t = table(&["KS KS KH KH KD KD KC"], "");
    let mut g = position(
        rules("classic-003", 2),
        &["3C 3S 3S 9D 9C", "4C 4D 5S"],
        &[t, SideTable::default()],
        "5D",
        "7D",
    );
    apply(&mut g, &["draw"]);
    // Not going out: no black-three meld is listed.
    assert!(!legal(&g).contains(&act("lay 3 3 0 0")));
}

#[test]
fn c17_minimum_met_by_what_is_laid() {
    // 50 needed: three aces (60) open, three fives (15) do not.
    let mut g = position(
        rules("classic-002", 2),
        &["AS AH AD 5C 5D 5S KS", "4C 4D 5S"],
        &[SideTable::default(), SideTable::default()],
        "6C",
        "7D",
    );
    apply(&mut g, &["draw"]);
    let l = legal(&g);
    assert!(l.contains(&act("lay A 3 0 0")));
    apply(&mut g, &["lay 5 3 0 0"]);
    assert_eq!(refused(&g, "discard K"), "C-17");
    apply(&mut g, &["lay A 3 0 0", "discard K"]);
    // 004: a canasta from the hand waives it.
    let mut g = position(
        rules("classic-004", 2),
        &["5C 5C 5D 5D 5S 5S 5H 9S", "4C 4D 6S"],
        &[SideTable::default(), SideTable::default()],
        "6C",
        "7D",
    );
    apply(
        &mut g,
        &[
            "draw",
            "lay 5 3 0 0",
            "extend 5 5",
            "extend 5 5",
            "extend 5 5",
            "extend 5 5",
            "discard 9",
        ],
    );
    assert_eq!(g.table(0).melds[1].len(), 7, "seven fives (35) opened");
}

#[test]
fn c17_pickup_counts_the_top_and_what_is_laid_before_the_rest() {
    // Pair of kings and the top king: 30 < 50; with three aces laid before
    // the rest it opens.
    let mut g = position(
        rules("classic-002", 2),
        &["KS KH AS AH AD 9C 9D", "4C 4D 5S"],
        &[SideTable::default(), SideTable::default()],
        "QC QD KD",
        "7D",
    );
    apply(&mut g, &["take K 2 0 0"]);
    assert_eq!(refused(&g, "rest"), "C-17");
    apply(&mut g, &["lay A 3 0 0", "rest", "discard 9"]);
}

#[test]
fn c18_ask_and_answer() {
    let full = "KS KS KH KH KD KD KC";
    let tables = [table(&[full], ""), SideTable::default()];
    let hands = ["9C 9S 9H", "4C 4D 5S", "6S 6C 9H", "5D 5H 8D"];
    // "no": he may not go out this turn.
    let mut g = position(rules("classic-002", 4), &hands, &tables, "6D", "9D");
    apply(&mut g, &["ask"]);
    assert_eq!(g.current_player(), 2, "the partner answers");
    apply(&mut g, &["no", "draw"]);
    assert_eq!(refused(&g, "lay 9 3 0 0"), "I-9");
    apply(&mut g, &["discard 9"]);
    // "yes" and he can: only going out is legal.
    let mut g = position(rules("classic-002", 4), &hands, &tables, "6D", "9D");
    apply(&mut g, &["ask", "yes", "draw"]);
    assert_eq!(refused(&g, "discard 9"), "C-18");
    apply(&mut g, &["lay 9 3 0 0", "discard 9"]);
    assert!(matches!(g.end(), Some(ClassicEnd::WentOut { .. })));
    // "yes" and he cannot: the side loses 100.
    let hands2 = ["8C 4H 7H", "4C 4D 5S", "6S 6C 9H", "5D 5H 8D"];
    let mut g = position(rules("classic-002", 4), &hands2, &tables, "6D", "9S");
    apply(&mut g, &["ask", "yes", "draw", "discard 9"]);
    assert_eq!(g.failed_yes(0), 1);
    assert_eq!(g.side_score(0).failed_yes, -100);
    // 004: going out needs the question; "no" only if the partner could lay.
    let mut g = position(rules("classic-004", 4), &hands, &tables, "6D", "9D");
    apply(&mut g, &["draw"]);
    assert_eq!(refused(&g, "lay 9 3 0 0"), "I-9");
    let mut g = position(rules("classic-004", 4), &hands, &tables, "6D", "9D");
    apply(&mut g, &["ask"]);
    assert_eq!(
        refused(&g, "no"),
        "C-18",
        "partner 2 holds nothing he could lay"
    );
    let hands3 = ["9C 9S 9H", "4C 4D 5S", "KC 6C 9H", "5D 5H 8D"];
    let mut g = position(rules("classic-004", 4), &hands3, &tables, "6D", "9D");
    apply(&mut g, &["ask", "no"]);
}

#[test]
fn c19_concealed_going_out() {
    let mut g = position(
        rules("classic-003", 2),
        &["KC KC KD KD KS KS 9S", "4C 4D 6S"],
        &[SideTable::default(), SideTable::default()],
        "6C",
        "KH",
    );
    apply(
        &mut g,
        &[
            "draw",
            "lay K 3 0 0",
            "extend K K",
            "extend K K",
            "extend K K",
            "extend K K",
            "discard 9",
        ],
    );
    assert_eq!(
        g.end(),
        Some(ClassicEnd::WentOut {
            player: 0,
            concealed: true
        })
    );
    assert_eq!(g.side_score(0).going_out, 200);
}

#[test]
fn c20_one_meld_per_rank_partners_share() {
    let t = table(&["8S 8H 8D"], "");
    let mut g = position(
        rules("classic-002", 4),
        &["8C 8C 8H 9S KS", "4C 4D 5S", "6S", "7S"],
        &[t, SideTable::default()],
        "6C",
        "7D",
    );
    apply(&mut g, &["draw"]);
    assert_eq!(refused(&g, "lay 8 3 0 0"), "C-20");
    apply(&mut g, &["extend 8 8"]);
    assert_eq!(
        g.table(0).melds[Kind::of("8C".parse().unwrap()).unwrap().index()].len(),
        4
    );
    // 004: only naturals join a completed canasta.
    let mut g = position(
        rules("classic-004", 2),
        &["8C 2C 9S KS", "4C 4D 5S"],
        &[table(&["8S 8H 8D 8D 8H 8S 2D"], ""), SideTable::default()],
        "6C",
        "7D",
    );
    apply(&mut g, &["draw"]);
    assert_eq!(refused(&g, "extend 8 2"), "C-20");
    apply(&mut g, &["extend 8 8"]);
}

#[test]
fn c21_wild_canasta_seven_wilds() {
    let mut g = position(
        rules("classic-004", 2),
        &["2C 2C 2H 2H 2S 2S JK 9S KS", "4C 4D 5S"],
        &[table(&["AS AH AD"], ""), SideTable::default()],
        "6C",
        "7D",
    );
    apply(&mut g, &["draw"]);
    assert_eq!(refused(&g, "lay W 0 5 1"), "C-21");
    apply(&mut g, &["lay W 0 6 1"]);
    assert_eq!(g.table(0).canastas(), 1);
    assert_eq!(g.side_score(0).canastas, 1000);
}

#[test]
fn c22_dealer_rotation_and_turned_card() {
    // The first dealer from the seed, then the deal passes on.
    let r = rules("classic-002", 3);
    let mut m = ClassicMatch::new(r, 17);
    let d0 = m.dealer();
    let mut g = m.next_hand();
    assert_eq!(g.current_player(), (d0 + 1) % 3);
    let mut l = Vec::new();
    while !g.is_terminal() {
        g.legal_actions(&mut l);
        g.apply(*l.last().unwrap()).unwrap();
    }
    m.record(&g);
    assert_eq!(m.dealer(), (d0 + 1) % 3);
    // 004: a turned red three or wild is covered; the first player may take
    // the top card alone.
    for seed in 0..40 {
        let g = ClassicState::new(rules("classic-004", 2), seed, 0, [0; 6]);
        let top = g.pile_top().unwrap();
        assert!(!top.is_red_three() && !top.is_wild(), "seed {seed}");
        // A turned black three blocks the first player (C-15).
        assert_eq!(
            legal(&g).contains(&act("turned")),
            !top.is_black_three(),
            "seed {seed}"
        );
        let g2 = ClassicState::new(rules("classic-002", 2), seed, 0, [0; 6]);
        assert!(!legal(&g2).contains(&act("turned")));
    }
}

#[test]
fn c23_scores_and_last_red_three() {
    // The last stock card a red three: laid, melds, no discard, the hand ends.
    let mut s = ClassicSetup::new(rules("classic-002", 2));
    let mut pack = classic_pack(4);
    let h0 = cs("8C 8D 8S 9S KS");
    pack = pack.checked_sub(h0).unwrap();
    let pile = ordered("5D 6C");
    for c in &pile {
        pack.remove(*c);
    }
    pack.remove("3H".parse().unwrap());
    s.hands[0] = h0;
    s.hands[1] = pack;
    s.pile = pile;
    s.stock_top = ordered("3H");
    s.tables[0] = table(&["AS AH AD"], "");
    s.hands[1] = s.hands[1].checked_sub(cs("AS AH AD")).unwrap();
    let mut g = s.into_state().unwrap();
    apply(&mut g, &["draw"]);
    assert_eq!(refused(&g, "discard 9"), "C-23");
    apply(&mut g, &["lay 8 3 0 0", "end"]);
    assert_eq!(g.end(), Some(ClassicEnd::StockOut));
    let sc = g.side_score(0);
    assert_eq!(sc.melds, 60 + 30);
    assert_eq!(sc.red_threes, 100);
    assert_eq!(sc.in_hand, -20);
    assert_eq!(
        sc.total,
        sc.melds + sc.canastas + sc.red_threes + sc.going_out + sc.in_hand + sc.failed_yes
    );
}

#[test]
fn c24_players_each_for_himself_but_four() {
    for p in [2u8, 3, 5, 6] {
        assert_eq!(rules("classic-004", p).sides(), p as usize);
    }
    assert_eq!(rules("classic-004", 4).sides(), 2);
}

#[test]
fn presets_and_bad_switches() {
    let r = ClassicRules::preset("classic-004").unwrap();
    assert_eq!(
        (r.jokers, r.deal_three, r.wild_top),
        (6, 15, WildTop::Under)
    );
    let e = ClassicRules::preset("classic-9").unwrap_err().to_string();
    assert!(
        e.contains("classic-002") && e.contains("classic-004"),
        "{e}"
    );
    let mut r = ClassicRules::default();
    let e = r.set("wild_top", "sideways").unwrap_err().to_string();
    assert!(e.contains("pair") && e.contains("under"), "{e}");
    let e = r.set("nonsense", "1").unwrap_err().to_string();
    assert!(e.contains("wild_limit"), "{e}");
    assert!(r.apply_settings(["players=4", "jokers=6"]).is_ok());
    assert_eq!((r.players, r.jokers), (4, 6));
    assert!(r.set("players", "7").is_err());
    assert!(r.apply_settings(["players"]).is_err());
}

#[test]
fn actions_round_trip_in_notation() {
    for s in [
        "ask",
        "yes",
        "no",
        "draw",
        "turned",
        "take 8 2 0 0",
        "rest",
        "lay 9 2 1 0",
        "lay W 0 6 1",
        "lay 3 2 1 0",
        "extend K JK",
        "takeback 9",
        "reset",
        "discard 3",
        "end",
        "endhand",
    ] {
        assert_eq!(act(s).to_string(), s);
    }
    let e = "lay".parse::<ClassicAction>().unwrap_err();
    assert_eq!(e.action, "lay");
    assert!(e.to_string().contains("actions are"));
}

/// Every `C-<n>` identifier of RULES.md is named by a test of this file
/// (or the soak).
#[test]
fn every_classic_rule_is_named_by_a_test() {
    // RULES.md lives beside the workspace where it is kept; without it the
    // identifiers it defines, C-1 … C-24, are checked.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let rules_md = ["RULES.md", "docs/RULES.md", "../RULES.md"]
        .iter()
        .find_map(|f| std::fs::read_to_string(format!("{root}/{f}")).ok())
        .unwrap_or_else(|| (1..=24).map(|n| format!("C-{n} ")).collect());
    let me = include_str!("rules_classic.rs");
    let mut ids = std::collections::BTreeSet::new();
    for (i, _) in rules_md.match_indices("C-") {
        let digits: String = rules_md[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        if !digits.is_empty() && (i == 0 || !rules_md.as_bytes()[i - 1].is_ascii_alphanumeric()) {
            ids.insert(digits.parse::<u32>().unwrap());
        }
    }
    assert!(ids.len() >= 24, "{ids:?}");
    for n in ids {
        let name = format!("c{n}_");
        assert!(
            me.contains(&format!("fn {name}")) || me.contains(&format!("_c{n}_")),
            "no test names C-{n}"
        );
    }
}

/// The first turn of a two-player hand under `preset`: player 0 to move,
/// the pile as turned (bottom first).
fn first_turn(preset: &str, hand: &str, pile: &str) -> ClassicState {
    let mut s = setup(rules(preset, 2), &[hand, "4C 4D 5S"], &[], pile, "8H");
    s.turns = 0;
    s.into_state().unwrap()
}

#[test]
fn c22_first_player_takes_turned_card_alone_never_the_pile_004() {
    // 004: the turned 9S alone, as his draw; never the pile beneath it,
    // not even with a natural pair of nines.
    let g = first_turn("classic-004", "9C 9H 5D 6D 7S", "KD 9S");
    assert_eq!(refused(&g, "take 9 2 0 0"), "C-22");
    assert_eq!(refused(&g, "take 9 1 0 0"), "C-22");
    let l = legal(&g);
    assert!(l.contains(&act("turned")) && l.contains(&act("draw")));
    assert!(
        !l.iter()
            .any(|a| matches!(a, ClassicAction::TakePile { .. })),
        "{l:?}"
    );
    let mut t = g.clone();
    apply(&mut t, &["turned"]);
    assert_eq!(
        t.pile().len(),
        1,
        "the KD stays: only the top card is taken"
    );
    assert_eq!(
        Kind::of("9S".parse().unwrap()).unwrap().count_in(t.hand(0)),
        3
    );
    // A turned black three blocks him: he draws.
    let g = first_turn("classic-004", "3C 3S 5D 6D 7S", "KD 3S");
    assert_eq!(refused(&g, "turned"), "C-15");
    assert_eq!(refused(&g, "take 3 2 0 0"), "C-22");
    assert_eq!(legal(&g), vec![act("draw")]);
    // The next player takes the pile as usual.
    let mut s = setup(
        rules("classic-004", 2),
        &["5C 6D 7S", "9C 9H AD AH AS 4D 5S"],
        &[],
        "KD 9S",
        "8H",
    );
    s.turns = 1;
    s.current = 1;
    let g = s.into_state().unwrap();
    assert!(g.is_legal(act("take 9 2 0 0")));
    assert_eq!(refused(&g, "turned"), "C-22");
}

#[test]
fn c22_turned_card_under_002_and_003_stays_and_blocks_as_a_discard() {
    // 002, 003: no turned card alone; a natural pair takes the whole pile.
    for preset in ["classic-002", "classic-003"] {
        let g = first_turn(preset, "9C 9H AD AH AS 6D 7S", "KD 9S");
        assert_eq!(refused(&g, "turned"), "C-22", "{preset}");
        let mut t = g.clone();
        apply(&mut t, &["take 9 2 0 0", "lay A 3 0 0", "rest"]);
        assert!(t.pile().is_empty(), "{preset}");
    }
    // A turned black three counts as one just discarded: 002 blocks the
    // first player; under 003 only a player going out takes it.
    let g = first_turn("classic-002", "3C 3S 5D 6D 7S", "KD 3H 3S");
    assert_eq!(refused(&g, "take 3 2 0 0"), "C-15");
    // (003: he cannot go out here, so no meld phase ends the turn, I-9).
    let g = first_turn("classic-003", "3C 3S 5D 6D 7S", "KD 3S");
    assert_eq!(refused(&g, "take 3 2 0 0"), "I-9");
    // A turned red three stays on top and closes the pile (002).
    let g = first_turn("classic-002", "5D 6D 7S", "KD 3H");
    assert_eq!(g.pile_top().unwrap().to_string(), "3H");
    assert!(g.pile_frozen());
}

/// Four players under `preset`, player 0 to move with the stock empty:
/// the rest of the pack in player 1's hand (his dealt red threes among
/// them: he has not had a turn, the dealer being player 3).
fn stock_empty_four(preset: &str, hand0: &str, pile: &str) -> ClassicState {
    let r = rules(preset, 4);
    let mut s = ClassicSetup::new(r);
    s.dealer = 3;
    s.turns = 0;
    s.hands[0] = cs(hand0);
    s.hands[2] = cs("9S 9D 5C");
    s.hands[3] = cs("6C 7C QH");
    s.tables[0] = table(&["KS KS KH KH KD KD KC"], "");
    s.pile = ordered(pile);
    let mut rest = classic_pack(r.jokers);
    for h in &s.hands {
        rest = rest.checked_sub(*h).unwrap();
    }
    rest = rest.checked_sub(s.tables[0].all()).unwrap();
    for c in &s.pile {
        assert!(rest.remove(*c));
    }
    s.hands[1] = rest;
    s.into_state().unwrap()
}

#[test]
fn c18_yes_then_the_hand_ends_at_the_start_of_the_turn_costs_100() {
    // "yes", and he can neither draw (the stock is empty) nor take the
    // pile: ending the hand is a turn after "yes" that does not go out.
    let mut g = stock_empty_four("classic-002", "8C 4H 7H", "6D 5S");
    assert_eq!(g.stock_len(), 0);
    apply(&mut g, &["ask", "yes"]);
    assert_eq!(legal(&g), vec![act("endhand")]);
    apply(&mut g, &["endhand"]);
    assert_eq!(g.end(), Some(ClassicEnd::StockOut));
    assert_eq!(g.failed_yes(0), 1);
    assert_eq!(g.side_score(0).failed_yes, -100);
    assert_eq!(g.failed_yes(1), 0);
    // Without the question the hand ends uncharged.
    let mut g = stock_empty_four("classic-002", "8C 4H 7H", "6D 5S");
    apply(&mut g, &["endhand"]);
    assert_eq!(g.failed_yes(0), 0);
    // "no" is no promise: uncharged too.
    let mut g = stock_empty_four("classic-002", "8C 4H 7H", "6D 5S");
    apply(&mut g, &["ask", "no", "endhand"]);
    assert_eq!(g.failed_yes(0), 0);
}

#[test]
fn c22_dealt_red_threes_of_a_player_without_a_turn_score_as_laid() {
    // Player 1 (the dealer's left is player 0) never had a turn: the hand
    // ends at player 0's first; his dealt red threes score as laid (C-8):
    // side 1 melded nothing, so they count minus (002: 100 each).
    let g0 = stock_empty_four("classic-002", "8C 4H 7H", "6D 5S");
    let held = g0.hand(1).red_three_count();
    assert_eq!(held, 4, "the rest of the pack holds every red three");
    let mut g = g0.clone();
    apply(&mut g, &["endhand"]);
    assert_eq!(g.hand(1).red_three_count(), 0);
    assert_eq!(g.table(1).red_threes.len(), 4);
    let s1 = g.side_score(1);
    assert_eq!(
        s1.red_threes, -800,
        "four red threes, side 1 melded nothing"
    );
    assert_eq!(
        s1.in_hand,
        -value_of(g0.hand(1)) - value_of(g0.hand(3)),
        "never as cards in hand (red threes have no card value)"
    );
    g.check_invariants().unwrap();
    // Players 0, 1 and 2 never had a turn: player 3, the dealer's left,
    // goes out in the first. Side 0's two dealt red threes count minus
    // (it melded nothing): 100 each under 003, 105 under 004.
    for (preset, ask, minus) in [("classic-003", false, -200), ("classic-004", true, -210)] {
        let mut s = ClassicSetup::new(rules(preset, 4));
        s.dealer = 2;
        s.current = 3;
        s.turns = 0;
        s.hands[0] = cs("3H 4S 8S");
        s.hands[1] = cs("5C 6C");
        s.hands[2] = cs("3D 7C QD");
        s.hands[3] = cs("9C 9S 9H");
        s.tables[1] = table(&["5D 5D 5H 5H 5S 5S 2C"], "");
        s.stock_top = ordered("KD");
        let mut g = s.into_state().unwrap();
        if ask {
            apply(&mut g, &["ask", "yes"]);
        }
        apply(&mut g, &["draw", "lay 9 3 0 0", "discard K"]);
        assert!(
            matches!(g.end(), Some(ClassicEnd::WentOut { player: 3, .. })),
            "{preset}"
        );
        assert_eq!(g.table(0).red_threes.len(), 2, "{preset}");
        assert_eq!(g.side_score(0).red_threes, minus, "{preset}");
        assert_eq!(g.side_score(0).in_hand, -(5 + 10 + 5 + 10), "{preset}");
        g.check_invariants().unwrap();
    }
}

fn meld_of(g: &ClassicState, side: usize, card: &str) -> kanaszta_engine::CardSet {
    g.table(side).melds[Kind::of(card.parse().unwrap()).unwrap().index()]
}

#[test]
fn c4_i24_i25_a_wild_before_the_natural_that_makes_the_meld_legal() {
    // 004: kings 2 + 2 wilds; a third wild needs a third natural (5 cards
    // need 3 naturals). The order of the two steps does not matter: the
    // meld phase is judged on its final state (I-25).
    let start = || {
        let mut g = position(
            rules("classic-004", 2),
            &["KH 2H 9S 4D 5D", "4C 4D 5S"],
            &[table(&["KC KD 2C 2D"], ""), SideTable::default()],
            "6C",
            "7D",
        );
        apply(&mut g, &["draw"]);
        g
    };
    let mut a = start();
    apply(&mut a, &["extend K K", "extend K 2", "discard 9"]);
    let mut b = start();
    apply(&mut b, &["extend K 2"]);
    // Not yet legal as a whole: the turn cannot end before the natural.
    assert_eq!(refused(&b, "discard 9"), "C-4");
    assert!(
        !legal(&b)
            .iter()
            .any(|x| matches!(x, ClassicAction::Discard(_))),
        "{:?}",
        legal(&b)
    );
    b.check_invariants().unwrap();
    apply(&mut b, &["extend K K", "discard 9"]);
    assert_eq!(meld_of(&a, 0, "KC"), meld_of(&b, 0, "KC"));
    assert_eq!(a.hand(0), b.hand(0));
    // Without a natural left to make it legal the wild is refused.
    let mut c = position(
        rules("classic-004", 2),
        &["2H 9S 4D 5D", "4C 4D 5S"],
        &[table(&["KC KD 2C 2D"], ""), SideTable::default()],
        "6C",
        "7D",
    );
    apply(&mut c, &["draw"]);
    assert_eq!(refused(&c, "extend K 2"), "C-4");
    // 003: no more wilds than naturals, in any order.
    let mut g = position(
        rules("classic-003", 2),
        &["9S 2H 4D 5D 6S", "4C 4D 5S"],
        &[table(&["9C 9D 9H 2C 2D JK"], ""), SideTable::default()],
        "6C",
        "7D",
    );
    apply(&mut g, &["draw", "extend 9 2"]);
    assert_eq!(refused(&g, "discard 4"), "C-4");
    apply(&mut g, &["extend 9 9", "discard 4"]);
    assert_eq!(meld_of(&g, 0, "9C").len(), 8);
}

#[test]
fn c20_i25_a_wild_before_the_natural_that_completes_the_canasta_004() {
    // 004: only naturals join a completed canasta. Eights 4 + 2 wilds: a
    // wild then a natural, or a natural then the wild, lay the same cards;
    // in one order the wild comes before the meld has seven (I-25).
    let start = || {
        let mut g = position(
            rules("classic-004", 2),
            &["8C 2H 9S KS 4D", "4C 4D 5S"],
            &[table(&["8S 8H 8D 8D 2C 2D"], ""), SideTable::default()],
            "6C",
            "7D",
        );
        apply(&mut g, &["draw"]);
        g
    };
    let mut a = start();
    apply(&mut a, &["extend 8 2", "extend 8 8", "discard 9"]);
    let mut b = start();
    apply(&mut b, &["extend 8 8", "extend 8 2", "discard 9"]);
    assert_eq!(meld_of(&a, 0, "8C"), meld_of(&b, 0, "8C"));
    assert_eq!(meld_of(&b, 0, "8C").len(), 8);
    // A canasta completed before this meld phase takes no wild at all.
    let mut g = position(
        rules("classic-004", 2),
        &["8C 2H 9S KS 4D", "4C 4D 5S"],
        &[table(&["8S 8H 8D 8D 8H 2C 2D"], ""), SideTable::default()],
        "6C",
        "7D",
    );
    apply(&mut g, &["draw"]);
    assert_eq!(refused(&g, "extend 8 2"), "C-20");
    apply(&mut g, &["extend 8 8"]);
    assert_eq!(refused(&g, "extend 8 2"), "C-20");
}

#[test]
fn c4_i25_what_is_laid_before_the_rest_is_legal_when_the_rest_is_taken() {
    // The pile taken with a pair of nines; a wild onto the kings before
    // the rest waits for its natural: the rest is taken only once the
    // melds laid before it are legal (I-25: they are committed then).
    let mut g = position(
        rules("classic-004", 2),
        &["9C 9H KH 2H 4D 4S", "4C 4D 5S"],
        &[table(&["KC KD 2C 2D"], ""), SideTable::default()],
        "5C 6D 9S",
        "7D",
    );
    apply(&mut g, &["take 9 2 0 0", "extend K 2"]);
    assert_eq!(refused(&g, "rest"), "C-4");
    assert!(!legal(&g).contains(&act("rest")));
    apply(&mut g, &["extend K K", "rest", "discard 4"]);
    assert_eq!(meld_of(&g, 0, "KC").len(), 6);
}

#[test]
fn i25_unfinished_melds_save_and_load_mid_phase() {
    let mut g = position(
        rules("classic-004", 2),
        &["KH 2H 9S 4D 5D", "4C 4D 5S"],
        &[table(&["KC KD 2C 2D"], ""), SideTable::default()],
        "6C",
        "7D",
    );
    apply(&mut g, &["draw", "extend K 2"]);
    let text = g.to_position_json();
    let back = ClassicState::from_position_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(back.same_position(&g));
    assert_eq!(refused(&back, "discard 9"), "C-4");
    // Without the anchor the meld has nothing to be unfinished from.
    let i = text.find("\"anchor\"").expect("an anchor");
    let j = i + text[i..].find('}').unwrap() + 1;
    let cut = format!("{}\"undos\": 0{}", &text[..i], &text[j..]);
    let e = ClassicState::from_position_json(&cut)
        .unwrap_err()
        .to_string();
    assert!(e.contains("C-4") && e.contains("I-25"), "{e}\n{cut}");
}

#[test]
fn c4_c16_a_setup_with_an_illegal_meld_names_the_broken_invariant() {
    use kanaszta_engine::InvariantError;
    let r = rules("classic-002", 2);
    // Two kings are no meld (C-4: three cards at least).
    let s = setup(
        r,
        &["8C 9S", "5C 6C"],
        &[SideTable::default(), table(&["KS KH"], "")],
        "7D",
        "",
    );
    let e = s.into_state().unwrap_err();
    assert!(
        matches!(
            e,
            ClassicSetupError::Invariant(InvariantError::IllegalMeld { side: 1, meld })
                if meld == cs("KS KH")
        ),
        "{e:?}"
    );
    let ClassicSetupError::Invariant(i) = &e else {
        unreachable!()
    };
    assert_eq!(i.rule(), Some("C-4"));
    assert!(
        e.to_string().starts_with("C-4: side 1 holds the meld "),
        "{e}"
    );
    // A black-three meld with a natural of another rank (C-16).
    let t = SideTable {
        black_threes: cs("3S 3S 3C 4C"),
        ..SideTable::default()
    };
    let s = setup(r, &["8C 9S", "5C 6C"], &[t, SideTable::default()], "7D", "");
    let e = s.into_state().unwrap_err();
    assert!(
        matches!(
            e,
            ClassicSetupError::Invariant(InvariantError::IllegalBlackThrees { side: 0, .. })
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("C-16: side 0 holds the black-three meld "),
        "{e}"
    );
}
