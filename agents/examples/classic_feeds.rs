//! Counts the classic `rules` player's canasta-feeding discards (C-5,
//! C-7): a natural of a rank of which the next player's side, an
//! opponent's, holds a meld of six, the pile not frozen, not his last
//! card, so that under 002 and 003 the next player completes a canasta
//! with the top card alone. Each is also sorted by whether the hand held
//! a safer discard then: a black three, or a natural of a rank the next
//! side has no meld of and the next player is not known to hold.
//!
//! `classic_feeds [DEALS] [SEED] [RULES_PARAMS] [PRESET]`, e.g.
//! `cargo run --profile testing -p kanaszta-agents --example
//! classic_feeds -- 300 2026 feed=off`: rules (with those parameters,
//! `k=v,k=v`) against greedy, four players, each deal played in both
//! seatings; deterministic from the seed.

#[path = "../tests/common/classic_duel.rs"]
mod duel_common;

use kanaszta_agents::classic::greedy::ClassicGreedy;
use kanaszta_agents::classic::rules::{ClassicRulesAgent, ClassicRulesParams};
use kanaszta_agents::classic::ClassicMoves;
use kanaszta_agents::Agent;
use kanaszta_engine::classic::{ClassicAction, ClassicRules, ClassicState, ClassicView, Kind};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn fail(msg: String) -> ! {
    eprintln!("classic_feeds: {msg}");
    eprintln!("usage: classic_feeds [DEALS] [SEED] [RULES_PARAMS k=v,k=v] [PRESET]");
    std::process::exit(2)
}

/// Whether discarding `k` feeds the next opponent's meld of six.
fn feeds(view: &ClassicView<'_>, k: Kind) -> bool {
    let r = view.rules();
    let next_side = r.side_of((view.seat() + 1) % r.players as usize);
    k.rank().is_some()
        && next_side != r.side_of(view.seat())
        && view.hand().len() > 1
        && !view.pile_frozen()
        && view.table(next_side).melds[k.index()].len() == 6
}

/// Whether discarding `k` is safe against the next player: a black
/// three, or a natural his side has no meld of and he is not known to
/// hold.
fn safe(view: &ClassicView<'_>, k: Kind) -> bool {
    let r = view.rules();
    let next = (view.seat() + 1) % r.players as usize;
    if k == Kind::BLACK_THREE {
        return true;
    }
    k.rank().is_some()
        && !k.is_wild()
        && view.table(r.side_of(next)).melds[k.index()].is_empty()
        && k.count_in(view.known(next)) == 0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number = |i: usize, default: u64, what: &str| -> u64 {
        args.get(i)
            .map_or(Ok(default), |s| s.parse())
            .unwrap_or_else(|_| fail(format!("bad {what} `{}`: expected a whole number", args[i])))
    };
    let deals = number(1, 300, "number of deals");
    let seed = number(2, 2026, "seed");
    let spec = args.get(3).map_or("", |s| s);
    let mut params = ClassicRulesParams::default();
    for kv in spec.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .unwrap_or_else(|| fail(format!("bad parameter `{kv}`: expected key=value")));
        params
            .set(k, v)
            .unwrap_or_else(|e| fail(format!("bad parameter `{kv}`: {e}")));
    }
    let preset = args.get(4).map_or("classic-002", |s| s);
    let mut r = ClassicRules::preset(preset).unwrap_or_else(|e| fail(e.to_string()));
    r.set("players", "4")
        .unwrap_or_else(|e| fail(e.to_string()));
    let n = r.players as usize;
    let (mut fed, mut avoidable, mut greedy_fed, mut hands) = (0u32, 0u32, 0u32, 0u32);
    for deal in 0..deals {
        let hand_seed = seed.wrapping_mul(1_000_000_007).wrapping_add(deal);
        for rules_seat in 0..2usize {
            let mut agents: Vec<Box<dyn Agent<ClassicState>>> = (0..n)
                .map(|p| {
                    if p % 2 == rules_seat {
                        Box::new(ClassicRulesAgent::new(params.clone()))
                            as Box<dyn Agent<ClassicState>>
                    } else {
                        Box::new(ClassicGreedy)
                    }
                })
                .collect();
            let mut g = ClassicState::new(r, hand_seed, (hand_seed % n as u64) as usize, [0; 6]);
            let mut rngs: Vec<Pcg64Mcg> = (0..n as u64)
                .map(|p| Pcg64Mcg::seed_from_u64(hand_seed.wrapping_mul(1_000_003).wrapping_add(p)))
                .collect();
            let mut legal = Vec::new();
            let mut steps = 0;
            while !g.is_terminal() {
                let p = g.current_player();
                let view = g.view(p);
                view.legal_actions(&mut legal);
                let a = agents[p].act(&view, &mut ClassicMoves::new(&legal), &mut rngs[p]);
                if let ClassicAction::Discard(k) = a {
                    if feeds(&view, k) {
                        if p % 2 != rules_seat {
                            greedy_fed += 1;
                        } else {
                            fed += 1;
                            let other = legal
                                .iter()
                                .any(|&b| matches!(b, ClassicAction::Discard(j) if safe(&view, j)));
                            if other {
                                avoidable += 1;
                            }
                        }
                    }
                }
                g.apply(a).unwrap_or_else(|e| fail(format!("{a}: {e}")));
                for ag in agents.iter_mut() {
                    ag.inform(p, a);
                }
                steps += 1;
                if steps >= 200_000 {
                    fail(format!("deal {deal}: the hand never ends"));
                }
            }
            hands += 1;
        }
    }
    println!(
        "rules:{spec} v greedy under {preset}, 4 players, {hands} hands (seed {seed}): \
         rules fed the next side's canasta {fed} times ({avoidable} with a safer discard in hand), \
         greedy {greedy_fed}"
    );
}
