//! Tests of the state's layers.

use super::search_memory::{Search, Seen};
use super::*;
use crate::action::Action;
use crate::rules::test_variants as rule_variants;
use crate::rules::Permit;
use std::hash::{Hash, Hasher};

/// Plays random hands from `seeds` and calls `f(seed, action, state)`
/// with the state after every meld step that `meld_step` accepts from
/// every meld-phase position met (the state quiet, as in a search).
fn each_meld_step(seeds: std::ops::Range<u64>, f: impl FnMut(u64, Action, &GameState)) {
    each_meld_step_under(Rules::default(), seeds, f)
}

/// [`each_meld_step`] under `rules`.
fn each_meld_step_under(
    rules: Rules,
    seeds: std::ops::Range<u64>,
    mut f: impl FnMut(u64, Action, &GameState),
) {
    let mut legal = Vec::new();
    let mut cand = Vec::new();
    for seed in seeds {
        let mut g = GameState::new(rules, seed);
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        while !g.is_terminal() {
            if g.phase == Phase::Meld {
                cand.clear();
                g.raw_meld_candidates(&mut cand, false);
                for &a in &cand {
                    let mut t = g.clone();
                    t.quiet = true;
                    if t.meld_step(a).is_ok() {
                        f(seed, a, &t);
                    }
                }
            }
            g.legal_actions(&mut legal);
            assert!(
                !legal.is_empty(),
                "seed {seed}: nothing listed\n{}",
                g.to_position_json()
            );
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            g.apply(legal[(x % legal.len() as u64) as usize]).unwrap();
        }
    }
}

/// `completion` stops deepening once a pass met no depth limit; its
/// answers are those of deepening through every limit (then the deep
/// search), on the states of random hands, with budgets small enough
/// to run out too. Both search with the finisher's bound (that the
/// bound keeps the way out is `finisher_bound_keeps_the_shortest_way_out`).
#[test]
fn completion_stops_deepening_only_when_nothing_deeper_exists() {
    let reference = |t: &GameState, budget: u32| -> Option<Vec<Action>> {
        let mut search = Search::with_budget(budget);
        search.bound = true;
        let mut b = budget;
        for limit in 1..=150 {
            search.seen.clear();
            let mut path = Vec::new();
            if t.search_rec(&mut b, &mut search, limit, &mut path) {
                path.reverse();
                return Some(path);
            }
            if b == 0 {
                break;
            }
        }
        let mut b = budget;
        search.seen.clear();
        let mut path = Vec::new();
        if t.search_rec(&mut b, &mut search, 150, &mut path) {
            path.reverse();
            return Some(path);
        }
        None
    };
    let (mut compared, mut none) = (0, 0);
    each_meld_step(0..12, |seed, a, t| {
        if t.surely_stuck() {
            return;
        }
        for budget in [50, 400, 3000] {
            let got = t.completion(budget);
            none += got.is_none() as u32;
            assert_eq!(
                got,
                reference(t, budget),
                "seed {seed}: after {a}, budget {budget}"
            );
            compared += 1;
        }
    });
    assert!(
        compared > 1000 && none > 50,
        "{compared} compared, {none} without a way out"
    );
}

/// `apply_listed` of every listed action leaves the state `apply`
/// leaves, in every phase of random hands (default rules and every
/// switch flipped), also from a determinization of the mover's view.
#[test]
fn apply_listed_is_apply_for_listed_actions() {
    let mut flipped = Rules::default();
    flipped
        .apply_settings([
            "free_pickup_wild=forbid",
            "groups_per_rank=many",
            "opening=120",
        ])
        .unwrap();
    let mut legal = Vec::new();
    let mut rng = rand_pcg::Pcg64Mcg::new(7);
    let mut meld_steps = 0;
    for (rules, seeds) in [(Rules::default(), 0..30), (flipped, 100..115)] {
        for seed in seeds {
            let mut g = GameState::new(rules, seed);
            let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            while !g.is_terminal() {
                g.legal_actions(&mut legal);
                let world = g.view(g.current_player()).determinize(&mut rng);
                for &a in &legal {
                    let mut want = g.clone();
                    want.apply(a).unwrap();
                    let mut got = g.clone();
                    got.apply_listed(a).unwrap();
                    assert!(got == want, "seed {seed}: {a}");
                    let (mut w1, mut w2) = (world.clone(), world.clone());
                    w1.apply(a).unwrap();
                    w2.apply_listed(a).unwrap();
                    assert!(w1 == w2, "seed {seed}, sampled world: {a}");
                    if g.phase == Phase::Meld && !matches!(a, Action::Discard(_) | Action::Reset) {
                        meld_steps += 1;
                    }
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if legal.is_empty() {
                    panic!("EMPTY\n{}", g.to_position_json());
                }
                g.apply(legal[(x % legal.len() as u64) as usize]).unwrap();
            }
        }
    }
    assert!(meld_steps > 1000, "only {meld_steps} meld steps met");
}

/// I-9: the counting test's "no" is exact. After every meld step of
/// random hands that it calls stuck, a search far beyond the usual
/// budget finds no way to finish the turn either.
#[test]
fn surely_stuck_is_exact() {
    let [default, older, many, convert, free] = rule_variants();
    for (rules, seeds) in [
        (default, 0..40),
        (older, 40..55),
        (many, 55..70),
        (convert, 70..85),
        (free, 85..100),
    ] {
        let mut stuck = 0;
        let mut by_solver = 0;
        each_meld_step_under(rules, seeds, |seed, a, t| {
            if !t.surely_stuck() {
                return;
            }
            stuck += 1;
            let p = t.current as usize;
            by_solver += (t.hands[p].len() == 1 && !t.tables[p].has_new()) as u32;
            let mut budget = 20_000;
            let mut search = Search::with_budget(budget);
            let found = t.search_rec(&mut budget, &mut search, 1000, &mut Vec::new());
            assert!(!found, "seed {seed}: {a} called stuck, yet a way was found");
        });
        assert!(
            stuck > 100 && by_solver > 10,
            "only {stuck} stuck states met, {by_solver} with one card in hand"
        );
    }
}

/// I-25: `resettable` is the plain comparison of the mover's hand,
/// table and turn with the anchor, which its flag (`at_anchor`) only
/// spares: after every meld step of random hands under five rule sets
/// (where a step always clears the flag, and some lead back to the
/// anchor, a lay taken back), at every state of those hands (where the
/// flag is set at the start of each meld phase), and after a reset.
#[test]
fn i25_resettable_is_the_comparison_with_the_anchor() {
    let plain = |t: &GameState| {
        let p = t.current as usize;
        t.phase == Phase::Meld
            && (t.hands[p] != t.anchor.hand
                || t.tables[p] != t.anchor.table
                || t.turn != t.anchor.turn)
    };
    let (mut steps, mut back, mut flagged, mut resets) = (0, 0, 0, 0);
    let mut legal = Vec::new();
    for rules in rule_variants() {
        each_meld_step_under(rules, 0..12, |_, a, t| {
            assert!(!t.turn.at_anchor, "{a} clears the flag");
            assert_eq!(t.resettable(), plain(t), "after {a}");
            steps += 1;
            back += !plain(t) as u32;
            if t.may_reset() && a != Action::TakeRest {
                let mut u = t.clone();
                u.apply(Action::Reset).unwrap();
                assert!(u.turn.at_anchor && !u.resettable() && !plain(&u));
                resets += 1;
            }
        });
        for seed in 100..112 {
            let mut g = GameState::new(rules, seed);
            let mut x = seed | 1;
            while !g.is_terminal() {
                assert_eq!(g.resettable(), plain(&g));
                flagged += (g.phase == Phase::Meld && g.turn.at_anchor) as u32;
                g.legal_actions(&mut legal);
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                g.apply(legal[(x % legal.len() as u64) as usize]).unwrap();
            }
        }
    }
    assert!(
        steps > 10_000 && back > 100 && flagged > 1000 && resets > 1000,
        "{steps} steps, {back} back at the anchor, {flagged} flagged, {resets} resets"
    );
}

/// I-9: the candidates with the one-at-a-time check are the listing.
/// Along random hands under five rule sets, in every phase, the
/// candidates the check passes are the legal actions, in order (a
/// meld phase's candidates in reverse too, so that the check's copy
/// serves steps in any order); `read_table_after` of a candidate reads the
/// mover's table after the step where `apply_listed` takes a listed
/// one, and `None` where the step itself is refused; and
/// `extend_from_hand` of every extend of a card in hand onto every
/// group is the group the step changes, before and after, where the
/// step is made, and `Some(None)` where it is refused.
#[test]
fn candidates_checked_one_at_a_time_are_the_listing() {
    let [default, older, many, convert, free] = rule_variants();
    let (mut legal, mut cand) = (Vec::new(), Vec::new());
    let (mut refused, mut stepped, mut unlisted) = (0, 0, 0);
    let mut extends = (0, 0);
    for (rules, seeds) in [
        (default, 0..30),
        (older, 30..40),
        (many, 40..50),
        (convert, 50..60),
        (free, 60..70),
    ] {
        for seed in seeds {
            let mut g = GameState::new(rules, seed);
            let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            while !g.is_terminal() {
                g.legal_actions(&mut legal);
                g.candidate_actions(&mut cand);
                let mut check = g.candidate_check();
                let passed: Vec<Action> = cand
                    .iter()
                    .copied()
                    .filter(|&a| check.is_listed(a))
                    .collect();
                assert_eq!(passed, legal, "seed {seed}, turn {}", g.turns);
                if g.phase == Phase::Meld {
                    let mut check = g.candidate_check();
                    let mut backwards: Vec<Action> = cand
                        .iter()
                        .rev()
                        .copied()
                        .filter(|&a| check.is_listed(a))
                        .collect();
                    backwards.reverse();
                    assert_eq!(backwards, legal, "seed {seed}, turn {}", g.turns);
                    let p = g.current as usize;
                    // Every extend of a card in hand onto every group,
                    // candidate or not (refused ones among them): the
                    // group before and after is the table's change.
                    let groups = g.tables[p].len() as u8;
                    for (gi, c) in (0..groups).flat_map(|i| g.hands[p].kinds().map(move |c| (i, c)))
                    {
                        let a = Action::Extend { group: gi, card: c };
                        let Some(change) = check.extend_from_hand(a) else {
                            assert!(!g.turn.pending.is_empty(), "{a} from the hand");
                            continue;
                        };
                        let mut t = g.clone();
                        t.quiet = true;
                        match (t.meld_step(a), change) {
                            (Ok(()), Some((from, to))) => {
                                let mut want = g.tables[p];
                                assert_eq!(from, want.groups()[gi as usize]);
                                want.groups_mut()[gi as usize] = to;
                                assert!(want == t.tables[p], "seed {seed}: {a}");
                                extends.0 += 1;
                            }
                            (Err(_), None) => extends.1 += 1,
                            (made, change) => {
                                panic!("seed {seed}: {a}: step {made:?}, change {change:?}")
                            }
                        }
                    }
                    for &a in &cand {
                        let after = check.read_table_after(a, |t| *t);
                        if matches!(a, Action::Discard(_) | Action::Reset) {
                            assert!(after.is_none(), "{a} has no table after");
                            continue;
                        }
                        let mut t = g.clone();
                        t.quiet = true;
                        match t.meld_step(a) {
                            Ok(()) => {
                                let after = after.expect("a step made has a table after");
                                assert!(after == t.tables[p], "seed {seed}: {a}");
                                stepped += 1;
                                if legal.contains(&a) {
                                    let mut u = g.clone();
                                    u.apply_listed(a).unwrap();
                                    assert!(after == u.tables[p], "seed {seed}: {a}");
                                } else {
                                    unlisted += 1;
                                }
                            }
                            Err(_) => {
                                assert!(after.is_none(), "seed {seed}: {a} refused");
                                refused += 1;
                            }
                        }
                    }
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                g.apply(legal[(x % legal.len() as u64) as usize]).unwrap();
            }
        }
    }
    // Steps refused by their own rules, steps made but not listed
    // (their turn could not be completed, I-9), and listed ones.
    assert!(
        refused > 1000 && unlisted > 100 && stepped > unlisted + 1000,
        "{refused} refused, {unlisted} unlisted of {stepped} made"
    );
    assert!(
        extends.0 > 1000 && extends.1 > 1000,
        "extends from the hand: {} made, {} refused",
        extends.0,
        extends.1
    );
}

/// The answers kept from recent completion searches (filled by the
/// listing and `apply` along random hands) are the ones a fresh search
/// gives, budget left included.
/// The search's visited set answers as a map from key to the largest
/// depth recorded since the last `clear`, through growth, clears and
/// the wrap of its generation counter; keys share low bits so that
/// probes collide.
#[test]
fn visited_set_is_a_map_cleared_by_generation() {
    use std::collections::HashMap;
    let mut seen = Seen::with_room(4);
    let mut reference: HashMap<u64, u32> = HashMap::new();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let (mut refused, mut grown) = (0, 0);
    for round in 0..400 {
        if round == 200 {
            // The next clears wrap the generation to 0 and on to 1.
            seen.generation = u32::MAX - 1;
        }
        seen.clear();
        reference.clear();
        let n = 1 + next() % 300;
        for _ in 0..n {
            // Few distinct keys, many alike in their low bits.
            let key = (next() % 97) << 20 | (next() % 3);
            let depth = (next() % 6) as u32;
            let want = match reference.get(&key) {
                Some(&d) if d >= depth => false,
                _ => {
                    reference.insert(key, depth);
                    true
                }
            };
            let cap = seen.slots.len();
            assert_eq!(seen.visit(key, depth), want, "round {round} key {key:#x}");
            grown += (seen.slots.len() > cap) as u32;
            refused += !want as u32;
        }
        assert_eq!(seen.len, reference.len());
        for (&k, &d) in &reference {
            assert_eq!(seen.get(k), Some(d));
        }
        assert_eq!(seen.get(1 << 40), None);
    }
    assert!(
        refused > 1000 && grown > 0,
        "{refused} refused, grown {grown} times"
    );
    // Wrapped at round 201 to 1, then one a round.
    assert_eq!(seen.generation, 1 + (399 - 201));
}

/// I-9, D-13.1: `CandidateCheck::surely_unlisted` says yes only of
/// candidates the listing leaves out. On the meld-phase states of
/// play that lays and extends whenever it can (hands of two cards
/// before tables of many groups), under the five rule sets of the
/// listing test: every candidate it rules out is an extend (a step
/// made, mostly) and not listed; it rules out only at states of two cards,
/// no wild pending, no pickup in progress and nothing laid this turn
/// where the mover cannot go out. Such states come often, some with a
/// way out, and at them extends are listed too.
#[test]
fn extends_surely_unlisted_are_not_listed() {
    let (mut legal, mut cand) = (Vec::new(), Vec::new());
    let (mut ruled_out, mut made, mut listed_two) = (0, 0, 0);
    let (mut states, mut out_states) = (0, 0);
    for (k, rules) in rule_variants().into_iter().enumerate() {
        for seed in 0..16 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x5a1);
            play_meld_biased(
                rules,
                seed + 100 * k as u64,
                &mut rng,
                0.9,
                |a| matches!(a, Action::Lay { .. } | Action::Extend { .. }),
                |g, _| {
                    if g.phase != Phase::Meld {
                        return;
                    }
                    g.legal_actions(&mut legal);
                    g.candidate_actions(&mut cand);
                    let mut check = g.candidate_check();
                    let p = g.current as usize;
                    let plain = g.hands[p].len() == 2
                        && g.turn.pending.is_empty()
                        && !g.before_rest()
                        && !g.tables[p].has_new();
                    let can_out = plain && g.can_go_out(p, g.hands[p], false, None, CardSet::EMPTY);
                    states += plain as u32;
                    out_states += can_out as u32;
                    for &a in &cand {
                        let listed = legal.contains(&a);
                        if !check.surely_unlisted(a) {
                            listed_two +=
                                (plain && listed && matches!(a, Action::Extend { .. })) as u32;
                            continue;
                        }
                        assert!(!listed, "seed {seed}: {a} is listed");
                        assert!(plain && !can_out, "seed {seed}: {a} ruled out");
                        assert!(matches!(a, Action::Extend { .. }), "{a}");
                        ruled_out += 1;
                        made += check.read_table_after(a, |_| ()).is_some() as u32;
                    }
                },
            );
        }
    }
    assert!(
        states > 1000 && made > 1000 && listed_two > 100 && out_states > 100,
        "{states} states ({out_states} with a way out), {ruled_out} ruled out ({made} steps made), {listed_two} listed"
    );
}

/// `CandidateCheck::listed_discards` counts the discards of the
/// listing, on every meld-phase state of random hands and after every
/// meld step there, under both rule versions (so with the card taken
/// for free barred from the discard, I-21, and allowed) and with
/// openings short of the minimum (D-8.2) and turns that must go out
/// (I-26) met.
#[test]
fn listed_discards_count_the_listing() {
    let mut allow = Rules::default();
    allow.set("free_pickup_return", "allow").unwrap();
    let (mut states, mut barred, mut none) = (0, 0, 0);
    let mut legal = Vec::new();
    for rules in [Rules::preset("decorated-2003-02").unwrap(), allow] {
        each_meld_step_under(rules, 0..30, |_, _, t| {
            t.legal_actions(&mut legal);
            let want = legal
                .iter()
                .filter(|a| matches!(a, Action::Discard(_)))
                .count() as u32;
            let hand = t.hands[t.current as usize];
            assert_eq!(t.candidate_check().listed_discards(), want, "[{hand}]");
            states += 1;
            none += (want == 0) as u32;
            barred +=
                t.turn.free_card.is_some_and(|c| {
                    rules.free_pickup_return == Permit::Forbid && hand.count(c) == 1
                }) as u32;
        });
    }
    assert!(
        states > 10_000 && barred > 100 && none > 1000,
        "{states} states, {barred} with a barred card, {none} with no discard"
    );
}

/// The deepening of [`GameState::completion_in`] alone, with or
/// without the finisher's bound: the way out, and whether deepening
/// decided (found one, or saw there is none) within `budget`.
fn deepening(t: &GameState, budget: u32, bound: bool) -> (Option<Vec<Action>>, bool) {
    let mut search = Search::with_budget(budget);
    search.bound = bound;
    let mut b = budget;
    for limit in 1..=150 {
        search.seen.clear();
        search.cut = false;
        let mut path = Vec::new();
        if t.search_rec(&mut b, &mut search, limit, &mut path) {
            path.reverse();
            return (Some(path), true);
        }
        if b == 0 {
            return (None, false);
        }
        if !search.cut {
            return (None, true);
        }
    }
    (None, false)
}

/// The finisher's search leaves out the nodes that cannot reach a
/// discard within their steps ([`GameState::steps_to_discard`]): the
/// bound never exceeds the steps of the shortest way out, from the
/// start or from any state on it; and the search with the bound finds
/// the same way out (the shortest, the first of its length) as the
/// search without, wherever that one decides within its budget. On
/// the tables of play that lays whenever it can, so that hands of one
/// card that go out by moving wilds come often, under both rule
/// versions and with many groups per rank.
#[test]
fn finisher_bound_keeps_the_shortest_way_out() {
    use rand::SeedableRng;
    let mut many = Rules::default();
    many.set("groups_per_rank", "many").unwrap();
    let rule_sets = [
        Rules::preset("decorated-2003-02").unwrap(),
        Rules::preset("decorated-2003-01").unwrap(),
        many,
    ];
    let (mut compared, mut long, mut none) = (0, 0, 0);
    let mut pickups = 0;
    for rules in rule_sets {
        for seed in 0..42 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0xb0);
            play_meld_biased(
                rules,
                seed,
                &mut rng,
                0.9,
                |a| !matches!(a, Action::Discard(_) | Action::Reset),
                |g, _| {
                    if g.phase == Phase::Meld && !g.surely_stuck() {
                        let mut t = g.clone();
                        t.quiet = true;
                        let (plain, decided) = deepening(&t, 20_000, false);
                        if decided {
                            let (bounded, _) = deepening(&t, 20_000, true);
                            assert_eq!(
                                bounded, plain,
                                "seed {seed}: {:?}",
                                t.tables[t.current as usize]
                            );
                            compared += 1;
                            match &plain {
                                None => none += 1,
                                Some(way) => {
                                    // Meld steps left before the discard, from each state on the way.
                                    let mut u = t.clone();
                                    for (i, &a) in way.iter().enumerate() {
                                        let left = (way.len() - 1 - i) as u32;
                                        let least = u.steps_to_discard();
                                        assert!(
                                        least <= left,
                                        "seed {seed}: bound {least:?} with {left} steps left before {a}"
                                    );
                                        if matches!(a, Action::Discard(_)) {
                                            break;
                                        }
                                        u.meld_step(a).unwrap();
                                    }
                                    long += (way.len() > 4) as u32;
                                    pickups += (t.before_rest()
                                        && !t.tables[t.current as usize].opened
                                        && way.len() > 3)
                                        as u32;
                                }
                            }
                        }
                    }
                },
            );
        }
    }
    assert!(
        compared > 5000 && long > 100 && pickups > 100,
        "{compared} compared, {long} long ways, {pickups} pickups of an opening, {none} without a way"
    );
}

#[test]
fn leaves_left_unmarked_change_no_search() {
    let mut long = 0;
    each_meld_step(0..12, |seed, a, t| {
        if t.surely_stuck() {
            return;
        }
        for budget in [40, 300, 5000] {
            let fast = Search::with_budget(budget);
            let mut marked = Search::with_budget(budget);
            marked.mark_leaves = true;
            let [p0, p1] = [fast, marked].map(|mut search| t.completion_in(budget, &mut search));
            long += p0.as_ref().is_some_and(|p| p.len() > 2) as u32;
            assert_eq!(
                p0, p1,
                "seed {seed}: after {a}, budget {budget}: the way out"
            );
        }
    });
    assert!(long > 100, "only {long} ways out of more than one step");
}

// ----- I-32: the dead lock against the engine's own steps ------------------

use crate::test_util::cs;

/// A probe of `g` in which player `p` begins a meld phase holding
/// `hand`, his table as at the end of a turn.
fn probe(g: &GameState, p: usize, hand: CardSet) -> GameState {
    let mut t = g.clone();
    t.current = p as u8;
    t.phase = Phase::Meld;
    t.hands[p] = hand;
    t.known[p] = CardSet::EMPTY;
    t.tables[p].end_turn();
    t.turn = Turn {
        opened_at_start: t.tables[p].opened,
        ..Turn::default()
    };
    t.quiet = true;
    t.set_anchor();
    t
}

/// Every state the mover reaches by meld steps (each with its own
/// rules, D-9 … D-12), `None` past `cap` states.
fn reachable(start: &GameState, cap: usize) -> Option<Vec<GameState>> {
    let p = start.current as usize;
    let key = |g: &GameState| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (g.hands[p], g.tables[p], g.turn).hash(&mut h);
        h.finish()
    };
    let mut seen = std::collections::HashSet::new();
    seen.insert(key(start));
    let mut out = vec![start.clone()];
    let mut i = 0;
    let mut cand = Vec::new();
    while i < out.len() {
        let g = out[i].clone();
        i += 1;
        g.candidate_actions(&mut cand);
        for &a in &cand {
            if matches!(a, Action::Discard(_) | Action::Reset) {
                continue;
            }
            let mut n = g.clone();
            if n.apply_listed(a).is_ok() && seen.insert(key(&n)) {
                if out.len() >= cap {
                    return None;
                }
                out.push(n);
            }
        }
    }
    Some(out)
}

fn sorted_groups(t: &Table) -> Vec<(u64, u64, u8)> {
    let mut v: Vec<_> = t.groups().iter().map(|g| g.cards().raw()).collect();
    v.sort();
    v
}

/// I-32 is exact: at the turns of random hands, under every rule set
/// the going-out test reads, [`wild_can_move`] says whether some
/// sequence of meld steps with two unmeldable cards in hand ends with
/// nothing pending and the table changed; [`dead_locked`] says whether,
/// besides, no kind outside the tables, held with an unmeldable card,
/// lets the player go out by the engine's own steps.
#[test]
fn i32_dead_lock_is_the_search_over_the_engines_steps() {
    use rand::SeedableRng;
    let threes = cs("3S 3C");
    let (mut tables, mut dead, mut skipped, mut moving) = (0, 0, 0, 0);
    for rules in rule_variants() {
        for seed in 0..40u64 {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
            let mut n = 0u32;
            play_meld_biased(
                rules,
                seed,
                &mut rng,
                0.9,
                |a| {
                    matches!(
                        a,
                        Action::Lay { .. } | Action::Extend { .. } | Action::TakeWild { .. }
                    )
                },
                |g, _| {
                    n += 1;
                    if g.phase != Phase::Draw || !n.is_multiple_of(3) {
                        return;
                    }
                    for p in 0..g.players() {
                        let table = &g.tables[p];
                        if table.is_empty() {
                            continue;
                        }
                        let start = probe(g, p, threes);
                        let Some(states) = reachable(&start, 4000) else {
                            skipped += 1;
                            continue;
                        };
                        let before = sorted_groups(table);
                        let moved = states.iter().any(|s| {
                            s.turn.pending.is_empty() && sorted_groups(&s.tables[p]) != before
                        });
                        assert_eq!(
                            crate::deadlock::wild_can_move(table.groups(), &rules),
                            moved,
                            "{table:?} {rules:?}"
                        );
                        tables += 1;
                        moving += moved as u32;
                        let outside = crate::deadlock::outside(&g.tables[..g.players()]);
                        let goes_out = |k: Card| {
                            let mut hand = CardSet::EMPTY;
                            hand.insert(k);
                            hand.insert(crate::deadlock::BLACK_THREE);
                            let Some(states) = reachable(&probe(g, p, hand), 4000) else {
                                return true;
                            };
                            states.iter().any(|s| {
                                s.turn.pending.is_empty()
                                    && s.hands[p] == cs("3S")
                                    && s.tables[p].has_canasta()
                                    && s.discard_check(crate::deadlock::BLACK_THREE, true).is_ok()
                            })
                        };
                        let reference = !moved
                            && !outside
                                .kinds()
                                .filter(|k| !k.is_black_three() && !k.is_red_three())
                                .any(goes_out);
                        assert_eq!(
                            crate::deadlock::dead_locked(table, outside, &rules),
                            reference,
                            "{table:?} outside {outside} {rules:?}"
                        );
                        dead += reference as u32;
                    }
                },
            );
        }
    }
    assert!(
        tables > 5000 && dead > 1000 && moving > 1000 && skipped < tables / 100,
        "{tables} tables, {dead} dead, {moving} with a wild that moves, {skipped} skipped"
    );
}

// ----- I-9, I-26: the exact completion check against exhaustive search ---------

/// Every way to end the turn without undoing, searched exhaustively over
/// the engine's own steps (no shortcut, no budget but `cap` states):
/// `Some(answer)`, or `None` past `cap`.
pub(super) fn forward_reference(g: &GameState, cap: usize) -> Option<bool> {
    fn rec(g: &GameState, seen: &mut std::collections::HashSet<u64>, cap: usize) -> Option<bool> {
        if g.phase != Phase::Meld {
            return Some(true);
        }
        if g.turn.pending.is_empty() && !g.before_rest() && g.first_discard().is_some() {
            return Some(true);
        }
        if !seen.insert(g.forward_key()) {
            return Some(false);
        }
        if seen.len() > cap {
            return None;
        }
        let mut cand = Vec::new();
        g.raw_meld_candidates(&mut cand, false);
        for a in cand {
            if matches!(a, Action::TakeBack { .. } | Action::TakeBackHeartAce) {
                continue;
            }
            let mut t = g.clone();
            t.quiet = true;
            if t.meld_step(a).is_ok() && rec(&t, seen, cap)? {
                return Some(true);
            }
        }
        Some(false)
    }
    rec(g, &mut std::collections::HashSet::new(), cap)
}

/// The states whose completion the check of `a` asks about: each listed
/// or refused meld step of the meld-phase states of random and
/// meld-biased play under every rule variant, and every pickup; `f(state
/// after the step, step)`, the candidates listed afresh for each state.
/// `KANASZTA_I9_HANDS` sets the hands per setting (default 40).
fn each_checked_step(mut f: impl FnMut(&GameState, Action)) {
    let hands: u64 = std::env::var("KANASZTA_I9_HANDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let mut cand = Vec::new();
    let mut k = 0u64;
    meld_biased_states(0x19, hands, |g| {
        if g.phase == Phase::Draw {
            // A pickup whose hand condition holds (D-6.2).
            let p = g.current as usize;
            let Some(top) = g.pile_top() else { return };
            let Some(r) = top.rank() else { return };
            let h = g.hands[p];
            if top.is_natural()
                && !g.turn.free_offer
                && !g.free_pending[p]
                && (h.rank_count(r) >= 2 || (h.rank_count(r) >= 1 && h.wild_count() >= 1))
            {
                let mut s = g.clone();
                s.quiet = true;
                s.take_pile();
                s.set_anchor();
                f(&s, Action::TakePile);
            }
            return;
        }
        if g.phase != Phase::Meld {
            return;
        }
        // One meld-phase state in three, every candidate.
        k += 1;
        if !k.is_multiple_of(3) {
            return;
        }
        after_each_meld_step(g, &mut cand, &mut |t, _, a| f(t, a));
    });
}

/// I-9, I-26: the completion check is exact. After every step of random
/// and meld-biased play under every rule variant (and every pickup whose
/// hand condition holds), `can_finish` answers as an exhaustive search
/// over the engine's own steps, refusals and acceptances both: 256,307
/// states by default (40 hands a setting, 29,402 refusals), more with
/// `KANASZTA_I9_HANDS=N cargo test --release -p kanaszta-engine
/// i9_completion_is_exact -- --nocapture`.
#[test]
fn i9_completion_is_exact() {
    let (mut compared, mut refused, mut skipped) = (0u64, 0u64, 0u64);
    each_checked_step(|t, a| {
        let Some(want) = forward_reference(t, 5_000) else {
            skipped += 1;
            return;
        };
        let got = t.can_finish();
        assert_eq!(got, want, "after {a}: {}", t.to_position_json());
        compared += 1;
        refused += !want as u64;
    });
    eprintln!(
        "i9: {compared} states compared, {refused} refusals, {skipped} past the reference's cap"
    );
    assert!(
        compared > 5_000 && refused > 200,
        "{compared} compared, {refused} refused"
    );
    assert!(skipped * 100 <= compared, "{skipped} skipped");
}

/// Plays random and meld-biased hands (biases 0, 0.6 and 0.95, six
/// seeds each, mixed with `salt`) under every rule variant, calling `at`
/// on every state met, as [`play_meld_biased`] does; the meld phase
/// never ends by a discard or a reset, so that its later steps are met.
pub(super) fn each_meld_biased_state(salt: u64, at: impl FnMut(&GameState)) {
    meld_biased_states(salt, 6, at);
}

/// [`each_meld_biased_state`] with `hands` seeds a rule variant and bias.
fn meld_biased_states(salt: u64, hands: u64, mut at: impl FnMut(&GameState)) {
    for rules in rule_variants() {
        for bias in [0.0, 0.6, 0.95] {
            for seed in 0..hands {
                let mut rng = Pcg64Mcg::seed_from_u64(seed ^ salt);
                play_meld_biased(
                    rules,
                    seed + (bias * 1000.0) as u64,
                    &mut rng,
                    bias,
                    |a| !matches!(a, Action::Discard(_) | Action::Reset),
                    |g, _| at(g),
                );
            }
        }
    }
}

/// Calls `check` on each state one meld step leads to from `g` in the
/// meld phase (a candidate of the listing other than a discard or the
/// reset, made where the step's own rules take it), with `g`'s
/// verdict context and the step.
pub(super) fn after_each_meld_step(
    g: &GameState,
    cand: &mut Vec<Action>,
    check: &mut impl FnMut(&GameState, u64, Action),
) {
    if g.phase != Phase::Meld {
        return;
    }
    let ctx = g.verdict_context();
    cand.clear();
    g.raw_meld_candidates(cand, true);
    for &a in cand.iter() {
        let mut t = g.clone();
        t.quiet = true;
        if !matches!(a, Action::Discard(_) | Action::Reset) && t.meld_step(a).is_ok() {
            check(&t, ctx, a);
        }
    }
}

/// I-9 with wilds pending: the count's "no" ([`GameState::pending_stuck`])
/// is the exhaustive reference's; past the first way of placing them, the
/// second way ([`GameState::placed_in_place`] by the longest groups) says
/// yes only where the search does, and [`GameState::pending_search`]
/// (the kept verdict, that way, the exact "no", the search) answers as
/// the search without kept verdicts, after every meld step of random and
/// meld-biased play under every rule variant that leaves wilds pending.
#[test]
fn i9_pending_search_and_its_second_way_are_the_search() {
    let mut cand = Vec::new();
    let (mut compared, mut second, mut no, mut stuck) = (0u64, 0u64, 0u64, 0u64);
    let mut check = |t: &GameState, ctx: u64, a: Action| {
        if t.phase != Phase::Meld || t.turn.pending.is_empty() {
            return;
        }
        let p = t.current as usize;
        if t.pending_stuck(p) {
            let at = format!("after {a}: {}", t.to_position_json());
            assert_ne!(
                forward_reference(t, 5_000),
                Some(true),
                "pending_stuck {at}"
            );
            stuck += 1;
        }
        if t.placed_finish(p, None) {
            return;
        }
        let want = t.forward_finish(None);
        let at = || format!("after {a}: {}", t.to_position_json());
        let mut w = t.clone();
        w.quiet = true;
        if w.placed_in_place(p, None, super::completion::Way::Longest) {
            assert!(want, "the second way says yes {}", at());
            second += 1;
        }
        assert_eq!(t.pending_search(p, None), want, "pending_search {}", at());
        assert_eq!(
            t.pending_search(p, Some(ctx)),
            want,
            "pending_search, kept {}",
            at()
        );
        compared += 1;
        no += !want as u64;
    };
    each_meld_biased_state(0x54, |g| after_each_meld_step(g, &mut cand, &mut check));
    eprintln!(
        "{compared} states past the first way compared ({no} no), {second} second-way yes, {stuck} stuck"
    );
    assert!(
        compared > 2_000 && no > 500 && second > 300 && stuck > 300,
        "{compared} compared, {no} no, {second} second, {stuck} stuck"
    );
}

/// I-9 with wilds pending: the room count's "yes" ([`WildRoom`]) is the
/// exhaustive reference's, for the state itself
/// ([`GameState::wilds_surely_placed`]) and for each candidate step of the
/// listing counted before it is made ([`WildRoom::after`], which must also
/// be a step the step's own rules take), after every meld step of random
/// and meld-biased play under every rule variant: 48,984 states and
/// 652,142 steps (202,954 of them leaving wilds pending).
#[test]
fn i9_wild_room_yes_is_the_reference() {
    let mut cand = Vec::new();
    let mut next = Vec::new();
    let (mut states, mut steps, mut pending_steps) = (0u64, 0u64, 0u64);
    let mut check = |t: &GameState, _: u64, a: Action| {
        if t.phase != Phase::Meld {
            return;
        }
        let p = t.current as usize;
        let at = || format!("after {a}: {}", t.to_position_json());
        if !t.turn.pending.is_empty() && t.wilds_surely_placed(p) {
            assert_eq!(
                forward_reference(t, 5_000),
                Some(true),
                "wilds placed {}",
                at()
            );
            states += 1;
        }
        let Some(w) = t.wild_room(p) else {
            return;
        };
        next.clear();
        t.raw_meld_steps(&mut next, true);
        for &b in &next {
            if !w.after(t, b) {
                continue;
            }
            let mut u = t.clone();
            u.quiet = true;
            assert!(u.meld_step(b).is_ok(), "{b} taken {}", at());
            assert_eq!(
                forward_reference(&u, 5_000),
                Some(true),
                "{b} by room {}",
                at()
            );
            steps += 1;
            pending_steps += !u.turn.pending.is_empty() as u64;
        }
    };
    each_meld_biased_state(0x77, |g| after_each_meld_step(g, &mut cand, &mut check));
    eprintln!(
        "{states} states and {steps} steps ({pending_steps} leaving wilds pending) sure by room"
    );
    assert!(
        states > 10_000 && steps > 100_000 && pending_steps > 40_000,
        "{states} states, {steps} steps, {pending_steps} pending"
    );
}

/// The completion check's shortcuts and kept verdicts answer as its
/// search: after every meld step of random and meld-biased play under
/// every rule variant (and every pickup whose hand condition holds), with
/// wilds pending a yes of [`GameState::placed_finish`] is the search's
/// yes, during a pickup an answer of [`GameState::pickup_quick`] is the
/// search's, and [`GameState::finish_verdict`] with the listed state's
/// context (reading and keeping the thread's verdicts) is
/// `forward_finish` without them. Every key of a verdict, the context
/// mixed with the state's key, names one verdict over all hands and rules
/// (the keys are kept in a map that is never cleared), as the thread's
/// table assumes.
#[test]
fn completion_shortcuts_and_kept_verdicts_are_the_search() {
    use super::search_memory::Verdicts;
    let mut cand = Vec::new();
    let mut keys = std::collections::HashMap::new();
    let (mut compared, mut placed, mut quick, mut kept, mut again, mut no) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let mut check = |t: &GameState, ctx: u64, a: Action| {
        if t.phase != Phase::Meld || (t.turn.pending.is_empty() && !t.before_rest()) {
            return;
        }
        let p = t.current as usize;
        let want = t.forward_finish(None);
        let at = || format!("after {a}: {}", t.to_position_json());
        if !t.turn.pending.is_empty() && t.placed_finish(p, None) {
            assert!(want, "placed_finish says yes {}", at());
            placed += 1;
        }
        if t.turn.pending.is_empty() {
            if let Some(v) = t.pickup_quick(p, None) {
                assert_eq!(v, want, "pickup_quick {}", at());
                quick += 1;
            }
        }
        let key = ctx ^ t.forward_key();
        if let Some(v) = Verdicts::get(key) {
            assert_eq!(v, want, "kept verdict {}", at());
            kept += 1;
        }
        assert_eq!(t.finish_verdict(Some(ctx)), want, "finish_verdict {}", at());
        assert_eq!(t.can_finish(), want, "can_finish {}", at());
        if let Some(&v) = keys.get(&key) {
            assert_eq!(v, want, "one key, two verdicts {}", at());
            again += 1;
        }
        keys.insert(key, want);
        compared += 1;
        no += !want as u64;
    };
    each_meld_biased_state(0x40, |g| {
        if g.phase == Phase::Draw && g.take_pile_check(true).is_ok() {
            let mut s = g.clone();
            s.quiet = true;
            s.take_pile();
            s.set_anchor();
            check(&s, s.verdict_context(), Action::TakePile);
            return;
        }
        after_each_meld_step(g, &mut cand, &mut check);
    });
    eprintln!(
        "{compared} searched states compared ({no} no), {placed} placed_finish yes, {quick} pickup_quick answers, {kept} kept verdicts read, {again} keys met again"
    );
    assert!(
        compared > 5_000
            && no > 100
            && placed > 1_000
            && quick > 1_000
            && kept > 100
            && again > 1_000,
        "{compared} compared, {no} no, {placed} placed, {quick} quick, {kept} kept, {again} again"
    );
}

/// I-8, I-9, I-26, D-6.2, D-6.2.1: during a penalized pickup before the
/// rest is taken, with nothing pending, every answer of
/// [`GameState::pickup_quick`] is the exhaustive reference's: for a
/// player who has opened (the top card's groups read in one pass), and
/// for one who has not, whose opening laid with the top card reaches the
/// minimum with what makes two cards with the rest kept (a yes without
/// the tables) or who is past that to the tables. At the pickup itself and
/// after every meld step of random and meld-biased play under every rule
/// variant.
#[test]
fn pickup_quick_answers_as_the_reference() {
    let mut cand = Vec::new();
    let (mut opened, mut laid_yes, mut unopened, mut no) = (0u64, 0u64, 0u64, 0u64);
    // Opened players' yes with one natural more of the top card's rank and
    // no wild in the hand: the third card is a wild moved (D-11.2).
    let mut moved = 0u64;
    let mut check = |t: &GameState, _: u64, a: Action| {
        if t.phase != Phase::Meld || !t.turn.pending.is_empty() || !t.before_rest() {
            return;
        }
        let p = t.current as usize;
        let Some(v) = t.pickup_quick(p, None) else {
            return;
        };
        let Some(want) = forward_reference(t, 5_000) else {
            return;
        };
        assert_eq!(v, want, "pickup_quick after {a}: {}", t.to_position_json());
        let table = &t.tables[p];
        let keep = 2u32.saturating_sub(t.pile_len as u32);
        if table.opened {
            opened += 1;
            let hand = t.hands[p];
            let top = t.turn.pickup.map(|pk| pk.top);
            if v && !t.top_laid()
                && top
                    .and_then(|c| c.rank())
                    .is_some_and(|r| hand.rank_count(r) == 2)
                && hand.wild_count() == 0
            {
                moved += 1;
            }
        } else if t.top_laid()
            && t.hands[p].len() >= keep
            && table.opening_value() >= t.opening_minimum(p)
        {
            laid_yes += 1;
        } else {
            unopened += 1;
        }
        no += !v as u64;
    };
    each_meld_biased_state(0x55, |g| {
        if g.phase == Phase::Draw && g.take_pile_check(true).is_ok() {
            let mut s = g.clone();
            s.quiet = true;
            s.take_pile();
            check(&s, 0, Action::TakePile);
            cand.clear();
            s.raw_meld_candidates(&mut cand, true);
            for &a in cand.iter() {
                let mut u = s.clone();
                if !matches!(a, Action::Discard(_) | Action::Reset) && u.meld_step(a).is_ok() {
                    check(&u, 0, a);
                }
            }
            return;
        }
        after_each_meld_step(g, &mut cand, &mut check);
    });
    eprintln!(
        "pickup_quick: {opened} answers for opened players ({moved} with a moved wild), {laid_yes} openings laid with the top card, {unopened} other answers for players who have not opened ({no} no)"
    );
    assert!(
        opened > 10_000 && moved > 1_000 && laid_yes > 300 && unopened > 1_000 && no > 150,
        "{opened} opened ({moved} moved), {laid_yes} laid, {unopened} unopened, {no} no"
    );
}

/// What a sampler asks of [`Moves`](super::moves::Moves): candidates
/// checked one at a time in any order (here a random one, on the one
/// probe of a decision) get the listing's verdict, every listed action is
/// a candidate, and [`Moves::listed_discards`](super::moves::Moves::listed_discards)
/// is the listing's count of discards, before and after the whole listing
/// is made.
#[test]
fn candidates_checked_in_any_order_get_the_listing_verdict() {
    let (mut legal, mut order) = (Vec::new(), Vec::new());
    let mut buf = super::moves::MoveBuf::new();
    let (mut meld_states, mut refused) = (0u32, 0u32);
    for (k, rules) in rule_variants().into_iter().enumerate() {
        for seed in 0..6 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x3c7);
            play_meld_biased(
                rules,
                seed + 100 * k as u64,
                &mut rng,
                0.7,
                |a| matches!(a, Action::Lay { .. } | Action::Extend { .. }),
                |g, rng| {
                    g.legal_actions(&mut legal);
                    let discards = legal
                        .iter()
                        .filter(|a| matches!(a, Action::Discard(_)))
                        .count() as u32;
                    let mut moves = g.moves(&mut buf);
                    assert_eq!(moves.listed_discards(), discards);
                    order.clear();
                    order.extend_from_slice(moves.actions());
                    for &a in &legal {
                        assert!(order.contains(&a), "{a} listed, not a candidate");
                    }
                    for i in (1..order.len()).rev() {
                        order.swap(i, rng.random_range(0..=i));
                    }
                    for &a in &order {
                        let listed = legal.contains(&a);
                        assert_eq!(moves.is_listed(a), listed, "{a}");
                        refused += !listed as u32;
                    }
                    assert_eq!(moves.all(), &legal[..]);
                    assert_eq!(moves.listed_discards(), discards);
                    meld_states += (g.phase == Phase::Meld) as u32;
                },
            );
        }
    }
    assert!(
        meld_states > 500 && refused > 100,
        "{meld_states} meld-phase states, {refused} candidates refused"
    );
}

/// `shuffle_stock` reorders only the stock above its known bottom (D-3.3):
/// the same cards in the stock, the bottom, hands, tables and pile as
/// they were, and another order for another seed.
#[test]
fn shuffle_stock_reorders_only_the_unknown_stock() {
    let mut orders = std::collections::HashSet::new();
    for seed in 0..20u64 {
        let g = GameState::new(Rules::default(), seed);
        let mut s = g.clone();
        s.shuffle_stock(seed * 7 + 1);
        let bottom = g.stock_known_bottom();
        assert_eq!(s.stock_known_bottom(), bottom);
        assert_eq!(&s.stock()[..bottom], &g.stock()[..bottom]);
        let set = |cards: &[Card]| CardSet::try_from_cards(cards.iter().copied()).unwrap();
        assert_eq!(set(s.stock()), set(g.stock()));
        assert_ne!(
            s.stock(),
            g.stock(),
            "seed {seed}: the stock kept its order"
        );
        for p in 0..g.players() {
            assert_eq!(s.hand(p), g.hand(p));
        }
        assert_eq!(s.pile(), g.pile());
        let mut again = g.clone();
        again.shuffle_stock(seed * 7 + 1);
        assert_eq!(again.stock(), s.stock(), "one seed, one order");
        orders.insert(s.stock().to_vec());
    }
    assert_eq!(orders.len(), 20);
}
