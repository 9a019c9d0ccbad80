//! `greedy`: maximizes immediate points.
//!
//! - Cut: keeps cut cards that are wild, red threes, or match a rank in hand.
//! - Draw: takes the pile when it holds at least `pile` cards and the
//!   engine allows it (D-6.2), once it has opened, or before (`open_pickup`)
//!   when the pile's top card and its hand make the opening (D-6.2.1);
//!   takes the free pickup (D-6.1) when the card is wild or matches its
//!   hand or table, otherwise draws.
//! - Meld: during a pickup it takes the rest as soon as it may; then plays the
//!   meld action that raises its table's value (card values, canasta
//!   bonuses, heart aces, red threes) the most, as long as one raises it.
//!   Before opening it melds only when its hand can reach the opening
//!   minimum (D-8.2). It goes out whenever melding leaves one card to discard.
//!   It never makes a step after which, keeping one card, it could never
//!   go out (`avoid_dead`: I-32's dead lock, or a table whose movable wilds
//!   cannot help, [`kanaszta_engine::never_goes_out`]).
//! - Discard: the card least useful to itself ([`crate::eval::keep_value`]),
//!   but never the one natural beside two wilds or more, without a canasta
//!   (`wilds_alone`): wilds alone can never take the pile (D-6.2).

use crate::agent_params;
use crate::eval::{
    best_opening, group_value, is_meld, keep_value_in, least_useful_discard, opened_before,
    opening_settled, pickup_opens, table_ranks, table_value_change,
};
use crate::spec::{range, switch, Params};
use crate::{Agent, Moves, TurnFinisher};
use kanaszta_engine::{Action, Card, CardSet, Phase, SeatView, Table};
use rand_pcg::Pcg64Mcg;

agent_params! {
    /// Parameters of [`GreedyAgent`].
    pub struct GreedyParams for GreedyAgent {
        name: "greedy",
        summary: "maximizes immediate points: melds whatever scores now, takes the pile when it pays, goes out when it can, discards its least useful card",
        /// Smallest pile it takes (D-6.2).
        pile: u32 = 3, range(1, 112), "1..112", "smallest pile it takes when the engine allows";
        /// Meld actions in one turn before it ends the turn by the shortest way.
        patience: u32 = 60, range(1, 10_000), "1..10000", "meld actions in a turn before it ends the turn by the shortest way";
        /// Takes the pile before opening when the top card and the hand make
        /// the opening (D-6.2.1).
        open_pickup: bool = true, switch, "on|off", "takes the pile before opening when its top card and the hand make the opening (D-6.2.1)";
        /// Never melds down to one card that could never go out (I-32).
        avoid_dead: bool = true, switch, "on|off", "never melds down to one card that could never go out (I-32)";
        /// Never keeps a hand of two wilds or more and nothing else without
        /// a canasta: such a hand cannot take the pile (D-6.2: a natural
        /// of the top card's rank is needed) nor meld without going out,
        /// so it throws a wild and keeps the natural instead.
        wilds_alone: bool = true, switch, "on|off", "off: may keep a hand of wilds only (two or more, no canasta), which can never take the pile (D-6.2)";
        /// Where the finisher's usual search finds no way to end the
        /// turn, walks it ([`crate::walk_to_discard`]) instead of
        /// searching deeper.
        walk: bool = false, switch, "on|off", "on: where the usual search (5,000 states) finds no way to end a turn, walks it by listed steps (I-9) instead of searching 200,000 and 2,000,000 states";
    }
}

/// The greedy player (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct GreedyAgent {
    params: GreedyParams,
    finisher: TurnFinisher,
    /// Scored meld steps of [`GreedyAgent::meld`] (a reused buffer).
    scored: Vec<(i32, i32, usize, Action)>,
}

impl GreedyAgent {
    /// A greedy agent with these parameters.
    pub fn new(params: GreedyParams) -> GreedyAgent {
        GreedyAgent {
            params,
            finisher: TurnFinisher::default(),
            scored: Vec::new(),
        }
    }
}

/// The cut cards worth keeping: wild, red threes, or of a rank in hand.
pub fn greedy_keep_mask(view: &SeatView) -> u8 {
    let hand = view.hand();
    let mut mask = 0;
    for (i, c) in view.cut_cards().iter().enumerate() {
        let useful = c.is_wild()
            || c.is_red_three()
            || c.is_heart_ace()
            || (c.is_natural() && c.rank().is_some_and(|r| hand.rank_count(r) >= 1));
        if useful && !c.is_black_three() {
            mask |= 1 << i;
        }
    }
    mask
}

/// Whether a card is worth taking for free: wild, or it matches a rank in
/// hand or on the table.
pub fn wanted(view: &SeatView, card: kanaszta_engine::Card) -> bool {
    if card.is_wild() {
        return true;
    }
    let me = view.seat();
    card.rank().is_some_and(|r| {
        card.is_natural()
            && !card.is_black_three()
            && (view.hand().rank_count(r) >= 1 || view.table(me).group_of_rank(r).is_some())
    })
}

impl Agent for GreedyAgent {
    fn name(&self) -> String {
        GreedyParams::NAME.into()
    }

    fn restart(&mut self) {
        self.finisher.reset();
    }

    fn act(&mut self, view: &SeatView, moves: &mut Moves, rng: &mut Pcg64Mcg) -> Action {
        self.finisher.walk = self.params.walk;
        if view.phase() == Phase::Meld {
            return self.meld(view, moves, rng);
        }
        let legal = moves.all();
        if legal.len() == 1 {
            return legal[0];
        }
        let steps = self.finisher.step(view);
        if self.finisher.finishing || steps > self.params.patience {
            if let Some(a) = self.finisher.next_or_reset(view, legal, rng) {
                return a;
            }
            // No plan even from the start of the meld phase: a random step
            // breaks any cycle of greedy choices.
            return crate::random::random_choice(legal, 0.5, rng);
        }
        match view.phase() {
            Phase::Cut => Action::KeepCut {
                mask: greedy_keep_mask(view),
            },
            Phase::FirstDiscard => least_useful_discard(view, legal).unwrap_or(legal[0]),
            Phase::Draw => {
                // Before the opening, a pickup must make the whole opening
                // with the top card (D-6.2.1): taken when the hand and the
                // top card do.
                if legal.contains(&Action::TakePile)
                    && view.pile().len() as u32 >= self.params.pile
                    && (opened_before(view, view.seat())
                        || (self.params.open_pickup && pickup_opens(view)))
                {
                    return Action::TakePile;
                }
                if legal.contains(&Action::FreePickup)
                    && view.pile_top().is_some_and(|c| wanted(view, c))
                {
                    return Action::FreePickup;
                }
                if legal.contains(&Action::Draw) {
                    Action::Draw
                } else {
                    legal[0]
                }
            }
            Phase::Meld | Phase::Over => legal[0],
        }
    }
}

impl GreedyAgent {
    /// The meld phase of [`GreedyAgent::act`]: the meld steps are scored,
    /// and checked best first until one is listed, so that most steps are
    /// never checked (the listing checks every one). The best listed step
    /// (ties: fewer wilds, then the first listed) is the one chosen; a
    /// single listed action is played, the finisher's plan checked step by
    /// step; only the last resorts read the whole listing.
    fn meld(&mut self, view: &SeatView, moves: &mut Moves, rng: &mut Pcg64Mcg) -> Action {
        if let Some(a) = moves.only_listed() {
            self.finisher.step(view);
            return a;
        }
        let steps = self.finisher.step(view);
        if self.finisher.finishing || steps > self.params.patience {
            let plan = self
                .finisher
                .next_or_reset_with(view, &mut |a| moves.lists(a), rng);
            return plan.unwrap_or_else(|| crate::random::random_choice(moves.all(), 0.5, rng));
        }
        // The rest of the pile is a candidate only during a pickup, before
        // it is taken (D-6.2): the moves are searched for it only then.
        let before_rest = view.pickup().is_some_and(|k| !k.rest_taken);
        if before_rest
            && moves.steps().contains(&Action::TakeRest)
            && moves.is_listed(Action::TakeRest)
        {
            return Action::TakeRest;
        }
        if may_meld(view) {
            if let Some(a) = self.best_unlisted_step(view, moves) {
                return a;
            }
        }
        let (hand, ranks) = (view.hand(), table_ranks(view.table(view.seat())));
        let table = view.table(view.seat());
        // The least useful listed discard, the first of equals.
        let mut best: Option<(i32, Action)> = None;
        for &a in moves.ends() {
            if let Action::Discard(c) = a {
                let mut v = keep_value_in(c, hand, ranks);
                if self.params.wilds_alone && leaves_wilds_alone(hand, c, table) {
                    v += WILDS_ALONE;
                }
                if best.is_none_or(|(b, _)| v < b) && moves.is_listed(a) {
                    best = Some((v, a));
                }
            }
        }
        if let Some((_, d)) = best {
            return d;
        }
        // As `meld`: the engine's way to end the turn, else the first
        // listed action that is not the reset.
        let plan = self
            .finisher
            .next_or_reset_with(view, &mut |a| moves.lists(a), rng);
        plan.unwrap_or_else(|| {
            let all = moves.all();
            all.iter()
                .copied()
                .find(|a| *a != Action::Reset)
                .unwrap_or(all[0])
        })
    }
}

/// Whether the greedy player melds at all this meld phase: with a wild
/// pending, during a pickup, once opened, after a lay this turn, or when
/// its hand can reach the opening minimum (D-8.2).
fn may_meld(view: &SeatView) -> bool {
    let me = view.seat();
    !view.pending_wilds().is_empty()
        || view.pickup().is_some()
        || opened_before(view, me)
        || !view.table(me).groups().is_empty()
        || {
            let need = view.opening_minimum(me);
            let hand = view.hand();
            let settled = if need > 0 {
                opening_settled(hand, need)
            } else {
                None
            };
            settled.unwrap_or_else(|| best_opening(hand) >= need)
        }
}

/// What keeping a hand of wilds alone costs a discard (`wilds_alone`):
/// more than any wild is worth keeping ([`keep_value_in`]).
const WILDS_ALONE: i32 = 2_000;

/// Whether discarding `c` from `hand` leaves two wilds or more and no
/// other card, with no canasta on `table`: a hand that can never take the
/// pile (D-6.2 needs a natural of the top card's rank) and that can meld
/// only by going out (D-13.1), which needs a canasta first.
fn leaves_wilds_alone(hand: CardSet, c: Card, table: &Table) -> bool {
    let left = hand.len() - 1;
    !c.is_wild() && left >= 2 && hand.wild_count() == left && !table.has_canasta()
}

/// Whether the greedy player weighs the action: a meld step, but no wild
/// moved with none pending (wilds are moved only to place a pending one).
fn considered(a: Action, pending: bool) -> bool {
    is_meld(&a) && (pending || !matches!(a, Action::TakeWild { .. }))
}

/// Whether the step `a`, with nothing pending and `hand` cards in hand,
/// leaves two cards, so that after the discard the seat keeps one card
/// with which it could never go out (I-32; [`SeatView::never_goes_out_with`]).
/// Steps that take a wild out (and leave it pending) are judged where the
/// wild is placed.
fn dead_end(view: &SeatView, candidates: &mut Moves, a: Action, hand: u32) -> bool {
    let from_hand = match a {
        Action::Lay { cards } if view.pending_wilds().is_empty() => cards.len(),
        Action::Extend { card, .. } if !view.pending_wilds().contains(card) => 1,
        Action::LayHeartAce => 1,
        _ => return false,
    };
    hand == from_hand + 2
        && candidates
            .read_table_after(a, |t| view.never_goes_out_with(t))
            .unwrap_or(false)
}

/// Wilds a step spends from the hand: its second key (fewer first).
fn wilds_spent(a: Action) -> i32 {
    match a {
        Action::Lay { cards } => cards.wild_count() as i32,
        Action::Extend { card, .. } if card.is_wild() => 1,
        _ => 0,
    }
}

impl GreedyAgent {
    /// The step [`GreedyAgent::meld`] picks among the listed ones, found
    /// from the candidates: all scored on the tables they lead to, then
    /// checked best first (the first listed of equals first) down to the
    /// first listed, while one would be played (a gain, or a wild
    /// pending).
    fn best_unlisted_step(&mut self, view: &SeatView, candidates: &mut Moves) -> Option<Action> {
        let pending = !view.pending_wilds().is_empty();
        let rules = view.rules();
        let before = view.table(view.seat());
        let hand = view.hand().len();
        self.scored.clear();
        for (i, &a) in candidates.steps().iter().enumerate() {
            // A step surely not listed is never the one checked listed.
            if !considered(a, pending) || candidates.surely_unlisted(a) {
                continue;
            }
            // An extend from the hand changes one group only: its gain is
            // that group's change in value (as `table_value_change` finds).
            let gain = match candidates.extend_from_hand(a) {
                Some(change) => change.map(|(from, to)| group_value(&to) - group_value(&from)),
                None => candidates.read_table_after(a, |t| table_value_change(before, t, rules)),
            };
            if let Some(gain) = gain {
                if (gain > 0 || pending)
                    && !(self.params.avoid_dead && dead_end(view, candidates, a, hand))
                {
                    self.scored.push((gain, -wilds_spent(a), i, a));
                }
            }
        }
        // Best key first; among equal keys, the first candidate. The best
        // is nearly always listed, so the scored steps are not sorted: the
        // best left is taken out until one is listed.
        let order = |x: &(i32, i32, usize, Action)| (x.0, x.1, std::cmp::Reverse(x.2));
        while let Some(best) = (0..self.scored.len()).max_by_key(|&k| order(&self.scored[k])) {
            let a = self.scored.swap_remove(best).3;
            if candidates.is_listed(a) {
                return Some(a);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Agent;
    use kanaszta_engine::{GameState, MoveBuf, Position, Rules};
    use rand::SeedableRng;

    /// Plays greedy hands (both seats `params`) and counts the meld steps
    /// greedy chose that leave two cards, nothing pending and no rest of
    /// the pile to take, and a table with which one card could never go
    /// out (I-32), and all such two-card steps.
    fn dead_ends_chosen(params: &GreedyParams, seeds: std::ops::Range<u64>) -> (u32, u32) {
        let (mut dead, mut two) = (0, 0);
        let mut legal = Vec::new();
        for seed in seeds {
            let mut g = GameState::new(Rules::default(), seed);
            let mut agents = [
                GreedyAgent::new(params.clone()),
                GreedyAgent::new(params.clone()),
            ];
            let mut rngs = [crate::seat_rng(seed, 0), crate::seat_rng(seed, 1)];
            while !g.is_terminal() {
                let p = g.current_player();
                g.legal_actions(&mut legal);
                let a = agents[p].act(&g.view(p), &mut g.moves(&mut MoveBuf::new()), &mut rngs[p]);
                let mut after = g.clone();
                after.apply(a).unwrap();
                if g.phase() == Phase::Meld
                    && is_meld(&a)
                    && after.hand(p).len() == 2
                    && after.pending_wilds().is_empty()
                    && after.pickup().is_none_or(|k| k.rest_taken)
                {
                    two += 1;
                    dead += after.view(p).never_goes_out_with(after.table(p)) as u32;
                }
                g = after;
            }
        }
        (dead, two)
    }

    /// I-32: greedy never melds itself down to a card that could never go
    /// out; with `avoid_dead=off` (the greedy of old) it does so often.
    #[test]
    fn greedy_never_melds_into_a_dead_end() {
        let (dead, two) = dead_ends_chosen(&GreedyParams::default(), 0..150);
        assert!(dead == 0 && two > 50, "{dead} of {two} two-card steps dead");
        let old = GreedyParams {
            avoid_dead: false,
            ..GreedyParams::default()
        };
        let (dead, two) = dead_ends_chosen(&old, 0..150);
        assert!(
            dead > 20,
            "avoid_dead=off: {dead} of {two} two-card steps dead"
        );
    }

    /// D-6.2.1: before opening, greedy takes a pile whose top card and its
    /// hand make the opening (kings and aces: 90 for 50); with
    /// `open_pickup=off` it draws, and so where they do not (the engine
    /// does not list the pickup then).
    #[test]
    fn greedy_opens_by_taking_the_pile() {
        let position = |hand: &str| {
            let text = format!(
                r#"{{"phase": "draw", "current": 0, "turns": 6, "pile": "4C 9D KH",
                    "players": [{{"hand": "{hand}"}}, {{"hand": "5D 5H 6C 6H 7C 7D 8C 8D 9H 9S TC TD JC"}}]}}"#
            );
            Position::from_json(&text).unwrap().to_state().unwrap()
        };
        let opens = position("KC KD AC AD AS 4D 4H 4S 5C 6D 7H 8S 9C TH");
        let short = position("KC KD 5C 6D 7H 8S 9C TH JD QS QH 4D 4H 4S");
        let mut legal = Vec::new();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
        let mut choice = |g: &GameState, params: GreedyParams| {
            g.legal_actions(&mut legal);
            GreedyAgent::new(params).act(&g.view(0), &mut g.moves(&mut MoveBuf::new()), &mut rng)
        };
        assert_eq!(choice(&opens, GreedyParams::default()), Action::TakePile);
        let off = GreedyParams {
            open_pickup: false,
            ..GreedyParams::default()
        };
        assert_eq!(choice(&opens, off), Action::Draw);
        assert_eq!(choice(&short, GreedyParams::default()), Action::Draw);
    }

    /// A hand of wilds alone (`wilds_alone`; replay `--a greedy --b greedy
    /// --seed 2026 --game 1418`, where both players held two jokers to the
    /// turn cap, I-5): with two jokers and a seven, no canasta and no step
    /// that keeps a way out (I-32), it throws a joker and keeps the seven,
    /// with which and the other joker it can take the pile (D-6.2); with
    /// `wilds_alone=off` it throws the seven and keeps the two jokers,
    /// which can do neither. With a canasta on its table (it may go out by
    /// melding them, D-13.1) it keeps them.
    #[test]
    fn greedy_keeps_no_hand_of_wilds_alone() {
        let discard = |groups: &str, params: GreedyParams| {
            let text = format!(
                r#"{{"phase": "meld", "current": 0, "turns": 40, "pile": "4C 9D KH",
                    "players": [{{"hand": "JK JK 7C", "table": {{"groups": [{groups}]}}}},
                                {{"hand": "6C 6H", "table": {{"groups": ["AS AD JK", "QC QH QS"]}}}}]}}"#
            );
            let mut g = Position::from_json(&text).unwrap().to_state().unwrap();
            let mut agent = GreedyAgent::new(params);
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
            for _ in 0..50 {
                let a = agent.act(&g.view(0), &mut g.moves(&mut MoveBuf::new()), &mut rng);
                if let Action::Discard(c) = a {
                    return (c, g.hand(0).len());
                }
                g.apply(a).unwrap();
            }
            panic!("no discard");
        };
        let off = GreedyParams {
            wilds_alone: false,
            ..GreedyParams::default()
        };
        let plain = r#""8C 8H 8S", "5C 5D 5H 5S""#;
        let joker: Card = "JK".parse().unwrap();
        assert_eq!(discard(plain, GreedyParams::default()), (joker, 3));
        assert_eq!(discard(plain, off), ("7C".parse().unwrap(), 3));
        let canasta = r#""8C 8H 8S 8D 8D 8S 8C", "5C 5D 5H 5S""#;
        let (c, _) = discard(canasta, GreedyParams::default());
        assert!(!c.is_wild(), "{c}");
    }

    /// Greedy's gain of an extend from the hand, read from the one group
    /// it changes, is the change of its table's value after the step, at
    /// every meld-phase state of meld-biased hands under both rule
    /// versions, for every extend candidate, refused ones included.
    #[test]
    fn extend_gain_is_the_table_value_change() {
        let mut buf = MoveBuf::new();
        let (mut made, mut refused) = (0, 0);
        crate::eval::play_meld_biased_hands(0..30, |rules, g, _| {
            if g.phase() != Phase::Meld {
                return;
            }
            let before = *g.table(g.current_player());
            let mut c = g.moves(&mut buf);
            for &a in c.actions() {
                let Some(change) = c.extend_from_hand(a) else {
                    continue;
                };
                let want = c.read_table_after(a, |t| table_value_change(&before, t, rules));
                let got = change.map(|(from, to)| group_value(&to) - group_value(&from));
                assert_eq!(got, want, "{a}");
                made += got.is_some() as u32;
                refused += got.is_none() as u32;
            }
        });
        assert!(made > 1000, "{made} extends made, {refused} refused");
    }

    /// At every meld-phase decision of greedy hands (default rules, the
    /// 2003-01 rules, and a patience of 3 so that the finisher's turns
    /// come often), the choice from the lazy moves is the one from the
    /// listing, and the seat's generator and the agent's turn count are
    /// left alike.
    #[test]
    fn lazy_choice_is_the_listed_choice() {
        let impatient = GreedyParams {
            patience: 3,
            ..GreedyParams::default()
        };
        let settings = [
            (Rules::default(), 0..70),
            (Rules::preset("decorated-2003-01").unwrap(), 70..90),
            (Rules::default(), 90..110),
        ];
        let compared = crate::eval::lazy_against_listed(
            &settings,
            |k| match k {
                2 => GreedyAgent::new(impatient.clone()),
                _ => GreedyAgent::default(),
            },
            |a, b| a.finisher == b.finisher,
        );
        assert!(compared > 5000, "{compared} decisions compared");
    }
}
