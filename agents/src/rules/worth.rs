//! The evaluation of `rules`: how close the opponent is to going out
//! (the outlook, its threat and the risk it puts on the cards in hand),
//! and what a position is worth to the seat (D-14: the table's points,
//! groups close to a canasta, pairs and wilds in hand, the opening under
//! way, the hand at risk), less the charge for a dead lock (I-32,
//! `dead`).

use super::RulesAgent;
use crate::eval::{card_points, rank_counts, table_value};
use crate::expert::{canasta_within, threat_with_moves};
use kanaszta_engine::{never_goes_out, Card, CardSet, GameState, Phase, Rank, SeatView, Table};

/// What the position around one seat looks like to it: who the opponent is
/// and how close he is to going out.
#[derive(Clone, Copy, Debug)]
pub(super) struct Outlook {
    pub(super) me: usize,
    pub(super) opp: usize,
    /// 0..1: how likely the opponent is to go out soon (cards left in hand
    /// then count against us).
    pub(super) threat: f64,
    /// Whether an opponent is on two cards or fewer (`close`).
    pub(super) close: bool,
    /// Whether an opponent on two cards or fewer may make his canasta
    /// this turn (`near`, `thin`).
    pub(super) near: bool,
    /// The pile's cards as the decision found it (before a pickup), which
    /// a pair in hand may take next turn with the two discards to come
    /// (`thin`).
    pub(super) pile: usize,
    /// The chance that an opponent on one card goes out on his next turn
    /// (`lone`; 0 when none may, or when not read): one of his two cards
    /// then, the one he holds and the one he draws, makes his canasta.
    pub(super) out_next: f64,
    /// The cards the seat has not seen, which his next discard is one of
    /// (`lone`).
    pub(super) unseen: CardSet,
}

impl Outlook {
    /// The outlook of the plain play.
    #[cfg(test)]
    pub(super) fn of(view: &SeatView) -> Outlook {
        Outlook::with(view, false, false, false)
    }

    /// The outlook, with the wilds each opponent can move into one group
    /// counted (`movable`, [`threat_with_moves`]) or not, and, with `near`,
    /// whether an opponent on two cards or fewer may make his canasta this
    /// turn with his hand's cards ([`canasta_within`]), and, with `lone`,
    /// how likely one on one card is to go out on his next turn.
    pub(super) fn with(view: &SeatView, movable: bool, near: bool, lone: bool) -> Outlook {
        let me = view.seat();
        let n = view.players();
        // The player after us takes our discard (D-2.1).
        let opp = (me + 1) % n;
        let mut threat: f64 = 0.0;
        for p in (0..n).filter(|p| *p != me) {
            let t = if movable {
                threat_with_moves(view.table(p), view.hand_size(p), view.known(p).wild_count())
            } else {
                threat_of(view.table(p), view.hand_size(p))
            };
            threat = threat.max(t);
        }
        // An opponent on two cards or fewer whose hand's cards may make
        // his canasta this turn is near (`near`).
        let near = near && {
            let unseen = view.unseen();
            (0..n).filter(|p| *p != me).any(|p| {
                let held = view.hand_size(p) as u32;
                held <= 2 && canasta_within(view.table(p), held, view.known(p).wild_count(), unseen)
            })
        };
        // An opponent on two cards or fewer is close (`close`), unless
        // none of them can ever go out (I-32): one card each, and no group
        // any card outside the tables brings to a canasta.
        let others = || (0..n).filter(move |p| *p != me);
        let close = others().any(|p| view.hand_size(p) <= 2) && {
            let mut on = view.pending_wilds();
            for p in 0..n {
                on = on.checked_add(view.table(p).cards()).unwrap_or(on);
            }
            let out = CardSet::FULL_PACK.checked_sub(on).unwrap_or(CardSet::EMPTY);
            !others()
                .all(|p| view.hand_size(p) == 1 && never_goes_out(view.table(p), out, view.rules()))
        };
        let unseen = view.unseen();
        let out_next = if lone {
            (0..n)
                .filter(|p| *p != me && view.hand_size(*p) == 1)
                .map(|p| out_next(view.table(p), view.known(p).wild_count(), unseen))
                .fold(0.0, f64::max)
        } else {
            0.0
        };
        Outlook {
            me,
            opp,
            threat,
            close,
            near,
            pile: view.pile().len(),
            out_next,
            unseen,
        }
    }
}

/// The chance that a player on one card with this table, `spare` of his
/// cards known wilds, goes out on his next turn: he holds one card and
/// draws one, and either may be one of the unseen cards that alone make
/// his canasta this turn ([`canasta_within`], D-13.1), whatever he knows.
fn out_next(table: &Table, spare: u32, unseen: CardSet) -> f64 {
    let all = unseen.len();
    if all == 0 {
        return 0.0;
    }
    let mut makes = 0;
    for c in unseen.kinds() {
        let mut one = CardSet::EMPTY;
        one.insert(c);
        if canasta_within(table, 1, spare, one) {
            makes += unseen.count(c);
        }
    }
    let miss = 1.0 - makes as f64 / all as f64;
    1.0 - miss * miss
}

/// The chance that the pile comes to a hand holding pairs of ranks with
/// `feed` of the `all` unseen cards before an opponent on one card, who
/// goes out on his next turn with chance `out`, goes out (`lone`): each
/// round he goes out first, or throws a card the seat has not seen, one
/// of those ranks (the top a pair takes, D-6.2) as often as the unseen
/// cards hold them.
fn pile_first(feed: u32, all: u32, out: f64) -> f64 {
    if out <= 0.0 {
        return 1.0;
    }
    let fed = if all == 0 {
        0.0
    } else {
        feed as f64 / all as f64
    };
    let took = (1.0 - out) * fed;
    took / (took + out)
}

/// How close a player with this table and hand size is to going out.
fn threat_of(table: &Table, hand: usize) -> f64 {
    if table.has_canasta() {
        (1.1 - hand as f64 / 12.0).clamp(0.25, 1.0)
    } else {
        let best = table.groups().iter().map(|g| g.len()).max().unwrap_or(0);
        let near = if best >= 6 {
            0.25
        } else if best >= 5 {
            0.15
        } else {
            0.08
        };
        near + if hand <= 4 { 0.1 } else { 0.0 }
    }
}

/// The least share of the hand's points counted against it, however far
/// the opponent is from going out.
const BASE_RISK: f64 = 0.1;

/// The share of the hand's points counted against it.
pub(super) fn risk(o: &Outlook) -> f64 {
    BASE_RISK + (1.0 - BASE_RISK) * o.threat
}

/// Canasta promise of a group that is not yet one (D-10): a six-card group
/// is one card from a canasta.
fn group_promise(len: u32) -> f64 {
    match len {
        4 => 15.0,
        5 => 45.0,
        6 => 110.0,
        _ => 0.0,
    }
}

impl RulesAgent {
    /// What seat `o.me`'s position in `s` is worth to it: table points now
    /// (D-14), canastas to come, pairs and wilds in hand, minus the hand at
    /// the risk of being caught with it.
    pub(super) fn worth(&self, s: &GameState, o: &Outlook) -> f64 {
        let me = o.me;
        if s.is_terminal() {
            let sc = s.scores();
            let best_other = (0..s.players())
                .filter(|p| *p != me)
                .map(|p| sc[p].total)
                .max()
                .unwrap_or(0);
            return (sc[me].total - best_other) as f64 + 10_000.0;
        }
        let table = s.table(me);
        let hand = s.hand(me);
        let mut v = table_value(table, s.rules()) as f64;
        // The ranks that have a group on the table, one bit a rank.
        let mut grouped = 0u32;
        for g in table.groups() {
            if let Some(r) = g.rank() {
                grouped |= 1 << r as u32;
            }
            if g.is_canasta() {
                // A black canasta with room to turn red or gold.
                if g.is_black_canasta() {
                    if let Some(r) = g.rank() {
                        v += 8.0 * hand.rank_count(r) as f64;
                    }
                }
                continue;
            }
            // The planner's extra weight (`plan_chase`) is for groups close
            // to a canasta (D-10: seven cards): a group of four or fewer
            // with a wild in it is three away, and the wild would be worth
            // more kept in hand.
            let chase = if g.len() < 5 && g.wilds() > 0 {
                self.params.chase
            } else {
                self.params.chase_in_force()
            };
            let mut p = chase * group_promise(g.len());
            if g.wilds() == 0 && !g.is_wild_only() {
                // Clean groups may still be red or gold.
                p *= 1.25;
            }
            v += p;
        }
        // Pairs and wilds in hand pay off in later turns, which a close
        // opponent may not leave us; one on two cards or fewer is counted
        // at least `close` near.
        let mut threat = o.threat;
        if o.close {
            threat = threat.max(self.params.close_in_force());
        }
        // One who may make his canasta this turn, at least `near`.
        if o.near {
            threat = threat.max(self.params.near_in_force());
        }
        let later = 1.0 - threat;
        // A pair takes the pile (D-6.2): against an opponent who may make
        // his canasta this turn it is worth as much as the pile it may take next turn is big, the one
        // the decision found with this turn's discard and his on it
        // (`thin`).
        let pair = later * self.params.pair * self.params.pair_share(o.pile + 2, o.near);
        let counts = rank_counts(hand);
        let (mut pairs, mut feed) = (0u32, 0u32);
        for r in Rank::NATURALS {
            let n = (counts >> (4 * r as u32)) & 0xF;
            if n >= 2 && grouped & (1 << r as u32) == 0 {
                pairs += 1;
                feed += o.unseen.rank_count(r);
            }
        }
        // Against an opponent on one card the pairs are worth it only as
        // far as the pile comes to one of them before he goes out
        // (`lone`): a triplet is laid rather than kept for a pile he will
        // not feed.
        let each = pair * pile_first(feed, o.unseen.len(), o.out_next);
        for _ in 0..pairs {
            v += each;
        }
        // A wild's worth grows with its points, so a joker is not spent on a
        // small group just because it scores 50 there.
        let wilds = hand.wilds();
        v += later * (self.params.wild * wilds.len() as f64 + 0.5 * card_points(wilds) as f64);
        v -= (BASE_RISK + (1.0 - BASE_RISK) * threat) * card_points(hand) as f64;
        if let Some(t) = self.twin_card(s, me) {
            if hand.contains(t) {
                v += self.params.keep_in_force();
            }
        }
        if !table.opened {
            // The opening (D-8) is laid over several steps; each one towards
            // the minimum earns its share of what opening brings: the
            // opening itself, and a ♥A in hand that may then be laid (500).
            let min = s.opening_minimum(me).max(1);
            let part = table.opening_value().min(min) as f64 / min as f64;
            let hearts = if s.rules().heart_aces() {
                hand.count(Card::HEART_ACE) as f64
            } else {
                0.0
            };
            let standoff = (0..s.players()).all(|p| !s.table(p).opened);
            v += part * (self.params.open_in_force(s.pile().len(), standoff) + 400.0 * hearts);
        }
        v - self.lock_charge(s, me)
    }

    /// The dead-lock charge (`dead`) when the seat, melding in `s`, would
    /// keep one card after its discard that could never go out whatever
    /// comes (I-32, [`never_goes_out`]): it could never meld again, take
    /// the pile or go out, and the opponent would have all the time he
    /// wants. A lock that some card outside the tables can still open (a
    /// six-card group, a wild that can still move to help) is not charged.
    fn lock_charge(&self, s: &GameState, me: usize) -> f64 {
        let dead = self.params.dead_charge();
        if dead == 0.0
            || s.phase() != Phase::Meld
            || s.current_player() != me
            || s.hand(me).len() != 2
            || !s.pending_wilds().is_empty()
            || s.pickup().is_some_and(|p| !p.rest_taken)
        {
            return 0.0;
        }
        if never_goes_out(s.table(me), outside(s), s.rules()) {
            dead
        } else {
            0.0
        }
    }
}

/// The cards outside every table of `s` (the stock, the pile, every hand;
/// wilds taken out of a group and not yet placed are on the mover's
/// table), as the dead lock (I-32) reads them.
pub(super) fn outside(s: &GameState) -> CardSet {
    let mut on = s.pending_wilds();
    for p in 0..s.players() {
        on = on.checked_add(s.table(p).cards()).unwrap_or(on);
    }
    CardSet::FULL_PACK.checked_sub(on).unwrap_or(CardSet::EMPTY)
}
