//! D-5 … D-7 and their interpretations: the turn, taking from the pile, twins.

use super::*;

// ----- D-5 Turn ------------------------------------------------------------------

/// D-5.1: the starter begins by discarding (he holds 15, does not draw);
/// then each turn is draw (or take), meld, discard; steps 1 and 3 are
/// compulsory and come in that order.
#[test]
fn d5_1_turn_is_draw_meld_discard() {
    let mut g = dealt(Rules::default(), 8, 0);
    let s = g.starter();
    let o = other(s);
    assert_eq!(g.phase(), Phase::FirstDiscard);
    let l = legal(&g);
    assert_eq!(l.len(), g.hand(s).kinds().count());
    assert!(l.iter().all(|x| matches!(x, Action::Discard(_))));
    assert_eq!(refused(&mut g, "draw").rule, "D-5.4");
    let x = g.hand(s).kinds().next().unwrap();
    g.apply(Action::Discard(x)).unwrap();
    assert_eq!(g.hand(s).len(), 14);
    assert_eq!(g.pile(), &[x]);
    // The next player must draw (or take) first.
    assert_eq!(g.current_player(), o);
    assert_eq!(g.phase(), Phase::Draw);
    let y = g.hand(o).kinds().next().unwrap();
    assert_eq!(refused(&mut g, &format!("discard {y}")).rule, "D-5.1");
    assert!(legal(&g).contains(&Action::Draw));
    assert!(!legal(&g).iter().any(|x| matches!(x, Action::Discard(_))));
    act(&mut g, "draw");
    assert_eq!(g.phase(), Phase::Meld);
    assert_eq!(g.hand(o).len(), 15);
    // Only one card per turn.
    assert_eq!(refused(&mut g, "draw").rule, "D-5.1");
    assert_eq!(refused(&mut g, "free").rule, "D-5.1");
    // The discard ends the turn.
    discard_any(&mut g);
    assert_eq!(g.hand(o).len(), 14);
    assert_eq!(g.current_player(), s);
    assert_eq!(g.phase(), Phase::Draw);
}

/// D-5.2: a discard that leaves cards in hand passes the turn to the next
/// player; the hand does not end.
#[test]
fn d5_2_discard_with_cards_left_passes_the_turn() {
    let mut g = dealt(Rules::default(), 12, 0);
    for i in 0..20 {
        let p = g.current_player();
        plain_turn(&mut g);
        assert!(!g.is_terminal());
        assert!(!g.hand(p).is_empty());
        assert_eq!(g.current_player(), (p + 1) % 2, "turn {i}");
    }
}

/// D-5.3: when the stock runs out, the pile is shuffled and becomes the new
/// stock (default `reshuffle = when_empty`: at once, top card included).
#[test]
fn d5_3_empty_stock_is_replaced_by_the_shuffled_pile() {
    let (_, mut g) = find_seed(50, |s| to_last_stock_card(Rules::default(), s), |_| true);
    let pile = CardSet::try_from_cards(g.pile().iter().copied()).unwrap();
    act(&mut g, "draw");
    assert_eq!(g.pile().len(), 0);
    assert_eq!(
        CardSet::try_from_cards(g.stock().iter().copied()),
        Some(pile)
    );
    assert_eq!(g.stock_known_bottom(), 0);
    // The player discards onto the empty pile and play goes on.
    discard_any(&mut g);
    assert_eq!(g.pile().len(), 1);
    assert!(!g.is_terminal());
    act(&mut g, "draw");
    g.check_invariants().unwrap();
}

/// D-5.4: melding only after the draw: the starter's first turn is a discard
/// and nothing else; nobody melds before drawing or taking.
#[test]
fn d5_4_no_meld_before_the_draw() {
    // A starter who could lay three of a kind (or two and a wild).
    let (_, mut g) = find_seed(
        500,
        |seed| Some(dealt(Rules::default(), seed, 0)),
        |g| {
            let h = g.hand(g.starter());
            kanaszta_engine::Rank::NATURALS
                .iter()
                .any(|r| h.rank_count(*r) >= 3)
        },
    );
    let s = g.starter();
    let h = g.hand(s);
    let r = *kanaszta_engine::Rank::NATURALS
        .iter()
        .find(|r| h.rank_count(**r) >= 3)
        .unwrap();
    let three: Vec<String> = h.of_rank(r).iter().take(3).map(|x| x.to_string()).collect();
    let lay = format!("lay {}", three.join(" "));
    assert_eq!(refused(&mut g, &lay).rule, "D-5.4");
    assert!(!legal(&g).contains(&a(&lay)));
    // After the first discard (not of that rank) the other player must draw
    // before laying.
    let x = h.kinds().find(|x| x.rank() != Some(r)).unwrap();
    g.apply(Action::Discard(x)).unwrap();
    let o = other(s);
    let h = g.hand(o);
    let mut triple = String::from("lay");
    for x in h.iter().filter(|x| x.is_natural()).take(3) {
        triple += &format!(" {x}");
    }
    assert_eq!(refused(&mut g, &triple).rule, "D-5.1");
    // The starter, on his next turn, may lay once he has drawn.
    act(&mut g, "draw");
    discard_any(&mut g);
    act(&mut g, "draw");
    assert!(g.hand(s).contains_all(cs(&three.join(" "))));
    // No rule of D-5 refuses it now: it is listed and laid, or refused
    // only because the opening could not then be completed (I-9).
    let mut t = g.clone();
    match t.apply(a(&lay)) {
        Ok(()) => {
            assert!(legal(&g).contains(&a(&lay)));
            assert_eq!(t.table(s).len(), 1);
        }
        Err(e) => {
            assert_eq!(e.rule, "I-9", "{e}");
            assert!(!legal(&g).contains(&a(&lay)));
        }
    }
}

/// I-4 `reshuffle = when_empty` (default): the pile, top included, becomes the
/// stock as soon as the last stock card is drawn, and the player discards onto
/// an empty pile. `on_draw`: the old pile stays until a card must be drawn,
/// so the next player may still twin on it; then it is reshuffled.
#[test]
fn i4_reshuffle_when_empty_or_on_draw() {
    // The same deal under both settings: the generator is only used for
    // shuffles, so the hands are identical up to the reshuffle.
    let when_empty = Rules::default();
    let on_draw = rules(&[("reshuffle", "on_draw")]);
    let (seed, mut g) = find_seed(100, |s| to_last_stock_card(when_empty, s), |_| true);
    let mut h = to_last_stock_card(on_draw, seed).unwrap();
    assert_eq!(g.hand(0), h.hand(0));
    assert_eq!(g.pile(), h.pile());
    let pile_len = g.pile().len();
    act(&mut g, "draw");
    act(&mut h, "draw");
    // when_empty: reshuffled at once.
    assert_eq!((g.stock().len(), g.pile().len()), (pile_len, 0));
    // on_draw: the stock is empty and the pile untouched.
    assert_eq!((h.stock().len(), h.pile().len()), (0, pile_len));
    discard_any(&mut g);
    discard_any(&mut h);
    assert_eq!(g.pile().len(), 1);
    assert_eq!(h.pile().len(), pile_len + 1);
    // on_draw: the next draw reshuffles the whole pile.
    let p = h.current_player();
    let before = h.hand(p).len();
    act(&mut h, "draw");
    assert_eq!(h.pile().len(), 0);
    assert!(h.hand(p).len() > before);
    assert!(h.stock().len() + 1 + h.table(p).red_threes.len() as usize >= pile_len);
    h.check_invariants().unwrap();
    g.check_invariants().unwrap();
    // Refused under the wrong names.
    let mut r = Rules::default();
    assert!(r.set("reshuffle", "sometimes").is_err());
}

/// I-5: a hand that reaches the turn cap ends stalled; it is scored with no
/// going-out bonus and cards in hand counting minus. The cap must be ≥ 1.
#[test]
fn i5_turn_cap_stalls_the_hand() {
    let r = rules(&[("turn_cap", "7")]);
    let mut g = dealt(r, 4, 0);
    for _ in 0..6 {
        plain_turn(&mut g);
    }
    assert!(!g.is_terminal());
    assert_eq!(g.turns(), 6);
    plain_turn(&mut g);
    assert!(g.is_terminal());
    assert_eq!(g.turns(), 7);
    assert_eq!(g.end(), Some(HandEnd::Stalled));
    for p in 0..2 {
        let sc = g.score_of(p);
        assert!(!sc.went_out);
        assert_eq!(sc.going_out_points, 0);
        assert_eq!(sc.in_hand, -g.hand(p).points());
        assert!(sc.in_hand < 0);
    }
    assert_eq!(refused(&mut g, "draw").rule, "D-13.3");
    // The default cap is 1,000, and 0 is refused.
    assert_eq!(Rules::default().turn_cap, 1000);
    let mut r = Rules::default();
    assert!(r.set("turn_cap", "0").is_err());
}

/// I-24: a turn is one discard, the starter's first discard included; draws
/// and melds do not count. I-5's cap counts these.
#[test]
fn i24_a_turn_is_one_discard() {
    let mut g = GameState::new(Rules::default(), 6);
    assert_eq!(g.turns(), 0);
    act(&mut g, "keep 000");
    assert_eq!(g.turns(), 0);
    discard_any(&mut g);
    assert_eq!(g.turns(), 1);
    act(&mut g, "draw");
    assert_eq!(g.turns(), 1);
    discard_any(&mut g);
    assert_eq!(g.turns(), 2);
    // A cap of one ends the hand right after the starter's first discard.
    let mut g = dealt(rules(&[("turn_cap", "1")]), 6, 0);
    assert!(!g.is_terminal());
    discard_any(&mut g);
    assert!(g.is_terminal());
    assert_eq!(g.end(), Some(HandEnd::Stalled));
}

// ----- D-6 Taking from the pile --------------------------------------------------

/// D-6.1: the free pickup takes the previous player's first discard (only
/// that card: the cards below stay), once per hand, on the turn it is
/// offered; declined, the chance is gone. The player may meld and must
/// discard as in any turn.
#[test]
fn d6_1_free_pickup_of_the_first_discard_once() {
    let (mut g, x) = deal_with_starter_card(Rules::default(), 100, |_, x| x.is_natural());
    g.apply(Action::Discard(x)).unwrap();
    assert!(g.free_pickup_offered());
    assert!(legal(&g).contains(&Action::FreePickup));
    let before = g.hand(1);
    let mut f = g.clone();
    act(&mut f, "free");
    let mut expect = before;
    expect.insert(x);
    assert_eq!(f.hand(1), expect);
    assert!(
        f.known(1).contains(x),
        "a card taken from the pile is public"
    );
    assert_eq!(f.phase(), Phase::Meld);
    assert_eq!(f.stats(1).free_pickups, 1);
    let y = plain_kinds(f.hand(1)).find(|y| *y != x).unwrap();
    f.apply(Action::Discard(y)).unwrap();
    assert_eq!(f.current_player(), 0);
    // Player 0 is offered player 1's first discard; he declines by drawing…
    assert!(f.free_pickup_offered());
    act(&mut f, "draw");
    assert!(!f.free_pickup_pending(0));
    discard_any(&mut f);
    plain_turn(&mut f);
    // … and is never offered again: the chance is gone.
    assert!(!f.free_pickup_offered());
    assert!(!legal(&f).contains(&Action::FreePickup));
    assert_eq!(refused(&mut f, "free").rule, "D-6.1");
    // Player 1 used his chance: not offered again either.
    plain_turn(&mut f);
    assert!(!f.free_pickup_pending(1));
    assert_eq!(refused(&mut f, "free").rule, "D-6.1");
}

/// D-6.1: if the previous player's first discards are black threes, the
/// chance passes to his first discard that is not one; only that card is
/// taken, the black three below stays on the pile.
#[test]
fn d6_1_black_three_first_discards_pass_the_chance_on() {
    let (mut g, b3) = deal_with_starter_card(Rules::default(), 300, |_, x| x.is_black_three());
    g.apply(Action::Discard(b3)).unwrap();
    // Player 1: a black three is never freely taken.
    assert!(!g.free_pickup_offered());
    assert_eq!(refused(&mut g, "free").rule, "D-6.1");
    assert!(g.free_pickup_pending(1));
    act(&mut g, "draw");
    let z = plain_kinds(g.hand(1)).next().unwrap();
    g.apply(Action::Discard(z)).unwrap();
    // Player 0 is offered z; he draws and discards his first natural y.
    assert!(g.free_pickup_offered());
    act(&mut g, "draw");
    let y = plain_kinds(g.hand(0)).find(|y| *y != z).unwrap();
    g.apply(Action::Discard(y)).unwrap();
    // Player 1 is offered y now: his chance was still to come.
    assert!(g.free_pickup_offered());
    assert_eq!(g.pile(), &[b3, z, y]);
    act(&mut g, "free");
    assert_eq!(g.pile(), &[b3, z], "only the one card is taken");
    assert!(g.hand(1).contains(y));
}

/// I-6 `free_pickup_wild = allow` (default): a wild first discard may be
/// freely taken. `forbid`: wilds are skipped like black threes and the
/// chance passes to the next discard that is neither.
#[test]
fn i6_free_pickup_of_a_wild_allow_or_forbid() {
    let (g0, w) = deal_with_starter_card(Rules::default(), 100, |_, x| x.is_wild());
    // allow
    let mut g = g0.clone();
    g.apply(Action::Discard(w)).unwrap();
    assert!(g.free_pickup_offered());
    act(&mut g, "free");
    assert!(g.hand(1).contains(w));
    // forbid: the same deal under the other setting.
    let mut g = same_deal(&g0, rules(&[("free_pickup_wild", "forbid")]));
    assert_eq!(g.hand(0), g0.hand(0));
    g.apply(Action::Discard(w)).unwrap();
    assert!(!g.free_pickup_offered());
    assert_eq!(refused(&mut g, "free").rule, "D-6.1");
    assert!(g.free_pickup_pending(1));
    act(&mut g, "draw");
    discard_any(&mut g);
    act(&mut g, "draw");
    let y = plain_kinds(g.hand(0)).next().unwrap();
    g.apply(Action::Discard(y)).unwrap();
    assert!(
        g.free_pickup_offered(),
        "the chance passed to the first non-wild"
    );
    act(&mut g, "free");
    assert!(g.hand(1).contains(y));
}

/// I-7: on the turn the free pickup is offered, the player draws or takes
/// the free card; the penalized pickup is not available, even with a pair
/// of the top card's rank in hand.
#[test]
fn i7_no_penalized_pickup_while_the_free_one_is_offered() {
    let (mut g, x) = deal_with_starter_card(Rules::default(), 300, |g, x| {
        x.is_natural() && x.rank().is_some_and(|r| g.hand(1).rank_count(r) >= 2)
    });
    g.apply(Action::Discard(x)).unwrap();
    assert!(g.free_pickup_offered());
    let l = legal(&g);
    assert!(l.contains(&Action::Draw) && l.contains(&Action::FreePickup));
    assert!(!l.contains(&Action::TakePile));
    assert_eq!(refused(&mut g, "take").rule, "I-7");
    act(&mut g, "free");
    assert!(g.pickup().is_none());
}

/// I-21 `free_pickup_return = forbid` (default): the freely taken card may
/// not be discarded in the same turn, unless the player holds another copy.
/// `allow`: it may.
#[test]
fn i21_freely_taken_card_cannot_be_discarded_at_once() {
    // Player 1 does not hold x.
    let (g0, x) = deal_with_starter_card(Rules::default(), 100, |g, x| {
        x.is_natural() && !g.hand(1).contains(x)
    });
    let mut g = g0.clone();
    g.apply(Action::Discard(x)).unwrap();
    act(&mut g, "free");
    assert_eq!(refused(&mut g, &format!("discard {x}")).rule, "I-21");
    assert!(!legal(&g).contains(&Action::Discard(x)));
    let mut t = g.clone();
    discard_any(&mut t);
    assert_eq!(t.hand(1).count(x), 1, "another card went");
    // allow: the same position under the other setting.
    let mut al = same_deal(&g0, rules(&[("free_pickup_return", "allow")]));
    al.apply(Action::Discard(x)).unwrap();
    act(&mut al, "free");
    assert!(legal(&al).contains(&Action::Discard(x)));
    al.apply(Action::Discard(x)).unwrap();
    assert_eq!(al.pile().last(), Some(&x));
    // forbid, but player 1 holds another copy: the copy may go.
    let (mut g, x) = deal_with_starter_card(Rules::default(), 300, |g, x| {
        x.is_natural() && g.hand(1).count(x) == 1
    });
    g.apply(Action::Discard(x)).unwrap();
    act(&mut g, "free");
    assert_eq!(g.hand(1).count(x), 2);
    g.apply(Action::Discard(x)).unwrap();
    assert_eq!(g.hand(1).count(x), 1);
}

/// D-6.2: once the free chance has passed, the whole pile may be taken when
/// the hand holds two naturals of the top card's rank, or one and a wild;
/// otherwise the penalized pickup is refused. The top card comes first, the
/// rest only once it is laid.
#[test]
fn d6_2_penalized_pickup_needs_a_pair_or_natural_and_wild_in_hand() {
    let mut g = scan_draw_states(100, |g| {
        let p = g.current_player();
        g.pile().len() >= 3
            && g.pile_top()
                .is_some_and(|t| t.is_natural() && g.hand(p).rank_count(t.rank().unwrap()) >= 2)
            && legal(g).contains(&Action::TakePile)
    });
    let p = g.current_player();
    let top = g.pile_top().unwrap();
    let pile = g.pile().len();
    assert!(legal(&g).contains(&Action::TakePile));
    act(&mut g, "take");
    let pk = g.pickup().unwrap();
    assert_eq!(pk.top, top);
    assert_eq!(pk.pile_size as usize, pile);
    assert!(!pk.rest_taken);
    assert!(g.known(p).contains(top));
    assert_eq!(g.pile().len(), pile - 1);
    // The top card is laid before the rest is taken, and no discard before.
    assert_eq!(refused(&mut g, "rest").rule, "I-8");
    let any = g.hand(p).kinds().next().unwrap();
    assert_eq!(refused(&mut g, &format!("discard {any}")).rule, "D-6.2");
    // A group with the top card can be laid now.
    assert!(legal(&g)
        .iter()
        .any(|x| matches!(x, Action::Lay { cards } if cards.contains(top))));

    // Refused: a natural on top but not two of its rank (nor one and a wild)
    // in hand.
    let mut g = scan_draw_states(100, |g| {
        let p = g.current_player();
        let h = g.hand(p);
        g.pile_top().is_some_and(|t| {
            let n = h.rank_count(t.rank().unwrap_or(kanaszta_engine::Rank::Two));
            t.is_natural() && (n == 0 || (n == 1 && h.wild_count() == 0))
        })
    });
    assert!(!legal(&g).contains(&Action::TakePile));
    assert_eq!(refused(&mut g, "take").rule, "D-6.2");
}

/// D-6.3: a black three or a wild on top freezes the pile: it cannot be
/// taken (with a natural on top it can, D-6.2).
#[test]
fn d6_3_black_three_or_wild_on_top_freezes_the_pile_scripted() {
    for frozen_by in [Card::is_black_three as fn(Card) -> bool, Card::is_wild] {
        let mut g = scan_draw_states(100, |g| g.pile_top().is_some_and(frozen_by));
        assert!(g.pile_frozen());
        assert!(g.view(0).pile_frozen());
        assert!(!legal(&g).contains(&Action::TakePile));
        assert_eq!(refused(&mut g, "take").rule, "D-6.3");
    }
}

// ----- D-7 Twins ---------------------------------------------------------------

/// D-7.1: discarding the identical card (same rank and suit) the previous
/// player just discarded earns a twin (a counter; the card stays on the
/// pile); the same rank in another suit does not.
#[test]
fn d7_1_identical_discard_is_a_twin() {
    let (mut g, x) = deal_with_starter_card(Rules::default(), 500, |g, x| {
        x.is_natural()
            && g.hand(1).contains(x)
            && g.hand(1).of_rank(x.rank().unwrap()).kinds().any(|y| y != x)
    });
    g.apply(Action::Discard(x)).unwrap();
    act(&mut g, "draw");
    let y = g
        .hand(1)
        .of_rank(x.rank().unwrap())
        .kinds()
        .find(|y| *y != x)
        .unwrap();
    let mut t = g.clone();
    t.apply(Action::Discard(x)).unwrap();
    assert_eq!(t.table(1).twins, 1);
    assert_eq!(t.pile(), &[x, x]);
    assert_eq!(t.score_of(1).twin_points, 100);
    let mut t = g.clone();
    t.apply(Action::Discard(y)).unwrap();
    assert_eq!(t.table(1).twins, 0, "{y} on {x}: same rank, other suit");
}

/// D-7.2: twins may be made on black threes (♠ on ♠, ♣ on ♣) and on 2s of
/// the same suit, never on jokers.
#[test]
fn d7_2_twins_on_black_threes_and_twos_not_jokers() {
    for (what, twin) in [("black three", true), ("two", true), ("joker", false)] {
        let kind = |x: Card| match what {
            "black three" => x.is_black_three(),
            "two" => x.is_wild() && !x.is_joker(),
            _ => x.is_joker(),
        };
        let (mut g, x) = deal_with_starter_card(Rules::default(), 1000, |g, x| {
            kind(x) && g.hand(1).contains(x)
        });
        g.apply(Action::Discard(x)).unwrap();
        act(&mut g, "draw");
        assert_eq!(g.twin_card(), twin.then_some(x), "{what} {x}");
        assert_eq!(g.view(1).twin_card(), twin.then_some(x), "{what} {x}");
        g.apply(Action::Discard(x)).unwrap();
        assert_eq!(g.table(1).twins, twin as u16, "{what} {x} on {x}");
    }
    // A 2 of another suit on a 2 is no twin.
    let (mut g, x) = deal_with_starter_card(Rules::default(), 1000, |g, x| {
        x.is_wild()
            && !x.is_joker()
            && g.hand(1)
                .iter()
                .any(|y| y.is_wild() && !y.is_joker() && y != x)
    });
    g.apply(Action::Discard(x)).unwrap();
    act(&mut g, "draw");
    let y = g
        .hand(1)
        .kinds()
        .find(|y| y.is_wild() && !y.is_joker() && *y != x)
        .unwrap();
    g.apply(Action::Discard(y)).unwrap();
    assert_eq!(g.table(1).twins, 0);
}

/// I-10: the twin needs the previous player's discard still on top: not after
/// it was freely picked up, not after a reshuffle; and the starter's first
/// discard makes none.
#[test]
fn i10_no_twin_once_the_discard_left_the_top() {
    // The starter's first discard, onto an empty pile: no twin.
    let (mut g, x) = deal_with_starter_card(Rules::default(), 500, |g, x| {
        x.is_natural() && g.hand(0).count(x) == 2
    });
    assert_eq!(g.twin_card(), None);
    g.apply(Action::Discard(x)).unwrap();
    assert_eq!(g.table(0).twins, 0);
    // Free pickup of x by a holder of x, then x discarded: no twin; had he
    // drawn instead, it would have been one.
    let (g0, x) = deal_with_starter_card(Rules::default(), 500, |g, x| {
        x.is_natural() && g.hand(1).count(x) == 1
    });
    let mut g = g0.clone();
    g.apply(Action::Discard(x)).unwrap();
    let mut drew = g.clone();
    act(&mut g, "free");
    assert_eq!(g.twin_card(), None);
    g.apply(Action::Discard(x)).unwrap();
    assert_eq!(g.table(1).twins, 0);
    act(&mut drew, "draw");
    assert_eq!(drew.twin_card(), Some(x));
    drew.apply(Action::Discard(x)).unwrap();
    assert_eq!(drew.table(1).twins, 1);
}

/// I-10 with I-4: after a reshuffle (`when_empty`) the previous discard is
/// gone, so no twin; under `on_draw` the old pile is still there and the
/// same discard is a twin.
#[test]
fn i10_no_twin_after_a_reshuffle() {
    let when_empty = Rules::default();
    let (seed, mut g) = find_seed(
        400,
        |s| to_last_stock_card(when_empty, s),
        |g| {
            let top = g.pile_top().unwrap();
            !top.is_joker() && g.hand(g.current_player()).contains(top)
        },
    );
    let mut h = to_last_stock_card(rules(&[("reshuffle", "on_draw")]), seed).unwrap();
    let p = g.current_player();
    let top = g.pile_top().unwrap();
    let twins = g.table(p).twins;
    assert_eq!(h.table(p).twins, twins);
    act(&mut g, "draw");
    act(&mut h, "draw");
    g.apply(Action::Discard(top)).unwrap();
    h.apply(Action::Discard(top)).unwrap();
    assert_eq!(g.table(p).twins, twins, "reshuffled: no twin");
    assert_eq!(
        h.table(p).twins,
        twins + 1,
        "on_draw: still the previous discard"
    );
}
