//! The classic family's action ids ([`ActionIds`] for [`ClassicState`]).
//! Classic actions name kinds and counts, not suits or places, so an id
//! names one action whatever the state.
//!
//! Classic ids ([`CLASSIC_ACTION_IDS`] = 233); a rank `r` is a natural
//! kind's index (4 = 0 … A = 10), a meld key `k` is `r`, 11 for the
//! black-three meld, 12 for a wild canasta:
//!
//! | ids | action |
//! |---|---|
//! | 0–8 | `Ask`, `Answer(true)`, `Answer(false)`, `Draw`, `TakeTurned`, `TakeRest`, `Reset`, `End`, `EndHand` |
//! | 9–22 | `Discard(kind)`: 9 + kind index (naturals 0–10, black three 11, 2 12, joker 13) |
//! | 23–55 | `Extend { rank: r, kind }`: 23 + 3 r + j, j 0 a natural of `r`, 1 a 2, 2 a joker |
//! | 56–68 | `TakeBack { key: k }`: 56 + k |
//! | 69–116 | `TakePile { key: k, with }`, `k` ≤ 11: 69 + 4 k + s, `with` (naturals 2s jokers) s 0 = 2 0 0, 1 = 1 1 0, 2 = 1 0 1, 3 = 0 0 0 |
//! | 117–149 | `Lay { key: r, cards }`: 117 + 3 r + s, s 0 = 3 0 0, 1 = 2 1 0, 2 = 2 0 1 |
//! | 150–224 | `Lay { key: 3, cards: b t j }`, b 2–4, t and j 0–4: 150 + 25 (b − 2) + 5 t + j |
//! | 225–232 | `Lay { key: W, cards: 0 (7 − j) j }`, j 0–7: 225 + j |

use crate::classic::{ClassicAction, ClassicState, Counts, Kind, MeldKey};
use crate::ids::ActionIds;

/// Number of classic action ids.
pub const CLASSIC_ACTION_IDS: usize = 233;

const SINGLES: [ClassicAction; 9] = [
    ClassicAction::Ask,
    ClassicAction::Answer(true),
    ClassicAction::Answer(false),
    ClassicAction::Draw,
    ClassicAction::TakeTurned,
    ClassicAction::TakeRest,
    ClassicAction::Reset,
    ClassicAction::End,
    ClassicAction::EndHand,
];
const DISCARD: u32 = 9;
const EXTEND: u32 = 23;
const TAKE_BACK: u32 = 56;
const TAKE_PILE: u32 = 69;
const LAY_RANK: u32 = 117;
const LAY_THREES: u32 = 150;
const LAY_WILDS: u32 = 225;

const fn counts(naturals: u8, twos: u8, jokers: u8) -> Counts {
    Counts {
        naturals,
        twos,
        jokers,
    }
}

/// The `with` of a pickup, by shape.
const PILE_SHAPES: [Counts; 4] = [
    counts(2, 0, 0),
    counts(1, 1, 0),
    counts(1, 0, 1),
    counts(0, 0, 0),
];
/// The cards of a new meld of a rank, by shape.
const LAY_SHAPES: [Counts; 3] = [counts(3, 0, 0), counts(2, 1, 0), counts(2, 0, 1)];

fn key_index(key: MeldKey) -> u32 {
    match key {
        MeldKey::Rank(k) => k.index() as u32,
        MeldKey::BlackThrees => 11,
        MeldKey::Wilds => 12,
    }
}

fn key_of(i: u32) -> Option<MeldKey> {
    match i {
        0..=10 => Some(MeldKey::Rank(Kind::from_index(i as usize))),
        11 => Some(MeldKey::BlackThrees),
        12 => Some(MeldKey::Wilds),
        _ => None,
    }
}

impl ActionIds for ClassicState {
    const ACTION_IDS: usize = CLASSIC_ACTION_IDS;

    #[inline]
    fn action_id(action: &ClassicAction) -> Option<u32> {
        if let Some(i) = SINGLES.iter().position(|s| s == action) {
            return Some(i as u32);
        }
        match *action {
            ClassicAction::Discard(k) => Some(DISCARD + k.index() as u32),
            ClassicAction::Extend { rank, kind } => {
                let r = rank.index() as u32;
                let j = match kind {
                    Kind::TWO => 1,
                    Kind::JOKER => 2,
                    k if k == rank => 0,
                    _ => return None,
                };
                (r < 11).then_some(EXTEND + 3 * r + j)
            }
            ClassicAction::TakeBack { key } => Some(TAKE_BACK + key_index(key)),
            ClassicAction::TakePile { key, with } => {
                let k = key_index(key);
                let s = PILE_SHAPES.iter().position(|&c| c == with)? as u32;
                (k <= 11).then_some(TAKE_PILE + 4 * k + s)
            }
            ClassicAction::Lay { key, cards } => match key {
                MeldKey::Rank(r) => {
                    let s = LAY_SHAPES.iter().position(|&c| c == cards)? as u32;
                    Some(LAY_RANK + 3 * r.index() as u32 + s)
                }
                MeldKey::BlackThrees => {
                    let Counts {
                        naturals: b,
                        twos: t,
                        jokers: j,
                    } = cards;
                    ((2..=4).contains(&b) && t <= 4 && j <= 4)
                        .then(|| LAY_THREES + 25 * (b as u32 - 2) + 5 * t as u32 + j as u32)
                }
                MeldKey::Wilds => (cards.naturals == 0 && cards.len() == 7)
                    .then(|| LAY_WILDS + cards.jokers as u32),
            },
            _ => None,
        }
    }

    fn action_from_id(&self, id: u32) -> Option<ClassicAction> {
        Some(match id {
            0..=8 => SINGLES[id as usize],
            9..=22 => ClassicAction::Discard(Kind::from_index((id - DISCARD) as usize)),
            23..=55 => {
                let (r, j) = ((id - EXTEND) / 3, (id - EXTEND) % 3);
                let rank = Kind::from_index(r as usize);
                ClassicAction::Extend {
                    rank,
                    kind: [rank, Kind::TWO, Kind::JOKER][j as usize],
                }
            }
            56..=68 => ClassicAction::TakeBack {
                key: key_of(id - TAKE_BACK)?,
            },
            69..=116 => ClassicAction::TakePile {
                key: key_of((id - TAKE_PILE) / 4)?,
                with: PILE_SHAPES[((id - TAKE_PILE) % 4) as usize],
            },
            117..=149 => ClassicAction::Lay {
                key: key_of((id - LAY_RANK) / 3)?,
                cards: LAY_SHAPES[((id - LAY_RANK) % 3) as usize],
            },
            150..=224 => {
                let i = id - LAY_THREES;
                ClassicAction::Lay {
                    key: MeldKey::BlackThrees,
                    cards: counts(2 + (i / 25) as u8, ((i / 5) % 5) as u8, (i % 5) as u8),
                }
            }
            225..=232 => {
                let j = (id - LAY_WILDS) as u8;
                ClassicAction::Lay {
                    key: MeldKey::Wilds,
                    cards: counts(0, 7 - j, j),
                }
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::ClassicRules;

    #[test]
    fn every_id_round_trips() {
        let g = ClassicState::new(ClassicRules::default(), 1, 0, [0; 6]);
        for id in 0..CLASSIC_ACTION_IDS as u32 {
            let a = g.action_from_id(id).unwrap();
            assert_eq!(ClassicState::action_id(&a), Some(id), "{id} {a}");
        }
        assert_eq!(g.action_from_id(CLASSIC_ACTION_IDS as u32), None);
    }
}
