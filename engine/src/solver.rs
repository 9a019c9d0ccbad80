//! Small exact searches the legality of a turn needs (I-9, I-26): can the
//! mover go out from here, and how much can an opening be worth.
//!
//! Both work on rank counts, not on card suits: for going out only how many
//! naturals of each rank and how many wilds there are matters. Wild totals
//! are tracked as bitmasks over 0..=16 (there are 16 wilds in the pack).

use crate::card::{Card, Rank};
use crate::card_set::CardSet;
use crate::group::{legal_natural_counts, Group, FLAG_RECEIVED};
use crate::rules::{BlackCanastaWilds, GroupsPerRank, Permit, Rules, WildCanasta};
use crate::table::MAX_GROUPS;

/// Bitmask of wild totals 0..=16.
type Mask = u32;
const ALL: Mask = (1 << 17) - 1;

/// Possible wild counts of one slot: without and with a canasta.
#[derive(Clone, Copy)]
struct Slot {
    plain: Mask,
    canasta: Mask,
}

fn conv(a: Mask, b: Mask) -> Mask {
    // One shift per set bit of the sparser operand.
    let (a, mut b) = if b.count_ones() > a.count_ones() {
        (b, a)
    } else {
        (a, b)
    };
    let mut out = 0;
    while b != 0 {
        let w = b.trailing_zeros();
        out |= a << w;
        b &= b - 1;
    }
    out & ALL
}

/// Running DP over slots: wild totals reachable without / with a canasta.
#[derive(Clone, Copy)]
struct Acc {
    plain: Mask,
    canasta: Mask,
}

impl Acc {
    const START: Acc = Acc {
        plain: 1,
        canasta: 0,
    };

    fn add(self, s: Slot) -> Acc {
        Acc {
            plain: conv(self.plain, s.plain),
            canasta: conv(self.canasta, s.plain | s.canasta) | conv(self.plain, s.canasta),
        }
    }

    fn or(self, o: Acc) -> Acc {
        Acc {
            plain: self.plain | o.plain,
            canasta: self.canasta | o.canasta,
        }
    }

    fn as_slot(self) -> Slot {
        Slot {
            plain: self.plain,
            canasta: self.canasta,
        }
    }
}

/// Wild counts a natural group of `n` naturals may end with, given the group
/// it grows from (`None`: a new group).
fn natural_slot(n: u32, from: Option<&Group>, rules: &Rules) -> Option<Slot> {
    if n > 8 {
        return None;
    }
    if let Some(g) = from {
        if g.is_black_canasta() && rules.black_canasta_wilds == BlackCanastaWilds::ConvertOnly {
            // I-13 convert_only: unchanged, or all wilds out at once (red or
            // gold), but for a group that received a wild this turn, which
            // gives none away (D-11.2).
            let received = g.flags() & FLAG_RECEIVED != 0;
            return if n == g.naturals() {
                Some(Slot {
                    plain: 0,
                    canasta: 1 << g.wilds(),
                })
            } else if n >= 7 && !received {
                Some(Slot {
                    plain: 0,
                    canasta: 1,
                })
            } else {
                None
            };
        }
    }
    let was_canasta = from.is_some_and(|g| g.is_canasta());
    // A group that received a wild this turn gives none away (D-11.2).
    let min_w = from.map_or(0, |g| {
        if g.flags() & FLAG_RECEIVED != 0 {
            g.wilds()
        } else {
            0
        }
    });
    if min_w > 8 {
        return None;
    }
    let s = NATURAL_SLOTS[was_canasta as usize][min_w as usize][n as usize];
    if s.plain | s.canasta == 0 {
        None
    } else {
        Some(s)
    }
}

/// [`natural_slot`] of an ordinary group by table: index `[was a canasta]
/// [fewest wilds it may end with][naturals]`; an empty slot is no legal way.
static NATURAL_SLOTS: [[[Slot; 9]; 9]; 2] = natural_slots();

const fn natural_slots() -> [[[Slot; 9]; 9]; 2] {
    let empty = Slot {
        plain: 0,
        canasta: 0,
    };
    let mut t = [[[empty; 9]; 9]; 2];
    let mut was = 0;
    while was < 2 {
        let mut min_w = 0;
        while min_w <= 8 {
            let mut n = 0;
            while n <= 8 {
                let mut s = empty;
                let mut w = min_w;
                while w <= 8 {
                    if legal_natural_counts(n, w) {
                        if n + w >= 7 {
                            s.canasta |= 1 << w;
                        } else if was == 0 {
                            s.plain |= 1 << w;
                        }
                    }
                    w += 1;
                }
                t[was][min_w as usize][n as usize] = s;
                n += 1;
            }
            min_w += 1;
        }
        was += 1;
    }
    t
}

/// Slot of an existing group of wilds only.
fn wild_group_slot(g: &Group, rules: &Rules) -> Slot {
    let range = |a: u32, b: u32| -> Mask { ((1 << (b + 1)) - 1) & !((1 << a) - 1) };
    if g.flags() & FLAG_RECEIVED != 0 {
        let from = g.wilds();
        return Slot {
            plain: range(from.min(6), 6) & !((1 << from) - 1),
            canasta: 1 << 7,
        };
    }
    if g.is_canasta() {
        match rules.wild_canasta {
            WildCanasta::Locked => Slot {
                plain: 0,
                canasta: 1 << g.wilds(),
            },
            WildCanasta::Open => Slot {
                plain: range(3, 6),
                canasta: 1 << 7,
            },
        }
    } else {
        Slot {
            plain: 1 | range(3, 6),
            canasta: 1 << 7,
        }
    }
}

/// Whether all of `cards` but one can be melded onto `groups` (and new
/// groups), leaving a canasta, the last card discarded (D-13.1). The
/// answer depends on the arguments alone, and the same question comes
/// back often (the candidates of one listing, the turns of one hand, the
/// rollouts of one search), so each thread keeps its last answers
/// ([`GoingOutMemo`]).
pub(crate) fn can_meld_all_but_one(
    cards: CardSet,
    groups: &[Group],
    rules: &Rules,
    must: Option<Card>,
    free_card: Option<Card>,
    keep: CardSet,
) -> bool {
    if groups.len() > MAX_GROUPS {
        return going_out(cards, groups, rules, must, free_card, keep);
    }
    if cards.len() == 1 {
        // One card, the common question (a step that leaves one card):
        // [`going_out`] with that card discarded and nothing laid. Beyond
        // the card's own checks its answer is the table's alone, so the
        // memo keeps that (one entry serves every card).
        let d = cards.iter().next().unwrap_or(Card::JOKER);
        let discardable = must != Some(d)
            && keep.count(d) == 0
            && !(free_card == Some(d) && rules.free_pickup_return == Permit::Forbid);
        return discardable
            && table_canasta_reachable(groups)
            && memo_or(
                rules,
                TABLE_ONLY,
                CardSet::EMPTY,
                None,
                None,
                groups,
                || Facts::of(groups, rules).feasible(CardSet::EMPTY, CardSet::EMPTY, groups, rules),
            );
    }
    let cards_read = hand_read(cards, must, free_card, keep);
    memo_or(rules, cards_read, keep, must, free_card, groups, || {
        going_out(cards, groups, rules, must, free_card, keep)
    })
}

/// The memo's reading of the cards for the table-only question of a
/// one-card hand (no hand reads so: at most 8 jokers).
const TABLE_ONLY: (u64, u64, u8) = (0, 0, 0xFF);

/// The answer kept for these arguments, else `work()`'s, kept.
fn memo_or(
    rules: &Rules,
    cards_read: (u64, u64, u8),
    keep: CardSet,
    must: Option<Card>,
    free_card: Option<Card>,
    groups: &[Group],
    work: impl FnOnce() -> bool,
) -> bool {
    let key = GoingOutKey {
        rules: rules_read(rules),
        cards: cards_read,
        keep: keep.raw(),
        must,
        free_card,
    };
    let (lo, hi, jokers) = key.cards;
    let mut h = (lo ^ hi.rotate_left(23) ^ (jokers as u64) << 58 ^ key.keep.0.rotate_left(7))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= must.map_or(0x3F, |c| c.index() as u64) << 1
        ^ free_card.map_or(0x3F, |c| c.index() as u64) << 8
        ^ (key.rules as u64) << 16;
    // Each group's counts once: for the hash, the comparison and the entry.
    let mut counts = [0u32; MAX_GROUPS];
    for (c, g) in counts.iter_mut().zip(groups) {
        *c = group_counts(g);
        h = (h ^ *c as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    let counts = &counts[..groups.len()];
    let slot = (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize % GoingOutMemo::SLOTS;
    if let Some(out) = GOING_OUT.with(|m| m.borrow().find(slot, &key, counts)) {
        return out;
    }
    let out = work();
    GOING_OUT.with(|m| m.borrow_mut().keep(slot, key, counts, out));
    out
}

/// The switches the going-out test reads (D-9.4, I-12, I-13, I-21, I-22),
/// one bit field each.
fn rules_read(rules: &Rules) -> u8 {
    rules.heart_aces() as u8
        | ((rules.groups_per_rank == GroupsPerRank::Many) as u8) << 1
        | ((rules.black_canasta_wilds == BlackCanastaWilds::ConvertOnly) as u8) << 2
        | ((rules.wild_canasta == WildCanasta::Open) as u8) << 3
        | ((rules.free_pickup_return == Permit::Forbid) as u8) << 4
}

/// What the going-out test reads of `cards`. With no card to lay, no card
/// taken for free and no pending wild (which single out cards by kind),
/// it reads counts only: every rank's, the jokers, the ♥A (D-9.4) and the
/// black threes (the other threes are red), so hands alike but for suits
/// share an answer; otherwise the cards themselves (the top bit tells the
/// two apart).
fn hand_read(
    cards: CardSet,
    must: Option<Card>,
    free_card: Option<Card>,
    keep: CardSet,
) -> (u64, u64, u8) {
    if must.is_none() && free_card.is_none() && keep.is_empty() {
        let (_, _, jokers) = cards.raw();
        let singled = cards.count(Card::HEART_ACE) as u64 | (cards.black_three_count() as u64) << 2;
        (cards.rank_counts(), singled | 1 << 63, jokers)
    } else {
        cards.raw()
    }
}

/// What the going-out test reads of a group: its rank, its counts of
/// naturals and wilds, and its flags, never the suits.
fn group_counts(g: &Group) -> u32 {
    // The rank's index, `WILD_GROUP` (0xFF) for a group of wilds only.
    g.rank_index() as u32 | g.naturals() << 8 | g.wilds() << 16 | (g.flags() as u32) << 24
}

/// The arguments of one going-out test but the groups.
#[derive(Clone, Copy, PartialEq, Eq)]
struct GoingOutKey {
    rules: u8,
    cards: (u64, u64, u8),
    keep: (u64, u64, u8),
    must: Option<Card>,
    free_card: Option<Card>,
}

/// One kept answer: the arguments, the groups as [`group_counts`].
#[derive(Clone, Copy)]
struct GoingOutEntry {
    key: GoingOutKey,
    len: u8,
    groups: [u32; MAX_GROUPS],
    out: bool,
}

/// The last answers of the going-out test on this thread, direct-mapped
/// by a hash of the arguments; the whole key is compared on a hit.
struct GoingOutMemo {
    slots: Vec<Option<GoingOutEntry>>,
}

impl GoingOutMemo {
    const SLOTS: usize = 256;

    /// The answer kept in `slot` for these arguments.
    fn find(&self, slot: usize, key: &GoingOutKey, counts: &[u32]) -> Option<bool> {
        match self.slots.get(slot) {
            Some(Some(e)) if e.key == *key && e.groups[..e.len as usize] == *counts => Some(e.out),
            _ => None,
        }
    }

    /// Keeps `out` for these arguments (the groups as their
    /// [`group_counts`]) in `slot`.
    fn keep(&mut self, slot: usize, key: GoingOutKey, counts: &[u32], out: bool) {
        if self.slots.is_empty() {
            self.slots.resize(Self::SLOTS, None);
        }
        let mut e = GoingOutEntry {
            key,
            len: counts.len() as u8,
            groups: [0; MAX_GROUPS],
            out,
        };
        e.groups[..counts.len()].copy_from_slice(counts);
        self.slots[slot] = Some(e);
    }
}

thread_local! {
    static GOING_OUT: std::cell::RefCell<GoingOutMemo> = const {
        std::cell::RefCell::new(GoingOutMemo { slots: Vec::new() })
    };
}

/// [`can_meld_all_but_one`] worked out.
fn going_out(
    cards: CardSet,
    groups: &[Group],
    rules: &Rules,
    must: Option<Card>,
    free_card: Option<Card>,
    keep: CardSet,
) -> bool {
    if !canasta_possible(cards, groups) {
        return false;
    }
    let mut facts = Facts::of(groups, rules);
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
            if facts.feasible(r, cards, groups, rules) {
                return true;
            }
        }
    }
    false
}

/// Whether moving wilds alone (D-11.2, D-11.3) could bring a canasta
/// onto `groups`, by counting, in one pass: a group there is one already;
/// else every other group keeps at least its fewest wilds (a natural group
/// of two naturals keeps one, D-9.1; a group that received a wild this
/// turn gives none away), and the rest must bring one group to seven: a
/// natural group of four naturals or more (fewer wilds than naturals), a
/// group of wilds, or a new one. The table's own going-out question
/// (a hand of one card, laid nothing) needs it; `false` spares the memo.
fn table_canasta_reachable(groups: &[Group]) -> bool {
    let (mut wilds, mut kept) = (0i32, 0i32);
    // The most of (fewest wilds - wilds needed) over the targets; a new
    // group of wilds keeps none and needs seven.
    let mut best = -7i32;
    for g in groups {
        if g.is_canasta() {
            return true;
        }
        let w = g.wilds() as i32;
        let received = g.flags() & FLAG_RECEIVED != 0;
        let (least, need) = if g.is_wild_only() {
            (if received { w } else { 0 }, 7)
        } else {
            let n = g.naturals() as i32;
            let least = if received { w } else { (3 - n).max(0) };
            // Fewer than four naturals never make seven (D-9.1).
            (least, if n >= 4 { 7 - n } else { i32::MAX / 2 })
        };
        wilds += w;
        kept += least;
        best = best.max(least - need);
    }
    wilds - kept + best >= 0
}

/// Whether a canasta (D-10.1) can be on the table once some of `cards`
/// are melded onto `groups`, by counting: a group there is one already,
/// or seven wilds in all make a group of wilds, or a rank's naturals in
/// one group (its group's, which no others join, and the hand's) number
/// at least four with wilds to make seven (a natural group holds fewer
/// wilds than naturals, D-9.1). Going out needs one (D-13.2); `false`
/// spares the going-out test its search.
fn canasta_possible(cards: CardSet, groups: &[Group]) -> bool {
    let mut wilds = cards.wild_count();
    for g in groups {
        if g.is_canasta() {
            return true;
        }
        wilds += g.wilds();
    }
    if wilds >= 7 {
        return true;
    }
    let reaches = |n: u32| n >= 4 && n + wilds >= 7;
    for g in groups {
        if let Some(r) = g.rank() {
            if reaches(g.naturals() + cards.rank_count(r)) {
                return true;
            }
        }
    }
    let counts = cards.rank_counts();
    Rank::NATURALS
        .iter()
        .any(|&r| reaches(((counts >> (4 * r as u32)) & 0xF) as u32))
}

/// What the going-out test needs of a table, gathered once per test: where
/// each rank's groups are, the wilds on it, the product of the slots that
/// no hand card changes (groups of wilds only, new groups of wilds), and
/// the natural ranks' slots as they are computed.
struct Facts {
    /// Bit `rank` set for each natural rank with a group.
    grouped: u32,
    /// Index of the first group of each rank (`usize::MAX`: none).
    first: [usize; 13],
    /// Number of groups of each rank.
    count: [u32; 13],
    /// Wilds in the groups.
    wilds: u32,
    /// Groups of wilds only, and new groups of wilds only.
    tail: Slot,
    /// The slot of each rank for the hand holding `cards`' count of it
    /// less `k` (index `k`, 0..4): `None` not computed yet,
    /// `Some(None)` no legal way.
    memo: [[Option<Option<Slot>>; 4]; 13],
}

impl Facts {
    fn of(groups: &[Group], rules: &Rules) -> Facts {
        let mut facts = Facts {
            grouped: 0,
            first: [usize::MAX; 13],
            count: [0; 13],
            wilds: 0,
            tail: Slot {
                plain: 1,
                canasta: 0,
            },
            memo: [[None; 4]; 13],
        };
        let mut tail = Acc::START;
        for (i, g) in groups.iter().enumerate() {
            facts.wilds += g.wilds();
            match g.rank() {
                Some(rank) => {
                    let r = rank as usize;
                    facts.grouped |= 1 << r;
                    if facts.first[r] == usize::MAX {
                        facts.first[r] = i;
                    }
                    facts.count[r] += 1;
                }
                None => tail = tail.add(wild_group_slot(g, rules)),
            }
        }
        // New groups of wilds only, 3 to 7 wilds each (D-9.2): any total
        // of 3 or more; with a canasta, one group of 7 and the others of
        // 3 or more: 7, or 10 and more.
        let new_wild = Slot {
            plain: 1 | (ALL & !0b111),
            canasta: (1 << 7) | (ALL & !0b11_1111_1111),
        };
        facts.tail = tail.add(new_wild).as_slot();
        facts
    }

    /// Whether all of `r` (drawn from `cards`) can be melded onto `groups`
    /// and new groups, leaving a canasta. The slots multiply in any order
    /// (each is a set of wild totals, with or without a canasta), so a rank
    /// with neither naturals in `r` nor a group, whose slot is "no wilds,
    /// no canasta", is skipped.
    fn feasible(&mut self, r: CardSet, cards: CardSet, groups: &[Group], rules: &Rules) -> bool {
        let total_wilds = r.wild_count() + self.wilds;
        if total_wilds > 16 {
            return false;
        }
        let have = r.rank_counts();
        let full = cards.rank_counts();
        let mut acc = Acc::START;
        for rank in Rank::NATURALS {
            let i = rank as usize;
            let n = ((have >> (4 * i)) & 0xF) as u32;
            if n == 0 && self.grouped & (1 << i) == 0 {
                continue;
            }
            let less = ((full >> (4 * i)) & 0xF) as u32 - n;
            let slot = match self.memo[i].get(less as usize) {
                Some(Some(s)) => *s,
                Some(None) => {
                    let s = self.rank_slot(rank, n, groups, rules);
                    self.memo[i][less as usize] = Some(s);
                    s
                }
                None => self.rank_slot(rank, n, groups, rules),
            };
            match slot {
                Some(s) => acc = acc.add(s),
                None => return false,
            }
        }
        acc = acc.add(self.tail);
        acc.canasta & (1 << total_wilds) != 0
    }

    /// The wild totals rank `rank` can end with when the hand adds `n`
    /// naturals of it; `None` if no way is legal.
    fn rank_slot(&self, rank: Rank, n: u32, groups: &[Group], rules: &Rules) -> Option<Slot> {
        let i = rank as usize;
        let first = self.first[i];
        match rules.groups_per_rank {
            GroupsPerRank::One => match groups.get(first) {
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
                let mine = groups.iter().filter(|g| g.rank() == Some(rank));
                let count = self.count[i] as usize;
                // Without naturals from the hand every choice is the same.
                let choices = if n == 0 { 0 } else { count };
                let mut best: Option<Acc> = None;
                for choice in 0..=choices {
                    let mut a = Acc::START;
                    let mut ok = true;
                    for (j, g) in mine.clone().enumerate() {
                        let add = if j == choice { n } else { 0 };
                        match natural_slot(g.naturals() + add, Some(g), rules) {
                            Some(s) => a = a.add(s),
                            None => ok = false,
                        }
                    }
                    if choice == count {
                        match n {
                            0 => {}
                            1 => ok = false,
                            _ => match natural_slot(n, None, rules) {
                                Some(s) => a = a.add(s),
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
        }
    }
}

/// Public form of the going-out test for agents and tools: can `hand` be
/// melded onto `groups`, all but one card, leaving a canasta (D-13.1)?
pub fn can_go_out_with(hand: CardSet, groups: &[Group], rules: &Rules) -> bool {
    can_meld_all_but_one(hand, groups, rules, None, None, CardSet::EMPTY)
}

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
fn opening_with(pool: CardSet, must: Option<Rank>, max_used: u32) -> i32 {
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

/// Whether an opening worth `need` (or, with `None`, any legal table) can
/// be reached as [`max_opening_onto`] reaches tables: that function's
/// answer, with cheap bounds first. Above: the table's naturals and every
/// natural of the hand of a rank with a group or held twice, each at its
/// rank's value, and every wild at 20. Below, with nothing pending and no
/// rank required: the table as it is, then the hand's naturals laid onto
/// the groups of their rank and in new groups of three or more, dearest
/// first, while `keep` cards stay.
pub(crate) fn opening_reaches(
    hand: CardSet,
    groups: &[Group],
    pending: u32,
    rules: &Rules,
    must: Option<Rank>,
    keep: u32,
    need: Option<i32>,
) -> bool {
    let now: i32 = groups.iter().map(|g| g.opening_value()).sum();
    if pending == 0 && must.is_none() && hand.len() >= keep {
        match need {
            None => return true,
            Some(n) if now >= n => return true,
            Some(n) => {
                // Below: extends and new groups of three naturals or more,
                // dearest rank first.
                let mut value = now;
                let mut spare = hand.len() - keep;
                let mut ranks: [(i32, u32); 11] = [(0, 0); 11];
                for (i, &r) in Rank::NATURALS.iter().enumerate() {
                    let h = hand.rank_count(r);
                    let grouped = groups.iter().any(|g| {
                        g.rank() == Some(r) && g.naturals() + h + g.wilds() <= 8 && !g.is_canasta()
                    });
                    let single = rules.groups_per_rank == GroupsPerRank::One;
                    let takes = if grouped {
                        let g = groups.iter().find(|g| g.rank() == Some(r));
                        g.map_or(0, |g| {
                            let mut n = 0;
                            while n < h && legal_natural_counts(g.naturals() + n + 1, g.wilds()) {
                                n += 1;
                            }
                            n
                        })
                    } else if h >= 3 && !(single && groups.iter().any(|g| g.rank() == Some(r))) {
                        h.min(8)
                    } else {
                        0
                    };
                    ranks[i] = (r.points(), takes);
                }
                ranks.sort_by_key(|r| std::cmp::Reverse(r.0));
                for (pts, takes) in ranks {
                    // A new group needs three at once; an extend one.
                    let t = takes.min(spare);
                    if t == 0 || (t < 3 && t < takes && takes >= 3) {
                        continue;
                    }
                    value += t as i32 * pts;
                    spare -= t;
                    if value >= n {
                        return true;
                    }
                }
            }
        }
    }
    if let Some(n) = need {
        let mut upper = now + 20 * (hand.wild_count() + pending) as i32;
        for r in Rank::NATURALS {
            let h = hand.rank_count(r);
            let grouped = groups.iter().any(|g| g.rank() == Some(r));
            if h >= 2 || (grouped && h >= 1) || (h == 1 && hand.wild_count() > 0) {
                upper += h as i32 * r.points();
            }
        }
        // Wilds already in natural groups may move to a group of wilds (20).
        upper += groups
            .iter()
            .filter(|g| !g.is_wild_only())
            .map(|g| g.wilds() as i32 * (20 - g.rank().map_or(20, |r| r.points())))
            .sum::<i32>();
        if upper < n {
            return false;
        }
    }
    max_opening_onto(hand, groups, pending, rules, must, keep)
        .is_some_and(|v| need.is_none_or(|n| v >= n))
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

/// [`opening_with`] leaving at least `spare` (≥ 1) cards of `pool` unlaid:
/// `dp[u][w][c]` is the best value with `w` wilds laid and `c` cards left
/// over so far, counted up to `spare` (more left over is as good); `u` is
/// 1 once a group of naturals is laid, where `must` is `None` (else there
/// is one layer, and `must`'s rank may not be left out). Cards are only
/// ever added to what is left over, so a column at `spare` stays there.
/// `cur` and `next` hold at least `layers × (wilds + 1) × (spare + 1)`
/// cells.
fn opening_leaving(
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
fn max_opening_unbounded(pool: CardSet, must: Option<Rank>, wilds: usize) -> i32 {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(s: &str) -> CardSet {
        CardSet::parse(s).unwrap()
    }
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
            if free_card == Some(d)
                && rules.free_pickup_return == Permit::Forbid
                && cards.count(d) < 2
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
                    let mut hand = CardSet::EMPTY;
                    while hand.len() < size as u32 {
                        let c = pack[rng.random_range(0..pack.len())];
                        if free.count(c) > hand.count(c) {
                            hand.insert(c);
                        }
                    }
                    let cards: Vec<Card> = hand.iter().collect();
                    let must = (rng.random_range(0..4) == 0)
                        .then(|| cards[rng.random_range(0..cards.len())]);
                    let free_card = (rng.random_range(0..4) == 0)
                        .then(|| cards[rng.random_range(0..cards.len())]);
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
                .any(|g| g.flags() & FLAG_RECEIVED != 0 && !g.is_canasta())
                as u32;
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
                    let plain = can_meld_all_but_one_reference(
                        hand,
                        groups,
                        rules,
                        None,
                        None,
                        CardSet::EMPTY,
                    );
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
}
