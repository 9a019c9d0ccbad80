//! I-32, the dead lock: a player who holds one card can never take the pile
//! (D-6.2 needs a pair in the hand, I-27) and never meld without going out
//! (D-13.2). If moving wilds cannot change his table either, and no card
//! that is still outside the tables would let him go out onto it, nothing
//! can change for him for the rest of the hand.
//!
//! The test reads public cards only (the tables, and so the cards outside
//! them), never a hand: every seat can tell who is dead-locked.

use crate::card::{Card, Rank, Suit};
use crate::card_set::CardSet;
use crate::group::{max_wilds, Group};
use crate::rules::{Rules, WildCanasta};
use crate::solver::going_out::{can_go_out_with, group_counts, rules_read};
use crate::table::{Table, MAX_GROUPS};

/// How many more wilds group `g` can hold (D-9.1, D-9.2, D-10): none for a
/// canasta of naturals of seven or eight, up to seven wilds in a group of
/// wilds only.
fn wild_room(g: &Group) -> u32 {
    if g.is_wild_only() {
        7u32.saturating_sub(g.wilds())
    } else if g.len() >= 7 {
        0
    } else {
        max_wilds(g.naturals()).saturating_sub(g.wilds())
    }
}

/// How a group's wilds may leave it with table cards alone, at the start
/// of a turn: `(one, all)`, whether one wild may leave it alone and how
/// many may leave it in all. A natural group keeps three cards (D-9.1); a
/// group of wilds only that is not a canasta keeps three or is broken up
/// (D-11.3); an open wild canasta keeps three (I-22); a black canasta gives
/// a wild only against a natural from the hand (I-13), a locked wild
/// canasta never (I-22).
fn leaving(g: &Group, rules: &Rules) -> (bool, u32) {
    let (n, w) = (g.naturals(), g.wilds());
    if w == 0 || g.is_black_canasta() {
        (false, 0)
    } else if g.is_wild_only() {
        if !g.is_canasta() {
            (w >= 4, w)
        } else if rules.wild_canasta == WildCanasta::Open {
            (true, w - 3)
        } else {
            (false, 0)
        }
    } else {
        let all = w.saturating_sub(3u32.saturating_sub(n));
        (all > 0, all)
    }
}

/// Whether meld steps with table cards alone (D-11.2, D-11.3) could leave
/// this table different, card for card, with no wild pending, at the start
/// of a turn (the per-turn flags are not read). A wild never returns to
/// the group it left; a moved wild goes into another group or into a new
/// group of wilds only. Exactly when one of these holds:
///
/// - a group may give one wild and another group has room for it;
/// - two groups may each give one wild, and they hold wilds of different
///   kinds (each takes the other's: the cards differ);
/// - three or more wilds may leave their groups to form new groups of
///   wilds, other than by one group of three to five wilds only being
///   broken up and laid again as it was;
/// - a group of three wilds only may be broken up into room for three in
///   the other groups.
pub fn wild_can_move(groups: &[Group], rules: &Rules) -> bool {
    let room: u32 = groups.iter().map(wild_room).sum();
    let mut donors = 0;
    let mut total = 0;
    // The wild kinds of the groups that may give one (5 kinds: 2s by suit,
    // the joker), and how many such groups.
    let mut givers = 0;
    let mut kinds_seen = 0u8;
    let mut one_kind_each: Option<u8> = Some(0);
    for g in groups {
        let (one, all) = leaving(g, rules);
        let elsewhere = room - wild_room(g);
        if one && elsewhere >= 1 {
            return true;
        }
        if g.is_wild_only() && !g.is_canasta() && g.wilds() == 3 && elsewhere >= 3 {
            return true;
        }
        if all > 0 {
            donors += 1;
            total += all;
        }
        if one {
            let kinds = wild_kinds(g);
            givers += 1;
            kinds_seen |= kinds;
            // Two givers swap different kinds unless all hold one and the
            // same kind.
            one_kind_each = match one_kind_each {
                Some(k) if kinds.count_ones() == 1 && (k == 0 || k == kinds) => Some(kinds),
                _ => None,
            };
        }
    }
    if givers >= 2 && (one_kind_each.is_none() || kinds_seen.count_ones() > 1) {
        return true;
    }
    let relaid_only = donors == 1
        && groups
            .iter()
            .any(|g| g.is_wild_only() && !g.is_canasta() && (3..=5).contains(&g.wilds()))
        && groups
            .iter()
            .filter(|g| leaving(g, rules).1 > 0)
            .all(|g| g.is_wild_only() && !g.is_canasta() && g.wilds() <= 5);
    total >= 3 && !relaid_only
}

/// The wild kinds of a group as bits: 2♣ 2♦ 2♥ 2♠, the joker.
fn wild_kinds(g: &Group) -> u8 {
    let mut bits = 0;
    for c in g.cards().wilds().kinds() {
        bits |= 1 << if c.is_joker() { 4 } else { c.index() & 3 };
    }
    bits
}

/// A card that is never melded: the discard of the going-out test below,
/// which then asks whether the other card alone can be melded.
pub(crate) const BLACK_THREE: Card = Card::new(Rank::Three, Suit::Spades);

/// Whether a player holding one card, with `table` as his table, is
/// dead-locked (I-32): no wild of his can move ([`wild_can_move`]), and no
/// kind of `outside` — the cards outside every table: the stock, the pile
/// and every hand, his own card included — melded onto his table would
/// let him go out (D-13.1), the other card of his two discarded. Exact:
/// no search budget. The table's per-turn flags are not read.
///
/// Holding one card he draws a second; melding anything but going out
/// would leave him without a card to discard (D-13.2), and any way out
/// melds one card alone (a new group needs two naturals of the hand), so
/// the kinds are tried one at a time, one kind per class the going-out
/// test tells apart (a natural rank, the ♥A where it may lie apart, a
/// wild).
pub fn dead_locked(table: &Table, outside: CardSet, rules: &Rules) -> bool {
    let mut t = *table;
    t.end_turn();
    !wild_can_move(t.groups(), rules) && never_goes_out(&t, outside, rules)
}

/// Whether a player holding one card, with `table` as his table, can never
/// go out whatever his wilds do: [`dead_locked`] without its first
/// condition. Moving wilds over several turns reaches no count of wilds
/// per group that one turn's moves do not (a group that gives and later
/// receives nets out), and the going-out test tries every arrangement of
/// the going-out turn, so a table whose wilds can move may still be
/// hopeless. Not a rule (a hand ends only by [`dead_locked`]): a player's
/// judgement of his own prospects, exact.
pub fn never_goes_out(table: &Table, outside: CardSet, rules: &Rules) -> bool {
    let mut t = *table;
    t.end_turn();
    let groups = t.groups();
    let tried = representatives(outside, rules);
    // The answer depends on the rules the going-out test reads, the
    // groups as it reads them and the kinds tried, and the same question
    // comes back turn after turn (the candidates of a stalled hand): each
    // thread keeps its last answers.
    let mut counts = [0u32; MAX_GROUPS];
    let mut h = (tried ^ (rules_read(rules) as u64) << 56).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for (c, g) in counts.iter_mut().zip(groups) {
        *c = group_counts(g);
        h = (h ^ *c as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    let key = NeverOutKey {
        rules: rules_read(rules),
        tried,
        len: groups.len() as u8,
        groups: counts,
    };
    let slot = (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize % NEVER_OUT_SLOTS;
    if let Some(out) = NEVER_OUT.with(|m| match m.borrow().get(slot) {
        Some(Some((k, out))) if *k == key => Some(*out),
        _ => None,
    }) {
        return out;
    }
    let out = never_goes_out_worked(groups, tried, rules);
    NEVER_OUT.with(|m| {
        let mut m = m.borrow_mut();
        if m.is_empty() {
            m.resize(NEVER_OUT_SLOTS, None);
        }
        m[slot] = Some((key, out));
    });
    out
}

/// [`never_goes_out`] worked out: no kind of `tried` goes out onto
/// `groups`, the black three discarded.
fn never_goes_out_worked(groups: &[Group], tried: u64, rules: &Rules) -> bool {
    !tried_kinds(tried).any(|k| {
        let mut hand = CardSet::EMPTY;
        hand.insert(k);
        hand.insert(BLACK_THREE);
        can_go_out_with(hand, groups, rules)
    })
}

/// The kinds [`never_goes_out`] tries, as bits by card index (the joker
/// bit 52): of each class the going-out test tells apart (a natural rank,
/// the ♥A where it may lie apart, a wild), the first kind of `outside` in
/// kind order, black and red threes left out. Read off the set's words:
/// the lowest kind of each rank's four, the lowest 2 else the joker.
fn representatives(outside: CardSet, rules: &Rules) -> u64 {
    let (lo, hi, jokers) = outside.raw();
    let present = (lo | hi) & ((1 << 52) - 1);
    let apart = if rules.heart_aces() {
        present & 1 << Card::HEART_ACE.index()
    } else {
        0
    };
    // The naturals 4–A (the 2s are wild, every 3 is red or black).
    let x = present & !0xFF & !apart;
    let first = x
        & !((x << 1) & 0xEEEE_EEEE_EEEE_EEEE)
        & !((x << 2) & 0xCCCC_CCCC_CCCC_CCCC)
        & !((x << 3) & 0x8888_8888_8888_8888);
    let twos = present & 0xF;
    let wild = if twos != 0 {
        twos & twos.wrapping_neg()
    } else if jokers > 0 {
        1 << Card::JOKER.index()
    } else {
        0
    };
    first | apart | wild
}

/// The kinds of a [`representatives`] mask, in kind order.
fn tried_kinds(mut tried: u64) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        let i = tried.trailing_zeros();
        (i < 64).then(|| {
            tried &= tried - 1;
            Card::from_index(i as u8).unwrap_or(Card::JOKER)
        })
    })
}

/// The arguments of one [`never_goes_out`] as it reads them.
#[derive(Clone, Copy, PartialEq, Eq)]
struct NeverOutKey {
    rules: u8,
    tried: u64,
    len: u8,
    groups: [u32; MAX_GROUPS],
}

/// Slots of the per-thread memory of [`never_goes_out`].
const NEVER_OUT_SLOTS: usize = 256;

thread_local! {
    /// The last answers of [`never_goes_out`] on this thread, direct-mapped
    /// by a hash of the arguments; the whole key is compared on a hit.
    static NEVER_OUT: std::cell::RefCell<Vec<Option<(NeverOutKey, bool)>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The cards outside every table of `tables` (I-32's "any kind with a copy
/// in the stock, the pile or another hand").
pub(crate) fn outside(tables: &[Table]) -> CardSet {
    let mut on = CardSet::EMPTY;
    for t in tables {
        on = on.checked_add(t.cards()).unwrap_or(on);
    }
    CardSet::FULL_PACK.checked_sub(on).unwrap_or(CardSet::EMPTY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::test_variants;
    use crate::test_util::{cs, table};

    fn groups(t: &Table) -> &[Group] {
        t.groups()
    }

    /// I-32, D-11.2, D-11.3: which tables let a wild move with table cards
    /// alone.
    #[test]
    fn i32_wild_can_move_by_the_group_limits() {
        let r = Rules::default();
        let moves = |gs: &[&str], r: &Rules| wild_can_move(groups(&table(gs)), r);
        // Five naturals and a wild give it to four naturals (room for three).
        assert!(moves(&["KC KD KH KS KC 2C", "9C 9D 9H 9S"], &r));
        // Three naturals keep a legal group without their wild.
        assert!(moves(&["KC KD KH 2C", "9C 9D 9H"], &r));
        // Two naturals and a wild: the wild cannot leave (D-9.1).
        assert!(!moves(&["KC KD 2C", "9C 9D 9H"], &r));
        // The only other group is a canasta of seven: no room.
        assert!(!moves(&["KC KD KH KS 2C", "9C 9D 9H 9S 9C 2D 2H"], &r));
        // A black canasta never gives a wild alone (I-13).
        assert!(!moves(&["KC KD KH KS KC 2C 2D", "9C 9D 9H"], &r));
        // A locked wild canasta never gives one (I-22); an open one does.
        let wild7 = ["JK JK JK JK 2C 2D 2H", "9C 9D 9H"];
        assert!(!moves(&wild7, &r));
        let mut open = r;
        open.set("wild_canasta", "open").unwrap();
        assert!(moves(&wild7, &open));
        // Three wilds alone are broken up only if all three find room
        // (three naturals hold two more wilds, D-9.1).
        assert!(!moves(&["JK 2C 2D", "9C 9D 9H"], &r));
        assert!(moves(&["JK 2C 2D", "9C 9D 9H", "QC QD QH"], &r));
        // Four wilds alone give one to another group of wilds.
        assert!(moves(&["JK 2C 2D 2H", "JK JK JK"], &r));
        // No wild on the table.
        assert!(!moves(&["KC KD KH", "9C 9D 9H 9S"], &r));
    }

    /// I-32: a dead lock, and the live locks beside it, under every rule
    /// set the going-out test reads.
    #[test]
    fn i32_dead_and_live_locks_on_tables() {
        let outside_of = |t: &Table| CardSet::FULL_PACK.checked_sub(t.cards()).unwrap();
        for r in test_variants() {
            // Groups of three and five: one card never makes seven.
            let dead = table(&["KC KD KH", "9C 9D 9H 9S 9C"]);
            assert!(dead_locked(&dead, outside_of(&dead), &r), "{r:?}");
            // A group of six: a natural of its rank or a wild makes a canasta.
            let six = table(&["KC KD KH", "9C 9D 9H 9S 9C 9D"]);
            let out6 = outside_of(&six);
            assert!(!dead_locked(&six, out6, &r));
            // ... unless no such card is left outside the tables.
            let mut gone = out6;
            for c in out6.iter() {
                if c.is_wild() || c.rank() == Some(Rank::Nine) {
                    gone.remove(c);
                }
            }
            assert!(dead_locked(&six, gone, &r));
            // One copy of one kind is enough.
            assert!(!dead_locked(&six, cs("5C 9H"), &r));
            assert!(!dead_locked(&six, cs("5C JK"), &r));
            // A wild that can move: live whatever is outside.
            let movable = table(&["KC KD KH 2C", "9C 9D 9H 9S"]);
            assert!(!dead_locked(&movable, CardSet::EMPTY, &r));
            // With a canasta any card that joins a group goes out.
            let canasta = table(&["KC KD KH KS KC KD KH", "9C 9D 9H"]);
            assert!(!dead_locked(&canasta, cs("9S"), &r));
            assert!(!dead_locked(&canasta, cs("2C"), &r));
            assert!(dead_locked(&canasta, cs("5C 3S"), &r));
            // A ♥A lies apart beside a canasta only under 2003-02 (D-9.4).
            assert_eq!(dead_locked(&canasta, cs("AH"), &r), !r.heart_aces());
        }
    }

    /// I-32: the kept answers of `never_goes_out` are the answers worked
    /// out afresh, for tables of every size met in play and outsides that
    /// lose cards one by one (the same question asked again is answered
    /// from memory).
    #[test]
    fn i32_never_goes_out_kept_answers_are_fresh_answers() {
        let tables = [
            table(&["KC KD KH", "9C 9D 9H 9S 9C"]),
            table(&["KC KD KH", "9C 9D 9H 9S 9C 9D"]),
            table(&["KC KD KH KS KC 2C", "9C 9D 9H 9S"]),
            table(&["JK 2C 2D", "9C 9D 9H", "QC QD QH"]),
            table(&["AC AD AH", "5C 5D 5H 5S 5C 5D 5H"]),
        ];
        let (mut never, mut may) = (0, 0);
        for r in test_variants() {
            for t in &tables {
                let mut outside = CardSet::FULL_PACK.checked_sub(t.cards()).unwrap();
                let mut ended = *t;
                ended.end_turn();
                let kinds: Vec<Card> = outside.kinds().collect();
                for (i, k) in kinds.into_iter().enumerate() {
                    let fresh =
                        never_goes_out_worked(ended.groups(), representatives(outside, &r), &r);
                    assert_eq!(never_goes_out(t, outside, &r), fresh, "{r:?} {i}");
                    assert_eq!(never_goes_out(t, outside, &r), fresh, "{r:?} {i} again");
                    if fresh {
                        never += 1;
                    } else {
                        may += 1;
                    }
                    while outside.count(k) > 0 {
                        outside.remove(k);
                    }
                }
            }
        }
        assert!(never > 50 && may > 50, "{never} never, {may} may");
    }

    /// The kinds tried, as read off the set's words, are those of the
    /// loop over the kinds: the first of each class in kind order.
    #[test]
    fn i32_representatives_are_the_first_kind_of_each_class() {
        fn by_kinds(outside: CardSet, rules: &Rules) -> u64 {
            let mut tried = 0u64;
            let mut classes = 0u32;
            for k in outside.kinds() {
                if k.is_black_three() || k.is_red_three() {
                    continue;
                }
                let class = if k.is_wild() {
                    13
                } else if k.is_heart_ace() && rules.heart_aces() {
                    14
                } else {
                    k.rank().map_or(15, |r| r as u32)
                };
                if classes & (1 << class) == 0 {
                    classes |= 1 << class;
                    tried |= 1 << k.index();
                }
            }
            tried
        }
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for r in test_variants() {
            for _ in 0..2000 {
                // A pseudo-random subset of the pack, thinned to few cards
                // as often as to many.
                let mut s = CardSet::EMPTY;
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let keep = 1 + (x % 8);
                for c in CardSet::FULL_PACK.iter() {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    if x % 8 < keep {
                        s.insert(c);
                    }
                }
                assert_eq!(representatives(s, &r), by_kinds(s, &r), "{s:?} {r:?}");
                checked += 1;
            }
            assert_eq!(representatives(CardSet::EMPTY, &r), 0);
            let full = CardSet::FULL_PACK;
            assert_eq!(representatives(full, &r), by_kinds(full, &r));
        }
        assert!(checked >= 2000);
    }
}
