//! Going out (D-13) for `rules`: whether it wants to (the visible count,
//! `hold`, the match with `stakes`, a dead-locked opponent, I-32), the
//! planned way out (`plan_out`: a search over meld steps, wilds moved
//! included, D-11.2), and the counting "no" that spares the engine's
//! going-out test most hands that cannot go out.

use super::meld::{can_go_out_now, Others, SuitFree};
use super::worth::{outside, Outlook};
use super::RulesAgent;
use crate::eval::{card_points, is_meld, table_value};
use crate::MoveBuf;
use kanaszta_engine::{never_goes_out, Action, CardSet, GameState, Table};

impl RulesAgent {
    /// Whether the meld policy's steps earn the going-out bonus, as known
    /// before any step is weighed: `None` until it is asked
    /// ([`RulesAgent::wants_out`]). Without a canasta (D-13.1) the answer
    /// is no, unless the way out is planned (`plan_out`): the hand may
    /// then make the canasta it goes out with.
    pub(super) fn out_mode_start(&self, table: &Table) -> Option<bool> {
        if table.has_canasta() || self.params.plan_out_on() {
            None
        } else {
            Some(false)
        }
    }

    /// Whether the step `a` from `s` (if any) leaves the mover's way out
    /// open, with nothing pending.
    fn keeps_way_out(&self, s: &GameState, me: usize, a: Option<Action>) -> bool {
        a.is_some_and(|a| {
            let mut t = s.clone();
            t.apply_listed(a).is_ok()
                && t.pending_wilds().is_empty()
                && can_go_out_now(t.hand(me), t.table(me).groups(), t.rules())
        })
    }

    /// Under `plan_out`, when it can go out and wants to
    /// ([`RulesAgent::wants_out`], kept in `out_mode`) but the meld
    /// policy's choice `best` does not keep the way out, the first step of
    /// its planned way out ([`RulesAgent::way_out`]). The policy's steps
    /// that earn the going-out bonus find the way out nearly always; what
    /// they miss is a way that needs wilds moved (D-11.2), which the
    /// policy never moves on its own.
    pub(super) fn planned(
        &mut self,
        s: &GameState,
        o: &Outlook,
        others: &Others,
        out_mode: &mut Option<bool>,
        best: Option<Action>,
    ) -> Option<Action> {
        let (hand, table) = (s.hand(o.me), s.table(o.me));
        // One card with a canasta goes out by its discard, which the meld
        // policy then makes; a big hand's way out is rarely found within
        // the search's budget, so it is not looked for.
        if !self.params.plan_out_on()
            || hand.len() > PLAN_HAND
            || (hand.len() == 1 && table.has_canasta() && s.pending_wilds().is_empty())
            || !*out_mode.get_or_insert_with(|| self.wants_out(s, o, others))
            || self.keeps_way_out(s, o.me, best)
        {
            return None;
        }
        self.way_out(s, o.me)
    }

    /// The first step of the best way out of `s` for the mover `me`
    /// (D-13.1: down to one card with a canasta, then that card
    /// discarded) among the shortest a search of [`PLAN_BUDGET`] states
    /// finds, by the hand score it ends with (D-14); `None` if it finds
    /// none. Every meld step is tried, wilds moved too (D-11.2): the hill
    /// climb of the meld policy never moves one on its own, and a step it
    /// likes may leave a way out that only moving wilds reaches.
    fn way_out(&mut self, s: &GameState, me: usize) -> Option<Action> {
        let mut budget = PLAN_BUDGET;
        for depth in 0..=PLAN_DEPTH {
            let mut best = None;
            self.plan_seen.clear();
            self.plan_from(s, me, depth, None, &mut budget, &mut best, 0);
            if let Some((_, a)) = best {
                return Some(a);
            }
            if budget == 0 {
                break;
            }
        }
        None
    }

    /// One pass of [`RulesAgent::way_out`]'s deepening: the ways out of
    /// `s` in exactly `depth` meld steps, the best into `best` with the
    /// first step (`first`, or the discard itself). `level` picks the
    /// scratch lists.
    #[allow(clippy::too_many_arguments)]
    fn plan_from(
        &mut self,
        s: &GameState,
        me: usize,
        depth: u32,
        first: Option<Action>,
        budget: &mut u32,
        best: &mut Option<(i32, Action)>,
        level: usize,
    ) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let hand = s.hand(me);
        let twin = self.twin_card(s, me);
        let settled = s.pending_wilds().is_empty() && s.pickup().is_none_or(|p| p.rest_taken);
        if settled && !can_go_out_now(hand, s.table(me).groups(), s.rules()) {
            return;
        }
        // A state met again with no more steps left leads nowhere new
        // (steps in another order, wilds placed another way).
        let key = plan_key(s, me);
        match self.plan_seen.get(&key) {
            Some(&d) if d >= depth => return,
            _ => {
                self.plan_seen.insert(key, depth);
            }
        }
        if depth == 0 {
            if let (true, 1, Some(c)) = (settled, hand.len(), hand.iter().next()) {
                let mut t = s.clone();
                if t.apply(Action::Discard(c)).is_ok() && t.is_terminal() {
                    let v = t.score_of(me).total;
                    if best.is_none_or(|(b, _)| v > b) {
                        *best = Some((v, first.unwrap_or(Action::Discard(c))));
                    }
                }
            }
            return;
        }
        if self.plan_steps.len() <= level {
            self.plan_steps.resize_with(level + 1, MoveBuf::default);
            self.plan_keys.resize_with(level + 1, Vec::new);
        }
        let mut buf = std::mem::take(&mut self.plan_steps[level]);
        let mut keys = std::mem::take(&mut self.plan_keys[level]);
        let steps = s.moves(&mut buf).actions();
        keys.clear();
        let pending = !s.pending_wilds().is_empty();
        for a in steps.iter().filter(|a| is_meld(a)) {
            // A wild pending is placed before another is taken: every way
            // out but a rare few (two wilds taken for one new group) has
            // its steps in such an order, and the search stays small.
            if pending && matches!(a, Action::TakeWild { .. }) {
                continue;
            }
            // Steps alike but for their suits lead alike (as in the meld
            // policy), with nothing pending.
            let key = if pending { None } else { SuitFree::of(a, twin) };
            if key.is_some() {
                if keys.contains(&key) {
                    continue;
                }
                keys.push(key);
            }
            let mut t = s.clone();
            if t.apply_listed(*a).is_err() {
                continue;
            }
            self.plan_from(
                &t,
                me,
                depth - 1,
                first.or(Some(*a)),
                budget,
                best,
                level + 1,
            );
            if *budget == 0 {
                break;
            }
        }
        self.plan_steps[level] = buf;
        self.plan_keys[level] = keys;
    }

    /// Whether going out now is what it wants, when it can.
    pub(super) fn wants_out(&mut self, s: &GameState, o: &Outlook, others: &Others) -> bool {
        let me = o.me;
        let plan = self.params.plan_out_on();
        // With a wild pending the hand and groups alone do not tell; the
        // steps that place it are each tested for the way out.
        if (!plan || s.pending_wilds().is_empty())
            && !can_go_out_now(s.hand(me), s.table(me).groups(), s.rules())
        {
            return false;
        }
        // Nobody else can ever go out (I-32): the hand ends only when it
        // goes out, so the count does not matter, only whether waiting can
        // still build something (a canasta of 300 or more).
        if self.params.dead_out_on() && others_hopeless(s, me) {
            return !canasta_to_build(s, me) || s.turns() >= DEAD_OUT_TURNS;
        }
        // The visible count if it goes out now: its hand melded, 100 for
        // going out (D-14); the others' hands (as sampled) count minus.
        let mut mine = table_value(s.table(me), s.rules()) + s.hand(me).points() + 100;
        if plan {
            // The wilds pending go back onto its table, and going out
            // without a canasta makes one (black, most often: 300).
            mine += s.pending_wilds().points();
            if !s.table(me).has_canasta() {
                mine += 300;
            }
        }
        if o.threat >= 0.5 {
            return true;
        }
        let theirs = |hand: &dyn Fn(usize) -> i32| {
            (0..s.players())
                .filter(|p| *p != me)
                .map(|p| table_value(s.table(p), s.rules()) - hand(p))
                .max()
                .unwrap_or(0)
        };
        let hold = -self.params.hold_in_force();
        let stakes = self.params.stakes;
        let margin = |theirs: i32| {
            if stakes {
                stakes_margin(s, me, o.opp, mine, theirs)
            } else {
                mine - theirs
            }
        };
        match others {
            Others::Here => margin(theirs(&|p| s.hand(p).points())) >= hold,
            Others::Sample(view, rng) => {
                // A sampled hand holds its known cards and unseen ones worth
                // 5 to 100 each (red threes never stay in a hand, D-4):
                // where those bounds decide, no sample is needed.
                let unknown = |p: usize| (view.hand_size(p) - view.known(p).len() as usize) as i32;
                let least = theirs(&|p| card_points(view.known(p)) + 100 * unknown(p));
                let most = theirs(&|p| card_points(view.known(p)) + 5 * unknown(p));
                if margin(most) >= hold {
                    return true;
                }
                if margin(least) < hold {
                    return false;
                }
                let sampled = view.determinize(&mut rng.clone());
                margin(theirs(&|p| sampled.hand(p).points())) >= hold
            }
        }
    }
}

/// The margin of a hand that ends `mine` to `theirs` (raw, D-14) as the
/// match sees it (`stakes`): each score taxed by its player's running
/// total (D-15), and a hand that ends the match counted as won or lost
/// whatever its margin (D-16.2: the first total above the target, the
/// higher one where both pass it). Out of a match the totals are nought
/// and the margin is the raw one.
pub(super) fn stakes_margin(s: &GameState, me: usize, opp: usize, mine: i32, theirs: i32) -> i32 {
    const DECIDED: i32 = 100_000;
    let r = s.rules();
    let totals = s.totals();
    let (tm, to) = (totals[me], totals[opp]);
    let (am, ao) = (
        tm + kanaszta_engine::tax(mine, tm, r),
        to + kanaszta_engine::tax(theirs, to, r),
    );
    if (am > r.target || ao > r.target) && am != ao {
        return if am > ao { DECIDED } else { -DECIDED };
    }
    (am - tm) - (ao - to)
}

/// Whether every player but `me` holds one card that could never go out
/// (I-32, [`never_goes_out`]): nobody but `me` can end the hand by
/// going out.
fn others_hopeless(s: &GameState, me: usize) -> bool {
    let out = outside(s);
    (0..s.players())
        .filter(|&p| p != me)
        .all(|p| s.hand(p).len() == 1 && never_goes_out(s.table(p), out, s.rules()))
}

/// Whether waiting can still build a canasta (D-10) for `me`: a group of
/// its table that is not one yet could reach seven cards with the cards
/// outside the tables (its hand included), within the wild limits (D-9.1:
/// at least four naturals among seven, at most three wilds).
fn canasta_to_build(s: &GameState, me: usize) -> bool {
    let out = outside(s);
    let wilds = out.wild_count();
    s.table(me).groups().iter().any(|g| {
        if g.is_canasta() {
            return false;
        }
        match g.rank() {
            None => g.len() + wilds >= 7,
            Some(r) => {
                let naturals = out.rank_count(r);
                g.naturals() + naturals >= 4
                    && g.len() + naturals + wilds.min(3u32.saturating_sub(g.wilds())) >= 7
            }
        }
    })
}

/// Turns after which it goes out when it can, though no opponent can ever
/// go out and a canasta could still be built: longer hands build little
/// more, and the turn cap (I-5) must not end one before it goes out.
const DEAD_OUT_TURNS: u32 = 100;

/// States the planned way out searches at most ([`RulesAgent::way_out`]).
const PLAN_BUDGET: u32 = 2000;

/// Cards in hand beyond which the way out is not planned
/// ([`RulesAgent::planned`]): with more, a search of [`PLAN_BUDGET`]
/// states finds it in few of the cases where the meld policy misses it.
pub(super) const PLAN_HAND: u32 = 7;

/// Meld steps the planned way out looks ahead at most.
const PLAN_DEPTH: u32 = 12;

/// What tells apart the states of the mover `me`'s meld phase for the
/// planned way out: his hand, the wilds pending, his ♥As and his groups
/// with their flags (in any order: the order of laying does not matter).
pub(super) fn plan_key(s: &GameState, me: usize) -> u64 {
    // SplitMix64's finalizer: every bit of the input reaches every bit of
    // the output, so that the groups' sum does not cancel.
    fn mix(h: u64, x: u64) -> u64 {
        let mut z = (h ^ x).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn set(h: u64, c: CardSet) -> u64 {
        let (lo, hi, jokers) = c.raw();
        mix(mix(mix(h, lo), hi), jokers as u64)
    }
    let t = s.table(me);
    let mut key = set(
        set(mix(0, t.heart_aces as u64), s.hand(me)),
        s.pending_wilds(),
    );
    for g in t.groups() {
        key = key.wrapping_add(set(mix(1, g.flags() as u64), g.cards()));
    }
    key
}

/// Passes on [`plan_key`]'s keys, mixed already, to the memo's table.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | *b as u64;
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// The memo of [`RulesAgent::way_out`]: a state's key, the steps it had
/// left when searched.
pub(super) type PlanSeen =
    std::collections::HashMap<u64, u32, std::hash::BuildHasherDefault<KeyHasher>>;
