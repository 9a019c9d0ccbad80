//! Tests of the listing's candidate enumerations and the group checks
//! they stand on: pairs, triples and lays of three against the general
//! enumerations, the counts' checks against the cards'.

use super::candidates::{kinds_of, lays_of_three, pairs, ranks_held_twice, sub_multisets, triples};
use super::steps::{extend_fits, wild_may_leave};
use super::tests::each_meld_biased_state;
use super::*;
use crate::action::Action;
use crate::card::Suit;
use crate::card_set::{rank_mask, NATURAL_NIBBLES};
use crate::group::Group;

/// The pair and triple enumerations of the lays agree with the general
/// sub-multiset enumeration, sets and order.
#[test]
fn pairs_and_triples_follow_sub_multisets() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let wild_kinds: Vec<Card> = CardSet::FULL_PACK.wilds().kinds().collect();
    for _ in 0..5000 {
        let mut set = CardSet::EMPTY;
        if next() % 2 == 0 {
            let r = Rank::NATURALS[(next() % 11) as usize];
            for s in Suit::ALL {
                for _ in 0..next() % 3 {
                    set.insert(Card::new(r, s));
                }
            }
        } else {
            for _ in 0..next() % 9 {
                set.insert(wild_kinds[(next() % 5) as usize]);
            }
        }
        let mut kinds = [(Card::JOKER, 0u8); 5];
        let k = kinds_of(set, &mut kinds);
        for size in [2, 3] {
            let mut want = Vec::new();
            sub_multisets(set, size, &mut |s| want.push(s));
            let mut got = Vec::new();
            if size == 2 {
                pairs(&kinds[..k], CardSet::EMPTY, &mut |s| got.push(s));
            } else {
                triples(&kinds[..k], &mut |s| got.push(s));
            }
            assert_eq!(got, want, "[{set}] {size}");
        }
    }
}

/// `raw_meld_candidates` checks the group limits by the counts
/// (`Group::fits_one_more`, `Group::may_lose_a_wild`): for every group
/// (every count of each suit of a rank, with wilds of every kind and
/// number), they are `extend_fits` for every natural of the rank and
/// every wild the pack still holds, and `wild_may_leave` for every wild
/// the group holds.
#[test]
fn group_checks_by_counts_are_the_checks_by_cards() {
    let wilds = ["2C", "2D", "2H", "2S", "JK"].map(|w| w.parse::<Card>().unwrap());
    let (mut groups, mut natural_answers, mut leave_answers) = (0, [0; 2], [0; 2]);
    for r in [Rank::Four, Rank::Ace] {
        for nat in 0..=255u32 {
            for wild_mask in 0..1u32 << 7 {
                let mut s = CardSet::EMPTY;
                for suit in 0..4u8 {
                    for _ in 0..((nat >> (suit * 2)) & 3).min(2) {
                        s.insert(Card::new(r, Suit::from_index(suit)));
                    }
                }
                // The 2s once or twice by suit, up to three jokers.
                for (i, w) in wilds.iter().chain([&wilds[0], &wilds[4]]).enumerate() {
                    if wild_mask >> i & 1 == 1 {
                        s.insert(*w);
                    }
                }
                if wild_mask >> 6 & 1 == 1 {
                    s.insert(Card::JOKER);
                }
                for set in [s, s.wilds()] {
                    let Some(g) = Group::from_cards(set) else {
                        continue;
                    };
                    groups += 1;
                    // Cards the pack still holds: fewer than two in the group.
                    let naturals = (0..4u8)
                        .map(|suit| Card::new(r, Suit::from_index(suit)))
                        .filter(|&c| g.accepts_kind(c) && g.count(c) < 2);
                    for c in naturals {
                        let fits = g.fits_one_more(false);
                        assert_eq!(fits, extend_fits(&g, c), "{c} to {g}");
                        natural_answers[fits as usize] += 1;
                    }
                    for c in wilds.into_iter().filter(|&c| g.count(c) < 2) {
                        assert_eq!(g.fits_one_more(true), extend_fits(&g, c), "{c} to {g}");
                    }
                    for c in g.wild_kinds().kinds() {
                        let leaves = g.may_lose_a_wild();
                        assert_eq!(leaves, wild_may_leave(&g, c), "{c} out of {g}");
                        leave_answers[leaves as usize] += 1;
                    }
                }
            }
        }
    }
    assert!(
        groups > 10_000
            && natural_answers
                .iter()
                .chain(&leave_answers)
                .all(|&n| n > 100),
        "{groups} groups, {natural_answers:?} {leave_answers:?}"
    );
}

/// The lays are found rank by rank over the ranks held twice or more,
/// picked from the counts' nibbles (`ranks_held_twice`): the same ranks
/// in the same order as the plain test of every natural rank, for
/// pools of many ranks, whose lays (with and without pending wilds to
/// hold) are many.
#[test]
fn lays_of_three_visit_the_ranks_in_order() {
    assert_eq!(
        NATURAL_NIBBLES,
        Rank::NATURALS
            .iter()
            .map(|&r| 1u64 << (4 * r as u32))
            .sum::<u64>()
    );
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let pack: Vec<Card> = CardSet::FULL_PACK.iter().collect();
    let mut got = Vec::new();
    let mut lays = 0;
    for _ in 0..5000 {
        let mut pool = CardSet::EMPTY;
        for _ in 0..next() % 30 {
            pool.insert(pack[(next() % pack.len() as u64) as usize]);
        }
        let want: Vec<Rank> = Rank::NATURALS
            .into_iter()
            .filter(|&r| pool.rank_count(r) >= 2)
            .collect();
        let ranks: Vec<Rank> = ranks_held_twice(pool.rank_counts()).collect();
        assert_eq!(ranks, want, "[{pool}]");
        let need = if next() % 3 == 0 {
            pool.wilds()
        } else {
            CardSet::EMPTY
        };
        // Some ranks skipped, a third of the time.
        let skip = if next() % 3 == 0 {
            Rank::NATURALS
                .into_iter()
                .filter(|_| next() % 2 == 0)
                .fold(0, |m, r| m | rank_mask(r))
        } else {
            0
        };
        got.clear();
        lays_of_three(pool, need, skip, &mut got);
        for a in &got {
            let Action::Lay { cards } = *a else {
                panic!("{a} among the lays")
            };
            let (lo, _, _) = cards.raw();
            assert_eq!(lo & !rank_mask(Rank::Two) & skip, 0, "[{cards}] skipped");
        }
        lays += got.len();
    }
    assert!(lays > 50_000, "{lays} lays");
}

/// `Group::holds_wild` and `Group::rank_bits`, by which the candidates
/// pass over a group that neither takes nor gives a card, are
/// `wilds() > 0` and the nibble of the group's rank (none for a group of
/// wilds only), which holds every natural of the group.
#[test]
fn group_wild_and_rank_bits_are_the_cards() {
    let wilds = ["2C", "2D", "2H", "2S", "JK"].map(|w| w.parse::<Card>().unwrap());
    let mut groups = 0;
    for r in Rank::NATURALS {
        for nat in 0..16u32 {
            for wild_mask in 0..1u32 << 5 {
                let mut s = CardSet::EMPTY;
                for suit in 0..4u8 {
                    if nat >> suit & 1 == 1 {
                        s.insert(Card::new(r, Suit::from_index(suit)));
                    }
                }
                for (i, w) in wilds.iter().enumerate() {
                    if wild_mask >> i & 1 == 1 {
                        s.insert(*w);
                    }
                }
                for set in [s, s.wilds()] {
                    let Some(g) = Group::from_cards(set) else {
                        continue;
                    };
                    groups += 1;
                    assert_eq!(g.holds_wild(), g.wilds() > 0, "{g}");
                    assert_eq!(g.rank_bits(), g.rank().map_or(0, rank_mask), "{g}");
                    let (lo, _, _) = g.cards().raw();
                    assert_eq!(lo & !rank_mask(Rank::Two) & !g.rank_bits(), 0, "{g}");
                }
            }
        }
    }
    assert!(groups > 5_000, "{groups} groups");
}

/// I-9, I-8, I-12, D-11.5: the candidates the listing decides by tests
/// on the state itself, without trying the step on a copy (the rest of
/// the pile before the top card is laid, lays with wilds pending by the
/// table's limits, take-backs and ♥A laid apart or taken back by a player
/// who opened before this turn), are listed exactly where `apply` takes
/// them, the step and the completion check: in random and meld-biased
/// play under every rule variant.
#[test]
fn candidates_decided_on_the_state_are_listed_as_apply_takes_them() {
    let (mut legal, mut cand) = (Vec::new(), Vec::new());
    // Per kind: [not listed, listed], and how many of the listed were
    // of a player who opened before this turn.
    let mut seen = [[0u32; 2]; 5];
    let mut opened_listed = [0u32; 5];
    each_meld_biased_state(0x5a7e, |g| {
        if g.phase != Phase::Meld {
            return;
        }
        g.legal_actions(&mut legal);
        cand.clear();
        g.raw_meld_candidates(&mut cand, true);
        let pending = !g.turn.pending.is_empty();
        for &a in &cand {
            let kind = match a {
                Action::TakeRest => 0,
                Action::Lay { .. } if pending => 1,
                Action::TakeBack { .. } => 2,
                Action::LayHeartAce => 3,
                Action::TakeBackHeartAce => 4,
                _ => continue,
            };
            let mut t = g.clone();
            t.quiet = true;
            let want = t.apply(a).is_ok();
            let listed = legal.contains(&a);
            assert_eq!(listed, want, "{a} listed: {}", g.to_position_json());
            seen[kind][listed as usize] += 1;
            if listed && g.tables[g.current as usize].opened {
                opened_listed[kind] += 1;
            }
        }
    });
    eprintln!("[not listed, listed] by kind: {seen:?}, listed of opened players {opened_listed:?}");
    assert!(
        seen[..4].iter().all(|k| k[0] > 10 && k[1] > 10)
            && seen[4][1] > 10
            && opened_listed[2..].iter().all(|&n| n > 10),
        "{seen:?} {opened_listed:?}"
    );
}

/// I-12: with one group a rank, the listing's and the search's candidate
/// steps hold no lay of a rank the mover's table already holds while no
/// wild is pending (the step refuses each, by I-12, whatever the
/// position); every other lay of three from the hand is a candidate, in
/// the order of `lays_of_three`. With many groups a rank none is left
/// out, and a player's candidates (`with_ends`) leave none out ever, so
/// that a player drawing among them draws as before for a seed. In random
/// and meld-biased play under every rule variant.
/// The lays among `actions`, in their order.
fn lays_in(actions: &[Action]) -> Vec<Action> {
    actions
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::Lay { .. }))
        .collect()
}

#[test]
fn lays_of_a_rank_on_the_table_are_no_candidates_under_one_group_a_rank() {
    use crate::rules::GroupsPerRank;
    let (mut cand, mut all) = (Vec::new(), Vec::new());
    let (mut dropped, mut kept) = (0, 0);
    each_meld_biased_state(0x1_2a7, |g| {
        if g.phase != Phase::Meld || !g.turn.pending.is_empty() {
            return;
        }
        let hand = g.hands[g.current as usize];
        all.clear();
        lays_of_three(hand, CardSet::EMPTY, 0, &mut all);
        cand.clear();
        g.raw_meld_candidates(&mut cand, true);
        let players = lays_in(&cand);
        assert_eq!(players, all, "a player's lays: {}", g.to_position_json());
        cand.clear();
        g.raw_meld_steps(&mut cand, false);
        let lays = lays_in(&cand);
        let mut listed = lays.iter();
        let mut next = listed.next();
        for &a in &all {
            if next == Some(&a) {
                next = listed.next();
                kept += 1;
                continue;
            }
            assert_eq!(
                g.rules.groups_per_rank,
                GroupsPerRank::One,
                "{a} left out: {}",
                g.to_position_json()
            );
            let mut t = g.clone();
            t.quiet = true;
            let err = t.meld_step(a).expect_err("a lay left out is refused");
            assert_eq!(err.rule, "I-12", "{a}: {}", g.to_position_json());
            dropped += 1;
        }
        assert_eq!(next, None, "a lay out of order: {}", g.to_position_json());
    });
    assert!(
        dropped > 100 && kept > 100,
        "{dropped} left out, {kept} kept"
    );
}

/// I-9, D-8.2, D-11.5: a take-back with no wild pending, no pickup before
/// the rest and no duty to go out is listed, without the completion
/// check, where the step takes it and a discard is then legal
/// (`take_back_leaves_discard`): two cards or more in hand, and the
/// player opened or the groups laid this turn that are left reach the
/// opening minimum or none is left. Where a group laid this turn below
/// the minimum is left, it decides nothing: the completion check does
/// (the opening to be reached from the hand, D-8.2, the cards taken back
/// in it). Each as `apply` takes it, in random and meld-biased play under
/// every rule variant.
#[test]
fn take_backs_leaving_a_discard_are_listed_without_the_check() {
    let mut legal = Vec::new();
    // [sure, undecided and refused, undecided and listed], of players
    // not opened.
    let mut seen = [0u32; 3];
    each_meld_biased_state(0x7a_4eb, |g| {
        if g.phase != Phase::Meld
            || !g.turn.pending.is_empty()
            || g.before_rest()
            || g.turn.must_go_out
            || !g.may_take_back()
        {
            return;
        }
        let p = g.current as usize;
        if g.tables[p].opened {
            return;
        }
        g.legal_actions(&mut legal);
        for gi in 0..g.tables[p].len() {
            let a = Action::TakeBack { group: gi as u8 };
            let Some(sure) = g.take_back_leaves_discard(p, gi) else {
                continue;
            };
            let mut t = g.clone();
            t.quiet = true;
            let want = t.apply(a);
            let listed = legal.contains(&a);
            assert_eq!(listed, want.is_ok(), "{a} listed: {}", g.to_position_json());
            if sure {
                assert!(listed, "{a} sure: {}", g.to_position_json());
                seen[0] += 1;
            } else if let Err(e) = want {
                assert_eq!(e.rule, "I-9", "{a}: {}", g.to_position_json());
                seen[1] += 1;
            } else {
                seen[2] += 1;
            }
        }
    });
    eprintln!("[sure, undecided and refused, undecided and listed]: {seen:?}");
    assert!(seen[0] > 10 && seen[2] > 10, "{seen:?}");
}
