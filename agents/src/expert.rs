//! What the expert play of `rules` reads of a position beyond the plain
//! play: the wilds an opponent can move into one group (D-11.2, D-11.3),
//! what a pile holds (D-6.2), and what the pile as it lies tells of the
//! opponent's hand (his discards, the tops he declined). Every reading
//! uses only what the seat's view shows.

use kanaszta_engine::{Card, CardSet, Group, SeatView, Table};

/// The wilds of `g` its owner can move out (D-11.2): a natural group keeps
/// at least three cards and more naturals than wilds, so three naturals or
/// more give up every wild and two give up none; a group of wilds only
/// that is not a canasta may be broken up (D-11.3). A canasta gives none
/// (a black one only in exchange for naturals, I-13; a wild one never,
/// I-22).
pub(crate) fn movable_wilds(g: &Group) -> u32 {
    if g.is_canasta() {
        0
    } else if g.is_wild_only() {
        g.len()
    } else if g.naturals() >= 3 {
        g.wilds()
    } else {
        0
    }
}

/// The longest group `table` can make this turn by moving wilds between
/// its groups (D-11.2), with `spare` more wilds from the hand: each
/// natural group takes at most three wilds and fewer than its naturals
/// (D-9.1); a group of wilds only takes the others' movable wilds. A
/// canasta counts its own length.
pub(crate) fn longest_with_moves(table: &Table, spare: u32) -> u32 {
    let total: u32 = table.groups().iter().map(movable_wilds).sum::<u32>() + spare;
    let mut best = 0;
    for g in table.groups() {
        let len = if g.is_canasta() {
            g.len()
        } else {
            let others = total - movable_wilds(g);
            if g.is_wild_only() {
                (g.len() + others).min(7)
            } else {
                // At most three wilds in seven cards, fewer than the
                // naturals; eight cards hold none (D-9.1).
                let room = 3u32
                    .min(g.naturals().saturating_sub(1))
                    .saturating_sub(g.wilds());
                (g.len() + others.min(room)).min(7)
            }
        };
        best = best.max(len);
    }
    best
}

/// Whether `cards` more cards let `table` make a canasta this turn by
/// moving wilds between its groups (D-11.2), with `spare` more wilds from
/// the hand ([`longest_with_moves`]): naturals of a group's rank, each of
/// which also lets the group hold one wild more (D-9.1: fewer wilds than
/// naturals, at most three), and wilds. Only cards among `unseen` can
/// come. A player on one card melds one card this turn before his
/// discard (D-13.1), on two cards two.
pub(crate) fn canasta_within(table: &Table, cards: u32, spare: u32, unseen: CardSet) -> bool {
    if table.has_canasta() {
        return false;
    }
    let wilds = unseen.wild_count().min(cards);
    let total: u32 = table.groups().iter().map(movable_wilds).sum::<u32>() + spare;
    table.groups().iter().any(|g| {
        let others = total - movable_wilds(g);
        if g.is_wild_only() {
            return g.len() + others + wilds >= 7;
        }
        let Some(r) = g.rank() else { return false };
        let naturals = unseen.rank_count(r).min(cards);
        (0..=naturals).any(|a| {
            let w = (cards - a).min(wilds);
            let room = 3u32
                .min((g.naturals() + a).saturating_sub(1))
                .saturating_sub(g.wilds());
            g.len() + a + (others + w).min(room) >= 7
        })
    })
}

/// How close a player with this table and `hand` cards, `wilds` of them
/// known wilds, is to going out, counting the wilds he can move into one
/// group: a canasta he can make this turn by moving wilds (D-11.2) is as
/// good as one on his table (D-13.1 needs one to go out).
pub(crate) fn threat_with_moves(table: &Table, hand: usize, wilds: u32) -> f64 {
    let longest = longest_with_moves(table, wilds);
    if table.has_canasta() || longest >= 7 {
        (1.1 - hand as f64 / 12.0).clamp(0.25, 1.0)
    } else {
        let near = match longest {
            6 => 0.3,
            5 => 0.15,
            _ => 0.08,
        };
        near + if hand <= 4 { 0.1 } else { 0.0 }
    }
}

/// The black threes in the pile: each one taken is 100 points against the
/// hand until it is thrown, one a turn (D-6.3, D-14).
pub(crate) fn pile_black_threes(view: &SeatView) -> u32 {
    view.pile().iter().filter(|c| c.is_black_three()).count() as u32
}

/// What the pile as it lies tells of the opponent's hand, as one bit a
/// rank: the naturals he discarded and the tops he declined in the last
/// `rounds` rounds. Read while the seat's own turn runs on the pile it
/// did not take (its top fresh from the opponent, D-7): the top is his
/// discard, the card under it the top he had and did not take, and so on
/// down, a round at a time. A top he declined, with his table opened and
/// the pile not frozen (D-6.3), is a rank of which he held no two in hand,
/// nor one and a wild (D-6.2).
pub(crate) fn opponent_reads(view: &SeatView, opp: usize, rounds: usize) -> (u32, u32) {
    let (mut discarded, mut declined) = (0u32, 0u32);
    if !view.pile_top_fresh() {
        return (0, 0);
    }
    let pile = view.pile();
    let opened = view.table(opp).opened;
    let bit = |c: Card| {
        c.rank()
            .filter(|_| c.is_natural())
            .map(|r| 1u32 << r as u32)
    };
    for k in 0..rounds {
        let Some(top) = pile.len().checked_sub(1 + 2 * k) else {
            break;
        };
        if let Some(b) = bit(pile[top]) {
            discarded |= b;
        }
        let Some(below) = top.checked_sub(1) else {
            break;
        };
        let c = pile[below];
        if opened && !c.is_black_three() {
            if let Some(b) = bit(c) {
                declined |= b;
            }
        }
    }
    (discarded, declined)
}
