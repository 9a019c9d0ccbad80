//! The turn planner of `rules` (`plan`): a bounded beam search over
//! sequences of meld steps from the position after the draw or the pickup.
//!
//! The meld policy's hill climb plays the one step that gains most and
//! stops when none gains; it never takes a wild out of a group on its own
//! (D-11.2, D-11.3), and it never plays a step that loses now to gain two
//! steps later. The planner looks `plan_depth` steps ahead, keeping the
//! `plan_beam` best positions at each depth: lays of new groups (D-9.1),
//! cards added to groups, wilds taken out of one group and placed in
//! another (D-11.2: a natural group keeps at least three cards and more
//! naturals than wilds; D-11.3: a group of wilds only is broken up only
//! before it is a canasta), swaps (D-11.4) and the ♥A laid apart (D-9.4).
//! Every position where nothing is pending is scored by the meld policy's
//! own worth (points laid, canastas made and near, pairs and wilds kept,
//! cards in hand at the risk of the opponent going out, the dead lock),
//! plus a bonus where it can then go out and wants to (D-13.1): the
//! planned way out (`plan_out`) finds the steps from there.
//!
//! The plan is played when its end is worth `plan_margin` more than the
//! hill climb's step, or when its first step is the hill climb's own; its
//! steps are kept, each with the position it is played from, and played
//! while the turn follows them (each one only when the engine lists it,
//! I-9). A plan ends in a position worth more than the one it started
//! from, so plans never undo each other. The search reads only the
//! mover's hand and table and what the policy's worth reads, and it draws
//! nothing from the generator: a seat's play stays the same for a seed.

use super::meld::{puts_heart_ace_in_group, Others, SuitFree};
use super::out::{plan_key, PlanSeen, PLAN_HAND};
use super::worth::Outlook;
use super::RulesAgent;
use crate::eval::is_meld;
use kanaszta_engine::{Action, Card, GameState, MoveBuf};
use std::collections::hash_map::Entry;

/// Steps a plan holds at most (the range of `plan_depth`).
pub(super) const MAX_PLAN: usize = 8;

/// What reaching a position that goes out, when it wants to, adds to the
/// position's worth: the way out is then planned (D-13.1).
const OUT_BONUS: f64 = 1000.0;

/// One position of the search: the steps that lead to it from the
/// position searched, and what it is worth (nothing where a wild is
/// pending: the turn cannot end there, D-11.2).
#[derive(Clone, Debug)]
struct Node {
    state: GameState,
    path: [Action; MAX_PLAN],
    len: usize,
    value: f64,
    settled: bool,
}

/// The planner's scratch space and the plan being played.
#[derive(Clone, Debug, Default)]
pub(super) struct Planner {
    /// The plan: each step with the key of the position it is played from.
    steps: Vec<(u64, Action)>,
    /// The positions of one depth and of the next: arenas whose slots are
    /// overwritten in place (a state is large; each slot is copied into
    /// once per candidate step and never moved, boxed so that an arena
    /// grows without moving them).
    #[allow(clippy::vec_box)]
    nodes: Vec<Box<Node>>,
    #[allow(clippy::vec_box)]
    next: Vec<Box<Node>>,
    /// The beam: indices into `nodes`, best first.
    frontier: Vec<u32>,
    buf: MoveBuf,
    cands: Vec<Action>,
    keys: Vec<Option<SuitFree>>,
    seen: PlanSeen,
    /// The beam's order: indices into `next`, sorted in place of the
    /// nodes (each holds a whole state).
    order: Vec<u32>,
}

impl PartialEq for Planner {
    /// Two planners are alike when their plans are: the rest is scratch.
    fn eq(&self, other: &Planner) -> bool {
        self.steps == other.steps
    }
}

/// What tells the mover's positions apart within the planner: his part
/// ([`plan_key`]) and the turn.
fn turn_key(s: &GameState, me: usize) -> u64 {
    plan_key(s, me) ^ (s.turns() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl RulesAgent {
    /// The step of the plan being played that is played from `s`, if the
    /// turn has followed the plan there.
    pub(super) fn plan_step(&self, s: &GameState, me: usize) -> Option<Action> {
        if !self.params.plan_on() || self.planner.steps.is_empty() {
            return None;
        }
        let k = turn_key(s, me);
        self.planner
            .steps
            .iter()
            .find(|(key, _)| *key == k)
            .map(|(_, a)| *a)
    }

    /// The planner's choice in `s`, where the meld policy's hill climb
    /// chose `hill` (its step and gain, if any): the first step of the best
    /// plan when that plan is kept (see the module documentation), `None`
    /// to leave the choice to the hill climb. Searched only with the
    /// table opened (D-8), the pile's rest taken and nothing pending.
    pub(super) fn plan_turn(
        &mut self,
        s: &GameState,
        o: &Outlook,
        others: &Others,
        hill: Option<(f64, Action)>,
    ) -> Option<Action> {
        let me = o.me;
        self.planner.steps.clear();
        if !self.params.plan_on()
            || !s.table(me).opened
            || !s.pending_wilds().is_empty()
            || s.pickup().is_some_and(|p| !p.rest_taken)
            || s.hand(me).len() < 2
        {
            return None;
        }
        let base = self.worth(s, o);
        let (path, len, value) = self.plan_search(s, o, others)?;
        let agrees = hill.is_some_and(|(g, a)| g > 0.0 && a == path[0]);
        let hill_value = base + hill.map_or(0.0, |(g, _)| g.max(0.0));
        if !agrees && value <= hill_value + self.params.plan_margin {
            return None;
        }
        // The plan, each step with the key of the position it is played
        // from.
        let mut t = s.clone();
        for &a in &path[..len] {
            self.planner.steps.push((turn_key(&t, me), a));
            if t.apply_listed(a).is_err() {
                break;
            }
        }
        Some(path[0])
    }

    /// The beam search: the best plan from `s` (its steps, their number
    /// and the worth it ends in), if some plan ends in a position where
    /// nothing is pending.
    fn plan_search(
        &mut self,
        s: &GameState,
        o: &Outlook,
        others: &Others,
    ) -> Option<([Action; MAX_PLAN], usize, f64)> {
        let me = o.me;
        let hearts = s.rules().heart_aces();
        let depth = (self.params.plan_depth as usize).min(MAX_PLAN);
        let beam = self.params.plan_beam as usize;
        let mut nodes = std::mem::take(&mut self.planner.nodes);
        let mut next = std::mem::take(&mut self.planner.next);
        let mut frontier = std::mem::take(&mut self.planner.frontier);
        let mut cands = std::mem::take(&mut self.planner.cands);
        let mut keys = std::mem::take(&mut self.planner.keys);
        let mut buf = std::mem::take(&mut self.planner.buf);
        let mut seen = std::mem::take(&mut self.planner.seen);
        let mut order = std::mem::take(&mut self.planner.order);
        seen.clear();
        seen.insert(turn_key(s, me), 0);
        match nodes.first_mut() {
            Some(n) => n.state.clone_from(s),
            None => nodes.push(Box::new(Node {
                state: s.clone(),
                path: [Action::Reset; MAX_PLAN],
                len: 0,
                value: 0.0,
                settled: true,
            })),
        }
        nodes[0].path = [Action::Reset; MAX_PLAN];
        nodes[0].len = 0;
        nodes[0].value = 0.0;
        nodes[0].settled = true;
        frontier.clear();
        frontier.push(0);
        let mut best: Option<([Action; MAX_PLAN], usize, f64)> = None;
        for d in 0..depth {
            // The positions reached at this depth fill `next[..used]`.
            let mut used = 0;
            for &fi in &frontier {
                let node = &nodes[fi as usize];
                let pending = !node.state.pending_wilds().is_empty();
                let twin = self.twin_card(&node.state, me);
                cands.clear();
                cands.extend(
                    node.state
                        .moves(&mut buf)
                        .steps()
                        .iter()
                        .copied()
                        .filter(is_meld),
                );
                keys.clear();
                for &a in &cands {
                    // A wild pending is placed before another is taken
                    // (as in the planned way out), and the ♥A is laid
                    // apart, never in a group (D-9.4).
                    if (pending && matches!(a, Action::TakeWild { .. }))
                        || (hearts && puts_heart_ace_in_group(&a))
                    {
                        continue;
                    }
                    let key = if pending {
                        None
                    } else {
                        SuitFree::of(&a, twin)
                    };
                    if key.is_some() {
                        if keys.contains(&key) {
                            continue;
                        }
                        keys.push(key);
                    }
                    // The step is played in the next free slot, which is
                    // kept only when the position is new.
                    if used == next.len() {
                        next.push(Box::new((**node).clone()));
                    } else {
                        next[used].state.clone_from(&node.state);
                    }
                    let t = &mut next[used].state;
                    if t.apply_listed(a).is_err() || self.futile(&a, t, me) {
                        continue;
                    }
                    // A position met before, by fewer steps or in another
                    // order, is searched once.
                    let k = turn_key(t, me);
                    match seen.entry(k) {
                        Entry::Occupied(_) => continue,
                        Entry::Vacant(v) => {
                            v.insert(d as u32 + 1);
                        }
                    }
                    let settled = t.pending_wilds().is_empty();
                    let value = if settled {
                        self.plan_value(t, o, others)
                    } else {
                        self.worth(t, o)
                    };
                    let mut path = node.path;
                    path[node.len] = a;
                    let len = node.len + 1;
                    if settled && best.is_none_or(|(_, _, v)| value > v) {
                        best = Some((path, len, value));
                    }
                    let n = &mut next[used];
                    n.path = path;
                    n.len = len;
                    n.value = value;
                    n.settled = settled;
                    used += 1;
                }
            }
            if used == 0 {
                break;
            }
            // The beam: the best settled positions, and as many with a
            // wild pending (their worth counts the wild as lost until it
            // is placed), each best first, ties to the earlier found.
            // The indices are sorted, stably as the nodes were found, and
            // the arenas change places: no node is copied.
            order.clear();
            order.extend(0..used as u32);
            order.sort_by(|&i, &j| {
                let (x, y) = (&next[i as usize], &next[j as usize]);
                y.settled.cmp(&x.settled).then(
                    y.value
                        .partial_cmp(&x.value)
                        .unwrap_or(std::cmp::Ordering::Equal),
                )
            });
            frontier.clear();
            let (mut kept, mut held) = (0, 0);
            for &i in &order {
                let n = &next[i as usize];
                let count = if n.settled { &mut kept } else { &mut held };
                if *count < beam {
                    *count += 1;
                    frontier.push(i);
                }
            }
            std::mem::swap(&mut nodes, &mut next);
        }
        self.planner.nodes = nodes;
        self.planner.next = next;
        self.planner.frontier = frontier;
        self.planner.cands = cands;
        self.planner.keys = keys;
        self.planner.buf = buf;
        self.planner.seen = seen;
        self.planner.order = order;
        best
    }

    /// The worth the turn planner's best plan from `s` ends in, for
    /// weighing the pile (`weigh`): `None` where it does not plan (the
    /// table not opened, D-8, or something pending).
    pub(super) fn plan_weigh(&mut self, s: &GameState, o: &Outlook) -> Option<f64> {
        let me = o.me;
        if !s.table(me).opened
            || !s.pending_wilds().is_empty()
            || s.pickup().is_some_and(|p| !p.rest_taken)
            || s.hand(me).len() < 2
        {
            return None;
        }
        self.plan_search(s, o, &Others::Here).map(|(_, _, v)| v)
    }

    /// What a settled position of the search is worth: the meld policy's
    /// worth, and [`OUT_BONUS`] where it can go out from there and wants
    /// to (D-13.1; a hand of up to [`PLAN_HAND`] cards, where the planned
    /// way out looks).
    fn plan_value(&mut self, t: &GameState, o: &Outlook, others: &Others) -> f64 {
        let v = self.worth(t, o);
        let me = o.me;
        let h = t.hand(me);
        if h.len() <= PLAN_HAND
            && (t.table(me).has_canasta() || self.params.plan_out_on())
            && !(h.len() == 1 && h.iter().next() == Some(Card::HEART_ACE))
            && self.wants_out(t, o, others)
        {
            v + OUT_BONUS
        } else {
            v
        }
    }
}

impl RulesAgent {
    /// Drops the plan being played (its first step was not listed, or a
    /// new hand begins).
    pub(super) fn planner_drop(&mut self) {
        self.planner.steps.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::super::meld::Others;
    use super::super::worth::Outlook;
    use super::super::{RulesAgent, RulesParams};
    use crate::Agent;
    use kanaszta_engine::{Action, GameState, MoveBuf, Phase};
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    /// The search itself finds the way out that needs wilds moved
    /// (D-13.1, D-11.2, D-10): a joker taken out of the tens (three
    /// naturals stay) completes the sevens' canasta, the other one laid
    /// with the nines; the 5S is then discarded and the hand ends. Four
    /// steps, none of which the hill climb plays on its own.
    #[test]
    fn the_search_finds_the_way_out_that_moves_a_wild() {
        let g = GameState::from_position_json(
            r#"{"phase": "meld", "turns": 25, "starter": 1, "current": 1, "players": [
                {"hand": "6C 6S",
                 "table": {"groups": ["9D 9D 9H 9H 9C 2C JK", "JC JC JD JS JS"]}},
                {"hand": "9S 9S 5S",
                 "table": {"groups": ["TD TD TH JK JK", "7D 7H 7S 7S 2H 2S"]}}],
              "pile": "3C 3S 6H"}"#,
        )
        .unwrap();
        let mut agent = RulesAgent::new(RulesParams::default());
        let o = Outlook::of(&g.view(1));
        let (path, len, _) = agent.plan_search(&g, &o, &Others::Here).unwrap();
        let path = &path[..len];
        assert!(
            path.iter().any(|a| matches!(a, Action::TakeWild { .. })),
            "{path:?}"
        );
        let mut t = g.clone();
        for a in path {
            t.apply(*a).unwrap_or_else(|e| panic!("`{a}`: {e}"));
        }
        t.apply(Action::Discard("5S".parse().unwrap())).unwrap();
        assert!(t.is_terminal() && t.score_of(1).went_out, "{path:?}");
    }

    /// Every plan the agent keeps is legal step by step: in hands between
    /// two planning agents, whenever a plan is made, each of its steps is
    /// listed by the engine (I-9) in the position it is played from.
    #[test]
    fn every_planned_step_is_listed() {
        let mut listing = Vec::new();
        let mut plans = 0;
        for seed in 0..12 {
            let mut g = GameState::new(kanaszta_engine::Rules::default(), seed);
            let mut agents = [
                RulesAgent::new(RulesParams::default()),
                RulesAgent::new(RulesParams::default()),
            ];
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut known = Vec::new();
            while !g.is_terminal() {
                let p = g.current_player();
                let view = g.view(p);
                let a = agents[p].act(&view, &mut g.moves(&mut MoveBuf::new()), &mut rng);
                let steps = agents[p].planner.steps.clone();
                if g.phase() == Phase::Meld && !steps.is_empty() && steps != known {
                    plans += 1;
                    let mut t = g.clone();
                    for (_, s) in &steps {
                        t.legal_actions(&mut listing);
                        assert!(listing.contains(s), "seed {seed}: `{s}` of {steps:?}");
                        t.apply(*s).unwrap();
                    }
                    known = steps;
                }
                g.apply(a).unwrap();
            }
        }
        assert!(plans > 20, "{plans} plans");
    }
}
