//! Going out (D-13.1, I-9, I-26): can all of a hand but one card be
//! melded onto a table, leaving a canasta? With its per-thread memory.

use super::*;
use crate::card::{Card, Rank};
use crate::card_set::{CardSet, NATURAL_NIBBLES};
use crate::group::{Group, FLAG_RECEIVED};
use crate::rules::{BlackCanastaWilds, GroupsPerRank, Permit, Rules, WildCanasta};
use crate::table::MAX_GROUPS;

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
        let table_only =
            || Facts::of(groups, rules).feasible(CardSet::EMPTY, CardSet::EMPTY, groups, rules);
        if !discardable || !table_canasta_reachable(groups) {
            return false;
        }
        if wilds_moved_make_canasta(groups, rules) {
            debug_assert!(table_only(), "D-13.1: a canasta by wilds moved {groups:?}");
            return true;
        }
        return memo_or(
            rules,
            TABLE_ONLY,
            CardSet::EMPTY,
            None,
            None,
            groups,
            table_only,
        );
    }
    if let Some(out) = one_card_with_kept_wilds(cards, groups, rules, must, free_card, keep) {
        debug_assert_eq!(
            out,
            going_out(cards, groups, rules, must, free_card, keep),
            "D-13.1: one card and the wilds kept [{cards}] keep [{keep}] onto {groups:?}"
        );
        return out;
    }
    if !canasta_possible(cards, groups) {
        // [`going_out`]'s own first "no", asked before the memo's key.
        return false;
    }
    if unmeldable(cards, groups, rules).0 >= 2 {
        debug_assert!(
            !going_out(cards, groups, rules, must, free_card, keep),
            "D-13.1: two cards no group takes [{cards}] onto {groups:?}"
        );
        return false;
    }
    let cards_read = hand_read(cards, must, free_card, keep);
    memo_or(rules, cards_read, keep, must, free_card, groups, || {
        going_out(cards, groups, rules, must, free_card, keep)
    })
}

/// [`can_meld_all_but_one`] for one card besides `keep`, every card of
/// which is a wild (the wilds pending of a hand of one card, I-9): the
/// one card is the only one [`going_out`] may discard (the wilds kept
/// are never discarded, D-11.2), so the question is the table's own
/// with the kept wilds to place as well (D-13.1): `None` (no answer)
/// unless that card is discarded under its own checks (not `must`;
/// I-21's free card), then "no" where [`table_canasta_reachable`]
/// counting the kept wilds finds no canasta, "yes" where
/// [`wilds_moved_make_canasta`] with them finds one table; else `None`.
#[inline]
pub(super) fn one_card_with_kept_wilds(
    cards: CardSet,
    groups: &[Group],
    rules: &Rules,
    must: Option<Card>,
    free_card: Option<Card>,
    keep: CardSet,
) -> Option<bool> {
    let more = keep.len();
    if more == 0 || must.is_some() || cards.len() != more + 1 || keep.wild_count() != more {
        return None;
    }
    let d = cards.checked_sub(keep)?.iter().next()?;
    if free_card == Some(d) && rules.free_pickup_return == Permit::Forbid && cards.count(d) < 2 {
        // The one card that may be discarded is barred (I-21).
        return Some(false);
    }
    if !canasta_reachable_with(groups, more) {
        return Some(false);
    }
    if wilds_placed_make_canasta(groups, rules, more) {
        return Some(true);
    }
    None
}

/// The memo's reading of the cards for the table-only question of a
/// one-card hand (no hand reads so: at most 8 jokers).
pub(super) const TABLE_ONLY: (u64, u64, u8) = (0, 0, 0xFF);

/// The answer kept for these arguments, else `work()`'s, kept.
pub(super) fn memo_or(
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
pub(crate) fn rules_read(rules: &Rules) -> u8 {
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
pub(super) fn hand_read(
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
pub(crate) fn group_counts(g: &Group) -> u32 {
    // The rank's index, `WILD_GROUP` (0xFF) for a group of wilds only.
    g.rank_index() as u32 | g.naturals() << 8 | g.wilds() << 16 | (g.flags() as u32) << 24
}

/// The arguments of one going-out test but the groups.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct GoingOutKey {
    pub(super) rules: u8,
    pub(super) cards: (u64, u64, u8),
    pub(super) keep: (u64, u64, u8),
    pub(super) must: Option<Card>,
    pub(super) free_card: Option<Card>,
}

/// One kept answer: the arguments, the groups as [`group_counts`].
#[derive(Clone, Copy)]
pub(super) struct GoingOutEntry {
    pub(super) key: GoingOutKey,
    pub(super) len: u8,
    pub(super) groups: [u32; MAX_GROUPS],
    pub(super) out: bool,
}

/// The last answers of the going-out test on this thread, direct-mapped
/// by a hash of the arguments; the whole key is compared on a hit.
pub(super) struct GoingOutMemo {
    pub(super) slots: Vec<Option<GoingOutEntry>>,
}

impl GoingOutMemo {
    const SLOTS: usize = 256;

    /// The answer kept in `slot` for these arguments.
    pub(super) fn find(&self, slot: usize, key: &GoingOutKey, counts: &[u32]) -> Option<bool> {
        match self.slots.get(slot) {
            Some(Some(e)) if e.key == *key && e.groups[..e.len as usize] == *counts => Some(e.out),
            _ => None,
        }
    }

    /// Keeps `out` for these arguments (the groups as their
    /// [`group_counts`]) in `slot`.
    pub(super) fn keep(&mut self, slot: usize, key: GoingOutKey, counts: &[u32], out: bool) {
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
pub(super) fn going_out(
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
    // A card no group takes is the only one to discard.
    let (stuck, stuck_ranks) = unmeldable(cards, groups, rules);
    if stuck >= 2 {
        return false;
    }
    let mut facts = Facts::of(groups, rules);
    for d in cards.kinds() {
        if stuck == 1
            && d.rank()
                .is_none_or(|r| stuck_ranks & 1 << (4 * r as u32) == 0)
        {
            continue;
        }
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
pub(super) fn table_canasta_reachable(groups: &[Group]) -> bool {
    canasta_reachable_with(groups, 0)
}

/// [`table_canasta_reachable`] with `more` wilds to place besides the
/// table's (kept wilds, which go where the table's may).
#[inline]
pub(super) fn canasta_reachable_with(groups: &[Group], more: u32) -> bool {
    let (mut wilds, mut kept) = (more as i32, 0i32);
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

/// The table's own going-out question (a hand of one card, laid nothing)
/// answered yes by one table the slots allow: one group made a canasta
/// with the fewest wilds that makes it one, every other group left with
/// the fewest wilds it may end with, and the wilds over, if any, three or
/// more as a new group of wilds only (D-9.2, D-11.2, D-11.3), else one
/// or two more in groups that may hold them. Where a table of
/// [`table_canasta_reachable`] exists it is mostly one of these; `false`
/// decides nothing.
pub(super) fn wilds_moved_make_canasta(groups: &[Group], rules: &Rules) -> bool {
    wilds_placed_make_canasta(groups, rules, 0)
}

/// [`wilds_moved_make_canasta`] with `more` wilds to place besides the
/// table's (kept wilds, which go where the table's may): they are
/// counted with the table's.
pub(super) fn wilds_placed_make_canasta(groups: &[Group], rules: &Rules, more: u32) -> bool {
    let one = rules.groups_per_rank == GroupsPerRank::One;
    // The table's wilds and `more`; the sum of each group's fewest; the
    // least a canasta adds to that sum (its fewest wilds less the
    // group's fewest).
    let (mut wilds, mut least, mut extra) = (more, 0u32, u32::MAX);
    // The groups that may hold one wild more than their fewest, two more;
    // what the canasta's group adds to those counts, and the wilds more
    // it may hold as a canasta (bit 1: one, bit 2: two).
    let (mut ones, mut twos) = (0u32, 0u32);
    let (mut own, mut more) = (0u32, 0u32);
    let mut ranks = 0u32;
    for g in groups {
        wilds += g.wilds();
        let s = match g.rank() {
            None => wild_group_slot(g, rules),
            Some(r) => {
                if one {
                    // The going-out test reads a rank's first group only.
                    if ranks & 1 << r as u32 != 0 {
                        return false;
                    }
                    ranks |= 1 << r as u32;
                }
                match natural_slot(g.naturals(), Some(g), rules) {
                    Some(s) => s,
                    None => return false,
                }
            }
        };
        let any = s.plain | s.canasta;
        let fewest = any.trailing_zeros();
        least += fewest;
        let up = (any >> fewest) & 0b110;
        ones += up >> 1 & 1;
        twos += up >> 2;
        if s.canasta != 0 {
            let k = s.canasta.trailing_zeros();
            if k - fewest < extra {
                extra = k - fewest;
                own = up;
                more = (s.canasta >> k) & 0b110;
            }
        }
    }
    if extra == u32::MAX || wilds > 16 {
        return false;
    }
    // The other groups that may hold one more, two more.
    let (ones, twos) = (ones - (own >> 1 & 1), twos - (own >> 2));
    match wilds as i64 - least as i64 - extra as i64 {
        0 => true,
        1 => ones > 0 || more & 0b10 != 0,
        2 => twos > 0 || ones >= 2 || more & 0b100 != 0 || (more & 0b10 != 0 && ones > 0),
        over => over >= 3,
    }
}

/// The cards of `cards` that can go into no group, which a way out,
/// leaving only the one card discarded unmelded (D-13.1), must discard:
/// threes (D-9.3), and naturals held once of a rank with no group on
/// `groups` (a new group takes two naturals at least, D-9.1); aces aside
/// where ♥A may be laid apart (D-9.4). Their number and their ranks (the
/// low bit of each rank's nibble, as in [`CardSet::rank_counts`]): two or
/// more is an exact "no" of [`going_out`] by counting; one is the only
/// card it may discard.
pub(super) fn unmeldable(cards: CardSet, groups: &[Group], rules: &Rules) -> (u32, u64) {
    let threes = cards.black_three_count() + cards.red_three_count();
    // The natural ranks held once: a nibble of the counts that is 1.
    let diff = cards.rank_counts() ^ 0x0001_1111_1111_1111;
    let mut once = NATURAL_NIBBLES & !(diff | diff >> 1 | diff >> 2 | diff >> 3);
    if rules.heart_aces() {
        once &= !(1 << (4 * Rank::Ace as u32));
    }
    if once != 0 {
        for g in groups {
            if let Some(r) = g.rank() {
                once &= !(1 << (4 * r as u32));
            }
        }
    }
    let three = if threes > 0 {
        1 << (4 * Rank::Three as u32)
    } else {
        0
    };
    (once.count_ones() + threes, once | three)
}

/// Whether a canasta (D-10) can be on the table once some of `cards`
/// are melded onto `groups`, by counting: a group there is one already,
/// or seven wilds in all make a group of wilds, or a rank's naturals in
/// one group (its group's, which no others join, and the hand's) number
/// at least four with wilds to make seven (a natural group holds fewer
/// wilds than naturals, D-9.1). Going out needs one (D-13.2); `false`
/// spares the going-out test its search.
pub(super) fn canasta_possible(cards: CardSet, groups: &[Group]) -> bool {
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
pub(super) struct Facts {
    /// Bit `rank` set for each natural rank with a group.
    pub(super) grouped: u32,
    /// Index of the first group of each rank (`usize::MAX`: none).
    pub(super) first: [usize; 13],
    /// Number of groups of each rank.
    pub(super) count: [u32; 13],
    /// Wilds in the groups.
    pub(super) wilds: u32,
    /// Groups of wilds only, and new groups of wilds only.
    pub(super) tail: Slot,
    /// The slot of each rank for the hand holding `cards`' count of it
    /// less `k` (index `k`, 0..4): `None` not computed yet,
    /// `Some(None)` no legal way.
    pub(super) memo: [[Option<Option<Slot>>; 4]; 13],
}

impl Facts {
    pub(super) fn of(groups: &[Group], rules: &Rules) -> Facts {
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
    pub(super) fn feasible(
        &mut self,
        r: CardSet,
        cards: CardSet,
        groups: &[Group],
        rules: &Rules,
    ) -> bool {
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
    pub(super) fn rank_slot(
        &self,
        rank: Rank,
        n: u32,
        groups: &[Group],
        rules: &Rules,
    ) -> Option<Slot> {
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
