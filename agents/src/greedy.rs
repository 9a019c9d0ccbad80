//! `greedy`: maximizes immediate points.
//!
//! - Cut: keeps cut cards that are wild, red threes, or match a rank in hand.
//! - Draw: once it has opened, takes the pile when it holds at least `pile`
//!   cards and the engine allows it (D-6.2), takes the free pickup (D-6.1) when the card
//!   is wild or matches its hand or table, otherwise draws.
//! - Meld: during a pickup it takes the rest as soon as it may; then plays the
//!   meld action that raises its table's value (card values, canasta
//!   bonuses, heart aces, red threes) the most, as long as one raises it.
//!   Before opening it melds only when its hand can reach the opening
//!   minimum (D-8.2). It goes out whenever melding leaves one card to discard.
//! - Discard: the card least useful to itself ([`crate::eval::keep_value`]).

use crate::eval::{
    best_opening, is_meld, least_useful_discard, opened_before, table_value, value_after,
};
use crate::spec::{parse_in, ParamDoc, Params};
use crate::{Agent, TurnFinisher};
use kanaszta_engine::{Action, Phase, SeatView};
use rand_pcg::Pcg64Mcg;

/// Parameters of [`GreedyAgent`].
#[derive(Clone, Debug, PartialEq)]
pub struct GreedyParams {
    /// Smallest pile it takes (D-6.2).
    pub pile: u32,
    /// Meld actions in one turn before it ends the turn by the shortest way.
    pub patience: u32,
}

impl Default for GreedyParams {
    fn default() -> GreedyParams {
        GreedyParams {
            pile: 3,
            patience: 60,
        }
    }
}

impl Params for GreedyParams {
    const NAME: &'static str = "greedy";
    const SUMMARY: &'static str =
        "maximizes immediate points: melds whatever scores now, takes the pile when it pays, goes out when it can, discards its least useful card";

    fn docs() -> &'static [ParamDoc] {
        &[
            ParamDoc {
                key: "pile",
                accepts: "1..112",
                doc: "smallest pile it takes when the engine allows",
            },
            ParamDoc {
                key: "patience",
                accepts: "1..10000",
                doc: "meld actions in a turn before it ends the turn by the shortest way",
            },
        ]
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "pile" => self.pile = parse_in(value, 1, 112)?,
            "patience" => self.patience = parse_in(value, 1, 10_000)?,
            _ => return Err(format!("unknown key `{key}`")),
        }
        Ok(())
    }

    fn get(&self, key: &str) -> Option<String> {
        match key {
            "pile" => Some(self.pile.to_string()),
            "patience" => Some(self.patience.to_string()),
            _ => None,
        }
    }
}

/// The greedy player (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct GreedyAgent {
    params: GreedyParams,
    finisher: TurnFinisher,
}

impl GreedyAgent {
    /// A greedy agent with these parameters.
    pub fn new(params: GreedyParams) -> GreedyAgent {
        GreedyAgent {
            params,
            finisher: TurnFinisher::default(),
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

    fn act(&mut self, view: &SeatView, legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
        if legal.len() == 1 {
            if view.phase() == Phase::Meld {
                // A forced meld step is still a step of the turn (patience).
                self.finisher.step(view);
            }
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
                // Only once opened: a pickup before the opening must make
                // the whole opening with the top card (D-6.2.1), a plan
                // beyond immediate points.
                if legal.contains(&Action::TakePile)
                    && view.pile().len() as u32 >= self.params.pile
                    && opened_before(view, view.seat())
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
            Phase::Meld => self.meld(view, legal, rng),
            Phase::Over => legal[0],
        }
    }
}

impl GreedyAgent {
    fn meld(&mut self, view: &SeatView, legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
        if legal.contains(&Action::TakeRest) {
            return Action::TakeRest;
        }
        let me = view.seat();
        let pending = !view.pending_wilds().is_empty();
        let may_meld = pending
            || view.pickup().is_some()
            || opened_before(view, me)
            || !view.table(me).groups().is_empty()
            || best_opening(view.hand()) >= view.opening_minimum(me);
        if may_meld {
            // Only the mover's table after its own steps is read: no
            // sample of the hidden cards is needed, and none is drawn.
            let state = view.own_world(&mut Pcg64Mcg::new(0));
            let base = table_value(view.table(me), view.rules());
            let mut best: Option<(i32, i32, Action)> = None;
            for a in legal.iter().filter(|a| is_meld(a)) {
                // Wilds are moved only when one is pending (to place it).
                if !pending && matches!(a, Action::TakeWild { .. }) {
                    continue;
                }
                if let Some(v) = value_after(&state, *a) {
                    let gain = v - base;
                    // Ties: spend fewer wilds, then the first listed.
                    let wilds = match a {
                        Action::Lay { cards } => cards.wild_count() as i32,
                        Action::Extend { card, .. } if card.is_wild() => 1,
                        _ => 0,
                    };
                    let key = (gain, -wilds);
                    if best.is_none_or(|(g, w, _)| key > (g, w)) {
                        best = Some((gain, -wilds, *a));
                    }
                }
            }
            if let Some((gain, _, a)) = best {
                if gain > 0 || pending {
                    return a;
                }
            }
        }
        if let Some(d) = least_useful_discard(view, legal) {
            return d;
        }
        // No discard is legal yet (an opening short of the minimum, a
        // pickup to complete, I-26): follow the engine's way to end the turn.
        if let Some(a) = self.finisher.next_or_reset(view, legal, rng) {
            return a;
        }
        legal
            .iter()
            .copied()
            .find(|a| *a != Action::Reset)
            .unwrap_or(legal[0])
    }
}
