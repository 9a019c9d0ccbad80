//! Tests of the solver.

use super::going_out::*;
use super::opening::*;
use super::*;
use crate::card::{Card, Rank};
use crate::card_set::CardSet;
use crate::rules::{GroupsPerRank, Permit};

use crate::test_util::cs;
fn g(s: &str) -> Group {
    Group::from_cards(cs(s)).unwrap()
}

#[test]
fn going_out_needs_a_canasta() {
    let r = Rules::default();
    // Seven kings and a discard: a red canasta laid from hand, out.
    assert!(can_go_out_with(cs("KC KC KD KD KH KH KS 9C"), &[], &r));
    // Six kings, no wild: no canasta.
    assert!(!can_go_out_with(cs("KC KC KD KD KH KH 9C"), &[], &r));
    // Six kings and a joker: black canasta.
    assert!(can_go_out_with(cs("KC KC KD KD KH KH JK 9C"), &[], &r));
    // A lone nine cannot be melded and two cards cannot both be discarded.
    assert!(!can_go_out_with(cs("KC KC KD KD KH KH JK 9C 8D"), &[], &r));
    // Onto an existing canasta: the rest melds.
    let t = [g("8C 8C 8D 8D 8H 8H 8S")];
    assert!(can_go_out_with(cs("5C 5D 5H 3S"), &t, &r));
    assert!(
        !can_go_out_with(cs("5C 5D 3S 3C"), &t, &r),
        "two black threes"
    );
    // A wild can go to the fives.
    assert!(can_go_out_with(cs("5C 5D JK 9S"), &t, &r));
    // Two wilds and two fives: 5 5 + 1 wild, and the other wild? A
    // red canasta takes none (7 → 8 with a wild is illegal), so discard it.
    assert!(can_go_out_with(cs("5C 5D JK JK"), &t, &r));
    assert!(!can_go_out_with(cs("5C 5D JK JK 9S"), &t, &r));
}

/// The going-out memo answers for the rules and the arguments it is
/// asked with: the same hand under `free_pickup_return` forbid and
/// allow (I-21: the card taken for free may be discarded only under
/// allow), with no free card, and with the card that must be laid
/// (I-8), each asked twice; and a table differing in a 2's suit only.
#[test]
fn going_out_memo_keeps_answers_by_rules_and_cards() {
    let forbid = Rules::default();
    let mut allow = Rules::default();
    allow.set("free_pickup_return", "allow").unwrap();
    let hand = cs("KC KC KD KD KH KH KS 9C");
    let free = Some("9C".parse::<Card>().unwrap());
    let ask = |r: &Rules| can_meld_all_but_one(hand, &[], r, None, free, CardSet::EMPTY);
    let nine = free;
    for _ in 0..2 {
        assert!(!ask(&forbid), "the free card may not be discarded");
        assert!(ask(&allow), "the free card is discarded, seven kings laid");
        // The same cards, the 9 neither taken for free nor to be laid,
        // then to be laid (the top card of a pickup): other questions.
        let plain = can_meld_all_but_one(hand, &[], &forbid, None, None, CardSet::EMPTY);
        assert!(plain, "the 9 is discarded, seven kings laid");
        let must = can_meld_all_but_one(hand, &[], &forbid, nine, None, CardSet::EMPTY);
        assert!(!must, "a lone 9 cannot be laid");
    }
    // A group differing in the suit of a 2 only is the same question.
    let t1 = [g("8C 8D 8H 2C")];
    let t2 = [g("8C 8D 8H 2S")];
    let h = cs("8S 8S 8D 5C");
    for _ in 0..2 {
        let want = going_out(h, &t1, &forbid, None, None, CardSet::EMPTY);
        assert_eq!(
            can_meld_all_but_one(h, &t1, &forbid, None, None, CardSet::EMPTY),
            want
        );
        assert_eq!(
            can_meld_all_but_one(h, &t2, &forbid, None, None, CardSet::EMPTY),
            want
        );
        assert!(want, "six 8s and a 2 make a canasta, 5C discarded");
    }
}

/// A kept answer is given back only for the arguments it was kept
/// for, suits the test never reads aside: any of them differing, in
/// the same slot, is a miss.
#[test]
fn going_out_memo_compares_the_whole_key() {
    let rules = Rules::default();
    let mut memo = GoingOutMemo { slots: Vec::new() };
    let read = |c: &str| hand_read(cs(c), None, None, CardSet::EMPTY);
    let key = GoingOutKey {
        rules: rules_read(&rules),
        cards: read("KC KC KD 9C"),
        keep: CardSet::EMPTY.raw(),
        must: None,
        free_card: None,
    };
    // The groups as the memo reads them.
    let counts = |gs: &[Group]| gs.iter().map(group_counts).collect::<Vec<_>>();
    let table = counts(&[g("KH KS 2C")]);
    assert_eq!(memo.find(7, &key, &table), None);
    memo.keep(7, key, &table, true);
    assert_eq!(memo.find(7, &key, &table), Some(true));
    // The suit of a 2 is not read.
    assert_eq!(memo.find(7, &key, &counts(&[g("KH KS 2D")])), Some(true));
    let nine = Some("9C".parse::<Card>().unwrap());
    let mut many = rules;
    many.set("groups_per_rank", "many").unwrap();
    // With no card singled out, the hand is read by its counts: the
    // same hand in other suits is the same question, another rank not.
    let mut turned = key;
    turned.cards = read("KD KH KS 9D");
    assert_eq!(memo.find(7, &turned, &table), Some(true));
    let mut others = vec![key; 6];
    others[0].cards = read("KC KC KD TC");
    others[5].cards = hand_read(cs("KC KC KD 9C"), nine, None, CardSet::EMPTY);
    others[1].keep = cs("2C").raw();
    others[2].must = nine;
    others[3].free_card = nine;
    others[4].rules = rules_read(&many);
    for o in &others {
        assert_eq!(memo.find(7, o, &table), None);
    }
    // The ♥A and the black threes are told from their rank fellows.
    let mut heart = key;
    heart.cards = read("KC KC KD AH");
    memo.keep(9, heart, &table, true);
    let mut diamond = heart;
    diamond.cards = read("KC KC KD AD");
    assert_eq!(memo.find(9, &diamond, &table), None);
    let mut black = key;
    black.cards = read("KC KC KD 3S");
    memo.keep(9, black, &table, true);
    let mut red = black;
    red.cards = read("KC KC KD 3H");
    assert_eq!(memo.find(9, &red, &table), None);
    assert_eq!(memo.find(7, &key, &[]), None);
    assert_eq!(memo.find(7, &key, &counts(&[g("KH KS JK JK")])), None);
    assert_eq!(
        memo.find(7, &key, &counts(&[g("KH KS 2C"), g("5C 5D 5H")])),
        None
    );
}

/// The table-by-table form `max_opening` had before it skipped ranks
/// without a group: the reference it must agree with.
fn max_opening_reference(pool: CardSet, must_rank: Rank, max_used: u32) -> i32 {
    let wilds = pool.wild_count().min(16) as usize;
    let max_used = max_used.min(pool.len()) as usize;
    const NONE: i32 = i32::MIN;
    let width = max_used + 1;
    let mut dp = vec![NONE; 17 * 113];
    dp[0] = 0;
    for rank in Rank::NATURALS {
        let n = pool.rank_count(rank);
        let pts = rank.points();
        let mut next = vec![NONE; 17 * 113];
        for w in 0..=wilds {
            for u in 0..width {
                let v = dp[w * width + u];
                if v == NONE {
                    continue;
                }
                if rank != must_rank {
                    let cell = &mut next[w * width + u];
                    *cell = (*cell).max(v);
                }
                for k in 2..=n {
                    for j in 0..=(wilds - w) as u32 {
                        if !legal_natural_counts(k, j) {
                            continue;
                        }
                        let nw = w + j as usize;
                        let nu = u + (k + j) as usize;
                        if nu > max_used {
                            continue;
                        }
                        let cell = &mut next[nw * width + nu];
                        *cell = (*cell).max(v + (k + j) as i32 * pts);
                    }
                }
            }
        }
        dp = next;
    }
    let mut best = NONE;
    for w in 0..=wilds {
        for u in 0..width {
            let v = dp[w * width + u];
            if v == NONE {
                continue;
            }
            best = best.max(v);
            let rem = wilds - w;
            for t in 3..=rem {
                if u + t <= max_used {
                    best = best.max(v + 20 * t as i32);
                }
            }
        }
    }
    best.max(-1)
}

/// D-8.2: `max_opening` agrees with its plain reference on random
/// pools, ranks and card budgets (binding or not); and
/// `max_opening_any` is the most of `max_opening` over the ranks held
/// twice or more (`i32::MIN` where none is), some pools holding no pair.
#[test]
fn max_opening_agrees_with_reference() {
    let mut x = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let pack: Vec<Card> = CardSet::FULL_PACK.iter().collect();
    let (mut none, mut bound) = (0, 0);
    for _ in 0..6000 {
        let size = 3 + (next() % 40) as usize;
        let mut pool = CardSet::EMPTY;
        while pool.len() < size as u32 {
            pool.insert(pack[(next() % pack.len() as u64) as usize]);
        }
        let r = Rank::NATURALS[(next() % Rank::NATURALS.len() as u64) as usize];
        // Half the time a budget that may bind, half the time none.
        let max_used = if next() % 2 == 0 {
            (next() % (size as u64 + 3)) as u32
        } else {
            999
        };
        assert_eq!(
            max_opening(pool, r, max_used),
            max_opening_reference(pool, r, max_used),
            "[{pool}] {r:?} {max_used}"
        );
        let best = Rank::NATURALS
            .iter()
            .filter(|&&r| pool.rank_count(r) >= 2)
            .map(|&r| max_opening(pool, r, max_used))
            .max()
            .unwrap_or(i32::MIN);
        assert_eq!(max_opening_any(pool, max_used), best, "[{pool}] {max_used}");
        none += (best == i32::MIN) as u32;
        bound += (best > 0 && max_used < pool.len()) as u32;
    }
    assert!(
        none > 200 && bound > 1000,
        "{none} with no pair, {bound} with a budget that binds"
    );
}

#[test]
fn max_opening_values() {
    // Three kings (30) + pair of aces with a joker (60) = 90.
    assert_eq!(max_opening(cs("KC KD KH AS AD JK"), Rank::King, 99), 90);
    // Must include the fives: 5 5 JK = 15 + K K K = 30.
    assert_eq!(max_opening(cs("5C 5D JK KC KD KH"), Rank::Five, 99), 45);
    // Card budget: only three cards may be used.
    assert_eq!(max_opening(cs("5C 5D JK KC KD KH"), Rank::Five, 3), 15);
}

/// The table of ordinary slots is the loop over wild counts it was
/// made from: every count of naturals, every fewest wilds a group
/// that received one may keep (D-11.2), a canasta before or not.
#[test]
fn natural_slot_table_is_the_loop() {
    for (was, table) in NATURAL_SLOTS.iter().enumerate() {
        for min_w in 0..=8u32 {
            for n in 0..=8u32 {
                let mut want = Slot {
                    plain: 0,
                    canasta: 0,
                };
                for w in min_w..=8 {
                    if !legal_natural_counts(n, w) {
                        continue;
                    }
                    if n + w >= 7 {
                        want.canasta |= 1 << w;
                    } else if was == 0 {
                        want.plain |= 1 << w;
                    }
                }
                let got = table[min_w as usize][n as usize];
                assert_eq!(
                    (got.plain, got.canasta),
                    (want.plain, want.canasta),
                    "{was} {min_w} {n}"
                );
            }
        }
    }
}

/// `conv` one shift per set bit of `b`, as it was.
fn conv_reference(a: Mask, b: Mask) -> Mask {
    let mut out = 0;
    let mut b = b;
    while b != 0 {
        let w = b.trailing_zeros();
        out |= a << w;
        b &= b - 1;
    }
    out & ALL
}

fn add_reference(acc: Acc, s: Slot) -> Acc {
    Acc {
        plain: conv_reference(acc.plain, s.plain),
        canasta: conv_reference(acc.canasta, s.plain | s.canasta)
            | conv_reference(acc.plain, s.canasta),
    }
}

/// The plain form of `feasible`, every natural rank added.
fn feasible_reference(r: CardSet, groups: &[Group], rules: &Rules) -> bool {
    let mut acc = Acc::START;
    let mut total_wilds = r.wild_count();
    for g in groups {
        total_wilds += g.wilds();
    }
    if total_wilds > 16 {
        return false;
    }
    for rank in Rank::NATURALS {
        let n = r.rank_count(rank);
        let mine = groups.iter().filter(|g| g.rank() == Some(rank));
        let count = mine.clone().count();
        let slot = match rules.groups_per_rank {
            GroupsPerRank::One => match groups.iter().find(|g| g.rank() == Some(rank)) {
                Some(g) => natural_slot(g.naturals() + n, Some(g), rules),
                None => match n {
                    0 => Some(Slot {
                        plain: 1,
                        canasta: 0,
                    }),
                    1 => None,
                    _ => natural_slot(n, None, rules),
                },
            },
            GroupsPerRank::Many => {
                // The hand's naturals all join one existing group, or form one
                // new group; other groups of the rank keep their naturals.
                let mut best: Option<Acc> = None;
                for choice in 0..=count {
                    let mut a = Acc::START;
                    let mut ok = true;
                    for (i, g) in mine.clone().enumerate() {
                        let add = if i == choice { n } else { 0 };
                        match natural_slot(g.naturals() + add, Some(g), rules) {
                            Some(s) => a = add_reference(a, s),
                            None => ok = false,
                        }
                    }
                    if choice == count {
                        match n {
                            0 => {}
                            1 => ok = false,
                            _ => match natural_slot(n, None, rules) {
                                Some(s) => a = add_reference(a, s),
                                None => ok = false,
                            },
                        }
                    }
                    if ok {
                        best = Some(best.map_or(a, |b| b.or(a)));
                    }
                }
                best.map(|a| a.as_slot())
            }
        };
        match slot {
            Some(s) => acc = add_reference(acc, s),
            None => return false,
        }
    }
    for g in groups.iter().filter(|g| g.is_wild_only()) {
        acc = add_reference(acc, wild_group_slot(g, rules));
    }
    // New groups of wilds only, 3 to 7 wilds each (D-9.2): any total
    // of 3 or more; with a canasta, one group of 7 and the others of
    // 3 or more: 7, or 10 and more.
    let new_wild = Slot {
        plain: 1 | (ALL & !0b111),
        canasta: (1 << 7) | (ALL & !0b11_1111_1111),
    };
    acc = add_reference(acc, new_wild);
    acc.canasta & (1 << total_wilds) != 0
}

/// `can_meld_all_but_one` in its plain form: every natural rank's slot
/// computed and added for each discard tried.
fn can_meld_all_but_one_reference(
    cards: CardSet,
    groups: &[Group],
    rules: &Rules,
    must: Option<Card>,
    free_card: Option<Card>,
    keep: CardSet,
) -> bool {
    for d in cards.kinds() {
        if must == Some(d) && cards.count(d) < 2 {
            continue;
        }
        if cards.count(d) <= keep.count(d) {
            continue;
        }
        if free_card == Some(d) && rules.free_pickup_return == Permit::Forbid && cards.count(d) < 2
        {
            continue;
        }
        let mut rest = cards;
        rest.remove(d);
        if rest.black_three_count() > 0 || rest.red_three_count() > 0 {
            continue;
        }
        let mut sep_max = 0;
        if rules.heart_aces() {
            sep_max = rest.count(Card::HEART_ACE);
            if must == Some(Card::HEART_ACE) {
                sep_max = sep_max.saturating_sub(1);
            }
        }
        for sep in 0..=sep_max {
            let mut r = rest;
            for _ in 0..sep {
                r.remove(Card::HEART_ACE);
            }
            if feasible_reference(r, groups, rules) {
                return true;
            }
        }
    }
    false
}

/// The tables of play that lays and extends whenever it can, four
/// times in five (`play_meld_biased`), under each of `rule_sets`, the
/// hands `seeds`, each from a generator seeded with its seed ^ `salt`:
/// `f(rules, mover's groups, cards not on them, generator)` at every
/// position.
fn on_laying_tables(
    rule_sets: &[Rules],
    seeds: std::ops::Range<u64>,
    salt: u64,
    mut f: impl FnMut(&Rules, &[Group], CardSet, &mut rand_pcg::Pcg64Mcg),
) {
    use crate::action::Action;
    use crate::state::play_meld_biased;
    use rand::SeedableRng;
    for rules in rule_sets {
        for seed in seeds.clone() {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed ^ salt);
            play_meld_biased(
                *rules,
                seed,
                &mut rng,
                0.8,
                |a| matches!(a, Action::Lay { .. } | Action::Extend { .. }),
                |g, rng| {
                    let table = g.table(g.current_player());
                    let free = CardSet::FULL_PACK
                        .checked_sub(table.cards())
                        .unwrap_or(CardSet::EMPTY);
                    f(rules, table.groups(), free, rng)
                },
            );
        }
    }
}

/// A hand of `size` cards drawn at random from `pack` (cards of `free`,
/// each kind drawn at most as often as `free` holds it).
fn draw_hand(pack: &[Card], free: CardSet, size: usize, rng: &mut rand_pcg::Pcg64Mcg) -> CardSet {
    use rand::RngExt;
    let mut hand = CardSet::EMPTY;
    while hand.len() < size as u32 {
        let c = pack[rng.random_range(0..pack.len())];
        if free.count(c) > hand.count(c) {
            hand.insert(c);
        }
    }
    hand
}

/// The rule sets the going-out tests run under: both rule versions,
/// many groups per rank, and with it `convert_only` black canastas and
/// open wild canastas (the first four of [`crate::rules::test_variants`]).
fn going_out_rule_sets() -> [Rules; 4] {
    let [default, older, many, convert, _] = crate::rules::test_variants();
    assert!(default == Rules::preset("decorated-2003-02").unwrap());
    [default, older, many, convert]
}

/// I-9, I-26: the going-out test (ranks without naturals or groups
/// skipped, slots by table and kept per test, in any order) answers as
/// the plain form that adds every rank's slot in rank order, on the
/// tables of random play with hands drawn from what is not on them,
/// under both rule versions, with many groups per rank, and with
/// `convert_only` black canastas and open wild canastas.
#[test]
fn going_out_test_agrees_with_reference() {
    use rand::RngExt;
    let (mut checked, mut yes) = (0, 0);
    on_laying_tables(
        &going_out_rule_sets(),
        0..25,
        0x5eed,
        |rules, groups, free, rng| {
            let pack: Vec<Card> = free.iter().collect();
            for _ in 0..4 {
                // Mostly naturals of few ranks, so that many hands can go out.
                let size = 2 + rng.random_range(0..12usize);
                let hand = draw_hand(&pack, free, size, rng);
                let cards: Vec<Card> = hand.iter().collect();
                let must =
                    (rng.random_range(0..4) == 0).then(|| cards[rng.random_range(0..cards.len())]);
                let free_card =
                    (rng.random_range(0..4) == 0).then(|| cards[rng.random_range(0..cards.len())]);
                let keep = if rng.random_range(0..4) == 0 {
                    hand.wilds()
                } else {
                    CardSet::EMPTY
                };
                let want =
                    can_meld_all_but_one_reference(hand, groups, rules, must, free_card, keep);
                assert_eq!(
                    can_meld_all_but_one(hand, groups, rules, must, free_card, keep),
                    want,
                    "[{hand}] onto {groups:?} must {must:?} free {free_card:?} keep [{keep}]"
                );
                checked += 1;
                yes += want as u32;
            }
        },
    );
    assert!(checked > 10_000, "{checked} hands checked");
    assert!(yes > checked / 50, "{yes} of {checked} could go out");
}

/// I-9, I-26, D-13.2: a hand of one card (its own path: the card's
/// checks, the one-pass canasta count, then the table's answer, kept
/// once for every card) answers
/// as the plain reference, for every kind of card not on the table,
/// as the card to lay, the card taken for free, a pending wild or
/// none of them, under the rule sets of the test above, on the tables
/// of random play; each question asked twice (the second answer kept).
#[test]
fn going_out_with_one_card_agrees_with_reference() {
    let mut rule_sets = going_out_rule_sets();
    // The card taken for free may go back in the last set.
    rule_sets[3].set("free_pickup_return", "allow").unwrap();
    let (mut checked, mut yes, mut refused_by_role) = (0, 0, 0);
    let (mut spared, mut left_to_search, mut received) = (0, 0, 0);
    on_laying_tables(&rule_sets, 0..12, 0x0e1, |rules, groups, free, _| {
        // The one-pass count is necessary for the table's
        // own answer (wilds moved, nothing laid).
        let reachable = table_canasta_reachable(groups);
        let table_only = feasible_reference(CardSet::EMPTY, groups, rules);
        assert!(reachable || !table_only, "unreachable: {groups:?}");
        spared += (!reachable) as u32;
        left_to_search += (reachable && !table_only) as u32;
        received += groups
            .iter()
            .any(|g| g.flags() & FLAG_RECEIVED != 0 && !g.is_canasta()) as u32;
        for d in free.kinds() {
            let mut hand = CardSet::EMPTY;
            hand.insert(d);
            for role in 0..4 {
                let (must, free_card, keep) = match role {
                    0 => (None, None, CardSet::EMPTY),
                    1 => (Some(d), None, CardSet::EMPTY),
                    2 => (None, Some(d), CardSet::EMPTY),
                    _ => (None, None, hand.wilds()),
                };
                let want =
                    can_meld_all_but_one_reference(hand, groups, rules, must, free_card, keep);
                for _ in 0..2 {
                    assert_eq!(
                        can_meld_all_but_one(hand, groups, rules, must, free_card, keep),
                        want,
                        "[{hand}] onto {groups:?} must {must:?} free {free_card:?} keep [{keep}]"
                    );
                }
                let plain =
                    can_meld_all_but_one_reference(hand, groups, rules, None, None, CardSet::EMPTY);
                refused_by_role += (plain && !want) as u32;
                checked += 1;
                yes += want as u32;
            }
        }
    });
    assert!(checked > 50_000, "{checked} hands checked");
    assert!(yes > checked / 100, "{yes} of {checked} could go out");
    assert!(refused_by_role > 0, "no card refused for its role alone");
    // The count spares most tables the search, and is tried on tables
    // with a group that received a wild.
    assert!(
        spared > 10 * left_to_search,
        "{spared} spared, {left_to_search} searched in vain"
    );
    assert!(received > 100, "{received} tables with a received group");
}

/// The form `max_opening_onto` had before it read the groups once and
/// kept to the rows a value can be in: every rank's groups found by a
/// scan of the table, every row of the table merged.
fn max_opening_onto_reference(
    hand: CardSet,
    groups: &[Group],
    pending: u32,
    rules: &Rules,
    must: Option<Rank>,
    keep: u32,
) -> Option<i32> {
    const NONE: i32 = i32::MIN;
    const W: usize = 17;
    let width = keep as usize + 1;
    // dp[w * width + c]: best value with `w` wilds in groups so far and `c`
    // hand cards left over (capped at `keep`).
    let mut dp = [NONE; W * 3];
    let mut next = [NONE; W * 3];
    if width > 3 {
        return None;
    }
    let cells = W * width;
    let cap = |c: u32| (c as usize).min(width - 1);
    dp[cap(hand.black_three_count())] = 0;
    let table_wilds: u32 = groups.iter().map(|g| g.wilds()).sum();
    // Groups of wilds only already on the table: their slots, each wild 20.
    let mut wild_groups = Acc::START;
    for g in groups.iter().filter(|g| g.is_wild_only()) {
        wild_groups = wild_groups.add(wild_group_slot(g, rules));
    }
    let wild_mask = wild_groups.plain | wild_groups.canasta;
    if wild_mask == 0 {
        return None;
    }
    let merge = |dp: &mut [i32; W * 3],
                 next: &mut [i32; W * 3],
                 mask: Mask,
                 left: u32,
                 base: i32,
                 per_wild: i32| {
        for w0 in 0..W {
            for c0 in 0..width {
                let v = dp[w0 * width + c0];
                if v == NONE {
                    continue;
                }
                let mut m = mask;
                while m != 0 {
                    let w = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if w0 + w >= W {
                        break;
                    }
                    let cell = &mut next[(w0 + w) * width + cap(c0 as u32 + left)];
                    *cell = (*cell).max(v + base + per_wild * w as i32);
                }
            }
        }
    };
    next[..cells].fill(NONE);
    merge(&mut dp, &mut next, wild_mask, 0, 0, 20);
    std::mem::swap(&mut dp, &mut next);
    for rank in Rank::NATURALS {
        let h = hand.rank_count(rank);
        let count = groups.iter().filter(|g| g.rank() == Some(rank)).count();
        if h == 0 && count == 0 {
            if must == Some(rank) {
                return None;
            }
            continue;
        }
        let pts = rank.points();
        let naturals_on: u32 = groups
            .iter()
            .filter(|g| g.rank() == Some(rank))
            .map(|g| g.naturals())
            .sum();
        next[..cells].fill(NONE);
        let least = (must == Some(rank)) as u32;
        for a in least..=h {
            // The wilds the rank's groups may end with: the hand's `a`
            // naturals join one group or make a new one (one group a rank
            // under I-12 `one`), the other groups keep theirs (I-28).
            let mut mask: Mask = 0;
            let new_ok = rules.groups_per_rank == GroupsPerRank::Many || count == 0;
            let choices = if a == 0 { 1 } else { count + new_ok as usize };
            for choice in 0..choices {
                let mut acc = Acc::START;
                let mut ok = true;
                for (j, g) in groups.iter().filter(|g| g.rank() == Some(rank)).enumerate() {
                    let add = if j == choice { a } else { 0 };
                    match natural_slot(g.naturals() + add, Some(g), rules) {
                        Some(s) => acc = acc.add(s),
                        None => ok = false,
                    }
                }
                if a > 0 && choice == count {
                    match natural_slot(a, None, rules) {
                        Some(s) => acc = acc.add(s),
                        None => ok = false,
                    }
                }
                if ok {
                    mask |= acc.plain | acc.canasta;
                }
            }
            if mask != 0 {
                merge(
                    &mut dp,
                    &mut next,
                    mask,
                    h - a,
                    (naturals_on + a) as i32 * pts,
                    pts,
                );
            }
        }
        std::mem::swap(&mut dp, &mut next);
    }
    // The wilds: the table's and the pending ones all in groups, the
    // hand's `u` of them too; what is not in a group so far forms new
    // groups of wilds only (three or more, 20 each).
    let hand_wilds = hand.wild_count();
    let mut out = NONE;
    for u in 0..=hand_wilds {
        let total = (table_wilds + pending + u) as usize;
        let unlaid = hand_wilds - u;
        for w in 0..W.min(total + 1) {
            let rest = total - w;
            if rest != 0 && rest < 3 {
                continue;
            }
            for c in 0..width {
                let v = dp[w * width + c];
                if v != NONE && c + unlaid as usize >= width - 1 {
                    out = out.max(v + 20 * rest as i32);
                }
            }
        }
    }
    (out != NONE).then_some(out)
}

/// D-8.2, D-6.2.1, I-9: the opening bound onto a table (groups read in
/// one pass, only the rows a value can be in merged) answers as its
/// plain reference, on the tables of random play with hands drawn from
/// what is not on them, with and without pending wilds, a rank required
/// and every number of cards kept, under the going-out rule sets; each
/// question asked twice (the second answer kept by the thread's memo);
/// and whether there is one, as the table of reached cells tells it.
#[test]
fn max_opening_onto_agrees_with_reference() {
    use rand::RngExt;
    let (mut checked, mut some) = (0, 0);
    on_laying_tables(
        &going_out_rule_sets(),
        0..25,
        0x0be9,
        |rules, groups, free, rng| {
            let pack: Vec<Card> = free.iter().collect();
            for _ in 0..4 {
                let size = 1 + rng.random_range(0..14usize);
                let hand = draw_hand(&pack, free, size, rng);
                let pending = rng.random_range(0..3u32);
                let must = (rng.random_range(0..3) == 0)
                    .then(|| Rank::NATURALS[rng.random_range(0..11usize)]);
                let keep = rng.random_range(0..4u32);
                let want = max_opening_onto_reference(hand, groups, pending, rules, must, keep);
                // Asked twice: the second answer is the kept one.
                for _ in 0..2 {
                    assert_eq!(
                        max_opening_onto(hand, groups, pending, rules, must, keep),
                        want,
                        "[{hand}] onto {groups:?} pending {pending} must {must:?} keep {keep}"
                    );
                }
                // The table of reached cells alone says whether there is
                // one, keeping `keep` cards and keeping none.
                assert_eq!(
                    opening_onto_exists(hand, groups, pending, rules, must, keep),
                    want.is_some(),
                    "exists: [{hand}] onto {groups:?} pending {pending} must {must:?} keep {keep}"
                );
                let none = max_opening_onto_reference(hand, groups, pending, rules, must, 0);
                assert_eq!(
                    opening_onto_exists_keeping(hand, groups, pending, rules, must, keep),
                    (want.is_some(), none.is_some()),
                    "exists keeping: [{hand}] onto {groups:?} pending {pending} must {must:?} keep {keep}"
                );
                checked += 1;
                some += want.is_some() as u32;
            }
        },
    );
    assert!(checked > 10_000, "{checked} hands checked");
    assert!(some > checked / 10, "{some} of {checked} with an opening");
}

/// D-8.2, D-6.2.1, I-9: whether an opening reaches a value (or any legal
/// table) answers as the plain table does, its bounds above and below
/// never deciding otherwise, on the tables of random play with hands
/// drawn from what is not on them (red threes left out), with and
/// without pending wilds, a
/// rank required and up to two cards kept (as the callers keep), under
/// the going-out rule sets; the values asked about lie around the
/// table's best.
#[test]
fn opening_reaches_agrees_with_reference() {
    use rand::RngExt;
    let (mut checked, mut reached, mut none) = (0, 0, 0);
    on_laying_tables(
        &going_out_rule_sets(),
        0..25,
        0x0be5,
        |rules, groups, free, rng| {
            // Red threes never stay in a hand (D-4).
            let pack: Vec<Card> = free.iter().filter(|c| !c.is_red_three()).collect();
            for _ in 0..4 {
                let size = 1 + rng.random_range(0..14usize);
                let hand = draw_hand(&pack, free, size, rng);
                let pending = [0, 0, 0, 1, 2][rng.random_range(0..5usize)];
                let must = (rng.random_range(0..3) == 0)
                    .then(|| Rank::NATURALS[rng.random_range(0..11usize)]);
                let keep = rng.random_range(0..3u32);
                let best = max_opening_onto_reference(hand, groups, pending, rules, must, keep);
                let exists = best.is_some() && hand.len() >= keep;
                assert_eq!(
                    opening_reaches(hand, groups, pending, rules, must, keep, None),
                    exists,
                    "any: [{hand}] onto {groups:?} pending {pending} must {must:?} keep {keep}"
                );
                let at = best.unwrap_or(50);
                for need in [at - 10, at - 5, at, at + 5, at + 10, 50, 90, 120] {
                    let want = hand.len() >= keep && best.is_some_and(|v| v >= need);
                    assert_eq!(
                        opening_reaches(hand, groups, pending, rules, must, keep, Some(need)),
                        want,
                        "[{hand}] onto {groups:?} pending {pending} must {must:?} keep {keep} \
                         need {need} best {best:?}"
                    );
                    reached += want as u32;
                }
                checked += 1;
                none += best.is_none() as u32;
            }
        },
    );
    assert!(checked > 10_000, "{checked} hands checked");
    assert!(
        none > checked / 10,
        "{none} of {checked} with no legal table"
    );
    assert!(
        reached > checked,
        "{reached} values reached of {checked} hands"
    );
}

/// The opening tables read a rank's groups as one mask of wild counts,
/// with or without a canasta: the union of [`Acc::add`]'s two masks is
/// the plain [`conv`] of the unions.
#[test]
fn either_mask_is_the_union_of_acc() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(0xe17e);
    for _ in 0..20_000 {
        let mask =
            |rng: &mut rand_pcg::Pcg64Mcg| rng.random_range(0..=ALL) & rng.random_range(0..=ALL);
        let acc = Acc {
            plain: mask(&mut rng),
            canasta: mask(&mut rng),
        };
        let s = Slot {
            plain: mask(&mut rng),
            canasta: mask(&mut rng),
        };
        let sum = add_reference(acc, s);
        assert_eq!(
            sum.plain | sum.canasta,
            conv_reference(acc.plain | acc.canasta, either(s))
        );
    }
}

/// D-6.2.1, I-8, I-9, D-11.2: where the tables that lay no card of the
/// hand but the required rank's (the groups keep their naturals, the
/// wilds, pending ones among them, go where the groups' slots allow; one
/// natural of the required rank joins its first group, or two make a new
/// one) find a table, the plain table of the opening finds one too,
/// keeping the cards and keeping none; on the tables of random play with
/// hands drawn from what is not on them, with and without pending wilds
/// and a rank of the hand required, under the going-out rule sets.
#[test]
fn as_is_tables_are_tables_reached() {
    use rand::RngExt;
    let (mut checked, mut found, mut found_must) = (0, 0, 0);
    on_laying_tables(
        &going_out_rule_sets(),
        0..25,
        0x0be7,
        |rules, groups, free, rng| {
            let pack: Vec<Card> = free.iter().filter(|c| !c.is_red_three()).collect();
            for _ in 0..4 {
                let size = 1 + rng.random_range(0..14usize);
                let hand = draw_hand(&pack, free, size, rng);
                let pending = [0, 0, 1, 2, 3][rng.random_range(0..5usize)];
                let held: Vec<Rank> = Rank::NATURALS
                    .into_iter()
                    .filter(|&r| hand.rank_count(r) > 0)
                    .collect();
                let must = (rng.random_range(0..3) > 0 && !held.is_empty())
                    .then(|| held[rng.random_range(0..held.len())]);
                let keep = rng.random_range(0..3u32);
                checked += 1;
                if !as_is_reaches(hand, groups, pending, rules, must, keep) {
                    continue;
                }
                found += 1;
                found_must += must.is_some() as u32;
                let kept = max_opening_onto_reference(hand, groups, pending, rules, must, keep);
                let none = max_opening_onto_reference(hand, groups, pending, rules, must, 0);
                assert!(
                    kept.is_some() && none.is_some(),
                    "[{hand}] onto {groups:?} pending {pending} must {must:?} keep {keep}"
                );
                assert_eq!(
                    opening_onto_exists_keeping(hand, groups, pending, rules, must, keep),
                    (true, true)
                );
            }
        },
    );
    assert!(checked > 10_000, "{checked} hands checked");
    assert!(
        found > checked / 5,
        "{found} of {checked} found as they are"
    );
    assert!(
        found_must > checked / 10,
        "{found_must} of {checked} with a rank required"
    );
}

/// D-13.1, D-11.2, D-11.3: the table's own going-out question answered
/// yes by one table of wilds moved ([`wilds_moved_make_canasta`]: a group
/// made a canasta with the fewest wilds, the others with their fewest,
/// the wilds over as a new group of wilds or one or two more in groups)
/// only where the plain reference says yes, on the tables of random play
/// under the going-out rule sets; and it answers most of the tables
/// without a canasta that the reference brings to one.
#[test]
fn d13_wilds_moved_make_canasta_only_where_the_reference_does() {
    let (mut tables, mut moved, mut yes_by_moves, mut found) = (0u32, 0u32, 0u32, 0u32);
    on_laying_tables(
        &going_out_rule_sets(),
        0..25,
        0x3ad5,
        |rules, groups, _, _| {
            tables += 1;
            let quick = wilds_moved_make_canasta(groups, rules);
            let want = feasible_reference(CardSet::EMPTY, groups, rules);
            assert!(!quick || want, "a canasta by wilds moved onto {groups:?}");
            if groups.iter().any(|g| g.is_canasta()) {
                return;
            }
            moved += quick as u32;
            if want {
                yes_by_moves += 1;
                found += quick as u32;
            }
        },
    );
    eprintln!("{tables} tables, {yes_by_moves} brought to a canasta, {found} of them found");
    assert!(tables > 5_000, "{tables} tables");
    assert!(
        moved > 100,
        "{moved} tables brought to a canasta by wilds moved"
    );
    assert!(2 * found > yes_by_moves, "{found} of {yes_by_moves} found");
}

/// D-13.1, D-9.1, D-9.3: where two cards of the hand or more can go into
/// no group (threes, naturals held once of a rank with no group; aces
/// aside under D-9.4), the plain reference finds no way out either, on
/// the tables of random play with hands drawn from what is not on them,
/// under the going-out rule sets; the count answers most hands.
#[test]
fn d13_two_cards_no_group_takes_never_go_out() {
    use rand::RngExt;
    let (mut checked, mut refused) = (0u32, 0u32);
    on_laying_tables(
        &going_out_rule_sets(),
        0..12,
        0x7a0,
        |rules, groups, free, rng| {
            let pack: Vec<Card> = free.iter().collect();
            for _ in 0..4 {
                let size = 2 + rng.random_range(0..12usize);
                let hand = draw_hand(&pack, free, size, rng);
                checked += 1;
                if unmeldable(hand, groups, rules).0 < 2 {
                    continue;
                }
                refused += 1;
                assert!(
                    !can_meld_all_but_one_reference(
                        hand,
                        groups,
                        rules,
                        None,
                        None,
                        CardSet::EMPTY
                    ),
                    "[{hand}] onto {groups:?}"
                );
            }
        },
    );
    assert!(checked > 5_000, "{checked} hands checked");
    assert!(
        2 * refused > checked,
        "{refused} of {checked} refused by the count"
    );
}

/// D-13.1, I-9, D-11.2: one card in hand with wilds kept (a hand of one
/// card with wilds pending): the card is the only one to discard, so the
/// answer is the table's own with the kept wilds placed as well
/// ([`one_card_with_kept_wilds`]), which says "no" where no canasta can
/// be counted and "yes" where one table of wilds moved and placed makes
/// one; both agree with the plain reference, with the card taken for
/// free or not, on the tables of random play under the going-out rule
/// sets, and both answers are given without the search on many tables.
#[test]
fn d13_one_card_with_kept_wilds_agrees_with_reference() {
    use rand::RngExt;
    let mut rule_sets = going_out_rule_sets();
    rule_sets[3].set("free_pickup_return", "allow").unwrap();
    let (mut checked, mut quick_no, mut quick_yes, mut yes) = (0u32, 0u32, 0u32, 0u32);
    on_laying_tables(&rule_sets, 0..20, 0x1c4d, |rules, groups, free, rng| {
        let wilds: Vec<Card> = free.wilds().iter().collect();
        if wilds.is_empty() {
            return;
        }
        for d in free.kinds() {
            let n = 1 + rng.random_range(0..3usize);
            let mut keep = CardSet::EMPTY;
            let mut cards = CardSet::EMPTY;
            cards.insert(d);
            for _ in 0..n {
                let w = wilds[rng.random_range(0..wilds.len())];
                if free.count(w) > cards.count(w) {
                    keep.insert(w);
                    cards.insert(w);
                }
            }
            if keep.is_empty() {
                continue;
            }
            let free_card = (rng.random_range(0..4) == 0).then_some(d);
            let want = can_meld_all_but_one_reference(cards, groups, rules, None, free_card, keep);
            let quick = one_card_with_kept_wilds(cards, groups, rules, None, free_card, keep);
            assert!(
                quick.is_none_or(|q| q == want),
                "[{cards}] keep [{keep}] onto {groups:?} free {free_card:?}"
            );
            assert_eq!(
                can_meld_all_but_one(cards, groups, rules, None, free_card, keep),
                want,
                "[{cards}] keep [{keep}] onto {groups:?} free {free_card:?}"
            );
            checked += 1;
            yes += want as u32;
            quick_no += (quick == Some(false)) as u32;
            quick_yes += (quick == Some(true)) as u32;
        }
    });
    assert!(checked > 10_000, "{checked} hands checked");
    assert!(yes > checked / 100, "{yes} of {checked} could go out");
    assert!(
        quick_no > checked / 10,
        "{quick_no} of {checked} refused by the count"
    );
    assert!(
        quick_yes > yes / 4,
        "{quick_yes} of {yes} found by wilds placed"
    );
}
