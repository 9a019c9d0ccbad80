//! The meld steps worth listing: every step the listing may hold, generated
//! from the mover's cards, unchecked for completion (I-9).

use super::steps::{extend_fits, wild_may_leave};
use super::*;
use crate::action::Action;
use crate::card::{Card, Rank};
use crate::card_set::{nibble_ranks, rank_mask, CardSet, NATURAL_NIBBLES};
use crate::group::FLAG_RECEIVED;
use crate::group::{
    FACT_BLACK, FACT_FITS_NATURAL, FACT_FITS_WILD, FACT_LOSES_WILD, FACT_WILD_CANASTA,
};
use crate::rules::{BlackCanastaWilds, GroupsPerRank, WildCanasta};

/// The natural ranks counted 2 or more in `counts` (one nibble a rank,
/// as [`CardSet::rank_counts`]), in rank order: picked from the nibbles
/// with a bit above the lowest, not by testing all eleven.
pub(super) fn ranks_held_twice(counts: u64) -> impl Iterator<Item = Rank> {
    let high = counts & 0xEEEE_EEEE_EEEE_EEEE;
    nibble_ranks(((high >> 1) | (high >> 2) | (high >> 3)) & NATURAL_NIBBLES)
}

/// The lays within one rank's nibble of a [`CardSet`], by the nibble's
/// kinds present (`lo`, low 4 bits) and held twice (`hi`, high 4 bits):
/// each entry the lay's `lo` nibble with its `hi` nibble above, in the
/// order of [`pairs`] and [`triples`] over the rank's kinds.
struct NibbleLays {
    pairs: [[u8; 10]; 256],
    pair_len: [u8; 256],
    triples: [[u8; 16]; 256],
    triple_len: [u8; 256],
}

static NIBBLE_LAYS: NibbleLays = nibble_lays();

const fn nibble_lays() -> NibbleLays {
    let mut t = NibbleLays {
        pairs: [[0; 10]; 256],
        pair_len: [0; 256],
        triples: [[0; 16]; 256],
        triple_len: [0; 256],
    };
    let mut idx = 0;
    while idx < 256 {
        let l = idx & 15;
        let h = idx >> 4;
        if h & !l == 0 {
            // Pairs: a kind twice, then with each later kind.
            let mut n = 0;
            let mut a = 0;
            while a < 4 {
                if l >> a & 1 == 1 {
                    if h >> a & 1 == 1 {
                        t.pairs[idx][n] = (1 << a) | (1 << a) << 4;
                        n += 1;
                    }
                    let mut b = a + 1;
                    while b < 4 {
                        if l >> b & 1 == 1 {
                            t.pairs[idx][n] = (1 << a) | (1 << b);
                            n += 1;
                        }
                        b += 1;
                    }
                }
                a += 1;
            }
            t.pair_len[idx] = n as u8;
            // Triples: by first kind, two copies of it first, then one
            // with each pair of the later kinds.
            n = 0;
            a = 0;
            while a < 4 {
                if l >> a & 1 == 1 {
                    if h >> a & 1 == 1 {
                        let mut b = a + 1;
                        while b < 4 {
                            if l >> b & 1 == 1 {
                                t.triples[idx][n] = (1 << a) | (1 << b) | (1 << a) << 4;
                                n += 1;
                            }
                            b += 1;
                        }
                    }
                    let mut b = a + 1;
                    while b < 4 {
                        if l >> b & 1 == 1 {
                            if h >> b & 1 == 1 {
                                t.triples[idx][n] = (1 << a) | (1 << b) | (1 << b) << 4;
                                n += 1;
                            }
                            let mut c = b + 1;
                            while c < 4 {
                                if l >> c & 1 == 1 {
                                    t.triples[idx][n] = (1 << a) | (1 << b) | (1 << c);
                                    n += 1;
                                }
                                c += 1;
                            }
                        }
                        b += 1;
                    }
                }
                a += 1;
            }
            t.triple_len[idx] = n as u8;
        }
        idx += 1;
    }
    t
}

/// Calls `f` with the suited card of each bit of `bits`, a card set's
/// word of kinds present, in kind order.
#[inline]
fn push_each(mut bits: u64, mut f: impl FnMut(Card)) {
    while bits != 0 {
        f(Card::of_index(bits.trailing_zeros() as u8));
        bits &= bits - 1;
    }
}

/// Every distinct three-card group that can be laid from `pool` (D-9):
/// three naturals, two naturals and a wild, or three wilds.
/// With `need` non-empty, only the lays holding a kind of `need` (in the
/// same order). None of the natural ranks in `skip` (a card set's word,
/// each rank's nibble whole or clear: [`rank_mask`]), the order of the
/// rest kept. The naturals' lays are read from [`NIBBLE_LAYS`] by the
/// rank's nibbles, not built kind by kind.
pub(crate) fn lays_of_three(pool: CardSet, need: CardSet, skip: u64, out: &mut Vec<Action>) {
    #[cfg(debug_assertions)]
    let start = out.len();
    let wilds = pool.wilds();
    let free = need.is_empty();
    // The wild kinds a pair of naturals may take, as the bits they add:
    // a 2's bit in `lo` (rank 0, below every natural), or a joker.
    let pair_wilds = if free {
        wilds
    } else {
        wilds.distinct().of_kinds(need)
    };
    let mut wild_adds = [(0u64, 0u8); 5];
    let mut nw = 0;
    for w in pair_wilds.kinds() {
        wild_adds[nw] = if w.is_joker() {
            (0, 1)
        } else {
            (1 << w.index(), 0)
        };
        nw += 1;
    }
    let wild_adds = &wild_adds[..nw];
    let (lo, hi, _) = pool.raw();
    let counts = pool.rank_counts();
    let t = &NIBBLE_LAYS;
    // A skipped rank's nibble of counts cleared: it is held twice no more.
    for r in ranks_held_twice(counts & !skip) {
        let shift = r as u32 * 4;
        let n = ((counts >> shift) & 0xF) as u32;
        let idx = ((lo >> shift) & 0xF | ((hi >> shift) & 0xF) << 4) as usize;
        if n >= 3 && free {
            for &e in &t.triples[idx][..t.triple_len[idx] as usize] {
                let l = ((e & 0xF) as u64) << shift;
                let h = ((e >> 4) as u64) << shift;
                out.push(Action::Lay {
                    cards: CardSet::from_raw_unchecked(l, h, 0),
                });
            }
        }
        if !wild_adds.is_empty() {
            for &e in &t.pairs[idx][..t.pair_len[idx] as usize] {
                let l = ((e & 0xF) as u64) << shift;
                let h = ((e >> 4) as u64) << shift;
                for &(wl, wj) in wild_adds {
                    out.push(Action::Lay {
                        cards: CardSet::from_raw_unchecked(l | wl, h, wj),
                    });
                }
            }
        }
    }
    if wilds.len() >= 3 {
        let mut kinds = [(Card::JOKER, 0u8); 5];
        let k = kinds_of(wilds, &mut kinds);
        triples(&kinds[..k], &mut |s| {
            if free || !s.distinct().of_kinds(need).is_empty() {
                out.push(Action::Lay { cards: s })
            }
        });
    }
    #[cfg(debug_assertions)]
    {
        // Compared lay by lay, without a second list (the listing does
        // not allocate).
        let mut i = start;
        lays_of_three_slow(pool, need, skip, &mut |a| {
            debug_assert_eq!(out.get(i), Some(&a), "[{pool}] need [{need}]");
            i += 1;
        });
        debug_assert_eq!(i, out.len(), "[{pool}] need [{need}]");
    }
}

/// [`lays_of_three`] the slow way, kind by kind, each lay passed to `f`,
/// for the debug check.
#[cfg(debug_assertions)]
fn lays_of_three_slow<F: FnMut(Action)>(pool: CardSet, need: CardSet, skip: u64, f: &mut F) {
    let wilds = pool.wilds();
    let free = need.is_empty();
    // The wild kinds a pair of naturals may take.
    let pair_wilds = if free {
        wilds
    } else {
        wilds.distinct().of_kinds(need)
    };
    // Listed once here, not again for each pair.
    let mut wild_kinds = [Card::JOKER; 5];
    let mut nw = 0;
    for w in pair_wilds.kinds() {
        wild_kinds[nw] = w;
        nw += 1;
    }
    let wild_kinds = &wild_kinds[..nw];
    let counts = pool.rank_counts();
    for r in ranks_held_twice(counts) {
        if skip & rank_mask(r) != 0 {
            continue;
        }
        let n = ((counts >> (r as u32 * 4)) & 0xF) as u32;
        let nat = pool.of_rank(r);
        debug_assert_eq!(n, nat.len());
        let mut kinds = [(Card::JOKER, 0u8); 5];
        let k = kinds_of(nat, &mut kinds);
        if n >= 3 && free {
            triples(&kinds[..k], &mut |s| f(Action::Lay { cards: s }));
        }
        if !wild_kinds.is_empty() {
            pairs(&kinds[..k], CardSet::EMPTY, &mut |s| {
                for &w in wild_kinds {
                    f(Action::Lay {
                        cards: s.with_first(w),
                    });
                }
            });
        }
    }
    if wilds.len() >= 3 {
        let mut kinds = [(Card::JOKER, 0u8); 5];
        let k = kinds_of(wilds, &mut kinds);
        triples(&kinds[..k], &mut |s| {
            if free || !s.distinct().of_kinds(need).is_empty() {
                f(Action::Lay { cards: s })
            }
        });
    }
}

/// The kinds of `set` (at most 5: one rank's suits, or the four 2s and
/// the joker) with their counts, in kind order; returns how many.
pub(super) fn kinds_of(set: CardSet, out: &mut [(Card, u8); 5]) -> usize {
    let mut n = 0;
    for kc in set.kind_counts() {
        out[n] = kc;
        n += 1;
    }
    n
}

/// Every distinct pair of `kinds`, each added to `acc`, in the order of
/// [`sub_multisets`]: a kind twice, then with each later kind.
pub(super) fn pairs<F: FnMut(CardSet)>(kinds: &[(Card, u8)], acc: CardSet, f: &mut F) {
    // `acc` holds none of `kinds`: each copy added is known to be the
    // first or the second.
    for (i, &(a, ca)) in kinds.iter().enumerate() {
        let one = acc.with_first(a);
        if ca >= 2 {
            f(one.with_second(a));
        }
        for &(b, _) in &kinds[i + 1..] {
            f(one.with_first(b));
        }
    }
}

/// Every distinct triple of `kinds`, in the order of [`sub_multisets`]:
/// by first kind, as many copies of it as possible first.
pub(super) fn triples<F: FnMut(CardSet)>(kinds: &[(Card, u8)], f: &mut F) {
    for (i, &(a, ca)) in kinds.iter().enumerate() {
        let rest = &kinds[i + 1..];
        let one = CardSet::EMPTY.with_first(a);
        let two = one.with_second(a);
        if ca >= 3 {
            // Only jokers come three or more to a kind.
            let mut three = two;
            three.insert(a);
            f(three);
        }
        if ca >= 2 {
            for &(b, _) in rest {
                f(two.with_first(b));
            }
        }
        pairs(rest, one, f);
    }
}

/// Calls `f` with every distinct sub-multiset of `set` of size `k`: kinds
/// in index order, as many copies of the earlier kinds as possible first.
pub(crate) fn sub_multisets<F: FnMut(CardSet)>(set: CardSet, k: u32, f: &mut F) {
    let mut kinds = [(Card::JOKER, 0u8); 53];
    let mut n = 0;
    for kc in set.kind_counts() {
        kinds[n] = kc;
        n += 1;
    }
    // Branches that cannot gather `k` cards from what is left emit
    // nothing; they are cut short.
    pub(super) fn rec<F: FnMut(CardSet)>(
        kinds: &[(Card, u8)],
        avail: u32,
        k: u32,
        acc: CardSet,
        f: &mut F,
    ) {
        if k == 0 {
            f(acc);
            return;
        }
        if avail < k {
            return;
        }
        let Some((&(c, count), rest)) = kinds.split_first() else {
            return;
        };
        let count = count as u32;
        let max = count.min(k);
        for take in (0..=max).rev() {
            let mut a = acc;
            for _ in 0..take {
                a.insert(c);
            }
            rec(rest, avail - count, k - take, a, f);
        }
    }
    rec(&kinds[..n], set.len(), k, CardSet::EMPTY, f);
}

impl GameState {
    /// Every meld-phase action worth trying, legal or not; the discards
    /// and the reset (which end or undo the meld phase) only `with_ends`.
    pub(super) fn raw_meld_candidates(&self, cand: &mut Vec<Action>, with_ends: bool) {
        self.raw_meld_steps(cand, with_ends);
        if with_ends {
            for c in self.hands[self.current as usize].kinds() {
                cand.push(Action::Discard(c));
            }
            if self.may_reset() {
                cand.push(Action::Reset);
            }
        }
    }

    /// [`GameState::raw_meld_candidates`] but for the discards and the
    /// reset, which it lists last. Without `with_ends`, while wilds are
    /// pending, only the steps the step may then take (D-11.2): lays
    /// holding a pending wild, extends, wilds out, swaps and converts (the
    /// listing and the search ask for these).
    pub(super) fn raw_meld_steps(&self, cand: &mut Vec<Action>, with_ends: bool) {
        let p = self.current as usize;
        let hand = self.hands[p];
        let table = &self.tables[p];
        // Candidates the step would refuse whatever the position are not
        // generated (dropping them changes neither the listing, which
        // keeps the order of the rest, nor the search, which skips
        // refused steps): extends of a black canasta (D-11.4), wilds out
        // of a group that received one or of a locked wild canasta
        // (D-11.2, I-22) or out of a black canasta but by a swap (I-13),
        // swaps but on a black canasta under `swap`, the rest of the pile
        // without a pickup in progress (D-6.2). Nor are extends and wilds
        // taken out that the group's limits refuse here (D-9.1, D-11.2,
        // I-13), checked on the group alone.
        for w in self.turn.pending.kinds() {
            for (i, g) in table.groups().iter().enumerate() {
                let facts = g.step_facts();
                let fits = facts & FACT_FITS_WILD != 0;
                debug_assert_eq!(fits, extend_fits(g, w));
                let a = Action::Extend {
                    group: i as u8,
                    card: w,
                };
                if facts & FACT_BLACK != 0 || !self.step_kept(a, fits) {
                    continue;
                }
                cand.push(a);
            }
        }
        {
            // The hand itself while no wild is pending (most listings).
            let pool = if self.turn.pending.is_empty() {
                hand
            } else {
                hand.checked_add(self.turn.pending).unwrap_or(hand)
            };
            // For the search, with wilds pending only lays holding one of
            // them (the step refuses the others, D-11.2).
            let need = if with_ends {
                CardSet::EMPTY
            } else {
                self.turn.pending
            };
            // With one group a rank, a lay of a rank the table holds is
            // refused whatever the position (I-12): with no wild pending
            // those ranks are skipped, a lay of each not generated, for the
            // listing and the search. A player's candidates (`with_ends`)
            // keep them: a player that draws among its candidates then
            // draws as it always did for a seed.
            let skip = if !with_ends
                && self.rules.groups_per_rank == GroupsPerRank::One
                && self.turn.pending.is_empty()
            {
                table.groups().iter().fold(0, |m, g| m | g.rank_bits())
            } else {
                0
            };
            #[cfg(debug_assertions)]
            let lays_start = cand.len();
            lays_of_three(pool, need, skip, cand);
            #[cfg(debug_assertions)]
            {
                // The slow way: every lay, those of a skipped rank refused
                // by the step, the rest as generated, in order (compared
                // lay by lay, without a second list: the listing does not
                // allocate).
                let mut i = lays_start;
                lays_of_three_slow(pool, need, 0, &mut |a| {
                    let Action::Lay { cards } = a else {
                        unreachable!("{a} among the lays")
                    };
                    let (lo, _, _) = cards.raw();
                    if lo & !rank_mask(Rank::Two) & skip != 0 {
                        assert!(!self.step_kept(a, false));
                    } else {
                        assert_eq!(cand.get(i), Some(&a), "lay [{cards}] generated");
                        i += 1;
                    }
                });
                assert_eq!(i, cand.len(), "the lays");
            }
            let hand_wilds = hand.wilds();
            let (hand_lo, _, hand_jokers) = hand.raw();
            let hand_twos = hand_lo & rank_mask(Rank::Two);
            let locked = self.rules.wild_canasta == WildCanasta::Locked;
            let swap_rule = self.rules.black_canasta_wilds == BlackCanastaWilds::Swap;
            let convert_rule = self.rules.black_canasta_wilds == BlackCanastaWilds::ConvertOnly;
            let take_backs = (with_ends || self.turn.pending.is_empty()) && self.may_take_back();
            let hand_offers_wild = hand_twos != 0 || hand_jokers > 0;
            for (i, g) in table.groups().iter().enumerate() {
                let group = i as u8;
                // The hand's naturals of the group's rank, as bits of the
                // hand's word: the rank's nibble shifted in without a
                // test of the group of wilds only, whose index (0xFF)
                // shifts it to bits 60 to 63, where a card set's word of
                // kinds holds no card.
                let hand_rank = hand_lo & (0xF << ((g.rank_index() as u32 * 4) & 63));
                debug_assert_eq!(hand_rank, hand_lo & g.rank_bits());
                if !g.holds_wild() && hand_rank == 0 && !hand_offers_wild {
                    // A group without a wild takes nothing from a hand with
                    // neither its rank nor a wild, and gives nothing: it is
                    // no black canasta (that holds wilds), has no wild to
                    // take or swap and nothing to convert. Its counts are
                    // not looked up.
                    debug_assert_eq!(g.step_facts() & FACT_BLACK, 0);
                    debug_assert!(g.wild_kinds().is_empty());
                    debug_assert!(hand_wilds.is_empty());
                    debug_assert!(g.rank().is_none_or(|r| hand.of_rank(r).is_empty()));
                    if take_backs && g.is_new() {
                        cand.push(Action::TakeBack { group });
                    }
                    continue;
                }
                // What the checks below ask of the group's counts, in one
                // lookup (D-9.1, D-9.2, D-11.2, D-11.3, I-13).
                let facts = g.step_facts();
                let black = facts & FACT_BLACK != 0;
                if !black {
                    // The hand's kinds the group accepts (its rank and the
                    // wilds), in kind order: the 2s, the rank's, the joker,
                    // as bits of the hand's word. Whether one more card
                    // keeps the group legal depends only on whether it is
                    // wild (D-9.1, D-9.2): checked once for each.
                    let natural_fits = facts & FACT_FITS_NATURAL != 0;
                    let wild_fits = facts & FACT_FITS_WILD != 0;
                    let start = cand.len();
                    let mut bits = if wild_fits { hand_twos } else { 0 };
                    if natural_fits {
                        bits |= hand_rank;
                    }
                    push_each(bits, |c| cand.push(Action::Extend { group, card: c }));
                    if wild_fits && hand_jokers > 0 {
                        cand.push(Action::Extend {
                            group,
                            card: Card::JOKER,
                        });
                    }
                    if cfg!(debug_assertions) {
                        // The slow way: every kind the group accepts, those
                        // the group's limits refuse dropped.
                        let fits = match g.rank() {
                            Some(r) => hand_wilds.union_disjoint(hand.of_rank(r)),
                            None => hand_wilds,
                        };
                        let mut i = start;
                        for c in fits.kinds() {
                            assert!(g.accepts_kind(c));
                            let fits = if c.is_wild() { wild_fits } else { natural_fits };
                            assert_eq!(fits, extend_fits(g, c));
                            let a = Action::Extend { group, card: c };
                            if self.step_kept(a, fits) {
                                assert_eq!(cand.get(i), Some(&a));
                                i += 1;
                            }
                        }
                        assert_eq!(i, cand.len());
                    }
                }
                // A group without a wild gives none: its flags are not read.
                let may_give = g.holds_wild()
                    && g.flags() & FLAG_RECEIVED == 0
                    && !(facts & FACT_WILD_CANASTA != 0 && locked);
                if may_give {
                    // The group's wild kinds, in kind order: the 2s as bits
                    // of a card set's word, then the joker.
                    let (wild_bits, _, wild_jokers) = g.wild_kinds().raw();
                    if !black {
                        // Whether a wild may leave depends only on the
                        // group's counts (D-11.2, D-11.3, I-13): checked once.
                        let leaves = facts & FACT_LOSES_WILD != 0;
                        if cfg!(debug_assertions) {
                            for w in g.wild_kinds().kinds() {
                                assert_eq!(leaves, wild_may_leave(g, w));
                                self.step_kept(Action::TakeWild { group, wild: w }, leaves);
                            }
                        }
                        if leaves {
                            push_each(wild_bits, |w| {
                                cand.push(Action::TakeWild { group, wild: w })
                            });
                            if wild_jokers > 0 {
                                cand.push(Action::TakeWild {
                                    group,
                                    wild: Card::JOKER,
                                });
                            }
                        }
                    } else if swap_rule {
                        if let Some(r) = g.rank() {
                            for w in g.wild_kinds().kinds() {
                                for n in hand.of_rank(r).kinds() {
                                    cand.push(Action::Swap {
                                        group,
                                        natural: n,
                                        wild: w,
                                    });
                                }
                            }
                        }
                    }
                }
                if black && convert_rule {
                    if let Some(r) = g.rank() {
                        let need = g.wilds();
                        for k in [need, need + 1] {
                            sub_multisets(hand.of_rank(r), k, &mut |s| {
                                cand.push(Action::Convert { group, naturals: s })
                            });
                        }
                    }
                }
                if take_backs && g.is_new() {
                    cand.push(Action::TakeBack { group });
                }
            }
            if !with_ends && !self.turn.pending.is_empty() {
                // The search skips what the step refuses while wilds are
                // pending (D-11.2): take-backs, heart aces, the rest.
                return;
            }
            if hand.contains(Card::HEART_ACE) {
                cand.push(Action::LayHeartAce);
            }
            if table.heart_aces_new > 0 && self.may_take_back() {
                cand.push(Action::TakeBackHeartAce);
            }
            if self.before_rest() {
                cand.push(Action::TakeRest);
            }
        }
    }

    /// `keep`, the verdict of a check on the group alone for a candidate
    /// step; debug builds make sure a step it drops is one that
    /// [`GameState::meld_step`] refuses.
    pub(super) fn step_kept(&self, a: Action, keep: bool) -> bool {
        #[cfg(debug_assertions)]
        if !keep {
            let mut t = *self;
            t.quiet = true;
            assert!(
                t.meld_step(a).is_err(),
                "{a} dropped, yet the step takes it"
            );
        }
        #[cfg(not(debug_assertions))]
        let _ = a;
        keep
    }
}
