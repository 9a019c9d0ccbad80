//! [`ActionIds`]: a fixed integer id for every action a family's listing
//! can hold, and the legal-action mask over those ids: the action space a
//! learner's policy head and a binding index. The decorated family's ids
//! are here; the classic family's are in `classic_ids`. docs/ENCODING.md
//! lays both out.
//!
//! Ids are stable: a new id is only ever added at the end (with
//! [`ACTION_IDS_VERSION`] raised), never renumbered.
//!
//! Decorated ids ([`DECORATED_ACTION_IDS`] = 4,850):
//!
//! | ids | action |
//! |---|---|
//! | 0–7 | `KeepCut { mask }`: id = mask |
//! | 8–14 | `Draw`, `FreePickup`, `TakePile`, `TakeRest`, `LayHeartAce`, `TakeBackHeartAce`, `Reset` |
//! | 15–67 | `Discard(card)`: 15 + card index (rank × 4 + suit, joker 52) |
//! | 68–824 | `Lay` of three cards: 68 + the lay's index (below) |
//! | 825–4849 | a step on group `g` of the mover's table: 825 + 115 g + step |
//!
//! A lay of three of a natural rank `r` (4 = 0 … A = 10) has index
//! 66 r + k: k 0–15 three naturals, k = 16 + 5 p + w two naturals
//! (pair `p`, 0–9) and wild `w`. Naturals are named by their suit counts
//! (♣ ♦ ♥ ♠, each 0–2), listed by the code c♣ + 3 c♦ + 9 c♥ + 27 c♠,
//! smallest first. Wild `w`: 0–3 the 2 of ♣ ♦ ♥ ♠, 4 the joker. The 31
//! lays of three wilds have indices 726–756, by the code c2♣ + 3 c2♦ +
//! 9 c2♥ + 27 c2♠ + 81 cJK, smallest first.
//!
//! The 115 steps on group `g`: 0–3 `Extend` with a natural of the group's
//! rank of suit ♣ ♦ ♥ ♠, 4–8 `Extend` with wild `w`; 9–13 `TakeWild`
//! wild `w`; 14–33 `Swap` natural of suit `s` (the group's rank) for wild
//! `w`, 14 + 5 s + w; 34–113 `Convert` with the naturals whose suit code
//! (as above) is `c`, 33 + c; 114 `TakeBack`.
//!
//! Group indices are the mover's, as in the actions themselves, so an id
//! means an action of the state it is read in; [`ActionIds::action_from_id`]
//! reads the group's rank there. Two different actions the listing holds
//! for one state never share an id; the listing may hold one action twice
//! (a wild both pending and in hand extends a group the same way), and
//! both copies have its one id. A lay of more than three cards, which
//! [`GameState::apply`] accepts but the listing never holds, has no id;
//! nor has a set of three that makes no group (one natural, two wilds).

use crate::action::Action;
use crate::card::{Card, Rank, Suit};
use crate::card_set::{rank_mask, CardSet};
use crate::game::Game;
use crate::state::GameState;
use crate::table::MAX_GROUPS;

/// The version of both families' id layouts.
pub const ACTION_IDS_VERSION: u32 = 1;

/// Number of decorated action ids.
pub const DECORATED_ACTION_IDS: usize = GROUP_BASE as usize + MAX_GROUPS * GROUP_STEPS as usize;

/// A family's fixed action id space.
pub trait ActionIds: Game {
    /// Number of ids: every id is below it.
    const ACTION_IDS: usize;

    /// The id of `action`, `None` for an action no listing holds (see the
    /// family's layout).
    fn action_id(action: &Self::Action) -> Option<u32>;

    /// The action id `id` names in this state (group references are the
    /// mover's), `None` for an id out of range or naming nothing here.
    /// Whether the action is legal is for [`Game::apply`] to say.
    fn action_from_id(&self, id: u32) -> Option<Self::Action>;

    /// The legal actions into `legal` (as [`Game::legal_actions`]) and
    /// their ids into `mask`: `mask[id]` is true exactly for the legal
    /// actions' ids. `mask` is at least [`ActionIds::ACTION_IDS`] long.
    fn legal_mask(&self, legal: &mut Vec<Self::Action>, mask: &mut [bool]) {
        assert!(
            mask.len() >= Self::ACTION_IDS,
            "the mask holds {} entries; the family has {} action ids",
            mask.len(),
            Self::ACTION_IDS
        );
        self.legal_actions(legal);
        mask.fill(false);
        for a in legal.iter() {
            let id = Self::action_id(a);
            debug_assert!(id.is_some(), "listed action {a} has no id");
            if let Some(id) = id {
                mask[id as usize] = true;
            }
        }
    }
}

const KEEP_BASE: u32 = 0;
const DRAW: u32 = 8;
const FREE: u32 = 9;
const TAKE: u32 = 10;
const REST: u32 = 11;
const HEART: u32 = 12;
const TAKEBACK_HEART: u32 = 13;
const RESET: u32 = 14;
const DISCARD_BASE: u32 = 15;
const LAY_BASE: u32 = DISCARD_BASE + Card::KINDS as u32;
/// Lays of three: 66 for each of the 11 natural ranks, then 31 of wilds.
const LAYS: u32 = 11 * 66 + 31;
const GROUP_BASE: u32 = LAY_BASE + LAYS;
const GROUP_STEPS: u32 = 115;
const STEP_EXTEND: u32 = 0;
const STEP_TAKE_WILD: u32 = 9;
const STEP_SWAP: u32 = 14;
const STEP_CONVERT: u32 = 33;
const STEP_TAKE_BACK: u32 = 114;

/// The wilds in index order: the 2 of ♣ ♦ ♥ ♠, the joker.
const WILDS: [Card; 5] = [
    Card::new(Rank::Two, Suit::Clubs),
    Card::new(Rank::Two, Suit::Diamonds),
    Card::new(Rank::Two, Suit::Hearts),
    Card::new(Rank::Two, Suit::Spades),
    Card::JOKER,
];

/// Index of a wild in [`WILDS`].
fn wild_index(c: Card) -> Option<u32> {
    if c.is_joker() {
        Some(4)
    } else if c.rank() == Some(Rank::Two) {
        c.suit().map(|s| s as u32)
    } else {
        None
    }
}

/// `TERNARY[b]`: the suit code of one copy of each suit whose bit is set
/// in the nibble `b` (bit `s` adds 3^s).
const TERNARY: [u8; 16] = {
    let mut a = [0u8; 16];
    let mut b = 0;
    while b < 16 {
        let (mut s, mut w) = (0, 1);
        while s < 4 {
            if b >> s & 1 != 0 {
                a[b] += w;
            }
            w *= 3;
            s += 1;
        }
        b += 1;
    }
    a
};

/// The suit code c♣ + 3 c♦ + 9 c♥ + 27 c♠ of the cards of rank `r` in
/// `set`: the rank's nibble of each word, by table.
fn suit_code(set: CardSet, r: Rank) -> u32 {
    let (lo, hi, _) = set.raw();
    nibble_code(lo, hi, r as u32 * 4)
}

/// The suit code of the nibbles at `shift` of a set's words `lo` and `hi`.
fn nibble_code(lo: u64, hi: u64, shift: u32) -> u32 {
    TERNARY[(lo >> shift & 0xF) as usize] as u32 + TERNARY[(hi >> shift & 0xF) as usize] as u32
}

/// The cards of rank `r` whose suit code is `code`.
fn of_suit_code(r: Rank, mut code: u32, out: &mut CardSet) {
    for s in Suit::ALL {
        for _ in 0..code % 3 {
            out.insert(Card::new(r, s));
        }
        code /= 3;
    }
}

/// Sum of the suit counts of a suit code.
const fn code_sum(mut code: u32) -> u32 {
    let mut sum = 0;
    while code > 0 {
        sum += code % 3;
        code /= 3;
    }
    sum
}

/// For each suit code, its place among the codes of the same sum (in
/// ascending order); and the codes of sums 3 and 2 by place.
const fn code_tables() -> ([u8; 81], [u8; 16], [u8; 10]) {
    let mut place = [0u8; 81];
    let mut three = [0u8; 16];
    let mut two = [0u8; 10];
    let mut seen = [0u8; 9];
    let mut c = 0;
    while c < 81 {
        let s = code_sum(c as u32) as usize;
        place[c] = seen[s];
        if s == 3 {
            three[seen[s] as usize] = c as u8;
        } else if s == 2 {
            two[seen[s] as usize] = c as u8;
        }
        seen[s] += 1;
        c += 1;
    }
    (place, three, two)
}

const CODES: ([u8; 81], [u8; 16], [u8; 10]) = code_tables();

/// The codes c2♣ + 3 c2♦ + 9 c2♥ + 27 c2♠ + 81 cJK of the 31 lays of
/// three wilds, ascending.
const fn wild_triples() -> [u16; 31] {
    let mut out = [0u16; 31];
    let mut n = 0;
    let mut code = 0;
    while code < 81 * 4 {
        if code_sum(code as u32 % 81) + code as u32 / 81 == 3 {
            out[n] = code as u16;
            n += 1;
        }
        code += 1;
    }
    out
}

const WILD_TRIPLES: [u16; 31] = wild_triples();

/// The place in [`WILD_TRIPLES`] of each code below 4 · 81 (`u8::MAX` for
/// a code no lay of three wilds has).
const WILD_PLACE: [u8; 4 * 81] = {
    let mut a = [u8::MAX; 4 * 81];
    let mut i = 0;
    while i < WILD_TRIPLES.len() {
        a[WILD_TRIPLES[i] as usize] = i as u8;
        i += 1;
    }
    a
};

/// The index (0–756) of a lay of three cards, read off the set's words:
/// the lowest natural's rank by its bit, suit codes by table.
#[inline]
fn lay_index(cards: CardSet) -> Option<u32> {
    if cards.len() != 3 {
        return None;
    }
    let (lo, hi, jokers) = cards.raw();
    let twos = rank_mask(Rank::Two);
    let naturals = lo & !twos;
    if naturals == 0 {
        // At most three jokers: the code is below 4 · 81.
        let code = nibble_code(lo, hi, 0) + 81 * jokers as u32;
        let i = WILD_PLACE[code as usize];
        return (i != u8::MAX).then_some(11 * 66 + i as u32);
    }
    let r = naturals.trailing_zeros() / 4;
    if r < Rank::Four as u32 || naturals & !(0xF << (4 * r)) != 0 {
        return None;
    }
    if cards.wild_count() > 1 {
        // One natural and two wilds: no group (D-9.1), no id.
        return None;
    }
    let base = 66 * (r - Rank::Four as u32);
    let place = CODES.0[nibble_code(lo, hi, 4 * r) as usize] as u32;
    let wild = if lo & twos != 0 {
        // The lowest 2's suit, as `kinds` gives the wilds.
        lo.trailing_zeros()
    } else if jokers != 0 {
        4
    } else {
        return Some(base + place);
    };
    Some(base + 16 + 5 * place + wild)
}

/// The lay of three of index `i` (0–756).
fn lay_of_index(i: u32) -> Option<CardSet> {
    let mut cards = CardSet::EMPTY;
    if i >= 11 * 66 {
        let code = *WILD_TRIPLES.get((i - 11 * 66) as usize)? as u32;
        of_suit_code(Rank::Two, code % 81, &mut cards);
        for _ in 0..code / 81 {
            cards.insert(Card::JOKER);
        }
        return Some(cards);
    }
    let r = Rank::from_index(Rank::Four as u8 + (i / 66) as u8);
    let k = i % 66;
    if k < 16 {
        of_suit_code(r, CODES.1[k as usize] as u32, &mut cards);
    } else {
        let k = k - 16;
        of_suit_code(r, CODES.2[(k / 5) as usize] as u32, &mut cards);
        cards.insert(WILDS[(k % 5) as usize]);
    }
    Some(cards)
}

/// The suit of a natural card, or its wild index + 4 (the extend slots).
fn extend_slot(card: Card) -> Option<u32> {
    match wild_index(card) {
        Some(w) => Some(4 + w),
        None if card.is_natural() => card.suit().map(|s| s as u32),
        None => None,
    }
}

fn group_id(group: u8, step: u32) -> Option<u32> {
    ((group as usize) < MAX_GROUPS).then_some(GROUP_BASE + GROUP_STEPS * group as u32 + step)
}

impl ActionIds for GameState {
    const ACTION_IDS: usize = DECORATED_ACTION_IDS;

    #[inline]
    fn action_id(action: &Action) -> Option<u32> {
        match *action {
            Action::KeepCut { mask } => (mask < 8).then_some(KEEP_BASE + mask as u32),
            Action::Draw => Some(DRAW),
            Action::FreePickup => Some(FREE),
            Action::TakePile => Some(TAKE),
            Action::TakeRest => Some(REST),
            Action::LayHeartAce => Some(HEART),
            Action::TakeBackHeartAce => Some(TAKEBACK_HEART),
            Action::Reset => Some(RESET),
            Action::Discard(c) => Some(DISCARD_BASE + c.index() as u32),
            Action::Lay { cards } => lay_index(cards).map(|i| LAY_BASE + i),
            Action::Extend { group, card } => group_id(group, STEP_EXTEND + extend_slot(card)?),
            Action::TakeWild { group, wild } => group_id(group, STEP_TAKE_WILD + wild_index(wild)?),
            Action::Swap {
                group,
                natural,
                wild,
            } => {
                if !natural.is_natural() {
                    return None;
                }
                let s = natural.suit()? as u32;
                group_id(group, STEP_SWAP + 5 * s + wild_index(wild)?)
            }
            Action::Convert { group, naturals } => {
                let r = naturals.iter().next()?.rank()?;
                if !r.is_natural() || naturals.of_rank(r) != naturals {
                    return None;
                }
                group_id(group, STEP_CONVERT + suit_code(naturals, r))
            }
            Action::TakeBack { group } => group_id(group, STEP_TAKE_BACK),
        }
    }

    fn action_from_id(&self, id: u32) -> Option<Action> {
        Some(match id {
            0..=7 => Action::KeepCut { mask: id as u8 },
            DRAW => Action::Draw,
            FREE => Action::FreePickup,
            TAKE => Action::TakePile,
            REST => Action::TakeRest,
            HEART => Action::LayHeartAce,
            TAKEBACK_HEART => Action::TakeBackHeartAce,
            RESET => Action::Reset,
            _ if id < LAY_BASE => Action::Discard(Card::from_index((id - DISCARD_BASE) as u8)?),
            _ if id < GROUP_BASE => Action::Lay {
                cards: lay_of_index(id - LAY_BASE)?,
            },
            _ if (id as usize) < DECORATED_ACTION_IDS => {
                let g = (id - GROUP_BASE) / GROUP_STEPS;
                let step = (id - GROUP_BASE) % GROUP_STEPS;
                let group = g as u8;
                let rank = self
                    .table(self.current_player())
                    .group(g as usize)
                    .and_then(|gr| gr.rank());
                let natural = |s: u32| rank.map(|r| Card::new(r, Suit::from_index(s as u8)));
                match step {
                    0..=3 => Action::Extend {
                        group,
                        card: natural(step)?,
                    },
                    4..=8 => Action::Extend {
                        group,
                        card: WILDS[(step - 4) as usize],
                    },
                    9..=13 => Action::TakeWild {
                        group,
                        wild: WILDS[(step - STEP_TAKE_WILD) as usize],
                    },
                    14..=33 => {
                        let k = step - STEP_SWAP;
                        Action::Swap {
                            group,
                            natural: natural(k / 5)?,
                            wild: WILDS[(k % 5) as usize],
                        }
                    }
                    34..=113 => {
                        let mut naturals = CardSet::EMPTY;
                        of_suit_code(rank?, step - STEP_CONVERT, &mut naturals);
                        Action::Convert { group, naturals }
                    }
                    _ => Action::TakeBack { group },
                }
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_has_the_documented_size() {
        assert_eq!(LAY_BASE, 68);
        assert_eq!(GROUP_BASE, 825);
        assert_eq!(DECORATED_ACTION_IDS, 4850);
        assert_eq!(CODES.1.len() + 5 * CODES.2.len(), 66);
    }

    /// [`lay_index`] by the cards themselves: the first natural's rank,
    /// the suit counts card by card, the first wild's kind.
    fn lay_index_by_cards(cards: CardSet) -> Option<u32> {
        if cards.len() != 3 {
            return None;
        }
        let code = |set: CardSet, r: Rank| {
            Suit::ALL
                .iter()
                .rev()
                .fold(0, |acc, &s| acc * 3 + set.count(Card::new(r, s)))
        };
        let wilds = cards.wilds();
        let naturals = cards.checked_sub(wilds)?;
        if naturals.is_empty() {
            let c = code(wilds, Rank::Two) + 81 * wilds.jokers();
            let i = WILD_TRIPLES.iter().position(|&x| x as u32 == c)?;
            return Some(11 * 66 + i as u32);
        }
        let r = naturals.iter().next()?.rank()?;
        if !r.is_natural() || naturals.of_rank(r) != naturals || wilds.len() > 1 {
            return None;
        }
        let base = 66 * (r as u32 - Rank::Four as u32);
        let place = CODES.0[code(naturals, r) as usize] as u32;
        match wilds.kinds().next() {
            None => Some(base + place),
            Some(w) => Some(base + 16 + 5 * place + wild_index(w)?),
        }
    }

    /// Every set of three cards the pack can give (a kind at most twice).
    fn sets_of_three() -> impl Iterator<Item = CardSet> {
        let n = Card::KINDS as u8;
        (0..n).flat_map(move |a| {
            (a..n).flat_map(move |b| {
                (b..n).filter_map(move |c| {
                    CardSet::try_from_cards([a, b, c].map(|i| Card::from_index(i).unwrap()))
                })
            })
        })
    }

    #[test]
    fn lay_index_reads_every_set_of_three_as_its_cards_do() {
        let mut sets = 0;
        for set in sets_of_three() {
            sets += 1;
            assert_eq!(lay_index(set), lay_index_by_cards(set), "[{set}]");
        }
        assert!(sets > 20_000);
        let four = CardSet::parse("4C 4D 4H 4S").unwrap();
        assert_eq!(lay_index(four), None);
    }

    /// An id names one action: a set of three with a lay index is the
    /// lay that index decodes to, so no set borrows another's id (one
    /// natural and two wilds, no group by D-9.1, has none).
    #[test]
    fn a_lay_index_decodes_to_its_own_set() {
        let mut with_id = 0;
        for set in sets_of_three() {
            if let Some(i) = lay_index(set) {
                with_id += 1;
                assert_eq!(lay_of_index(i), Some(set), "[{set}] has lay {i}");
            }
        }
        assert_eq!(with_id, LAYS);
        let one_natural = CardSet::parse("8D 2C JK").unwrap();
        assert_eq!(lay_index(one_natural), None);
    }

    #[test]
    fn every_lay_of_three_round_trips() {
        for i in 0..LAYS {
            let cards = lay_of_index(i).unwrap();
            assert_eq!(cards.len(), 3, "lay {i}");
            assert_eq!(lay_index(cards), Some(i), "lay {i} [{cards}]");
        }
        assert_eq!(lay_of_index(LAYS), None);
    }
}
