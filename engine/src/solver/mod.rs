//! Small exact searches the legality of a turn needs (I-9, I-26): can the
//! mover go out from here, and how much can an opening be worth.
//!
//! Both work on rank counts, not on card suits: for going out only how many
//! naturals of each rank and how many wilds there are matters. Wild totals
//! are tracked as bitmasks over 0..=16 (there are 16 wilds in the pack).

use crate::group::{legal_natural_counts, Group, FLAG_RECEIVED};
use crate::rules::{BlackCanastaWilds, Rules, WildCanasta};

pub(crate) mod going_out;
pub(crate) mod opening;
#[cfg(test)]
mod tests;

/// Bitmask of wild totals 0..=16.
pub(super) type Mask = u32;

pub(super) const ALL: Mask = (1 << 17) - 1;

/// Possible wild counts of one slot: without and with a canasta.
#[derive(Clone, Copy)]
pub(super) struct Slot {
    pub(super) plain: Mask,
    pub(super) canasta: Mask,
}

pub(super) fn conv(a: Mask, b: Mask) -> Mask {
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
pub(super) struct Acc {
    pub(super) plain: Mask,
    pub(super) canasta: Mask,
}

impl Acc {
    const START: Acc = Acc {
        plain: 1,
        canasta: 0,
    };

    pub(super) fn add(self, s: Slot) -> Acc {
        Acc {
            plain: conv(self.plain, s.plain),
            canasta: conv(self.canasta, s.plain | s.canasta) | conv(self.plain, s.canasta),
        }
    }

    pub(super) fn or(self, o: Acc) -> Acc {
        Acc {
            plain: self.plain | o.plain,
            canasta: self.canasta | o.canasta,
        }
    }

    pub(super) fn as_slot(self) -> Slot {
        Slot {
            plain: self.plain,
            canasta: self.canasta,
        }
    }
}

/// Wild counts a natural group of `n` naturals may end with, given the group
/// it grows from (`None`: a new group).
pub(super) fn natural_slot(n: u32, from: Option<&Group>, rules: &Rules) -> Option<Slot> {
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
pub(super) static NATURAL_SLOTS: [[[Slot; 9]; 9]; 2] = natural_slots();

pub(super) const fn natural_slots() -> [[[Slot; 9]; 9]; 2] {
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
pub(super) fn wild_group_slot(g: &Group, rules: &Rules) -> Slot {
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
