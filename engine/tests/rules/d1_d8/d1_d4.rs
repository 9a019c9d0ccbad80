//! D-1 … D-4 and I-1 … I-3: cards, players, the cut and deal, red threes.

use super::*;

// ----- D-1 Cards ---------------------------------------------------------------

/// D-1.1: 112 cards, every suited card exactly twice: the whole pack is in
/// play in every zone throughout a hand (deal, draws, discards, reshuffles),
/// and a third copy of a card cannot be made.
#[test]
fn d1_1_every_zone_together_is_the_pack_of_112() {
    let r = rules(&[("turn_cap", "200")]);
    let mut g = GameState::new(r, 3);
    assert_eq!(g.all_cards(), Some(CardSet::FULL_PACK));
    while !g.is_terminal() {
        plain_turn(&mut g);
        let all = g
            .all_cards()
            .expect("no card more often than the pack holds");
        assert_eq!(all.len(), 112);
        assert_eq!(all, CardSet::FULL_PACK);
        g.check_invariants().unwrap();
    }
    // 200 turns with two players run through the stock at least once.
    assert!(g.turns() >= 200);
    // Refused: a third copy of a suited card, a ninth joker.
    let mut two = cs("8D 8D");
    assert!(!two.insert(c("8D")));
    assert_eq!(two.count(c("8D")), 2);
    assert!(CardSet::parse("8D 8D 8D").is_err());
    assert!(CardSet::parse("JK JK JK JK JK JK JK JK JK").is_err());
    assert!(CardSet::parse("JK JK JK JK JK JK JK JK").is_ok());
    // A position holding a third 8D (two in hand, one on the pile) is refused.
    let e = Position::from_json(
        r#"{"phase": "draw", "players": [{"hand": "8D 8D 5C"}, {}], "pile": "8D"}"#,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("8D"), "{e}");
    assert!(Position::from_json(
        r#"{"phase": "draw", "players": [{"hand": "8D 5C"}, {}], "pile": "8D"}"#
    )
    .is_ok());
}

// ----- D-2 Players -------------------------------------------------------------

/// D-2.1: 2–6 players, each alone, playing in turn to the left; seven (or
/// one) are refused.
#[test]
fn d2_1_two_to_six_players_take_turns_to_the_left() {
    for n in 2..=6usize {
        let r = rules(&[("players", &n.to_string())]);
        let mut g = GameState::new(r, 11);
        let s = g.starter();
        assert!(s < n);
        act(&mut g, "keep 000");
        for i in 0..3 * n {
            assert_eq!(g.current_player(), (s + i) % n, "{n} players, turn {i}");
            plain_turn(&mut g);
        }
        g.check_invariants().unwrap();
    }
    let mut r = Rules::default();
    assert!(r.set("players", "7").is_err());
    assert!(r.set("players", "1").is_err());
    assert!(r.set("players", "6").is_ok());
}

/// D-2.1: with more than two players "the opponent" is the player who
/// discarded just before: the free pickup offers his discard, a twin is made
/// on his discard, never on an older one.
#[test]
fn d2_1_with_three_players_the_opponent_is_the_previous_discarder() {
    let r = rules(&[("players", "3")]);
    // Starter 0 discards x, player 1 discards y; player 2 holds both.
    let (_, g) = find_seed(
        500,
        |seed| {
            let mut g = GameState::new_hand(r, seed, 0, &[]);
            act(&mut g, "keep 000");
            Some(g)
        },
        |g| {
            let h2 = g.hand(2);
            plain_kinds(g.hand(0)).any(|x| h2.contains(x))
                && plain_kinds(g.hand(1)).any(|y| h2.contains(y) && !g.hand(0).contains(y))
        },
    );
    let mut g = g;
    let h2 = g.hand(2);
    let x = plain_kinds(g.hand(0)).find(|x| h2.contains(*x)).unwrap();
    g.apply(Action::Discard(x)).unwrap();
    // Player 1 is offered x (the previous player's discard).
    assert!(g.free_pickup_offered());
    act(&mut g, "draw");
    let y = plain_kinds(g.hand(1))
        .find(|y| h2.contains(*y) && *y != x)
        .unwrap();
    g.apply(Action::Discard(y)).unwrap();
    assert_eq!(g.current_player(), 2);
    // Player 2 is offered y, player 1's discard, not x.
    assert!(g.free_pickup_offered());
    let mut f = g.clone();
    act(&mut f, "free");
    assert_eq!(f.hand(2).count(y), h2.count(y) + 1);
    assert_eq!(f.pile(), &[x]);
    act(&mut g, "draw");
    // A twin on y (the previous player's discard) counts …
    let mut t = g.clone();
    t.apply(Action::Discard(y)).unwrap();
    assert_eq!(t.table(2).twins, 1);
    // … a copy of x, discarded two turns ago, is no twin.
    let mut t = g.clone();
    t.apply(Action::Discard(x)).unwrap();
    assert_eq!(t.table(2).twins, 0);
}

/// I-1: the first hand's starter is drawn from the seed (both seats occur);
/// in a match the starter rotates to the left every hand. Only the starter
/// acts first.
#[test]
fn i1_starter_drawn_from_seed_then_rotates() {
    let starters: Vec<usize> = (0..40)
        .map(|s| GameState::new(Rules::default(), s).starter())
        .collect();
    assert!(starters.contains(&0) && starters.contains(&1));
    for s in 0..10 {
        let g = GameState::new(Rules::default(), s);
        assert_eq!(g.current_player(), g.starter());
    }
    let r = rules(&[("players", "3"), ("turn_cap", "4")]);
    let mut m = Match::new(r, 9);
    let first = m.next_starter();
    for k in 0..5 {
        let mut hand = m.next_hand();
        assert_eq!(hand.starter(), (first + k) % 3, "hand {k}");
        assert_eq!(hand.current_player(), hand.starter());
        while !hand.is_terminal() {
            plain_turn(&mut hand);
        }
        m.record(&hand);
        // Not the same starter twice in a row.
        assert_ne!(m.next_starter(), hand.starter());
    }
}

// ----- D-3 Cut and deal ----------------------------------------------------------

/// D-3.1: the starter sees three cut cards and keeps any of them, each
/// separately (eight choices); nothing else may happen first, and no other
/// card may be kept.
#[test]
fn d3_1_starter_keeps_any_of_the_three_cut_cards() {
    let g0 = GameState::new(Rules::default(), 21);
    assert_eq!(g0.phase(), Phase::Cut);
    let l = legal(&g0);
    assert_eq!(l.len(), 8);
    for mask in 0..8u8 {
        assert!(l.contains(&Action::KeepCut { mask }));
    }
    let mut g = g0.clone();
    assert_eq!(refused(&mut g, "draw").rule, "D-3.1");
    let any = g.all_cards().unwrap().kinds().next().unwrap();
    assert_eq!(g.apply(Action::Discard(any)).unwrap_err().rule, "D-3.1");
    assert_eq!(
        g.apply(Action::KeepCut { mask: 8 }).unwrap_err().rule,
        "D-3.1"
    );
    let cut = g0.cut_cards();
    let s = g0.starter();
    for mask in 0..8u8 {
        let g = dealt(Rules::default(), 21, mask);
        // Each kept card is the starter's (in hand and publicly known, or a
        // red three on his table); the hand holds nothing else of the cut.
        let mut kept = CardSet::EMPTY;
        for (i, card) in cut.iter().enumerate() {
            if mask & (1 << i) != 0 {
                kept.insert(*card);
            }
        }
        for card in kept.kinds() {
            let mine = g.hand(s).count(card) + g.table(s).red_threes.count(card);
            assert!(mine >= kept.count(card), "mask {mask}: kept {card}");
            if !card.is_red_three() {
                assert!(g.known(s).count(card) >= kept.count(card));
            }
        }
        assert_eq!(g.known(s).len(), kept.len() - kept.red_three_count());
        // The cut is over: keeping more is refused (the starter's turn is
        // now his first discard and nothing else).
        let mut g = g;
        assert_eq!(refused(&mut g, "keep 111").rule, "D-5.4");
    }
}

/// D-3.2: 14 cards to every player; the starter holds 15 counting the kept
/// cut cards (15 − kept dealt): the stock holds exactly what is left, for
/// every choice and 2–6 players.
#[test]
fn d3_2_fourteen_each_fifteen_for_the_starter() {
    for n in 2..=6usize {
        let r = rules(&[("players", &n.to_string())]);
        for mask in 0..8u8 {
            let g = dealt(r, 40 + mask as u64, mask);
            let s = g.starter();
            // The starter's red-three replacements are drawn at once (I-3).
            assert_eq!(g.hand(s).len(), 15, "{n} players, mask {mask}");
            for p in (0..n).filter(|p| *p != s) {
                let reds = g.table(p).red_threes.len();
                assert_eq!(g.hand(p).len() + reds, 14);
                assert_eq!(g.owed_replacements(p) as u32, reds);
            }
            let replaced = g.table(s).red_threes.len() as usize;
            assert_eq!(g.stock().len(), 112 - 15 - 14 * (n - 1) - replaced);
        }
    }
}

/// D-3.3: the rest of the pack is the stock; the shown cards not kept are
/// its last (bottom) cards, known to everybody; kept ones are not there.
#[test]
fn d3_3_unkept_cut_cards_are_the_bottom_of_the_stock() {
    for mask in 0..8u8 {
        let g0 = GameState::new(Rules::default(), 77);
        let cut = g0.cut_cards();
        let unkept: Vec<Card> = (0..3)
            .filter(|i| mask & (1 << i) == 0)
            .map(|i| cut[i])
            .collect();
        let mut g = dealt(Rules::default(), 77, mask);
        let nu = unkept.len();
        assert_eq!(&g.stock()[..nu], &unkept[..]);
        assert_eq!(g.stock_known_bottom(), nu);
        for seat in 0..2 {
            assert_eq!(g.view(seat).stock_bottom(), &unkept[..]);
        }
        // They stay the bottom (and known) while the stock is drawn.
        for _ in 0..30 {
            plain_turn(&mut g);
        }
        assert_eq!(&g.stock()[..nu], &unkept[..]);
        assert_eq!(g.view(0).stock_bottom(), &unkept[..]);
        // A kept card is not in the stock bottom: 3 − kept are known there.
        assert_eq!(g.stock_known_bottom(), 3 - mask.count_ones() as usize);
    }
}

/// I-2: the cut as simulated: three shown cards public to every seat, any
/// subset kept, the unkept ones at the bottom of the stock as public
/// knowledge, which a determinized state (for search) respects.
#[test]
fn i2_cut_cards_are_public_and_stay_at_the_bottom() {
    use rand::SeedableRng;
    let g0 = GameState::new(Rules::default(), 5);
    let cut = g0.cut_cards();
    for seat in 0..2 {
        assert_eq!(g0.view(seat).cut_cards(), cut);
    }
    let mask = 0b010;
    let g = dealt(Rules::default(), 5, mask);
    let s = g.starter();
    let o = other(s);
    let unkept = [cut[0], cut[2]];
    // The other seat knows the kept card is in the starter's hand …
    if !cut[1].is_red_three() {
        assert!(g.view(o).known(s).contains(cut[1]));
    }
    // … and where the unkept ones lie: a determinization keeps them there,
    // whereas the rest of the stock is resampled.
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
    let mut differs = false;
    for _ in 0..5 {
        let d = g.view(o).determinize(&mut rng);
        assert_eq!(&d.stock()[..2], &unkept);
        differs |= d.stock() != g.stock();
    }
    assert!(differs, "the hidden part of the stock is resampled");
}

// ----- D-4 Red threes ------------------------------------------------------------

/// D-4.1: red threes dealt to a player go to his table at once (never in a
/// hand); he draws a replacement for each when his turn comes.
#[test]
fn d4_1_dealt_red_threes_go_to_the_table_and_are_replaced() {
    let (seed, g) = find_seed(
        500,
        |seed| Some(dealt(Rules::default(), seed, 0)),
        |g| !g.table(other(g.starter())).red_threes.is_empty(),
    );
    let s = g.starter();
    let o = other(s);
    let reds = g.table(o).red_threes.len();
    assert_eq!(red_threes_in(g.hand(o)), 0, "seed {seed}");
    assert_eq!(g.hand(o).len(), 14 - reds);
    assert_eq!(g.owed_replacements(o) as u32, reds);
    // Public: everybody sees them on his table.
    assert_eq!(g.view(s).table(o).red_threes.len(), reds);
    let mut g = g;
    // Refused: a red three is never in a hand, so it cannot be discarded.
    let red = g.table(o).red_threes.kinds().next().unwrap();
    plain_turn(&mut g); // the starter's first discard
    assert_eq!(g.current_player(), o);
    // His turn came: the replacements are drawn (a red three drawn is laid
    // out and replaced again, D-4.2), before he draws for the turn.
    assert_eq!(g.owed_replacements(o), 0);
    assert_eq!(g.hand(o).len(), 14);
    assert_eq!(red_threes_in(g.hand(o)), 0);
    assert_eq!(g.phase(), Phase::Draw);
    act(&mut g, "draw");
    assert_eq!(g.hand(o).len(), 15);
    assert_eq!(refused(&mut g, &format!("discard {red}")).rule, "D-5.1");
}

/// D-4.2: a red three drawn (in the turn's draw) goes to the table at once
/// and another card is drawn for it.
#[test]
fn d4_2_drawn_red_three_is_laid_out_and_replaced() {
    let mut found = false;
    'seeds: for seed in 0..200 {
        let mut g = dealt(Rules::default(), seed, 0);
        for _ in 0..60 {
            if g.phase() == Phase::Draw && g.stock().len() >= 3 {
                let st = g.stock();
                let top = st[st.len() - 1];
                let next = st[st.len() - 2];
                if top.is_red_three() && !next.is_red_three() {
                    let p = g.current_player();
                    let hand = g.hand(p);
                    let reds = g.table(p).red_threes;
                    let stock = st.len();
                    act(&mut g, "draw");
                    let mut expect_reds = reds;
                    expect_reds.insert(top);
                    assert_eq!(g.table(p).red_threes, expect_reds);
                    let mut expect_hand = hand;
                    expect_hand.insert(next);
                    assert_eq!(g.hand(p), expect_hand);
                    assert_eq!(g.stock().len(), stock - 2);
                    // Refused: it is not in the hand, it cannot be discarded.
                    assert_eq!(refused(&mut g, &format!("discard {top}")).rule, "D-5.1");
                    found = true;
                    break 'seeds;
                }
            }
            plain_turn(&mut g);
        }
    }
    assert!(found, "no red three drawn in the seeds tried");
}

/// I-3: replacements for dealt red threes are drawn at the start of the
/// owner's first turn; for the starter that is before his first discard,
/// which is still a discard and nothing else (the replacement is not a draw).
/// A red three kept from the cut counts as dealt.
#[test]
fn i3_replacement_at_the_owners_first_turn() {
    // The starter was dealt a red three: replaced before his first discard.
    let (_, g) = find_seed(
        500,
        |seed| Some(dealt(Rules::default(), seed, 0)),
        |g| !g.table(g.starter()).red_threes.is_empty(),
    );
    let s = g.starter();
    assert_eq!(g.phase(), Phase::FirstDiscard);
    assert_eq!(g.owed_replacements(s), 0);
    assert_eq!(g.hand(s).len(), 15);
    let mut g = g;
    assert_eq!(refused(&mut g, "draw").rule, "D-5.4");
    // The other player's owed replacements wait for his own turn.
    let (_, g) = find_seed(
        500,
        |seed| Some(dealt(Rules::default(), seed, 0)),
        |g| !g.table(other(g.starter())).red_threes.is_empty(),
    );
    let o = other(g.starter());
    assert!(g.owed_replacements(o) >= 1);
    let before = g.hand(o).len();
    let mut g = g;
    plain_turn(&mut g);
    assert_eq!(g.owed_replacements(o), 0);
    assert!(g.hand(o).len() > before);
    // A red three kept from the cut: on the table, replaced at once.
    let (seed, g0) = find_seed(
        2000,
        |seed| Some(GameState::new(Rules::default(), seed)),
        |g| g.cut_cards()[0].is_red_three() && !g.cut_cards()[1].is_red_three(),
    );
    let red = g0.cut_cards()[0];
    let kept = dealt(Rules::default(), seed, 0b001);
    let s = kept.starter();
    assert!(kept.table(s).red_threes.contains(red));
    assert_eq!(kept.hand(s).len(), 15);
    assert_eq!(kept.owed_replacements(s), 0);
    // Not kept, it lies at the bottom of the stock, not on his table.
    let unkept = dealt(Rules::default(), seed, 0);
    assert_eq!(unkept.stock()[0], red);
    assert!(unkept.table(s).red_threes.count(red) < kept.table(s).red_threes.count(red));
}
