//! The legal listing as `kanaszta.VectorGame` asks for it every step,
//! for instruction counts under callgrind: hands of one preset played
//! to their end by a random listed action, each step listing the legal
//! actions (`Game::legal_actions`) and applying the chosen one
//! (`Game::apply_listed`). Prints the steps and a hash of every listing
//! (the action ids in order), which must not change when the listing is
//! made cheaper.
//!
//! ```text
//! cargo build --profile testing -p kanaszta-benches --example listing_cost
//! valgrind --tool=callgrind --toggle-collect='*legal_actions*' \
//!   target/testing/examples/listing_cost classic-002 2 100
//! ```
//!
//! Arguments: the preset (default `classic-002`), the players (2), the
//! hands (100, from seeds 0, 1, …).

use kanaszta_engine::classic::{ClassicRules, ClassicState};
use kanaszta_engine::{ActionIds, Game, GameState, Rules};

/// Plays `hands` hands dealt by `deal`; the steps and the listings' hash.
fn run<G: Game + ActionIds>(hands: u64, deal: impl Fn(u64) -> G) -> (u64, u64) {
    let (mut steps, mut hash) = (0u64, 0xcbf2_9ce4_8422_2325u64);
    let mut legal = Vec::new();
    for seed in 0..hands {
        let mut g = deal(seed);
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        while !g.is_terminal() {
            g.legal_actions(&mut legal);
            for a in &legal {
                let id = G::action_id(a).unwrap_or(u32::MAX);
                hash = (hash ^ u64::from(id)).wrapping_mul(0x100_0000_01b3);
            }
            hash = (hash ^ 0xffff).wrapping_mul(0x100_0000_01b3);
            // xorshift64
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let a = legal[(x % legal.len() as u64) as usize];
            g.apply_listed(a).expect("a listed action");
            steps += 1;
        }
    }
    (steps, hash)
}

fn main() {
    if let Err(e) = listing_cost() {
        eprintln!("listing_cost: {e}");
        eprintln!("usage: listing_cost [PRESET [PLAYERS [HANDS]]]");
        std::process::exit(2);
    }
}

/// Reads the arguments, plays the hands and prints the hash; an unknown
/// preset or a malformed number is an error naming what is accepted.
fn listing_cost() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let preset = args.next().unwrap_or_else(|| "classic-002".into());
    let players: u8 = match args.next() {
        None => 2,
        Some(s) => s
            .parse()
            .map_err(|_| format!("players {s:?} is not a number of players (2 to 6)"))?,
    };
    let hands: u64 = match args.next() {
        None => 100,
        Some(s) => s
            .parse()
            .map_err(|_| format!("hands {s:?} is not a whole number of hands"))?,
    };
    let (steps, hash) = if preset.starts_with("classic") {
        let rules = ClassicRules {
            players,
            ..ClassicRules::preset(&preset).map_err(|e| e.to_string())?
        };
        rules.validate().map_err(|e| e.to_string())?;
        run(hands, |seed| ClassicState::new(rules, seed, 0, [0; 6]))
    } else {
        let rules = Rules {
            players,
            ..Rules::preset(&preset).map_err(|e| e.to_string())?
        };
        rules.validate().map_err(|e| e.to_string())?;
        run(hands, |seed| GameState::new(rules, seed))
    };
    println!("{preset} players={players} hands={hands} steps={steps} hash={hash:016x}");
    Ok(())
}
