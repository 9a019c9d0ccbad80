//! Counts the blunders a baseline player is watched for, on paired deals:
//! `blunders A B [DEALS] [SEED] [KEY=VALUE …]` (rule switches as
//! `kanaszta play --set` takes them), e.g. `blunders rules greedy 2000`.
//! Every deal is played twice with the seats swapped; per agent:
//!
//! - `b3 pickups`: pickups of a pile holding a black three (D-6.2, D-6.3)
//!   while an opponent is on two cards or fewer, those while one is on
//!   one card, those after which a black three is still in hand at the
//!   turn's discard, and those after which one is still in hand when the
//!   hand ends (caught with it: 100 points against the hand each, D-14;
//!   the others had their threes thrown in time);
//! - `wilds thrown`: wilds discarded (each freezes the pile, D-6.3), and
//!   the hands in which the agent threw four or more; then the same
//!   counted only while no player had opened (D-8), the freezes of a
//!   stand-off;
//! - `held ≥ 30`: hands in which, at the end of one of its turns, opened
//!   and with an opponent on two cards or fewer, it kept 30 points or more
//!   of meldable naturals in hand (three of a rank, or a rank it has a
//!   group of; black threes and wilds apart), and the most it kept, summed;
//! - `unopened@30`: hands still going at turn 30 in which it had not
//!   opened (D-8).
//!
//! And how the hands ended (D-13, I-4, I-5, I-32).

use kanaszta_agents::{seat_rng, Agent, AgentSpec};
use kanaszta_engine::{derive_seed, Action, GameState, HandEnd, MoveBuf, Rank, Rules};

#[derive(Default)]
struct Count {
    b3_pickups: u64,
    b3_one: u64,
    b3_kept: u64,
    b3_caught: u64,
    wilds: u64,
    wild_hands: u64,
    shut_wilds: u64,
    shut_hands: u64,
    held_hands: u64,
    held_points: i64,
    unopened: u64,
}

/// The points of the meldable naturals in `seat`'s hand (see above).
fn meldable(g: &GameState, seat: usize) -> i32 {
    let hand = g.hand(seat);
    let table = g.table(seat);
    let mut points = 0;
    for r in Rank::NATURALS {
        if r == Rank::Three {
            continue;
        }
        let n = hand.rank_count(r) as i32;
        if n >= 3 || (n > 0 && table.group_of_rank(r).is_some()) {
            points += n * r.points();
        }
    }
    points
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spec = |i: usize, default: &str| -> AgentSpec {
        args.get(i)
            .map_or(default, |s| s)
            .parse()
            .unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(1)
            })
    };
    let specs = [spec(1, "rules"), spec(2, "greedy")];
    let deals: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(2026);
    let mut rules = Rules::default();
    for kv in args.iter().skip(5) {
        let (k, v) = kv.split_once('=').unwrap_or_else(|| {
            eprintln!("expected KEY=VALUE, got {kv}");
            std::process::exit(1)
        });
        if let Err(e) = rules.set(k, v) {
            eprintln!("{kv}: {e}");
            std::process::exit(1)
        }
    }
    let mut counts = [Count::default(), Count::default()];
    let (mut out, mut exhausted, mut stalled, mut deadlocked) = (0u64, 0u64, 0u64, 0u64);
    let mut buf = MoveBuf::new();
    for d in 0..deals {
        let gs = derive_seed(seed, d);
        for swap in [false, true] {
            // `who[s]`: which agent (0: A, 1: B) sits in seat s.
            let who = if swap { [1, 0] } else { [0, 1] };
            let mut g = GameState::new(rules, gs);
            let mut agents: Vec<Box<dyn Agent>> = who.iter().map(|&i| specs[i].build()).collect();
            let mut rngs = [seat_rng(gs, 0), seat_rng(gs, 1)];
            let mut wilds = [0u32; 2];
            let mut shut = [0u32; 2];
            let mut held = [0i32; 2];
            let mut unopened_seen = [false; 2];
            let mut actions = 0u64;
            let mut b3_turn = None;
            // The pickups counted above in this hand, by seat.
            let mut b3_taken = [0u64; 2];
            while !g.is_terminal() {
                let s = g.current_player();
                let close = (0..g.players()).any(|p| p != s && g.hand(p).len() <= 2);
                let one = (0..g.players()).any(|p| p != s && g.hand(p).len() == 1);
                let standoff = (0..g.players()).all(|p| !g.table(p).opened);
                let a = agents[s].act(&g.view(s), &mut g.moves(&mut buf), &mut rngs[s]);
                if a == Action::TakePile && close && g.pile().iter().any(|c| c.is_black_three()) {
                    counts[who[s]].b3_pickups += 1;
                    counts[who[s]].b3_one += one as u64;
                    b3_turn = Some(g.turns());
                    b3_taken[s] += 1;
                }
                if let Action::Discard(c) = a {
                    if c.is_wild() {
                        wilds[s] += 1;
                        shut[s] += standoff as u32;
                    }
                }
                if g.apply(a).is_err() {
                    eprintln!("deal {d}: `{a}` refused");
                    break;
                }
                actions += 1;
                if actions > 1_000_000 {
                    eprintln!("deal {d}: too long");
                    break;
                }
                if matches!(a, Action::Discard(_)) && b3_turn.take().is_some() {
                    let kept = g.hand(s).iter().filter(|c| c.is_black_three()).count();
                    counts[who[s]].b3_kept += (kept > 0) as u64;
                }
                if matches!(a, Action::Discard(_)) && !g.is_terminal() {
                    if close && g.table(s).opened {
                        held[s] = held[s].max(meldable(&g, s));
                    }
                    if g.turns() >= 30 {
                        for p in 0..2 {
                            if !g.table(p).opened && !unopened_seen[p] {
                                unopened_seen[p] = true;
                                counts[who[p]].unopened += 1;
                            }
                        }
                    }
                }
            }
            for s in 0..2 {
                let c = &mut counts[who[s]];
                c.wilds += wilds[s] as u64;
                c.wild_hands += (wilds[s] >= 4) as u64;
                c.shut_wilds += shut[s] as u64;
                c.shut_hands += (shut[s] >= 4) as u64;
                c.held_hands += (held[s] >= 30) as u64;
                c.held_points += held[s] as i64;
                if g.hand(s).black_three_count() > 0 {
                    c.b3_caught += b3_taken[s];
                }
            }
            match g.end() {
                Some(HandEnd::WentOut { .. }) => out += 1,
                Some(HandEnd::Exhausted) => exhausted += 1,
                Some(HandEnd::Stalled) => stalled += 1,
                Some(HandEnd::Deadlocked) => deadlocked += 1,
                None => {}
            }
        }
    }
    let hands = 2 * deals;
    println!(
        "{} v {}: {hands} hands ({deals} paired deals), seed {seed}",
        specs[0], specs[1]
    );
    println!("agent: b3 pickups (opp <= 2 cards), of them opp on 1 card, b3 still in hand after the turn, b3 still in hand at the end | wilds thrown, hands with >= 4 | the same while nobody had opened | hands holding >= 30 meldable (opp <= 2 cards), mean most held | hands unopened at turn 30");
    for (spec, c) in specs.iter().zip(&counts) {
        println!(
            "{spec}: {}, {}, {}, {} | {}, {} | {}, {} | {}, {:.1} | {}",
            c.b3_pickups,
            c.b3_one,
            c.b3_kept,
            c.b3_caught,
            c.wilds,
            c.wild_hands,
            c.shut_wilds,
            c.shut_hands,
            c.held_hands,
            c.held_points as f64 / hands as f64,
            c.unopened
        );
    }
    println!(
        "ends: went out {out}, exhausted {exhausted}, stalled {stalled}, deadlocked {deadlocked}"
    );
}
