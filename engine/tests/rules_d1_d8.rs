//! Integration tests for RULES.md D-1 … D-8 and the interpretations I-1 …
//! I-11, I-21 and I-24, on scripted hands (seeded deals searched for a
//! situation) and on constructed positions.
//!
//! Every test names the identifier it checks, and shows both what the rule
//! allows and what it refuses (with the `rule` of the [`RuleError`]).

use kanaszta_engine::{
    Action, Card, CardSet, GameState, HandEnd, Match, Phase, Position, RuleError, Rules,
};

// ----- helpers ---------------------------------------------------------------

/// Rules with some switches set by name (`Rules::set`).
fn rules(settings: &[(&str, &str)]) -> Rules {
    let mut r = Rules::default();
    for (k, v) in settings {
        r.set(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    r
}

fn c(s: &str) -> Card {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn cs(s: &str) -> CardSet {
    CardSet::parse(s).unwrap_or_else(|e| panic!("{e}"))
}

fn a(s: &str) -> Action {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// Applies an action in notation; panics with the rule error if refused.
fn act(g: &mut GameState, s: &str) {
    if let Err(e) = g.apply(a(s)) {
        panic!("`{s}` refused: {e}\nhand {:?}", g.hand(g.current_player()));
    }
}

/// Applies an action that must be refused; checks that the refusal changed
/// nothing and returns the error.
fn refused(g: &mut GameState, s: &str) -> RuleError {
    let before = g.clone();
    match g.apply(a(s)) {
        Ok(()) => panic!("`{s}` was accepted"),
        Err(e) => {
            assert!(*g == before, "a refused `{s}` changed the state");
            e
        }
    }
}

fn legal(g: &GameState) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// A constructed position (`kanaszta-position/1` JSON; the stock, when left
/// out, holds the rest of the pack).
fn pos(json: &str) -> GameState {
    let p = Position::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    let g = p.to_state().unwrap_or_else(|e| panic!("{e}\n{json}"));
    g.check_invariants().unwrap();
    g
}

/// A hand dealt from `seed`, the starter keeping the cut cards in `mask`.
fn dealt(r: Rules, seed: u64, mask: u8) -> GameState {
    let mut g = GameState::new(r, seed);
    g.apply(Action::KeepCut { mask }).unwrap();
    g
}

/// Discards the first card of the hand (in kind order) that may be
/// discarded; cheaper than listing every legal action.
fn discard_any(g: &mut GameState) {
    let hand = g.hand(g.current_player());
    for card in hand.kinds() {
        if g.apply(Action::Discard(card)).is_ok() {
            return;
        }
    }
    panic!("no discard possible from [{hand}]");
}

/// One plain turn: draw (declining any free pickup) and discard the first
/// card that may go; the starter's first turn is just the discard.
fn plain_turn(g: &mut GameState) {
    match g.phase() {
        Phase::Cut => g.apply(Action::KeepCut { mask: 0 }).unwrap(),
        Phase::Draw => {
            g.apply(Action::Draw).unwrap();
            if !g.is_terminal() {
                discard_any(g);
            }
        }
        Phase::FirstDiscard | Phase::Meld => discard_any(g),
        Phase::Over => {}
    }
}

/// Searches seeds `0..limit` for a state satisfying `pred`, built by `make`.
fn find_seed<F, P>(limit: u64, make: F, pred: P) -> (u64, GameState)
where
    F: Fn(u64) -> Option<GameState>,
    P: Fn(&GameState) -> bool,
{
    for seed in 0..limit {
        if let Some(g) = make(seed) {
            if pred(&g) {
                return (seed, g);
            }
        }
    }
    panic!("no seed below {limit} gives the situation");
}

/// The other player of a two-player hand.
fn other(p: usize) -> usize {
    1 - p
}

/// Natural, non-three cards (the cards a free pickup or a twin test uses).
fn plain_kinds(set: CardSet) -> impl Iterator<Item = Card> {
    set.kinds().filter(|x| x.is_natural())
}

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

fn red_threes_in(set: CardSet) -> u32 {
    set.red_three_count()
}

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

/// Plays plain turns until the mover is about to draw the last stock card
/// (and it is not a red three).
fn to_last_stock_card(r: Rules, seed: u64) -> Option<GameState> {
    let mut g = dealt(r, seed, 0);
    while !g.is_terminal() && g.turns() < 400 {
        if g.phase() == Phase::Draw
            && g.stock().len() == 1
            && !g.stock()[0].is_red_three()
            && g.pile().len() >= 2
        {
            return Some(g);
        }
        plain_turn(&mut g);
    }
    None
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

/// The deal of `g` (starter 0, nothing kept, found by [`deal_with_starter_card`])
/// under other rules: the seed is found again by comparing hands.
fn same_deal(g: &GameState, r: Rules) -> GameState {
    for seed in 0..1000 {
        let mut t = GameState::new_hand(r, seed, 0, &[]);
        t.apply(Action::KeepCut { mask: 0 }).unwrap();
        if t.hand(0) == g.hand(0) && t.hand(1) == g.hand(1) && t.stock() == g.stock() {
            return t;
        }
    }
    panic!("deal not found");
}

/// A dealt hand (starter 0) whose starter holds a card `x` with `pick(g, x)`.
fn deal_with_starter_card<P>(r: Rules, limit: u64, pick: P) -> (GameState, Card)
where
    P: Fn(&GameState, Card) -> bool,
{
    let (_, g) = find_seed(
        limit,
        |seed| {
            let mut g = GameState::new_hand(r, seed, 0, &[]);
            g.apply(Action::KeepCut { mask: 0 }).unwrap();
            Some(g)
        },
        |g| g.hand(0).kinds().any(|x| pick(g, x)),
    );
    let x = g.hand(0).kinds().find(|x| pick(&g, *x)).unwrap();
    (g, x)
}

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

/// Plays plain turns from `seed` and returns the first state at a draw
/// (after both free-pickup chances) satisfying `pred`.
fn scan_draw_states<P>(seeds: u64, pred: P) -> GameState
where
    P: Fn(&GameState) -> bool,
{
    for seed in 0..seeds {
        let mut g = dealt(Rules::default(), seed, 0);
        while !g.is_terminal() && g.turns() < 150 {
            if g.phase() == Phase::Draw && g.turns() >= 3 && pred(&g) {
                return g;
            }
            plain_turn(&mut g);
        }
    }
    panic!("no such state in {seeds} seeds");
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

// ----- constructed positions -----------------------------------------------------

/// Player 1's cards in the constructed positions (no J or T appears elsewhere).
const P1_HAND: &str = "JC JD JH JS TC";

/// Player 0 to move in his meld phase (he has drawn); `table` is the body of
/// his table object, `extra` more top-level fields (with a leading comma).
fn meld0(hand: &str, table: &str, extra: &str) -> GameState {
    pos(&format!(
        r#"{{"phase": "meld", "turns": 10, "players": [
            {{"hand": "{hand}", "table": {{{table}}}}},
            {{"hand": "{P1_HAND}"}}]{extra}}}"#
    ))
}

/// Player 0 to draw (both free-pickup chances gone), with this pile.
fn draw0(hand: &str, table: &str, pile: &str, extra: &str) -> GameState {
    pos(&format!(
        r#"{{"phase": "draw", "turns": 10, "players": [
            {{"hand": "{hand}", "table": {{{table}}}}},
            {{"hand": "{P1_HAND}"}}], "pile": "{pile}"{extra}}}"#
    ))
}

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

/// The whole pack except `held`, as a hand (for positions that must place
/// every card, e.g. an empty stock).
fn rest_of_pack(held: &str) -> String {
    let rest = CardSet::FULL_PACK.checked_sub(cs(held)).unwrap();
    rest.to_string()
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

/// `g` under other rules (through its position).
fn with_rules(g: &GameState, r: Rules) -> GameState {
    let mut v: serde_json::Value = serde_json::from_str(&g.to_position_json()).unwrap();
    v["rules"] = serde_json::to_value(r).unwrap();
    pos(&v.to_string())
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
