//! The discard of `rules`: the card whose loss costs least, by its use
//! to the hand and the danger of feeding the opponent (`caution`, the
//! chance that he takes the pile with it, D-6.2, read with `track`), the
//! twin (D-7), black threes and wilds thrown to freeze the pile (D-6.3,
//! `freeze`, `wildfreeze`, `wildcap`).

use super::twins::twin_chance;
use super::worth::{risk, Outlook};
use super::{RulesAgent, RulesParams};
use crate::expert::opponent_reads;
use kanaszta_engine::{Action, Card, CardSet, SeatView, Table};

impl RulesAgent {
    /// The discard that costs least (see the module documentation).
    pub(super) fn discard(&self, view: &SeatView, legal: &[Action]) -> Option<Action> {
        self.discard_among(view, legal, &mut |_| true)
    }

    /// [`RulesAgent::discard`] among the discards of `cands` that
    /// `listed` passes (checked only where one would be the best so far).
    pub(super) fn discard_among(
        &self,
        view: &SeatView,
        cands: &[Action],
        listed: &mut dyn FnMut(Action) -> bool,
    ) -> Option<Action> {
        let o = Outlook::with(view, self.params.movable_on(), false, false);
        let hand = view.hand();
        // What every candidate's cost reads of the position, made once.
        let unseen = view.unseen();
        let opp_grouped = grouped_ranks(view.table(o.opp));
        let mut pile_worth = 0.0;
        for x in view.pile() {
            pile_worth += card_worth_to(opp_grouped, *x);
        }
        let (discarded, declined) = if self.params.track_on() {
            opponent_reads(view, o.opp, TRACK_ROUNDS)
        } else {
            (0, 0)
        };
        let mut seen = Seen {
            unseen,
            pile_worth,
            opp_grouped,
            discarded,
            declined,
            danger: [None; 13],
        };
        let mut best: Option<(f64, Action)> = None;
        for a in cands {
            let Action::Discard(c) = *a else { continue };
            let cost = self.discard_cost(view, &o, &mut seen, hand, c);
            if best.is_none_or(|(b, _)| cost < b) && listed(*a) {
                best = Some((cost, *a));
            }
        }
        best.map(|(_, a)| a)
    }

    fn discard_cost(
        &self,
        view: &SeatView,
        o: &Outlook,
        seen: &mut Seen,
        hand: CardSet,
        c: Card,
    ) -> f64 {
        let p = &self.params;
        let pile = view.pile().len() as f64;
        let mut cost = own_use(view, o, seen.unseen, hand, c, p);
        // D-7: identical to the opponent's fresh discard: a twin.
        if view.twin_card() == Some(c) {
            cost -= p.twin_in_force();
        }
        let guard = p.guard_in_force();
        if guard > 0.0 {
            cost += guard * 100.0 * twin_chance(view, o.opp, seen.unseen, c);
        }
        if c.is_black_three() {
            // Held as a safe discard while the pile is small, thrown to
            // freeze it once it is worth taking (D-6.3).
            if pile + 1.0 >= p.freeze as f64 {
                cost -= 60.0;
            }
            return cost;
        }
        if c.is_wild() {
            // Past `wildcap` wilds in the pile, freezing it once more only
            // delays its loss by a turn (D-6.3): no wild is thrown while a
            // natural can be.
            let wilds = view.pile().iter().filter(|x| x.is_wild()).count();
            let standoff = (0..view.players()).all(|q| !view.table(q).opened);
            if !p.wild_freeze_allowed(wilds, standoff) {
                return cost + WILD_CAP_CHARGE;
            }
            if pile + 1.0 >= p.wildfreeze as f64 {
                cost -= 3.0 * pile;
            }
            return cost;
        }
        // The danger reads only the card's rank: once a rank.
        let d = match c.rank().map(|r| (r as usize, seen.danger[r as usize])) {
            Some((_, Some(d))) => d,
            Some((r, None)) => {
                let d = danger(view, o, seen, c);
                seen.danger[r] = Some(d);
                d
            }
            None => danger(view, o, seen, c),
        };
        cost + p.caution * d
    }
}

/// What the discard costs read of the position, the same for every card:
/// the cards not seen ([`SeatView::unseen`]), the pile's worth to the
/// opponent ([`card_worth_to`] summed in pile order), the ranks of his
/// groups ([`grouped_ranks`]) and the danger of each rank found so far.
struct Seen {
    unseen: CardSet,
    pile_worth: f64,
    opp_grouped: u32,
    /// The ranks the opponent discarded and the tops he declined lately,
    /// one bit a rank ([`opponent_reads`]; none without `track`).
    discarded: u32,
    declined: u32,
    danger: [Option<f64>; 13],
}

/// Rounds of the pile read for the opponent's discards and declined tops
/// (`track`): older ones say little of the hand he holds now.
const TRACK_ROUNDS: usize = 2;

/// What is left of the chance that the opponent takes the pile with a
/// rank whose top he declined lately (he held no pair of it, nor one and a
/// wild, D-6.2: only the cards drawn since can give him one), and with a
/// rank he discarded lately (a pair is rarely broken).
const DECLINED_SHARE: f64 = 0.5;
const DISCARDED_SHARE: f64 = 0.8;

/// How much the seat loses by giving up `c`: its use for the hand.
fn own_use(
    view: &SeatView,
    o: &Outlook,
    unseen: CardSet,
    hand: CardSet,
    c: Card,
    p: &RulesParams,
) -> f64 {
    let risk = risk(o);
    if c.is_black_three() {
        // Thrown at once when the opponent may go out soon (−100 in hand).
        return 20.0 - 140.0 * o.threat;
    }
    if c.is_wild() {
        return 150.0 + p.wild + c.points() as f64 * (1.0 - risk);
    }
    // A hand left with one card and no canasta can never lay the ♥A
    // apart: laying it would leave nothing to discard (D-13.2). Under the
    // heart fix it is then an ace like any other.
    let lone = p.hearts_on() && hand.len() == 2 && !view.table(o.me).has_canasta();
    if c.is_heart_ace() && view.rules().heart_aces() && !lone {
        return 1_000.0;
    }
    let Some(r) = c.rank() else { return 0.0 };
    let table = view.table(o.me);
    let n = hand.rank_count(r) as f64;
    let mut v = 0.0;
    if let Some(gi) = table.group_of_rank(r) {
        let g = table.groups()[gi];
        // It extends a group (a gold canasta needs the eighth natural).
        v += if g.len() >= 8 { -10.0 } else { 60.0 };
    }
    if n >= 2.0 {
        v += 40.0 + p.pair + 15.0 * (n - 2.0);
    }
    // Live copies: a rank whose other copies are all in sight is dead.
    let live = unseen.rank_count(r) as f64;
    v += 2.0 * live.min(4.0);
    // Loose cards in hand cost their points if the opponent goes out.
    v - risk * c.points() as f64
}

/// The danger of discarding the natural `c`: the chance the opponent can
/// take the pile with it on top (D-6.2: two naturals of the rank, or one and
/// a wild, in his hand) times what the pile is worth to him, plus a charge
/// for feeding his groups.
fn danger(view: &SeatView, o: &Outlook, seen: &Seen, c: Card) -> f64 {
    let Some(r) = c.rank() else { return 0.0 };
    let opp = o.opp;
    let known = view.known(opp);
    let unseen = seen.unseen;
    let total = unseen.len().max(1) as f64;
    let unknown = view.hand_size(opp).saturating_sub(known.len() as usize);
    let pr = unseen.rank_count(r) as f64 / total;
    let pw = unseen.wild_count() as f64 / total;
    let kr = known.rank_count(r).min(2) as usize;
    let kw = known.wild_count().min(1) as usize;
    let mut p_take = take_probability(kr, kw, unknown, pr, pw);
    // What the pile as it lies tells (`track`): a top declined, a card
    // discarded. His known cards are as sure as ever.
    let bit = 1u32 << r as u32;
    if kr < 2 && kr + kw < 2 {
        if seen.declined & bit != 0 {
            p_take *= DECLINED_SHARE;
        } else if seen.discarded & bit != 0 {
            p_take *= DISCARDED_SHARE;
        }
    }
    let pile_worth = seen.pile_worth + card_worth_to(seen.opp_grouped, c);
    let mut d = p_take * (40.0 + pile_worth).max(0.0);
    if let Some(gi) = view.table(opp).group_of_rank(r) {
        let g = view.table(opp).groups()[gi];
        // One card from a canasta (300), or from a red or gold one.
        d += match g.len() {
            6 => 70.0,
            7 => 50.0,
            5 => 25.0,
            8.. => 0.0,
            _ => 10.0,
        };
    }
    d
}

/// The ranks that have a group on `table`, one bit a rank.
pub(super) fn grouped_ranks(table: &Table) -> u32 {
    let mut grouped = 0;
    for g in table.groups() {
        if let Some(r) = g.rank() {
            grouped |= 1 << r as u32;
        }
    }
    grouped
}

/// What the pile as it lies is worth to seat `opp`, card by card
/// ([`card_worth_to`]), were he to take it (D-6.2).
pub(super) fn pile_worth_to(view: &SeatView, opp: usize) -> f64 {
    let grouped = grouped_ranks(view.table(opp));
    view.pile()
        .iter()
        .map(|c| card_worth_to(grouped, *c))
        .sum::<f64>()
        .max(0.0)
}

/// A rough worth of one pile card to the player with groups of the ranks
/// `grouped` ([`grouped_ranks`]).
pub(super) fn card_worth_to(grouped: u32, c: Card) -> f64 {
    if c.is_black_three() {
        return -40.0;
    }
    if c.is_wild() {
        return 40.0 + c.points() as f64;
    }
    let mut v = 8.0 + c.points() as f64;
    if c.rank().is_some_and(|r| grouped & (1 << r as u32) != 0) {
        v += 15.0;
    }
    v
}

/// Probability that a hand holding `kr` known naturals of the rank (0–2)
/// and `kw` known wilds (0–1), plus `unknown` cards each a natural of the
/// rank with probability `pr` and a wild with `pw`, holds two naturals or a
/// natural and a wild.
pub(super) fn take_probability(kr: usize, kw: usize, unknown: usize, pr: f64, pw: f64) -> f64 {
    // States: naturals 0..=2 × wilds 0..=1.
    let mut p = [[0.0f64; 2]; 3];
    p[kr][kw] = 1.0;
    let po = (1.0 - pr - pw).max(0.0);
    for _ in 0..unknown {
        let mut q = [[0.0f64; 2]; 3];
        for n in 0..3 {
            for w in 0..2 {
                let x = p[n][w];
                if x == 0.0 {
                    continue;
                }
                q[n][w] += x * po;
                q[(n + 1).min(2)][w] += x * pr;
                q[n][1] += x * pw;
            }
        }
        p = q;
    }
    p[2][0] + p[2][1] + p[1][1]
}

/// What a wild discard costs more once the pile holds `wildcap` wilds.
const WILD_CAP_CHARGE: f64 = 1000.0;
