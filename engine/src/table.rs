//! [`Table`]: a player's own face-up area (D-2.2): groups, red threes,
//! twins, separately laid heart aces.

use crate::card::{Card, Rank};
use crate::card_set::CardSet;
use crate::group::{CanastaKind, Group};

/// Most groups one table can hold: 104 meldable cards, at least 3 a group.
pub const MAX_GROUPS: usize = 35;

/// One player's table. Fixed capacity, `Copy`. Equality and hashing look
/// at the live groups only (vacated slots are cleared anyway), so that
/// comparing two tables, as the meld phase's reset test does for every
/// listing, costs a few words per group rather than the whole array.
#[derive(Clone, Copy)]
pub struct Table {
    groups: [Group; MAX_GROUPS],
    len: u8,
    /// Red threes laid out (D-4).
    pub red_threes: CardSet,
    /// Twins received (D-7): a counter only, the cards stay on the pile.
    pub twins: u16,
    /// Separately laid ♥A (D-9.4).
    pub heart_aces: u8,
    /// Separately laid ♥A laid this turn (they may be taken back, D-11.5).
    pub heart_aces_new: u8,
    /// Whether the player has made his opening meld this hand (D-8).
    pub opened: bool,
}

impl PartialEq for Table {
    fn eq(&self, o: &Table) -> bool {
        self.len == o.len
            && self.red_threes == o.red_threes
            && self.twins == o.twins
            && self.heart_aces == o.heart_aces
            && self.heart_aces_new == o.heart_aces_new
            && self.opened == o.opened
            && self
                .groups()
                .iter()
                .zip(o.groups())
                .all(|(a, b)| a.packed() == b.packed())
    }
}

impl Eq for Table {}

impl std::hash::Hash for Table {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        for g in self.groups() {
            h.write_u64(g.packed());
        }
        (
            self.len,
            self.red_threes,
            self.twins,
            self.heart_aces,
            self.heart_aces_new,
            self.opened,
        )
            .hash(h);
    }
}

impl Default for Table {
    fn default() -> Table {
        Table {
            groups: [Group::default(); MAX_GROUPS],
            len: 0,
            red_threes: CardSet::EMPTY,
            twins: 0,
            heart_aces: 0,
            heart_aces_new: 0,
            opened: false,
        }
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("groups", &self.groups())
            .field("red_threes", &self.red_threes)
            .field("twins", &self.twins)
            .field("heart_aces", &self.heart_aces)
            .field("opened", &self.opened)
            .finish()
    }
}

impl Table {
    /// The groups, in the order they were laid.
    pub fn groups(&self) -> &[Group] {
        &self.groups[..self.len as usize]
    }

    pub(crate) fn groups_mut(&mut self) -> &mut [Group] {
        &mut self.groups[..self.len as usize]
    }

    /// Group `i`.
    pub fn group(&self, i: usize) -> Option<&Group> {
        self.groups().get(i)
    }

    /// Number of groups.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the table holds no group.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends a group; `None` when the table is full.
    pub(crate) fn push(&mut self, g: Group) -> Option<usize> {
        if self.len as usize >= MAX_GROUPS {
            return None;
        }
        self.groups[self.len as usize] = g;
        self.len += 1;
        Some(self.len as usize - 1)
    }

    /// Removes group `i`, shifting later groups down.
    pub(crate) fn remove(&mut self, i: usize) -> Group {
        let g = self.groups[i];
        let n = self.len as usize;
        self.groups.copy_within(i + 1..n, i);
        // Clear the vacated slot: equality and hashing see the whole array.
        self.groups[n - 1] = Group::default();
        self.len -= 1;
        g
    }

    /// Index of the (first) group of `rank`.
    pub fn group_of_rank(&self, rank: Rank) -> Option<usize> {
        self.groups().iter().position(|g| g.rank() == Some(rank))
    }

    /// Every card on the table: groups, red threes, separate heart aces.
    pub fn cards(&self) -> CardSet {
        let mut s = self.red_threes;
        for g in self.groups() {
            s = s.checked_add(g.cards()).unwrap_or(s);
        }
        for _ in 0..self.heart_aces {
            s.insert(Card::HEART_ACE);
        }
        s
    }

    /// Number of canastas.
    pub fn canastas(&self) -> usize {
        self.groups().iter().filter(|g| g.is_canasta()).count()
    }

    /// Whether the table holds at least one canasta (D-13.1).
    pub fn has_canasta(&self) -> bool {
        self.groups().iter().any(|g| g.is_canasta())
    }

    /// Number of canastas of a kind.
    pub fn canastas_of(&self, kind: CanastaKind) -> usize {
        self.groups()
            .iter()
            .filter(|g| g.canasta_kind() == Some(kind))
            .count()
    }

    /// Card value of the melded cards (D-14; red threes, twins and heart aces
    /// count only in the base).
    pub fn melded_points(&self) -> i32 {
        self.groups().iter().map(|g| g.points()).sum()
    }

    /// Value towards the opening minimum of every group (D-8.2).
    pub fn opening_value(&self) -> i32 {
        self.groups().iter().map(|g| g.opening_value()).sum()
    }

    /// Whether anything was laid this turn (groups or heart aces still new).
    pub fn has_new(&self) -> bool {
        self.heart_aces_new > 0 || self.groups().iter().any(|g| g.is_new())
    }

    /// Clears the per-turn flags.
    pub(crate) fn end_turn(&mut self) {
        self.heart_aces_new = 0;
        for g in self.groups_mut() {
            g.set_flags(0);
        }
    }
}
