//! What hidden cards are worth to a search: `pimc` that searches the whole
//! game, every hidden card and the stock's order included, in place of
//! worlds sampled from its seat's view, plays paired deals of decorated
//! canasta against an opponent. Its hands won against the opponent bound
//! what the same search with honest information can reach on those deals.
//!
//! ```text
//! cargo build --release -p kanaszta-benches --example oracle
//! target/release/examples/oracle 400 1 worlds=8,depth=0,margin=0 rules 2 oracle
//! ```
//!
//! Arguments: hands (rounded up to an even number: each deal is played
//! twice, seats swapped), the run's seed, the parameters of `pimc`
//! (`key=value,…`, as after `pimc:` in a spec; `-` for none), the
//! opponent's spec, threads, and what the search is told: `oracle` (the
//! default: the whole state, the stock's order included, in every world),
//! `hands` (every hand, the stock shuffled for each world) or `honest`
//! (worlds sampled from the seat's view, as `kanaszta play` plays `pimc`). A deal's seed and the seats' generators
//! are derived as `kanaszta play` derives them, so the result is the same
//! for any thread count. Prints the share of hands won with its 95 %
//! Wilson interval, the points a hand by which the searcher's margin
//! exceeds the opponent's over paired deals with a 95 % normal interval,
//! how many hands ended by going out and the searcher's wall-clock
//! milliseconds a decision.

use kanaszta_agents::spec::Params;
use kanaszta_agents::{seat_rng, Agent, AgentSpec, PimcAgent, PimcParams};
use kanaszta_engine::{GameState, HandEnd, MoveBuf, Rules};
use std::time::Instant;

struct Deal {
    /// The searcher's raw hand score minus the opponent's, seats as dealt
    /// and swapped.
    margins: [i32; 2],
    /// Hands the searcher won (more raw points), of the two.
    won: u32,
    /// Hands that ended with a player going out, of the two.
    out: u32,
    decisions: u64,
    secs: f64,
}

fn fail(msg: String) -> ! {
    eprintln!("{msg}");
    std::process::exit(2);
}

fn play(
    deal_seed: u64,
    searcher_seat: usize,
    params: &PimcParams,
    opp: &AgentSpec,
    knows: Option<bool>,
) -> Deal {
    let rules = Rules::default();
    let mut state = GameState::new(rules, deal_seed);
    let mut searcher = PimcAgent::new(params.clone());
    let mut opponent = opp.build();
    let mut rngs = [seat_rng(deal_seed, 0), seat_rng(deal_seed, 1)];
    searcher.restart();
    opponent.restart();
    let mut buf = MoveBuf::new();
    let (mut decisions, mut secs) = (0u64, 0.0f64);
    while !state.is_terminal() {
        let p = state.current_player();
        let action = {
            let view = state.view(p);
            let mut moves = state.moves(&mut buf);
            if p == searcher_seat {
                let t0 = Instant::now();
                if let Some(shuffled) = knows {
                    searcher.know(Some(&state), shuffled);
                }
                let a = searcher.act(&view, &mut moves, &mut rngs[p]);
                searcher.know(None, false);
                secs += t0.elapsed().as_secs_f64();
                decisions += 1;
                a
            } else {
                opponent.act(&view, &mut moves, &mut rngs[p])
            }
        };
        if let Err(e) = state.apply(action) {
            fail(format!(
                "deal {deal_seed:#x}: seat {p} played `{action}`: {e}"
            ));
        }
        searcher.inform(p, action);
        opponent.inform(p, action);
    }
    let s = state.scores();
    let margin = s[searcher_seat].total - s[1 - searcher_seat].total;
    Deal {
        margins: [margin, 0],
        won: (margin > 0) as u32,
        out: matches!(state.end(), Some(HandEnd::WentOut { .. })) as u32,
        decisions,
        secs,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.into());
    let hands: u64 = arg(0, "100")
        .parse()
        .unwrap_or_else(|e| fail(format!("hands must be a whole number: {e}")));
    let seed: u64 = arg(1, "1")
        .parse()
        .unwrap_or_else(|e| fail(format!("the seed must be a whole number: {e}")));
    let mut params = PimcParams::default();
    let spec = arg(2, "-");
    if spec != "-" {
        for item in spec.split(',') {
            let (k, v) = item
                .split_once('=')
                .unwrap_or_else(|| fail(format!("`{item}`: pimc parameters are key=value")));
            if let Err(e) = params.set(k, v) {
                fail(format!("pimc `{item}`: {e}"));
            }
        }
    }
    let opp: AgentSpec = arg(3, "rules")
        .parse()
        .unwrap_or_else(|e| fail(format!("opponent: {e}")));
    let threads: usize = arg(4, "1")
        .parse()
        .ok()
        .filter(|t| *t >= 1)
        .unwrap_or_else(|| fail("threads must be 1 or more".into()));
    let knows = match arg(5, "oracle").as_str() {
        "oracle" => Some(false),
        "hands" => Some(true),
        "honest" => None,
        other => fail(format!(
            "`{other}`: the last argument is oracle, hands or honest"
        )),
    };
    let deals = hands.div_ceil(2);
    let mut results: Vec<Option<Deal>> = (0..deals).map(|_| None).collect();
    std::thread::scope(|s| {
        for (t, chunk) in results
            .chunks_mut(deals.div_ceil(threads as u64).max(1) as usize)
            .enumerate()
        {
            let (params, opp) = (&params, &opp);
            let first = t as u64 * deals.div_ceil(threads as u64).max(1);
            s.spawn(move || {
                for (i, slot) in chunk.iter_mut().enumerate() {
                    let deal_seed = kanaszta_engine::seed::deal(seed, first + i as u64);
                    let a = play(deal_seed, 0, params, opp, knows);
                    let b = play(deal_seed, 1, params, opp, knows);
                    *slot = Some(Deal {
                        margins: [a.margins[0], b.margins[0]],
                        won: a.won + b.won,
                        out: a.out + b.out,
                        decisions: a.decisions + b.decisions,
                        secs: a.secs + b.secs,
                    });
                }
            });
        }
    });
    let results: Vec<Deal> = results.into_iter().flatten().collect();
    let n = 2.0 * results.len() as f64;
    let won: u32 = results.iter().map(|d| d.won).sum();
    let out: u32 = results.iter().map(|d| d.out).sum();
    let p = won as f64 / n;
    let z = 1.959_963_985;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    let diffs: Vec<f64> = results
        .iter()
        .map(|d| (d.margins[0] + d.margins[1]) as f64 / 2.0)
        .collect();
    let m = diffs.iter().sum::<f64>() / diffs.len() as f64;
    let var = diffs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (diffs.len() as f64 - 1.0);
    let se = (var / diffs.len() as f64).sqrt();
    let decisions: u64 = results.iter().map(|d| d.decisions).sum();
    let secs: f64 = results.iter().map(|d| d.secs).sum();
    println!(
        "hands {n}: searcher won {:.1}% [{:.1}, {:.1}]; margin a hand {:+.0} [{:+.0}, {:+.0}] over {} paired deals; went out {:.1}%; {:.1} ms of wall clock a decision ({decisions} decisions)",
        100.0 * p,
        100.0 * (centre - half),
        100.0 * (centre + half),
        m,
        m - z * se,
        m + z * se,
        diffs.len(),
        100.0 * out as f64 / n,
        1000.0 * secs / decisions.max(1) as f64,
    );
}
