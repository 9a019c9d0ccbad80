//! Openings (D-8.2, D-6.2.1): the most an opening can be worth, laid
//! from a pool of cards or onto the groups laid this turn.

use super::going_out::{group_counts, rules_read};
use super::*;
use crate::card::Rank;
use crate::card_set::{nibble_ranks, CardSet, NATURAL_NIBBLES};
use crate::group::{legal_natural_counts, Group, FLAG_RECEIVED};
use crate::rules::{GroupsPerRank, Rules};
use crate::table::MAX_GROUPS;

/// The most an opening can be worth (D-8.2) laid from `pool`, with a group
/// of `must_rank` among it, using at most `max_used` cards.
pub fn max_opening(pool: CardSet, must_rank: Rank, max_used: u32) -> i32 {
    opening_with(pool, Some(must_rank), max_used)
}

/// The most of [`max_opening`] over the ranks `pool` holds twice or more:
/// the best opening with a group of naturals of any rank, found in one
/// pass over the ranks instead of one for each; `i32::MIN` if no rank is
/// held twice.
pub fn max_opening_any(pool: CardSet, max_used: u32) -> i32 {
    if Rank::NATURALS.iter().all(|&r| pool.rank_count(r) < 2) {
        return i32::MIN;
    }
    opening_with(pool, None, max_used)
}

/// [`max_opening`] with a group of `must` among the opening, or with `None`
/// a group of naturals of any rank: then the tables have two layers, before
/// and after the first group of naturals, and the best is read in the
/// second.
pub(super) fn opening_with(pool: CardSet, must: Option<Rank>, max_used: u32) -> i32 {
    let wilds = pool.wild_count().min(16) as usize;
    let max_used = max_used.min(pool.len()) as usize;
    if max_used == pool.len() as usize {
        // No choice of groups can use more cards than the pool holds: the
        // card budget never binds and the table over card counts reduces
        // to its best entry per wild count.
        return max_opening_unbounded(pool, must, wilds);
    }
    // The budget as cards left over: the callers keep one or two to
    // discard, so the table over "cards left, up to `spare`" is a few
    // columns wide where one over cards used would be the whole pool.
    let spare = pool.len() as usize - max_used;
    let layers = 1 + must.is_none() as usize;
    let cells = (wilds + 1) * (spare + 1) * layers;
    const SMALL: usize = 17 * 3 * 2;
    const NONE: i32 = i32::MIN;
    if cells <= SMALL {
        opening_leaving(
            pool,
            must,
            wilds,
            spare,
            &mut [NONE; SMALL],
            &mut [NONE; SMALL],
        )
    } else {
        const CELLS: usize = 17 * 113 * 2;
        opening_leaving(
            pool,
            must,
            wilds,
            spare,
            &mut [NONE; CELLS],
            &mut [NONE; CELLS],
        )
    }
}

/// Whether one wild of the table may leave its group, the group staying
/// legal with one wild fewer (its slot: D-11.2's received groups and
/// I-13's black canastas included), to join a new group of two naturals
/// (D-9.1). `true` is a table with one more group of two naturals and a
/// wild; `false` decides nothing (more wilds may leave at once, or
/// after naturals joined their group).
pub(crate) fn one_wild_frees(groups: &[Group], rules: &Rules) -> bool {
    if natural_slot(2, None, rules).is_none_or(|s| (s.plain | s.canasta) & 0b10 == 0) {
        return false;
    }
    groups.iter().any(|g| {
        let w = g.wilds();
        if w == 0 {
            return false;
        }
        let s = match g.rank() {
            None => wild_group_slot(g, rules),
            Some(_) => match natural_slot(g.naturals(), Some(g), rules) {
                Some(s) => s,
                None => return false,
            },
        };
        (s.plain | s.canasta) >> (w - 1) & 1 != 0
    })
}

/// Whether an opening worth `need` (or, with `None`, any legal table) can
/// be reached as [`max_opening_onto`] reaches tables: that function's
/// answer, with cheap bounds first, from one pass over the groups
/// ([`Onto::of`]). Below, with nothing pending: the table as it is, then
/// the hand's naturals laid onto the groups of their rank and in new
/// groups of three or more, `must`'s first and then dearest first, while
/// `keep` cards stay ([`Onto::lower_reaches`]). Above: [`Onto::upper`].
pub(crate) fn opening_reaches(
    hand: CardSet,
    groups: &[Group],
    pending: u32,
    rules: &Rules,
    must: Option<Rank>,
    keep: u32,
    need: Option<i32>,
) -> bool {
    if hand.len() < keep {
        // The cards kept are the hand's.
        return false;
    }
    if pending == 0 && must.is_none() && need.is_none() {
        return true;
    }
    let counts = hand.rank_counts();
    let onto = Onto::of(groups, counts);
    // Below (any legal table: the required rank laid at all); with a
    // rank required only as far as the table keeps cards (two).
    if pending == 0 && (must.is_none() || keep <= 2) {
        let n = need.unwrap_or(i32::MIN);
        if (must.is_none() && onto.now >= n)
            || onto.lower_reaches(hand, groups, rules, counts, must, keep, n)
        {
            return true;
        }
    }
    let Some(upper) = onto.upper(hand, counts, pending, must, keep) else {
        // No legal table at all.
        return false;
    };
    match need {
        // Any legal table: whether one is reached, not its value.
        None => exists_table(hand, groups, pending, rules, must, keep).0,
        Some(n) if upper < n => false,
        Some(n) => {
            max_opening_onto(hand, groups, pending, rules, must, keep).is_some_and(|v| v >= n)
        }
    }
}

/// What the bounds of [`opening_reaches`] read of the groups, from one
/// pass over them.
struct Onto {
    /// The table's opening value (D-8.2) as it is.
    now: i32,
    /// The table's wilds, those that may not leave their natural group
    /// (the group received a wild this turn, D-11.2) among them.
    table_wilds: u32,
    pinned: u32,
    /// Whether a group of wilds only is on the table.
    wild_group: bool,
    /// Each rank's naturals on the table, and its pinned wilds.
    naturals: [u8; 13],
    pinned_of: [u8; 13],
    /// Each rank's first group (an index into the groups), or `NO_GROUP`.
    first: [u8; 13],
    /// Ranks (the low bit of each rank's nibble, as in
    /// [`CardSet::rank_counts`]) with a group, and with a group that is
    /// no canasta and holds the hand's naturals of its rank too (eight
    /// cards at most).
    grouped: u64,
    room: u64,
}

/// The natural ranks (nibble bits) of which `counts` holds at least one.
#[inline(always)]
fn held(counts: u64) -> u64 {
    (counts | counts >> 1 | counts >> 2 | counts >> 3) & NATURAL_NIBBLES
}

/// The natural ranks (nibble bits) of which `counts` holds three or more
/// (a nibble is at most 8: adding 5 carries into its top bit from 3 on).
#[inline(always)]
fn held_three(counts: u64) -> u64 {
    ((counts + 0x5_5555_5555_5555) >> 3) & NATURAL_NIBBLES
}

/// The natural ranks (nibble bits) of which `counts` holds exactly two.
#[inline(always)]
fn held_two(counts: u64) -> u64 {
    NATURAL_NIBBLES & !held(counts ^ 0x2_2222_2222_2222)
}

/// The ranks of the nibble bits `m`, dearest first as the bound below
/// lays them: A, then 8–K, then 4–7, each group in rank order.
#[inline(always)]
fn dearest_of(m: u64) -> impl Iterator<Item = Rank> {
    [m & 1 << 48, m & 0x1111_1100_0000, m & 0x11_1100]
        .into_iter()
        .flat_map(nibble_ranks)
}

const NO_GROUP: u8 = 0xFF;

impl Onto {
    #[inline(always)]
    fn of(groups: &[Group], counts: u64) -> Onto {
        let mut o = Onto {
            now: 0,
            table_wilds: 0,
            pinned: 0,
            wild_group: false,
            naturals: [0; 13],
            pinned_of: [0; 13],
            first: [NO_GROUP; 13],
            grouped: 0,
            room: 0,
        };
        for (i, g) in groups.iter().enumerate() {
            o.now += g.opening_value();
            let wilds = g.wilds();
            o.table_wilds += wilds;
            match g.rank() {
                None => o.wild_group = true,
                Some(r) => {
                    let r = r as usize;
                    o.naturals[r] += g.naturals() as u8;
                    if o.first[r] == NO_GROUP {
                        o.first[r] = i as u8;
                        o.grouped |= 1 << (4 * r);
                    }
                    if g.flags() & FLAG_RECEIVED != 0 {
                        o.pinned += wilds;
                        o.pinned_of[r] += wilds as u8;
                    }
                    let h = ((counts >> (4 * r)) & 0xF) as u32;
                    if g.naturals() + h + wilds <= 8 && !g.is_canasta() {
                        o.room |= 1 << (4 * r);
                    }
                }
            }
        }
        o
    }

    /// The lower bound of [`opening_reaches`], nothing pending: whether
    /// `need` is reached by the table as it is with `must`'s naturals
    /// first, then extends and new groups of three naturals or more,
    /// dearest rank first; then each pair of a rank with no group with a
    /// wild of the hand, dearest first; then three wilds of the hand as a
    /// group of wilds only; `keep` cards left. `must`'s naturals join its
    /// first group or make a new group as the others do, or make one as
    /// a pair with a wild; if none of these, the bound says nothing.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn lower_reaches(
        &self,
        hand: CardSet,
        groups: &[Group],
        rules: &Rules,
        counts: u64,
        must: Option<Rank>,
        keep: u32,
        need: i32,
    ) -> bool {
        let mut value = self.now;
        let mut spare = hand.len() - keep;
        let mut wilds = hand.wild_count();
        let single = rules.groups_per_rank == GroupsPerRank::One;
        // How many naturals of `r` join its first group or make a new one
        // (a new group needs three at once).
        let takes = |r: Rank, spare: u32| {
            let i = r as usize;
            let h = ((counts >> (4 * i)) & 0xF) as u32;
            let takes = if self.room & (1 << (4 * i)) != 0 {
                let g = &groups[self.first[i] as usize];
                let mut n = 0;
                while n < h && legal_natural_counts(g.naturals() + n + 1, g.wilds()) {
                    n += 1;
                }
                n
            } else if h >= 3 && !(single && self.grouped & (1 << (4 * i)) != 0) {
                h.min(8)
            } else {
                0
            };
            let t = takes.min(spare);
            if t < 3 && t < takes && takes >= 3 {
                0
            } else {
                t
            }
        };
        let pairs = held_two(counts) & !self.grouped;
        let pair = |r: Rank| pairs & (1 << (4 * r as usize)) != 0;
        if let Some(r) = must {
            let t = takes(r, spare);
            if t > 0 {
                value += t as i32 * r.points();
                spare -= t;
            } else if pair(r) && wilds > 0 && spare >= 3 {
                value += 3 * r.points();
                spare -= 3;
                wilds -= 1;
            } else {
                return false;
            }
            if value >= need {
                return true;
            }
        }
        let must_bit = must.map_or(0, |r| 1 << (4 * r as usize));
        for r in dearest_of((held(counts) & self.room | held_three(counts)) & !must_bit) {
            let t = takes(r, spare);
            if t == 0 {
                continue;
            }
            value += t as i32 * r.points();
            spare -= t;
            if value >= need {
                return true;
            }
        }
        for r in dearest_of(pairs & !must_bit) {
            if wilds == 0 || spare < 3 {
                break;
            }
            value += 3 * r.points();
            spare -= 3;
            wilds -= 1;
            if value >= need {
                return true;
            }
        }
        wilds >= 3 && spare >= 3 && value + 60 >= need
    }

    /// The most any table reached (as [`max_opening_onto`] reaches them)
    /// can be worth, or `None` if a rank's groups cannot be legal (a rank
    /// with one natural in all, or `must` without a natural of the hand).
    ///
    /// Each natural counts at its rank's value, each wild at the value of
    /// its group's rank or 20, and: a rank with two naturals in all makes
    /// one group only with one wild (a rank with a group or `must` has to;
    /// a pair of the hand may); a rank with one natural of the hand and no
    /// group is not laid; a wild in no such pair is worth 20 only in a
    /// group of wilds only (one on the table, or three such wilds), else at
    /// most the dearest rank of three naturals or more; wilds in a group
    /// that received one stay. The table's and the pending wilds are all
    /// laid, the hand's may be; with `keep` cards left, what is laid past
    /// the cards no group can take is taken from the naturals of ranks of
    /// three or more, cheapest first. The groups of a rank are counted
    /// together and the caps of eight cards, of canastas and of rules are
    /// left out: each only ever removes tables.
    #[inline(always)]
    fn upper(
        &self,
        hand: CardSet,
        counts: u64,
        pending: u32,
        must: Option<Rank>,
        keep: u32,
    ) -> Option<i32> {
        // By value class (5, 10, 20): the hand's naturals of ranks of three
        // or more, the pairs of the hand that may be laid.
        let mut three_of = [0i32; 3];
        let mut pairs_of = [0u32; 3];
        let mut base = 0i32;
        let (mut forced, mut forced_hand, mut dearest_three) = (0u32, 0u32, 0i32);
        if let Some(r) = must {
            let h = ((counts >> (4 * r as usize)) & 0xF) as u32;
            if h == 0 || self.naturals[r as usize] as u32 + h <= 1 {
                return None;
            }
        }
        for r in nibble_ranks(held(counts) | self.grouped) {
            let i = r as usize;
            let h = ((counts >> (4 * i)) & 0xF) as u32;
            let on = self.naturals[i] as u32;
            let all = on + h;
            let pts = r.points();
            let class = (pts / 10) as usize;
            if all >= 3 {
                base += (all + self.pinned_of[i] as u32) as i32 * pts;
                three_of[class] += h as i32;
                dearest_three = dearest_three.max(pts);
            } else if all == 2 {
                if on > 0 || must == Some(r) {
                    // Laid: with a wild, its own if it cannot leave.
                    base += 3 * pts;
                    forced_hand += h;
                    forced += (self.pinned_of[i] == 0) as u32;
                } else {
                    pairs_of[class] += 1;
                }
            } else if on > 0 {
                return None;
            }
        }
        let laid_wilds = self.table_wilds + pending - self.pinned;
        let wilds = laid_wilds + hand.wild_count();
        let three: i32 = three_of.iter().sum();
        // The cheapest `d` naturals of ranks of three or more.
        let cheapest = |d: i32| {
            let a = d.min(three_of[0]);
            let b = (d - a).min(three_of[1]);
            let c = d - a - b;
            5 * a + 10 * b + 20 * c
        };
        let pairs: u32 = pairs_of.iter().sum();
        let mut best: Option<i32> = None;
        let mut paired = 0i32;
        for k in 0..=pairs {
            if k > 0 {
                // The k-th dearest pair with its wild.
                let class = if k <= pairs_of[2] {
                    2
                } else if k <= pairs_of[2] + pairs_of[1] {
                    1
                } else {
                    0
                };
                paired += 3 * [5, 10, 20][class];
            }
            let used = forced + k;
            // Hand cards that may be laid past the forced pairs' and these.
            let free = hand.len() as i32 - keep as i32 - (forced_hand + 2 * k) as i32;
            let most = wilds.min((laid_wilds as i32 + free.max(0)) as u32);
            if free < 0 || most < used {
                break;
            }
            // `rest` wilds besides the pairs'; past two, each more is worth
            // 20 and costs at most one natural of 20 kept, so the most of
            // them is the best of those.
            let least = laid_wilds.saturating_sub(used);
            let most = most - used;
            let mut rest = least;
            loop {
                let hand_laid = (used + rest).saturating_sub(laid_wilds) as i32;
                let over = (three - (free - hand_laid)).max(0);
                let per = if self.wild_group || rest >= 3 {
                    20
                } else {
                    dearest_three
                };
                if rest == 0 || per > 0 {
                    let v = base + paired - cheapest(over) + rest as i32 * per;
                    best = Some(best.map_or(v, |b| b.max(v)));
                }
                if rest >= most {
                    break;
                }
                rest = if rest < 2 { rest + 1 } else { most };
            }
        }
        best
    }
}

/// Whether [`max_opening_onto`] is `Some`: the same table over (wilds
/// placed, cards left over), holding whether a cell is reached instead
/// of its best value — for each count of cards left over, a mask of the
/// wild counts reached — so that a rank's choices are added by one
/// [`conv`] a column instead of cell by cell.
#[cfg(test)]
pub(crate) fn opening_onto_exists(
    hand: CardSet,
    groups: &[Group],
    pending: u32,
    rules: &Rules,
    must: Option<Rank>,
    keep: u32,
) -> bool {
    opening_onto_exists_keeping(hand, groups, pending, rules, must, keep).0
}

/// [`opening_onto_exists`] keeping `keep` cards, and keeping none, from
/// one table: the table keeping none is this one with its columns (cards
/// left over) taken together. Both where [`as_is_reaches`] finds a table;
/// neither where [`Onto::upper`] finds that a rank's groups cannot be
/// legal.
pub(crate) fn opening_onto_exists_keeping(
    hand: CardSet,
    groups: &[Group],
    pending: u32,
    rules: &Rules,
    must: Option<Rank>,
    keep: u32,
) -> (bool, bool) {
    if as_is_yes(hand, groups, pending, rules, must, keep) {
        return (true, true);
    }
    let counts = hand.rank_counts();
    if Onto::of(groups, counts)
        .upper(hand, counts, pending, must, 0)
        .is_none()
    {
        return (false, false);
    }
    exists_cells(hand, groups, pending, rules, must, keep)
}

/// [`opening_onto_exists_keeping`] without [`Onto::upper`]'s "no":
/// [`as_is_reaches`], then the table's cells.
fn exists_table(
    hand: CardSet,
    groups: &[Group],
    pending: u32,
    rules: &Rules,
    must: Option<Rank>,
    keep: u32,
) -> (bool, bool) {
    if as_is_yes(hand, groups, pending, rules, must, keep) {
        return (true, true);
    }
    exists_cells(hand, groups, pending, rules, must, keep)
}

/// [`as_is_reaches`] where it applies (keeping two cards at most): a
/// table reached, keeping `keep` cards and so keeping none. Debug builds
/// hold it to the table's cells.
fn as_is_yes(
    hand: CardSet,
    groups: &[Group],
    pending: u32,
    rules: &Rules,
    must: Option<Rank>,
    keep: u32,
) -> bool {
    let yes = keep <= 2 && as_is_reaches(hand, groups, pending, rules, must, keep);
    debug_assert!(
        !yes || exists_cells(hand, groups, pending, rules, must, keep) == (true, true),
        "[{hand}] onto {groups:?} pending {pending} must {must:?} keep {keep}"
    );
    yes
}

/// [`exists_table`] by its cells.
fn exists_cells(
    hand: CardSet,
    groups: &[Group],
    pending: u32,
    rules: &Rules,
    must: Option<Rank>,
    keep: u32,
) -> (bool, bool) {
    let width = keep as usize + 1;
    if width > 3 {
        let none = exists_cells(hand, groups, pending, rules, must, 0).1;
        return (false, none);
    }
    let cap = |c: u32| (c as usize).min(width - 1);
    let Scan {
        table_wilds,
        wild_mask,
        of_rank,
        count,
        ..
    } = Scan::of(groups, rules);
    if wild_mask == 0 {
        return (false, false);
    }
    // cols[c]: the wild counts reached with `c` hand cards left over
    // (capped at `keep`).
    let mut cols: [Mask; 3] = [0; 3];
    cols[cap(hand.black_three_count())] = wild_mask;
    let counts = hand.rank_counts();
    let new_any = rules.groups_per_rank == GroupsPerRank::Many;
    for rank in Rank::NATURALS {
        let r = rank as usize;
        let h = ((counts >> (4 * r)) & 0xF) as u32;
        let count = count[r] as usize;
        if h == 0 && count == 0 {
            if must == Some(rank) {
                return (false, false);
            }
            continue;
        }
        let mut next: [Mask; 3] = [0; 3];
        let least = (must == Some(rank)) as u32;
        for a in least..=h {
            let mask = rank_wilds(a, of_rank[r], count, new_any, groups, rules);
            if mask != 0 {
                for c0 in 0..width {
                    if cols[c0] != 0 {
                        next[cap(c0 as u32 + h - a)] |= conv(cols[c0], mask);
                    }
                }
            }
        }
        cols = next;
        if cols == [0; 3] {
            return (false, false);
        }
    }
    // The wilds: the table's and the pending ones all in groups, the
    // hand's `u` of them too; what is not in a group so far forms new
    // groups of wilds only (three or more).
    let hand_wilds = hand.wild_count();
    let (mut kept, mut any) = (false, false);
    for u in 0..=hand_wilds {
        let total = table_wilds + pending + u;
        let unlaid = hand_wilds - u;
        let fits = wilds_fit(total);
        for (c, &col) in cols.iter().enumerate().take(width) {
            if col & fits != 0 {
                any = true;
                kept |= c + unlaid as usize >= width - 1;
            }
        }
        if kept {
            break;
        }
    }
    (kept, any)
}

/// Whether [`exists_table`] reaches a table keeping `keep` cards by one
/// of the tables that lay no card of the hand but `must`'s: every group
/// keeps its naturals, the wilds (the table's and the `pending` ones)
/// go into the groups as their slots allow or make new groups of wilds
/// only; with `must`, one natural of the hand joins the rank's first
/// group, or (where a new group of the rank is allowed) two make a new
/// group. A table with a wild to place or the pickup's top card to lay
/// is mostly one of these; this answers it in one pass over the groups
/// instead of the table's cells. `false` decides nothing.
pub(super) fn as_is_reaches(
    hand: CardSet,
    groups: &[Group],
    pending: u32,
    rules: &Rules,
    must: Option<Rank>,
    keep: u32,
) -> bool {
    // The cards the table counts: all but red threes.
    let cards = hand.len() - hand.red_three_count();
    if cards < keep {
        return false;
    }
    // The wild counts the groups may end with: all but `must`'s first
    // group, and that group as it is and with a natural more.
    let (mut rest, mut first, mut joined): (Mask, Option<Mask>, Mask) = (1, None, 0);
    let mut wilds = pending;
    for g in groups {
        wilds += g.wilds();
        let mask = match g.rank() {
            None => either(wild_group_slot(g, rules)),
            Some(r) => {
                let mask = natural_slot(g.naturals(), Some(g), rules).map_or(0, either);
                if first.is_none() && must == Some(r) {
                    first = Some(mask);
                    joined = natural_slot(g.naturals() + 1, Some(g), rules).map_or(0, either);
                    continue;
                }
                mask
            }
        };
        rest = conv(rest, mask);
    }
    let fits = wilds_fit(wilds);
    let Some(r) = must else {
        return rest & fits != 0;
    };
    let h = hand.rank_count(r);
    if h >= 1 && cards > keep && first.is_some() && conv(rest, joined) & fits != 0 {
        return true;
    }
    let new_ok = rules.groups_per_rank == GroupsPerRank::Many || first.is_none();
    new_ok
        && h >= 2
        && cards >= keep + 2
        && conv(
            conv(rest, first.unwrap_or(1)),
            natural_slot(2, None, rules).map_or(0, either),
        ) & fits
            != 0
}

/// The most the opening (D-8.2) can be worth once cards of `hand` are laid
/// onto `groups` — the table of a mover who has not opened, all of it laid
/// this turn — and new groups, going forward: laying and extending, with
/// the `pending` wilds placed, wilds moved between groups as the groups'
/// flags and the rules allow (as the going-out test moves them), and at
/// least `keep` cards of the hand left unlaid. With `must`, the group of
/// that rank gains a natural from the hand (the pile's top card laid into
/// it, D-6.2.1). `None` when no such table is legal.
///
/// By ranks, each a choice of how many of its naturals the hand adds and
/// how many wilds its group ends with ([`natural_slot`]); a table over
/// (wilds placed, cards left over counted up to `keep`) keeps the best
/// value. The wilds of the table and the pending ones must all end in
/// groups; the hand's may; the wilds not in a natural group or an old
/// group of wilds form new groups of wilds (three or more).
pub(crate) fn max_opening_onto(
    hand: CardSet,
    groups: &[Group],
    pending: u32,
    rules: &Rules,
    must: Option<Rank>,
    keep: u32,
) -> Option<i32> {
    if groups.len() > MAX_GROUPS {
        return opening_onto(hand, groups, pending, rules, must, keep);
    }
    // What the bound reads: the hand's counts (every rank's, the jokers,
    // the black threes), never its suits; the groups' counts and flags.
    let (_, _, jokers) = hand.raw();
    let key = OntoKey {
        rules: rules_read(rules),
        hand: (hand.rank_counts(), jokers, hand.black_three_count() as u8),
        pending,
        must: must.map_or(0xFF, |r| r as u8),
        keep,
    };
    let mut h = (key.hand.0 ^ (key.hand.1 as u64) << 52 ^ (key.hand.2 as u64) << 60)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= key.rules as u64
        | (key.pending as u64) << 8
        | (key.must as u64) << 16
        | (keep as u64) << 24;
    let mut counts = [0u32; MAX_GROUPS];
    for (c, g) in counts.iter_mut().zip(groups) {
        *c = group_counts(g);
        h = (h ^ *c as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    let counts = &counts[..groups.len()];
    let slot = (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize % OntoMemo::SLOTS;
    if let Some(out) = OPENING_ONTO.with(|m| m.borrow().find(slot, &key, counts)) {
        return out;
    }
    let out = opening_onto(hand, groups, pending, rules, must, keep);
    OPENING_ONTO.with(|m| m.borrow_mut().keep(slot, key, counts, out));
    out
}

/// The arguments of one [`max_opening_onto`] but the groups, as it reads
/// them.
#[derive(Clone, Copy, PartialEq, Eq)]
struct OntoKey {
    rules: u8,
    hand: (u64, u8, u8),
    pending: u32,
    must: u8,
    keep: u32,
}

/// One kept answer: the arguments, the groups as [`group_counts`].
#[derive(Clone, Copy)]
struct OntoEntry {
    key: OntoKey,
    len: u8,
    groups: [u32; MAX_GROUPS],
    out: Option<i32>,
}

/// The last answers of [`max_opening_onto`] on this thread, direct-mapped
/// by a hash of the arguments; the whole key is compared on a hit. The
/// same question comes back often: the candidates of one listing and the
/// states of one completion search share hands and tables.
struct OntoMemo {
    slots: Vec<Option<OntoEntry>>,
}

impl OntoMemo {
    const SLOTS: usize = 256;

    fn find(&self, slot: usize, key: &OntoKey, counts: &[u32]) -> Option<Option<i32>> {
        match self.slots.get(slot) {
            Some(Some(e)) if e.key == *key && e.groups[..e.len as usize] == *counts => Some(e.out),
            _ => None,
        }
    }

    fn keep(&mut self, slot: usize, key: OntoKey, counts: &[u32], out: Option<i32>) {
        if self.slots.is_empty() {
            self.slots.resize(Self::SLOTS, None);
        }
        let e = self.slots[slot].get_or_insert(OntoEntry {
            key,
            len: 0,
            groups: [0; MAX_GROUPS],
            out,
        });
        e.key = key;
        e.len = counts.len() as u8;
        e.groups[..counts.len()].copy_from_slice(counts);
        e.out = out;
    }
}

thread_local! {
    static OPENING_ONTO: std::cell::RefCell<OntoMemo> = const {
        std::cell::RefCell::new(OntoMemo { slots: Vec::new() })
    };
}

/// The wild counts `w` that may stay in groups of naturals when `total`
/// wilds must all end in groups: `total - w` zero or three or more (a new
/// group of wilds only).
#[inline(always)]
fn wilds_fit(total: u32) -> Mask {
    let mut fits: Mask = if total <= 16 { 1 << total } else { 0 };
    if total >= 3 {
        fits |= ALL >> (16 - (total - 3).min(16));
    }
    fits
}

/// One pass over the table's groups for the opening tables.
struct Scan {
    /// The table's wilds.
    table_wilds: u32,
    /// The wild counts its groups of wilds only (each wild 20) may end
    /// with.
    wild_mask: Mask,
    /// Each natural rank's groups (a bit per group), their count and
    /// their naturals.
    of_rank: [u64; 13],
    count: [u32; 13],
    naturals_on: [u32; 13],
}

impl Scan {
    #[inline(always)]
    fn of(groups: &[Group], rules: &Rules) -> Scan {
        let mut scan = Scan {
            table_wilds: 0,
            wild_mask: 0,
            of_rank: [0; 13],
            count: [0; 13],
            naturals_on: [0; 13],
        };
        let mut wild_mask: Mask = 1;
        for (i, g) in groups.iter().enumerate() {
            scan.table_wilds += g.wilds();
            match g.rank() {
                None => wild_mask = conv(wild_mask, either(wild_group_slot(g, rules))),
                Some(r) => {
                    let r = r as usize;
                    scan.of_rank[r] |= 1 << i;
                    scan.count[r] += 1;
                    scan.naturals_on[r] += g.naturals();
                }
            }
        }
        scan.wild_mask = wild_mask;
        scan
    }
}

/// The wilds (a mask of counts) the groups of a rank may end with when
/// the hand's `a` naturals of it join one of its `count` groups (the bits
/// `of_rank` of `groups`) or make a new one (one group a rank under I-12
/// `one`), the other groups keeping theirs (I-28).
#[inline(always)]
fn rank_wilds(
    a: u32,
    of_rank: u64,
    count: usize,
    new_any: bool,
    groups: &[Group],
    rules: &Rules,
) -> Mask {
    let mut mask: Mask = 0;
    let new_ok = new_any || count == 0;
    let choices = if a == 0 { 1 } else { count + new_ok as usize };
    for choice in 0..choices {
        let mut acc: Mask = 1;
        let mut ok = true;
        let mut bits = of_rank;
        let mut j = 0;
        while bits != 0 {
            let g = &groups[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            let add = if j == choice { a } else { 0 };
            j += 1;
            match natural_slot(g.naturals() + add, Some(g), rules) {
                Some(s) => acc = conv(acc, either(s)),
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if ok && a > 0 && choice == count {
            match natural_slot(a, None, rules) {
                Some(s) => acc = conv(acc, either(s)),
                None => ok = false,
            }
        }
        if ok {
            mask |= acc;
        }
    }
    mask
}

/// The wild counts a slot may end with, canasta or not. The opening
/// tables ask only this of a rank's groups, and it is the plain sum
/// ([`conv`]) of the slots' own: [`Acc::add`] keeps "with a canasta"
/// apart, but its two masks together are `conv(plain | canasta, s.plain
/// | s.canasta)`.
#[inline(always)]
pub(super) fn either(s: Slot) -> Mask {
    s.plain | s.canasta
}

/// [`max_opening_onto`] worked out.
fn opening_onto(
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
    if width > 3 {
        return None;
    }
    let cap = |c: u32| (c as usize).min(width - 1);
    let Scan {
        table_wilds,
        wild_mask,
        of_rank,
        count,
        naturals_on,
    } = Scan::of(groups, rules);
    if wild_mask == 0 {
        return None;
    }
    // dp[w * width + c]: best value with `w` wilds in groups so far and `c`
    // hand cards left over (capped at `keep`); rows[c]: the `w` of column
    // `c` that hold a value, so that only those cells are read.
    let mut dp = [NONE; W * 3];
    let mut next = [NONE; W * 3];
    let mut rows: [Mask; 3] = [0; 3];
    let cells = W * width;
    dp[cap(hand.black_three_count())] = 0;
    rows[cap(hand.black_three_count())] = 1;
    let merge = |dp: &[i32; W * 3],
                 rows: &[Mask; 3],
                 next: &mut [i32; W * 3],
                 next_rows: &mut [Mask; 3],
                 mask: Mask,
                 left: u32,
                 base: i32,
                 per_wild: i32| {
        for c0 in 0..width {
            let to = cap(c0 as u32 + left);
            let mut r = rows[c0];
            while r != 0 {
                let w0 = r.trailing_zeros() as usize;
                r &= r - 1;
                let v = dp[w0 * width + c0] + base;
                // At most 16 wilds in groups.
                let mut m = mask & (ALL >> w0);
                next_rows[to] |= m << w0;
                while m != 0 {
                    let w = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let cell = &mut next[(w0 + w) * width + to];
                    *cell = (*cell).max(v + per_wild * w as i32);
                }
            }
        }
    };
    next[..cells].fill(NONE);
    let mut next_rows: [Mask; 3] = [0; 3];
    merge(&dp, &rows, &mut next, &mut next_rows, wild_mask, 0, 0, 20);
    std::mem::swap(&mut dp, &mut next);
    rows = next_rows;
    let counts = hand.rank_counts();
    let new_any = rules.groups_per_rank == GroupsPerRank::Many;
    for rank in Rank::NATURALS {
        let r = rank as usize;
        let h = ((counts >> (4 * r)) & 0xF) as u32;
        let count = count[r] as usize;
        if h == 0 && count == 0 {
            if must == Some(rank) {
                return None;
            }
            continue;
        }
        let pts = rank.points();
        let naturals_on = naturals_on[r];
        next[..cells].fill(NONE);
        let mut next_rows: [Mask; 3] = [0; 3];
        let least = (must == Some(rank)) as u32;
        for a in least..=h {
            let mask = rank_wilds(a, of_rank[r], count, new_any, groups, rules);
            if mask != 0 {
                merge(
                    &dp,
                    &rows,
                    &mut next,
                    &mut next_rows,
                    mask,
                    h - a,
                    (naturals_on + a) as i32 * pts,
                    pts,
                );
            }
        }
        std::mem::swap(&mut dp, &mut next);
        rows = next_rows;
        if rows == [0; 3] {
            return None;
        }
    }
    // The wilds: the table's and the pending ones all in groups, the
    // hand's `u` of them too; what is not in a group so far forms new
    // groups of wilds only (three or more, 20 each).
    let hand_wilds = hand.wild_count();
    let mut out = NONE;
    for u in 0..=hand_wilds {
        let total = table_wilds + pending + u;
        let unlaid = hand_wilds - u;
        let fits = wilds_fit(total);
        for c in 0..width {
            if c + (unlaid as usize) < width - 1 {
                continue;
            }
            let mut m = rows[c] & fits;
            while m != 0 {
                let w = m.trailing_zeros();
                m &= m - 1;
                out = out.max(dp[w as usize * width + c] + 20 * (total - w) as i32);
            }
        }
    }
    (out != NONE).then_some(out)
}

/// [`opening_with`] leaving at least `spare` (≥ 1) cards of `pool` unlaid:
/// `dp[u][w][c]` is the best value with `w` wilds laid and `c` cards left
/// over so far, counted up to `spare` (more left over is as good); `u` is
/// 1 once a group of naturals is laid, where `must` is `None` (else there
/// is one layer, and `must`'s rank may not be left out). Cards are only
/// ever added to what is left over, so a column at `spare` stays there.
/// `cur` and `next` hold at least `layers × (wilds + 1) × (spare + 1)`
/// cells.
pub(super) fn opening_leaving(
    pool: CardSet,
    must: Option<Rank>,
    wilds: usize,
    spare: usize,
    cur: &mut [i32],
    next: &mut [i32],
) -> i32 {
    const NONE: i32 = i32::MIN;
    let width = spare + 1;
    let layer = (wilds + 1) * width;
    let layers = 1 + must.is_none() as usize;
    let cells = layer * layers;
    // A group laid moves a state to the last layer.
    let laid = (layers - 1) * layer;
    let mut dp = cur;
    let mut next = next;
    dp[..cells].fill(NONE);
    // Threes are never laid (D-9.3).
    dp[(pool.rank_count(Rank::Three) as usize).min(spare)] = 0;
    for rank in Rank::NATURALS {
        let n = pool.rank_count(rank) as usize;
        let required = must == Some(rank);
        if n < 2 && required {
            return -1;
        }
        if n == 0 {
            continue;
        }
        let pts = rank.points();
        next[..cells].fill(NONE);
        for u in 0..layers {
            for w in 0..=wilds {
                for c in 0..width {
                    let v = dp[u * layer + w * width + c];
                    if v == NONE {
                        continue;
                    }
                    if !required {
                        // None of the rank laid: all of it left over.
                        let cell = &mut next[u * layer + w * width + (c + n).min(spare)];
                        *cell = (*cell).max(v);
                    }
                    for k in 2..=n {
                        let left = (c + n - k).min(spare);
                        for j in 0..=(wilds - w) as u32 {
                            if !legal_natural_counts(k as u32, j) {
                                continue;
                            }
                            let cell = &mut next[laid + (w + j as usize) * width + left];
                            *cell = (*cell).max(v + (k as i32 + j as i32) * pts);
                        }
                    }
                }
            }
        }
        std::mem::swap(&mut dp, &mut next);
    }
    let mut best = NONE;
    for w in 0..=wilds {
        let rem = wilds - w;
        for c in 0..width {
            let v = dp[laid + w * width + c];
            if v == NONE {
                continue;
            }
            // The wilds not laid are left over, or some form a group of
            // wilds only (3 or more).
            if c + rem >= spare {
                best = best.max(v);
            }
            for t in 3..=rem {
                if c + rem - t >= spare {
                    best = best.max(v + 20 * t as i32);
                }
            }
        }
    }
    best.max(-1)
}

/// [`opening_with`] when the card budget does not bind: `dp[u][w]` is the
/// best value with `w` wilds used (`u` as in [`opening_leaving`]).
pub(super) fn max_opening_unbounded(pool: CardSet, must: Option<Rank>, wilds: usize) -> i32 {
    const NONE: i32 = i32::MIN;
    let layers = 1 + must.is_none() as usize;
    let laid = layers - 1;
    let mut dp = [[NONE; 17]; 2];
    dp[0][0] = 0;
    for rank in Rank::NATURALS {
        let n = pool.rank_count(rank);
        let required = must == Some(rank);
        if n < 2 {
            if required {
                return -1;
            }
            continue;
        }
        let pts = rank.points();
        let mut next = [[NONE; 17]; 2];
        for u in 0..layers {
            for w in 0..=wilds {
                let v = dp[u][w];
                if v == NONE {
                    continue;
                }
                if !required {
                    next[u][w] = next[u][w].max(v);
                }
                for k in 2..=n {
                    for j in 0..=(wilds - w) as u32 {
                        if legal_natural_counts(k, j) {
                            let cell = &mut next[laid][w + j as usize];
                            *cell = (*cell).max(v + (k + j) as i32 * pts);
                        }
                    }
                }
            }
        }
        dp = next;
    }
    let mut best = NONE;
    for (w, &v) in dp[laid].iter().enumerate().take(wilds + 1) {
        if v == NONE {
            continue;
        }
        best = best.max(v);
        // The wilds left as a group of wilds only (3 or more).
        let rem = (wilds - w) as i32;
        if rem >= 3 {
            best = best.max(v + 20 * rem);
        }
    }
    best.max(-1)
}
