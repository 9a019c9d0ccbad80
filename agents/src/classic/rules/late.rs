//! The match around the hand, for the classic `rules` player: the fewest
//! wilds with which its hand reaches the opening minimum its side faces
//! (C-6, C-17; `minimum`), and what going out now does to the match
//! (C-12, C-24; `stakes`).

use kanaszta_engine::classic::{kind_counts, ClassicRules, ClassicView, Kind};
use kanaszta_engine::CardSet;

/// The fewest wilds with which melds from `hand` (natural triples, natural
/// pairs with a wild, more wilds onto them within the wild limit, C-4)
/// reach the opening minimum `need` (C-6, C-17: jokers count 50, 2s 20);
/// `None` when even every wild does not. Black threes are left out
/// (C-9); whether a card stays to discard is the engine's listing to say.
pub(super) fn opening_wilds(r: &ClassicRules, hand: CardSet, need: i32) -> Option<u32> {
    let a = kind_counts(hand);
    // The side's melds: (naturals, wilds, value) per rank used.
    let mut melds = [(0u32, 0u32); 11];
    let mut n_melds = 0;
    let mut value = 0;
    let mut pairs = [0i32; 11];
    let mut n_pairs = 0;
    for (k, &c) in a.iter().enumerate().take(11) {
        let v = Kind::from_index(k).value();
        if c >= 3 {
            value += v * c as i32;
            melds[n_melds] = (c as u32, 0);
            n_melds += 1;
        } else if c == 2 && r.meld_ok(2, 1) {
            pairs[n_pairs] = 2 * v;
            n_pairs += 1;
        }
    }
    if n_melds > 0 && value >= need {
        return Some(0);
    }
    pairs[..n_pairs].sort_unstable_by_key(|&x| std::cmp::Reverse(x));
    // Wilds by value, jokers first: the minimum counts their values.
    let jokers = a[Kind::JOKER.index()] as u32;
    let twos = a[Kind::TWO.index()] as u32;
    let mut used = 0;
    let mut next_pair = 0;
    while used < jokers + twos {
        let w = if used < jokers { 50 } else { 20 };
        used += 1;
        // A pair and the wild first (the pair's naturals count too), else
        // the wild onto a meld that takes it.
        if next_pair < n_pairs {
            value += pairs[next_pair] + w;
            melds[n_melds] = (2, 1);
            n_melds += 1;
            next_pair += 1;
        } else if let Some(m) = melds[..n_melds]
            .iter_mut()
            .find(|m| r.meld_ok(m.0, m.1 + 1) && m.0 + m.1 < 7)
        {
            m.1 += 1;
            value += w;
        } else {
            return None;
        }
        if value >= need {
            return Some(used);
        }
    }
    None
}

/// What ending the hand by going out now does to the match (C-12, C-24).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stakes {
    /// Its side would reach the target ahead of every other side.
    Wins,
    /// Another side would reach the target ahead of it.
    Loses,
    /// The match goes on (or too close to call).
    Open,
}

/// C-24: the match as it stands if player `out` (of the seat's side) went
/// out now: his hand's cards (`out_hand`, as the seat values them) leave
/// his side's minus and it gains 100 (C-10, C-23); each side's hand as
/// `estimate` values it (C-23); 100 off a side for each failed "yes" of
/// its players (`failed`, C-18).
pub(super) fn stakes(
    view: &ClassicView<'_>,
    out_hand: i32,
    failed: &[i32; 6],
    estimate: impl Fn(usize) -> i32,
) -> Stakes {
    let r = view.rules();
    let target = r.target;
    let me = r.side_of(view.seat());
    let side = |s: usize| {
        let lost: i32 = (0..r.players as usize)
            .filter(|&p| r.side_of(p) == s)
            .map(|p| 100 * failed[p])
            .sum();
        view.total(s) + estimate(s) - lost
    };
    let mine = side(me) + 100 + out_hand;
    let best = (0..r.sides())
        .filter(|&s| s != me)
        .map(side)
        .max()
        .unwrap_or(i32::MIN);
    if mine >= target && mine > best {
        Stakes::Wins
    } else if best >= target && best > mine {
        Stakes::Loses
    } else {
        Stakes::Open
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::classic::testing::cards;

    fn r(preset: &str) -> ClassicRules {
        ClassicRules::preset(preset).unwrap()
    }

    /// C-6, C-17: natural triples alone, a pair with a joker, two pairs
    /// with wilds, and a hand that cannot reach 120 with every wild.
    #[test]
    fn c6_fewest_wilds_to_the_minimum() {
        let r2 = r("classic-002");
        // Three aces 60 and three kings 30: 90 without a wild, 120 not.
        let h = cards("Ac Ad Ah Kc Kd Kh 5s 7d");
        assert_eq!(opening_wilds(&r2, h, 90), Some(0));
        assert_eq!(opening_wilds(&r2, h, 120), None);
        // A joker onto the aces: 140.
        let h = cards("Ac Ad Ah Kc Kd Kh 5s JK");
        assert_eq!(opening_wilds(&r2, h, 120), Some(1));
        // Jacks with a joker (70), eights with a 2 (40), sixes (15).
        let h = cards("6c 6d 6h 8d 8s Jc Js 2d JK 9c");
        assert_eq!(opening_wilds(&r2, h, 50), Some(1));
        assert_eq!(opening_wilds(&r2, h, 120), Some(2));
        // No natural pair or triple: nothing opens.
        assert_eq!(opening_wilds(&r2, cards("4c 5d 6h 2d JK"), 50), None);
        // A black three pair is not a meld (C-9).
        assert_eq!(opening_wilds(&r2, cards("3c 3s JK 4d"), 50), None);
    }
}
