//! Classic canasta duel of the `rules` player against an opponent on the
//! same deals, both seatings (partners sit opposite in four):
//! `classic_duel [PRESET] [PLAYERS] [DEALS] [SEED] [OPPONENT]`, e.g.
//! `cargo run --release -p kanaszta-agents --example classic_duel --
//! classic-004 4 300 1 meldall`. Opponents: `random`, `meldall` ("meld
//! everything, discard the highest") and `rules`. Prints the points of
//! each hand and the rules side's lead per deal with its 95% interval;
//! deterministic from the seed.

#[path = "../tests/common/classic_duel.rs"]
mod duel_common;

use duel_common::{interval, play_hand, MeldAll};
use kanaszta_agents::classic::rules::{ClassicRulesAgent, ClassicRulesParams};
use kanaszta_agents::classic::ClassicRandom;
use kanaszta_agents::Agent;
use kanaszta_engine::classic::{ClassicRules, ClassicState};

fn fail(msg: String) -> ! {
    eprintln!("classic_duel: {msg}");
    eprintln!("usage: classic_duel [PRESET] [PLAYERS 2-6] [DEALS] [SEED] [random|meldall|rules]");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let preset = args.get(1).map_or("classic-002", |s| s);
    let mut rules = ClassicRules::preset(preset).unwrap_or_else(|e| fail(e.to_string()));
    let players = args.get(2).map_or("2", |s| s);
    rules
        .set("players", players)
        .unwrap_or_else(|e| fail(e.to_string()));
    let number = |i: usize, default: u64, what: &str| -> u64 {
        args.get(i)
            .map_or(Ok(default), |s| s.parse())
            .unwrap_or_else(|_| fail(format!("bad {what} `{}`: expected a whole number", args[i])))
    };
    let deals = number(3, 200, "number of deals");
    if deals < 2 {
        fail("at least 2 deals are needed for an interval".into());
    }
    let seed = number(4, 1, "seed");
    let opponent = args.get(5).map_or("meldall", |s| s);
    let other = |name: &str| -> Box<dyn Agent<ClassicState>> {
        match name {
            "random" => Box::new(ClassicRandom),
            "meldall" => Box::new(MeldAll),
            "rules" => Box::new(ClassicRulesAgent::new(ClassicRulesParams::default())),
            _ => fail(format!(
                "unknown opponent `{name}`: expected random, meldall or rules"
            )),
        }
    };
    let _ = other(opponent);
    let n = rules.players as usize;
    let mut diffs = Vec::with_capacity(deals as usize);
    for deal in 0..deals {
        let hand_seed = seed.wrapping_mul(1_000_000_007).wrapping_add(deal);
        let mut d = 0.0;
        for rules_seat in 0..2usize {
            let mut agents: Vec<Box<dyn Agent<ClassicState>>> = (0..n)
                .map(|p| {
                    if p % 2 == rules_seat && (n == 4 || p == rules_seat) {
                        Box::new(ClassicRulesAgent::new(ClassicRulesParams::default()))
                            as Box<dyn Agent<ClassicState>>
                    } else {
                        other(opponent)
                    }
                })
                .collect();
            let s = play_hand(rules, hand_seed, &mut agents);
            let mine = rules.side_of(rules_seat);
            let theirs = rules.side_of(1 - rules_seat);
            println!(
                "deal {deal} rules in seat {rules_seat}: rules {} {opponent} {}",
                s[mine], s[theirs]
            );
            d += (s[mine] - s[theirs]) as f64 / 2.0;
        }
        diffs.push(d);
    }
    let (m, h) = interval(&diffs);
    println!(
        "{preset} {n} players, {deals} deals x 2 seatings, seed {seed}: rules leads {opponent} by {m:.0} ± {h:.0} points a hand (95%)"
    );
}
