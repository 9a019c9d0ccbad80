//! The unit tests of `rules`: the meld policy's shortcuts (the lazy
//! listing, the suit-free keys, the opening memo, the counting "no") against
//! the forms they stand for, and the helpers' figures.

use super::discard::{card_worth_to, grouped_ranks, pile_worth_to, take_probability};
use super::meld::{
    can_go_out_now, consider, opening_in_reach, puts_heart_ace_in_group, surely_stuck_with,
    OpeningCache, Others, SuitFree,
};
use super::out::stakes_margin;
use super::worth::Outlook;
use super::*;
use crate::eval::{best_opening, is_meld, without_heart_aces};
use kanaszta_engine::{can_go_out_with, Card, CardSet, Rank, Rules, Suit};
use rand::{RngExt, SeedableRng};

/// Trying the meld steps on a simulation's world, and taking the rest
/// of the pile there before the listing, give the actions, states and
/// generator states that acting on the view gives, decision by
/// decision through whole hands.
#[test]
fn act_in_a_world_is_act() {
    let mut buf = Vec::new();
    let (mut melds, mut rests) = (0, 0);
    for version in ["decorated-2003-02", "decorated-2003-01"] {
        let rules = Rules::preset(version).unwrap();
        for seed in 0..20 {
            let mut g = GameState::new(rules, seed);
            let mut by_view: Vec<RulesAgent> = (0..g.players())
                .map(|_| RulesAgent::new(RulesParams::default()))
                .collect();
            let mut by_world = by_view.clone();
            let mut r1 = Pcg64Mcg::seed_from_u64(seed);
            let mut r2 = r1.clone();
            let mut steps = 0;
            while g.phase() != Phase::Over && steps < 3000 {
                let p = g.current_player();
                g.legal_actions(&mut buf);
                let view = g.view(p);
                let a = by_view[p].act(&view, &mut g.moves(&mut MoveBuf::new()), &mut r1);
                let mut w = g.clone();
                let b = if by_world[p].take_rest_in(p, &mut w) {
                    let mut t = g.clone();
                    t.apply(a).unwrap();
                    assert!(t == w, "seed {seed}, step {steps}");
                    rests += 1;
                    Action::TakeRest
                } else {
                    by_world[p].act_in(&view, &g, &mut g.moves(&mut MoveBuf::new()), &mut r2)
                };
                assert_eq!(a, b, "seed {seed}, step {steps}");
                assert!(r1 == r2, "seed {seed}, step {steps}");
                melds += (g.phase() == Phase::Meld) as u32;
                g.apply(a).unwrap();
                steps += 1;
            }
        }
    }
    assert!(melds > 200 && rests > 10, "{melds} {rests}");
}

/// The opening memo, kept by counts, answers as [`best_opening`] on
/// random pools and on the same pools in other suits.
#[test]
fn opening_memo_is_best_opening() {
    let mut memo = OpeningCache::default();
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    for _ in 0..20_000 {
        let mut pool = CardSet::EMPTY;
        let mut other = CardSet::EMPTY;
        let shift = rng.random_range(0..4);
        for _ in 0..rng.random_range(1..16) {
            if rng.random_range(0..14) == 0 {
                pool.insert(Card::JOKER);
                other.insert(Card::JOKER);
                continue;
            }
            let r = Rank::ALL[rng.random_range(0..13)];
            let s = rng.random_range(0..4);
            if pool.insert(Card::new(r, Suit::ALL[s])) {
                other.insert(Card::new(r, Suit::ALL[(s + shift) % 4]));
            }
        }
        assert_eq!(memo.best_opening(pool), best_opening(pool), "{pool}");
        assert_eq!(memo.best_opening(other), best_opening(other), "{other}");
    }
}

impl RulesAgent {
    /// The meld choice over the listing as it was written before the
    /// choice from candidates: each listed step weighed in order, one per
    /// suit-free key. The reference the candidate form is checked against.
    fn meld_choice_reference(
        &mut self,
        s: &GameState,
        legal: &[Action],
        o: &Outlook,
        others: Others,
    ) -> Option<Action> {
        if legal.contains(&Action::TakeRest) {
            return Some(Action::TakeRest);
        }
        let me = o.me;
        if let Some(a) = self.plan_step(s, me) {
            if legal.contains(&a) {
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
        // only once a step could earn the bonus.
        let mut out_mode = self.out_mode_start(table);
        let base = self.worth(s, o);
        let twin = self.twin_card(s, me);
        // Best first, ties to the earlier step: (gain, order, step).
        let mut best: Option<(f64, usize, Action)> = None;
        let mut outs: Vec<(f64, usize, Action)> = Vec::new();
        outs.clear();
        let mut tried: Vec<Option<SuitFree>> = Vec::new();
        tried.clear();
        for (i, a) in legal.iter().filter(|a| is_meld(a)).enumerate() {
            if !pending && matches!(a, Action::TakeWild { .. }) {
                continue;
            }
            if hearts && puts_heart_ace_in_group(a) && pickup_top != Some(Card::HEART_ACE) {
                continue;
            }
            // A step that moves the same cards from the hand as an earlier
            // one but for their suits gains exactly as much, and a tie goes
            // to the earlier one. (With wilds pending, a wild of one suit
            // may come from the hand and one of another from the pending.)
            let key = if pending { None } else { SuitFree::of(a, twin) };
            if key.is_some() && tried.contains(&key) {
                continue;
            }
            // `legal` is the listing of `s` or of the view it was sampled from.
            let mut t = s.clone();
            if t.apply_listed(*a).is_err() {
                continue;
            }
            tried.push(key);
            if !self.opening_kept(s, &t, a, me) || self.futile(a, &t, me) {
                continue;
            }
            let gain = self.worth(&t, o) - base;
            if t.pending_wilds().is_empty()
                && *out_mode.get_or_insert_with(|| self.wants_out(s, o, &others))
            {
                // Melding down towards going out: fewer cards, while the
                // way out stays open. The going-out test is the costly
                // part, so it waits until the bonus could decide the step.
                let h = t.hand(me);
                let with = gain + (1000.0 + 50.0 * (hand.len() as f64 - h.len() as f64));
                if with > gain {
                    outs.push((with, i, *a));
                } else if can_go_out_with(h, t.table(me).groups(), t.rules()) {
                    consider(&mut best, (with, i, *a));
                    continue;
                }
            }
            consider(&mut best, (gain, i, *a));
        }
        // Each step's gain is its bonus gain when it keeps the way out, else
        // the plain gain already counted. Dearest bonus first: once one
        // cannot beat the best, no later one can.
        outs.sort_by(|x, y| {
            y.0.partial_cmp(&x.0)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(x.1.cmp(&y.1))
        });
        for &(with, i, a) in &outs {
            if best.is_some_and(|(g, j, _)| with < g || (with == g && i > j)) {
                break;
            }
            let mut t = s.clone();
            if t.apply_listed(a).is_ok()
                && can_go_out_now(t.hand(me), t.table(me).groups(), t.rules())
            {
                best = Some((with, i, a));
            }
        }
        if let Some(a) = self.planned(s, o, &others, &mut out_mode, best.map(|b| b.2)) {
            if legal.contains(&a) {
                return Some(a);
            }
        }
        if out_mode != Some(true) {
            if let Some(a) = self.plan_turn(s, o, &others, best.map(|b| (b.0, b.2))) {
                if legal.contains(&a) {
                    return Some(a);
                }
                self.planner_drop();
            }
        }
        match best {
            Some((g, _, a)) if g > 0.0 || pending || in_pickup => Some(a),
            _ => legal
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Discard(_)))
                .or_else(|| best.filter(|_| self.must_open(s, me)).map(|(_, _, a)| a)),
        }
    }
}

/// At every meld-phase decision of hands between rules agents (default
/// rules, the 2003-01 rules, and a patience of 2 so that the
/// finisher's turns come often), the decision from the lazy moves is
/// the one from the listing, and the agent's finisher and the seat's
/// generator are left alike.
#[test]
fn lazy_decision_is_the_listed_one() {
    let impatient = RulesParams {
        patience: 2,
        ..RulesParams::default()
    };
    let settings = [
        (Rules::default(), 0..30),
        (Rules::preset("decorated-2003-01").unwrap(), 30..40),
        (Rules::default(), 40..60),
    ];
    let compared = crate::eval::lazy_against_listed(
        &settings,
        |k| match k {
            2 => RulesAgent::new(impatient.clone()),
            _ => RulesAgent::new(RulesParams::default()),
        },
        |a, b| a.finisher == b.finisher,
    );
    assert!(compared > 3000, "{compared} decisions compared");
}

/// The meld choice made without the listing is the one made with it,
/// at every meld phase of random play under both rule versions, with
/// the others' hands read in the state and sampled from the view.
#[test]
fn unlisted_meld_choice_is_the_listed_one() {
    let mut agent = RulesAgent::new(RulesParams::default());
    let mut buf = Vec::new();
    let (mut melds, mut ends) = (0, 0);
    for version in ["decorated-2003-02", "decorated-2003-01"] {
        let rules = Rules::preset(version).unwrap();
        for seed in 0..60 {
            let mut g = GameState::new(rules, seed);
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            while g.phase() != Phase::Over {
                g.legal_actions(&mut buf);
                if g.phase() == Phase::Meld {
                    let me = g.current_player();
                    let view = g.view(me);
                    let o = Outlook::of(&view);
                    let here = agent.meld_choice_reference(&g, &buf, &o, Others::Here);
                    assert_eq!(
                        agent.meld_choice_unlisted(&g, &o, Others::Here),
                        here,
                        "seed {seed}, turn {}",
                        g.turns()
                    );
                    let sample = Pcg64Mcg::seed_from_u64(!seed);
                    let sampled = agent.meld_choice_reference(
                        &g,
                        &buf,
                        &o,
                        Others::Sample(&view, sample.clone()),
                    );
                    assert_eq!(
                        agent.meld_choice_unlisted(&g, &o, Others::Sample(&view, sample)),
                        sampled,
                        "seed {seed}, turn {}",
                        g.turns()
                    );
                    match here {
                        Some(Action::Discard(_)) | None => ends += 1,
                        Some(_) => melds += 1,
                    }
                }
                let a = crate::eval::meld_biased_pick(&buf, &mut rng);
                g.apply_listed(a).unwrap();
            }
        }
    }
    assert!(
        melds > 1000 && ends > 1000,
        "{melds} meld steps, {ends} ends"
    );
}

/// Meld steps that differ only in their cards' suits leave positions
/// that every measure of the meld policy reads alike when no wild is
/// pending, on the meld phases of random play under both rule versions:
/// every candidate step the step's own rules take, listed or not (the
/// unlisted choice weighs one of them for all).
#[test]
fn suit_free_steps_are_worth_the_same() {
    let agent = RulesAgent::new(RulesParams::default());
    let mut memo = OpeningCache::default();
    let mut pairs = 0;
    crate::eval::play_meld_biased_hands(0..100, |&rules, g, _| {
        if g.phase() == Phase::Meld && g.pending_wilds().is_empty() {
            let me = g.current_player();
            let o = Outlook::of(&g.view(me));
            let twin = agent.twin_card(g, me);
            let mut buf = MoveBuf::new();
            let cands = g.moves(&mut buf).actions();
            let steps: Vec<Action> = cands.iter().copied().filter(is_meld).collect();
            for (i, a) in steps.iter().enumerate() {
                for b in &steps[i + 1..] {
                    if SuitFree::of(a, twin) != SuitFree::of(b, twin) {
                        continue;
                    }
                    let (mut ta, mut tb) = (g.clone(), g.clone());
                    let (oka, okb) = (ta.apply_listed(*a).is_ok(), tb.apply_listed(*b).is_ok());
                    assert_eq!(oka, okb, "{a} / {b}");
                    if !oka {
                        continue;
                    }
                    let (ha, hb) = (ta.hand(me), tb.hand(me));
                    let (ga, gb) = (ta.table(me).groups(), tb.table(me).groups());
                    assert_eq!(
                        agent.worth(&ta, &o).to_bits(),
                        agent.worth(&tb, &o).to_bits(),
                        "{a} / {b}"
                    );
                    assert_eq!(
                        can_go_out_with(ha, ga, &rules),
                        can_go_out_with(hb, gb, &rules),
                        "{a} / {b}"
                    );
                    assert_eq!(ha.len(), hb.len());
                    assert_eq!(ta.pending_wilds().len(), tb.pending_wilds().len());
                    assert_eq!(ta.table(me).opening_value(), tb.table(me).opening_value());
                    let need = g.opening_minimum(me) - ta.table(me).opening_value();
                    let (pa, pb) = (without_heart_aces(ha), without_heart_aces(hb));
                    assert_eq!(
                        opening_in_reach(pa, need, &mut memo),
                        opening_in_reach(pb, need, &mut memo)
                    );
                    pairs += 1;
                }
            }
        }
    });
    assert!(pairs > 1000, "{pairs}");
}

/// The counting "no" never contradicts the solver, on the tables of
/// random play under both rule versions with the real hands and with
/// random ones, and it settles a good part of the hands that cannot go
/// out; asked again through the engine's memo, kept by counts, the
/// test answers as before, the hands with their suits turned included.
#[test]
fn surely_stuck_agrees_with_the_solver() {
    // The same hand with the suits of its naturals and 2s turned (the
    // heart ace and the threes, which the solver tells apart, kept).
    let turned = |h: CardSet| {
        let mut t = CardSet::EMPTY;
        for c in h.iter() {
            t.insert(match (c.rank(), c.suit()) {
                (Some(r), Some(s)) if r != Rank::Three && c != Card::HEART_ACE => {
                    let s = Suit::ALL[(s as usize + 1) % 4];
                    let d = Card::new(r, s);
                    if d == Card::HEART_ACE {
                        Card::new(r, Suit::ALL[(s as usize + 1) % 4])
                    } else {
                        d
                    }
                }
                _ => c,
            });
        }
        t
    };
    let (mut stuck, mut cannot, mut can) = (0, 0, 0);
    crate::eval::play_meld_biased_hands(0..30, |&rules, g, rng| {
        for p in 0..g.players() {
            let groups = g.table(p).groups();
            let mut hands = vec![g.hand(p)];
            for _ in 0..4 {
                let n = rng.random_range(1..12);
                hands.push(crate::eval::random_cards(rng, n));
            }
            for h in hands {
                let out = can_go_out_with(h, groups, &rules);
                let sure = surely_stuck_with(h, groups, &rules);
                assert!(!(sure && out), "{h} onto {groups:?}");
                assert_eq!(can_go_out_now(h, groups, &rules), out, "{h}");
                let t = turned(h);
                assert_eq!(can_go_out_with(t, groups, &rules), out, "{t}");
                assert_eq!(can_go_out_now(t, groups, &rules), out, "{t}");
                stuck += sure as u32;
                cannot += !out as u32;
                can += out as u32;
            }
        }
    });
    assert!(can > 100, "{can}");
    assert!(stuck > cannot / 2, "{stuck} of {cannot}");
}

#[test]
fn take_probability_is_a_probability() {
    assert_eq!(take_probability(2, 0, 0, 0.1, 0.1), 1.0);
    assert_eq!(take_probability(0, 0, 0, 0.1, 0.1), 0.0);
    let p = take_probability(0, 0, 10, 0.05, 0.1);
    assert!(p > 0.0 && p < 1.0, "{p}");
    assert!(take_probability(1, 0, 10, 0.05, 0.1) > p);
}

/// `stakes`: each hand score is taxed by its player's running total
/// before the hand (D-15, the example of D-15.3), and a hand that
/// takes a total above the target ends the match (D-16.2), whatever
/// its margin. Out of a match (totals nought) the margin is the raw one.
#[test]
fn stakes_margin_reads_the_tax_and_the_target_d15_d16() {
    let r = Rules::default();
    let hand = |totals: &[i32]| GameState::new_hand(r, 7, 0, totals);
    // No match under way: the raw margin.
    assert_eq!(stakes_margin(&hand(&[0, 0]), 0, 1, 900, 400), 500);
    // D-15.3: 9,725 before the hand, 2,375 → 240 (9,965, not above
    // the target); the opponent below 5,000 keeps his 500 untaxed.
    assert_eq!(stakes_margin(&hand(&[9725, 4000]), 0, 1, 2375, 500), -260);
    // D-15.1: halved above 5,000 (545 → 275), quartered above 7,000.
    assert_eq!(stakes_margin(&hand(&[5000, 7000]), 0, 1, 545, 400), 175);
    // D-16.2: 9,900 + 110 passes 10,000 and wins the match, however
    // much the opponent scores below it.
    let won = stakes_margin(&hand(&[9900, 3000]), 0, 1, 1100, 3000);
    assert!(won > 10_000, "{won}");
    // ... and the opponent passing it first loses it.
    let lost = stakes_margin(&hand(&[6000, 9950]), 0, 1, 3000, 600);
    assert!(lost < -10_000, "{lost}");
    // Both past it: the higher total wins (D-16.2).
    let both = stakes_margin(&hand(&[9990, 9950]), 0, 1, 200, 700);
    assert!(both < -10_000, "{both}");
}

/// `deny`: the pile left lying is worth its cards to the opponent who
/// may take it next (D-6.2), a black three in it a loss (D-6.3).
#[test]
fn pile_worth_to_counts_the_pile_cards_d6_2() {
    let mut g = GameState::new(Rules::default(), 3);
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let mut moves = MoveBuf::new();
    let mut a = RulesAgent::default();
    // Play into the hand until the pile holds a few cards.
    while !g.is_terminal() && g.view(0).pile().len() < 4 {
        let p = g.current_player();
        let act = a.act(&g.view(p), &mut g.moves(&mut moves), &mut rng);
        g.apply(act).unwrap();
    }
    let v = g.view(0);
    let grouped = grouped_ranks(v.table(1));
    let sum: f64 = v.pile().iter().map(|c| card_worth_to(grouped, *c)).sum();
    assert_eq!(pile_worth_to(&v, 1), sum.max(0.0));
    assert!(pile_worth_to(&v, 1) >= 0.0);
}

/// With the turn planner on, it goes out from further behind (D-13)
/// and weighs groups close to a canasta more (D-10); `plan=off` keeps
/// the `hold` and `chase` of the play before it.
#[test]
fn plan_hold_and_chase_apply_with_the_planner_only() {
    let mut p = RulesParams::default();
    assert_eq!(p.hold_in_force(), p.hold + p.plan_hold);
    assert_eq!(p.chase_in_force(), p.chase + p.plan_chase);
    p.set("plan", "off").unwrap();
    assert_eq!((p.hold_in_force(), p.chase_in_force()), (p.hold, p.chase));
    let mut q = RulesParams::default();
    q.set("plan_hold", "0").unwrap();
    q.set("plan_chase", "0").unwrap();
    assert_eq!((q.hold_in_force(), q.chase_in_force()), (q.hold, q.chase));
}

/// The pickup check's walk (`walk`) reaches a discard from every
/// penalized pickup the engine allows (I-9: each listed step keeps the
/// turn completable), with the rest of the pile taken, at a high opening
/// minimum too, where the completion search within 20,000 states often
/// finds no way.
#[test]
fn walk_through_a_listed_pickup_reaches_a_discard_i9() {
    let mut rules = Rules::preset("decorated-2003-02").unwrap();
    rules.set("opening", "120").unwrap();
    let mut buf = Vec::new();
    let mut mbuf = MoveBuf::new();
    let mut pickups = 0;
    for seed in 0..6 {
        let mut g = GameState::new(rules, seed);
        let mut agents: Vec<RulesAgent> = (0..g.players())
            .map(|_| RulesAgent::new(RulesParams::default()))
            .collect();
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut steps = 0;
        while g.phase() != Phase::Over && steps < 3000 {
            g.legal_actions(&mut buf);
            if g.phase() == Phase::Draw && buf.contains(&Action::TakePile) {
                let mut s = g.clone();
                s.apply(Action::TakePile).unwrap();
                assert!(
                    pickup::walk_through(&mut s, &mut mbuf),
                    "seed {seed}, step {steps}"
                );
                assert!(s.phase() == Phase::Meld && s.pickup().is_some_and(|p| p.rest_taken));
                pickups += 1;
            }
            let p = g.current_player();
            let view = g.view(p);
            let a = agents[p].act(&view, &mut g.moves(&mut MoveBuf::new()), &mut rng);
            g.apply(a).unwrap();
            steps += 1;
        }
    }
    assert!(pickups >= 10, "{pickups}");
}
