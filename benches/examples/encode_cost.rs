//! A seat's encoding, repeated, for instruction counts under callgrind
//! (which repeat exactly where wall-clock times on a shared machine do
//! not): the position of the criterion benchmark `encode/decorated` and
//! the classic deal of `encode/classic`. Run it twice with different
//! counts; the difference over the difference of counts is the cost of
//! one encoding.
//!
//! ```text
//! cargo build --profile testing -p kanaszta-benches --example encode_cost
//! valgrind --tool=callgrind target/testing/examples/encode_cost decorated 10000
//! ```
//!
//! Arguments: the family (`decorated` or `classic`), the number of
//! encodings (default 10,000). Prints the sum of the last encoding.

use kanaszta_engine::classic::{ClassicRules, ClassicState};
use kanaszta_engine::{Encode, GameState};
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let family = args.next().unwrap_or_else(|| "decorated".into());
    let n: usize = match args.next().map(|s| s.parse()) {
        None => 10_000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("the number of encodings must be a whole number: {e}");
            std::process::exit(2);
        }
    };
    let sum: f32 = match family.as_str() {
        "decorated" => {
            let g = kanaszta_benches::meld_state();
            let p = g.current_player();
            let mut obs = vec![0.0f32; GameState::OBS_LEN];
            for _ in 0..n {
                GameState::encode(&black_box(&g).view(p), &mut obs);
            }
            obs.iter().sum()
        }
        "classic" => {
            let g = ClassicState::new(ClassicRules::default(), 3, 0, [0; 6]);
            let mut obs = vec![0.0f32; ClassicState::OBS_LEN];
            for _ in 0..n {
                ClassicState::encode(&black_box(&g).view(0), &mut obs);
            }
            obs.iter().sum()
        }
        _ => {
            eprintln!("unknown family `{family}`: expected decorated or classic");
            std::process::exit(2);
        }
    };
    println!("{sum}");
}
