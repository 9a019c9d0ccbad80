//! The meld policy of `rules`: the hill climb over the legal meld steps
//! (one of each [`SuitFree`] key weighed, the listing asked only of the
//! steps that could be the answer, I-9), the steps it never plays (a
//! futile one, one that leaves the opening out of reach, D-8.2, a ♥A put
//! into a group, D-9.4), and the opening memo.

use super::worth::Outlook;
use super::RulesAgent;
use crate::eval::{best_opening, is_meld, opening_settled, rank_counts, without_heart_aces};
use kanaszta_engine::{
    can_go_out_with, Action, Card, CardSet, GameState, Group, Rank, Rules, SeatView,
};
use rand_pcg::Pcg64Mcg;

/// A meld step weighed by [`RulesAgent::choose_unlisted`], standing for
/// every candidate with its [`SuitFree`] key (one, with wilds pending):
/// they are worth the same, and the one of them that counts is the first
/// listed.
#[derive(Clone, Copy, Debug)]
pub(super) struct Weighed {
    key: Option<SuitFree>,
    /// The gain it is considered with (the bonus gain where it settles the
    /// way out at once).
    value: f64,
    /// The gain with the going-out bonus, still to be settled.
    with: Option<f64>,
    /// Dropped by the opening rule (D-8.2), like every step of its key.
    dropped: bool,
    /// Its first member, and its first listed member once looked for.
    first: usize,
    listed: Option<Option<usize>>,
}

/// A meld step with the suits of its cards left out, which is all the meld
/// policy's measures of a position read (points, canastas, rank counts,
/// going out, openings); the ♥A, which they do tell apart (D-9.4), and the
/// kind of a wild are kept. Two steps with the same one leave positions
/// worth the same to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SuitFree {
    step: u8,
    group: u8,
    cards: u64,
    more: u32,
    /// Copies of the twin card (D-7) the step takes from the hand.
    twin: u8,
}

impl SuitFree {
    /// `None` for an action that is not a meld step. `twin` is the card
    /// whose discard would be a twin, where keeping it is worth something
    /// ([`RulesAgent::twin_card`]): a step that melds it is told apart.
    pub(super) fn of(a: &Action, twin: Option<Card>) -> Option<SuitFree> {
        // A card's rank, or 0xFF for a joker, and whether it is the ♥A.
        let kind = |c: Card| match c.rank() {
            _ if c.is_joker() => 0xFF,
            Some(r) => r as u64 | ((c == Card::HEART_ACE) as u64) << 8,
            None => 0xFE,
        };
        // Rank counts, jokers and heart aces of a set.
        let set = |c: CardSet| {
            let (_, _, jokers) = c.raw();
            (
                rank_counts(c),
                jokers as u32 | c.count(Card::HEART_ACE) << 8,
            )
        };
        let (step, group, cards, more) = match *a {
            Action::Lay { cards } => {
                let (c, m) = set(cards);
                (0, 0, c, m)
            }
            Action::Extend { group, card } => (1, group, kind(card), 0),
            Action::TakeWild { group, wild } => (2, group, kind(wild), 0),
            Action::Swap {
                group,
                natural,
                wild,
            } => (3, group, kind(natural), kind(wild) as u32),
            Action::Convert { group, naturals } => {
                let (c, m) = set(naturals);
                (4, group, c, m)
            }
            Action::LayHeartAce => (5, 0, 0, 0),
            _ => return None,
        };
        let twin = twin.map_or(0, |t| match *a {
            Action::Lay { cards } => cards.count(t),
            Action::Extend { card, .. } => (card == t) as u32,
            Action::Swap { natural, .. } => (natural == t) as u32,
            Action::Convert { naturals, .. } => naturals.count(t),
            _ => 0,
        }) as u8;
        Some(SuitFree {
            step,
            group,
            cards,
            more,
            twin,
        })
    }
}

/// A direct-mapped memo of [`best_opening`] by pool: the meld policy asks
/// it of the same hands step after step and world after world. The answer
/// reads only the pool's rank counts and wilds, so it is kept by them and
/// serves the same counts in other suits.
#[derive(Clone, Debug, Default)]
pub(super) struct OpeningCache {
    slots: Vec<Option<((u64, u8), i32)>>,
}

impl OpeningCache {
    const SLOTS: usize = 1024;

    pub(super) fn best_opening(&mut self, pool: CardSet) -> i32 {
        if self.slots.is_empty() {
            self.slots = vec![None; Self::SLOTS];
        }
        let (_, _, j) = pool.raw();
        let key = (rank_counts(pool), j);
        let h = (key.0 ^ (j as u64) << 58).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let i = (h >> 54) as usize % Self::SLOTS;
        match self.slots[i] {
            Some((k, v)) if k == key => v,
            _ => {
                let v = best_opening(pool);
                self.slots[i] = Some((key, v));
                v
            }
        }
    }
}

/// Where the meld policy finds the other seats' hands: in the state it
/// plays on, or in the sample of the view that the generator, as it was
/// before that state was made, gives ([`SeatView::determinize`]).
pub(super) enum Others<'a> {
    Here,
    Sample(&'a SeatView<'a>, Pcg64Mcg),
}

impl RulesAgent {
    /// The meld policy's choice in `s` from its candidates, each checked
    /// only if it could be the answer ([`RulesAgent::choose_unlisted`]).
    pub(super) fn meld_choice_unlisted(
        &mut self,
        s: &GameState,
        o: &Outlook,
        others: Others,
    ) -> Option<Action> {
        let mut buf = std::mem::take(&mut self.moves);
        let mut m = s.moves(&mut buf);
        let cands = m.actions();
        let choice = self.choose_unlisted(s, cands, &mut |a| m.is_listed(a), o, others);
        self.moves = buf;
        choice
    }

    /// Whether the mover may meld at all: wilds pending, a pickup under
    /// way, opened or something laid already, or an opening (I-11) in
    /// reach of the hand, the ♥A apart (D-9.4).
    pub(super) fn may_meld(&mut self, s: &GameState, me: usize) -> bool {
        let table = s.table(me);
        if !s.pending_wilds().is_empty()
            || s.pickup().is_some_and(|p| !p.rest_taken)
            || table.opened
            || !table.groups().is_empty()
        {
            return true;
        }
        let hand = s.hand(me);
        let pool = if s.rules().heart_aces() {
            without_heart_aces(hand)
        } else {
            hand
        };
        opening_in_reach(pool, s.opening_minimum(me), &mut self.openings)
    }

    /// The meld policy's choice in `s` (the mover is `o.me`): a meld step,
    /// a `Discard`, or `None` when it does not meld. `cands` are the
    /// actions to choose from, in the listing's order, and `listed` tells
    /// whether the listing (of `s`, or of a state whose mover's part is the
    /// same) holds one. Every candidate meld step is weighed, one of each
    /// [`SuitFree`] key, the best listed step winning (ties to the
    /// earlier); `listed` is asked only of the steps that could be the
    /// answer, best first, so that most candidates go unchecked (I-9).
    pub(super) fn choose_unlisted(
        &mut self,
        s: &GameState,
        cands: &[Action],
        listed: &mut dyn FnMut(Action) -> bool,
        o: &Outlook,
        others: Others,
    ) -> Option<Action> {
        if cands.contains(&Action::TakeRest) && listed(Action::TakeRest) {
            return Some(Action::TakeRest);
        }
        let me = o.me;
        if let Some(a) = self.plan_step(s, me) {
            if cands.contains(&a) && listed(a) {
                return Some(a);
            }
        }
        if !self.may_meld(s, me) {
            return None;
        }
        let table = s.table(me);
        let hand = s.hand(me);
        let pending = !s.pending_wilds().is_empty();
        let in_pickup = s.pickup().is_some_and(|p| !p.rest_taken);
        let pickup_top = s.pickup().filter(|p| !p.rest_taken).map(|p| p.top);
        // The ♥A is laid separately (500, D-9.4), never in a group of aces.
        let hearts = s.rules().heart_aces();
        // Going out (D-13): when every card but one can be melded. Asked
        // only once a step could earn the bonus, unless the way out is
        // planned.
        let mut out_mode = self.out_mode_start(table);
        let base = self.worth(s, o);
        let twin = self.twin_card(s, me);
        let mut weighed = std::mem::take(&mut self.weighed);
        weighed.clear();
        let mut members = std::mem::take(&mut self.members);
        members.clear();
        for (idx, a) in cands.iter().enumerate() {
            if !is_meld(a)
                || (!pending && matches!(a, Action::TakeWild { .. }))
                || (hearts && puts_heart_ace_in_group(a) && pickup_top != Some(Card::HEART_ACE))
            {
                continue;
            }
            // A step that moves the same cards from the hand as an earlier
            // one but for their suits is worth as much; it is weighed once,
            // for all of them. (With wilds pending, a wild of one suit may
            // come from the hand and one of another from the pending.)
            let key = if pending { None } else { SuitFree::of(a, twin) };
            if key.is_some() {
                if let Some(wi) = weighed.iter().position(|w| w.key == key) {
                    members.push((wi, idx));
                    continue;
                }
            }
            let mut t = s.clone();
            if t.apply_listed(*a).is_err() {
                continue;
            }
            members.push((weighed.len(), idx));
            let mut w = Weighed {
                key,
                value: 0.0,
                with: None,
                dropped: false,
                first: idx,
                listed: None,
            };
            if !self.opening_kept(s, &t, a, me) || self.futile(a, &t, me) {
                w.dropped = true;
                weighed.push(w);
                continue;
            }
            let gain = self.worth(&t, o) - base;
            w.value = gain;
            // Melding down towards going out: fewer cards, while the way
            // out stays open; the going-out test waits until the bonus
            // could decide the step.
            if t.pending_wilds().is_empty()
                && *out_mode.get_or_insert_with(|| self.wants_out(s, o, &others))
            {
                let h = t.hand(me);
                let with = gain + (1000.0 + 50.0 * (hand.len() as f64 - h.len() as f64));
                if with > gain {
                    w.with = Some(with);
                } else if can_go_out_with(h, t.table(me).groups(), t.rules()) {
                    w.value = with;
                }
            }
            weighed.push(w);
        }
        // The first listed member of weighed step `wi`, looked for once.
        let mut first_listed = |wi: usize, weighed: &mut [Weighed]| -> Option<usize> {
            if let Some(l) = weighed[wi].listed {
                return l;
            }
            let l = members
                .iter()
                .filter(|&&(w, _)| w == wi)
                .map(|&(_, idx)| idx)
                .find(|&idx| listed(cands[idx]));
            weighed[wi].listed = Some(l);
            l
        };
        // The best listed step, ties to the earlier: down the values, the
        // first listed member of each step of the best value seen.
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend((0..weighed.len()).filter(|&i| !weighed[i].dropped));
        order.sort_by(|&x, &y| {
            weighed[y]
                .value
                .partial_cmp(&weighed[x].value)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(weighed[x].first.cmp(&weighed[y].first))
        });
        let mut best: Option<(f64, usize, Action)> = None;
        for &wi in &order {
            let v = weighed[wi].value;
            if best.is_some_and(|(g, _, _)| v < g) {
                break;
            }
            if let Some(idx) = first_listed(wi, &mut weighed) {
                consider(&mut best, (v, idx, cands[idx]));
            }
        }
        // The bonus gains, dearest first, each run of equal gains in the
        // order of their listed steps: as the listed form settles them
        // (each listed step weighed in turn, `meld_choice_reference`).
        order.retain(|&wi| weighed[wi].with.is_some());
        order.sort_by(|&x, &y| {
            weighed[y]
                .with
                .partial_cmp(&weighed[x].with)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let mut run = std::mem::take(&mut self.run);
        let mut i = 0;
        'outs: while i < order.len() {
            let with = weighed[order[i]].with.unwrap_or(f64::NEG_INFINITY);
            if best.is_some_and(|(g, _, _)| with < g) {
                break;
            }
            run.clear();
            while i < order.len() && weighed[order[i]].with == Some(with) {
                if let Some(idx) = first_listed(order[i], &mut weighed) {
                    run.push((idx, order[i]));
                }
                i += 1;
            }
            run.sort_unstable();
            for &(idx, _) in &run {
                if best.is_some_and(|(g, j, _)| with < g || (with == g && idx > j)) {
                    break 'outs;
                }
                let a = cands[idx];
                let mut t = s.clone();
                if t.apply_listed(a).is_ok()
                    && can_go_out_now(t.hand(me), t.table(me).groups(), t.rules())
                {
                    best = Some((with, idx, a));
                }
            }
        }
        self.weighed = weighed;
        self.members = members;
        self.order = order;
        self.run = run;
        if let Some(a) = self.planned(s, o, &others, &mut out_mode, best.map(|b| b.2)) {
            if listed(a) {
                return Some(a);
            }
        }
        if out_mode != Some(true) {
            if let Some(a) = self.plan_turn(s, o, &others, best.map(|b| (b.0, b.2))) {
                if cands.contains(&a) && listed(a) {
                    return Some(a);
                }
                self.planner_drop();
            }
        }
        match best {
            Some((g, _, a)) if g > 0.0 || pending || in_pickup => Some(a),
            _ => cands
                .iter()
                .copied()
                .find(|&a| matches!(a, Action::Discard(_)) && listed(a))
                .or_else(|| best.filter(|_| self.must_open(s, me)).map(|(_, _, a)| a)),
        }
    }

    /// Whether the step `a`, which led to `t`, leaves the mover, with
    /// nothing pending, no discard to end the turn with: no card at all
    /// (going out takes a discard, D-13.1), or one card, no canasta and no
    /// way out (D-13.2). The turn could then end only by taking steps back
    /// (D-11.5). Skipped under the dead-lock fix; under the planned way
    /// out the last card is never laid either, and under the heart fix the
    /// lone ♥A is not.
    pub(super) fn futile(&self, a: &Action, t: &GameState, me: usize) -> bool {
        let dead = self.params.dead_charge() > 0.0;
        t.pending_wilds().is_empty()
            && t.pickup().is_none_or(|p| p.rest_taken)
            && match t.hand(me).len() {
                0 => dead || self.params.plan_out_on(),
                1 => {
                    (dead || (self.params.hearts_on() && matches!(a, Action::LayHeartAce)))
                        && !t.table(me).has_canasta()
                        && !can_go_out_now(t.hand(me), t.table(me).groups(), t.rules())
                }
                _ => false,
            }
    }

    /// Whether the step `a` from `s`, which led to `t`, keeps the opening
    /// minimum in reach (D-8.2): before the opening, a step that leaves it
    /// short must leave a hand that can still make it up, without the ♥A
    /// (laid apart for 500, D-9.4), so laying the ♥A first, which may
    /// break the group it needs, never does. Under the heart fix the
    /// groups laid this turn count as well (cards can still join them);
    /// without it only new groups from the hand do.
    pub(super) fn opening_kept(
        &mut self,
        s: &GameState,
        t: &GameState,
        a: &Action,
        me: usize,
    ) -> bool {
        if s.table(me).opened {
            return true;
        }
        let ov = t.table(me).opening_value();
        let min = s.opening_minimum(me);
        if ov >= min {
            return true;
        }
        if matches!(a, Action::LayHeartAce) {
            return false;
        }
        let hearts = s.rules().heart_aces();
        let h = t.hand(me);
        let left = if hearts { without_heart_aces(h) } else { h };
        if opening_in_reach(left, min - ov, &mut self.openings) {
            return true;
        }
        if !self.params.hearts_on() {
            return false;
        }
        // Every group on the table was laid this turn (it has not opened):
        // the best opening of its cards and the hand's together.
        let mut pool = left;
        for g in t.table(me).groups() {
            pool = pool.checked_add(g.cards()).unwrap_or(pool);
        }
        if hearts {
            pool = without_heart_aces(pool);
        }
        opening_in_reach(pool, min, &mut self.openings)
    }

    /// Whether, in `s`, the opening was begun and falls short (D-8.2), so
    /// that no discard is possible until it is made up or taken back: the
    /// heart fix then plays its best step even at a loss, rather than the
    /// engine's shortest way, which may bury the ♥A in a group of aces.
    pub(super) fn must_open(&self, s: &GameState, me: usize) -> bool {
        let t = s.table(me);
        self.params.hearts_on()
            && !t.opened
            && !t.groups().is_empty()
            && s.pickup().is_none()
            && t.opening_value() < s.opening_minimum(me)
    }
}

/// Keeps `c` as the best meld step if its gain is higher, or equal and it
/// comes earlier: the first of the best in listing order.
pub(super) fn consider(best: &mut Option<(f64, usize, Action)>, c: (f64, usize, Action)) {
    if best.is_none_or(|(g, j, _)| c.0 > g || (c.0 == g && c.1 < j)) {
        *best = Some(c);
    }
}

/// Whether an opening worth `need` (D-8.2) can be laid from `pool`, keeping
/// a card to discard. Cheap bounds settle most cases
/// ([`opening_settled`]); the exact search ([`best_opening`]) runs only
/// between them.
pub(super) fn opening_in_reach(pool: CardSet, need: i32, memo: &mut OpeningCache) -> bool {
    if need <= 0 {
        return true;
    }
    opening_settled(pool, need).unwrap_or_else(|| memo.best_opening(pool) >= need)
}

/// Whether an action puts a ♥A into a group, where it is worth 20 instead
/// of the 500 of a separately laid one (D-9.4, D-12.3).
pub(super) fn puts_heart_ace_in_group(a: &Action) -> bool {
    match a {
        Action::Lay { cards } => cards.contains(Card::HEART_ACE),
        Action::Extend { card, .. } => *card == Card::HEART_ACE,
        Action::Swap { natural, .. } => *natural == Card::HEART_ACE,
        Action::Convert { naturals, .. } => naturals.contains(Card::HEART_ACE),
        _ => false,
    }
}

/// Whether `hand` can go out onto `groups`: a count settles many hands
/// that cannot, the engine's going-out test (which keeps its last answers,
/// by counts where no card is singled out) the rest.
pub(super) fn can_go_out_now(hand: CardSet, groups: &[Group], rules: &Rules) -> bool {
    !surely_stuck_with(hand, groups, rules) && can_go_out_with(hand, groups, rules)
}

/// A sure "no" of [`can_go_out_with`] by counting, where it needs no
/// search: going out melds every card but the one discarded (D-13.1), and a
/// three is never melded (D-9.3) nor is a lone natural without a group of
/// its rank (a new group needs two naturals, D-9.1), so the hand has at
/// most one such card. The ♥A is left out: laid separately (D-9.4), it
/// needs no group. `false` means only that the count does not decide.
pub(super) fn surely_stuck_with(hand: CardSet, groups: &[Group], rules: &Rules) -> bool {
    let mut stuck = hand.black_three_count() + hand.red_three_count();
    let mut grouped = 0u32;
    for g in groups {
        if let Some(r) = g.rank() {
            grouped |= 1 << r as u32;
        }
    }
    let counts = rank_counts(hand);
    for r in Rank::NATURALS {
        if r == Rank::Ace && rules.heart_aces() {
            continue;
        }
        if (counts >> (4 * r as u32)) & 0xF == 1 && grouped & (1 << r as u32) == 0 {
            stuck += 1;
        }
    }
    stuck >= 2
}
