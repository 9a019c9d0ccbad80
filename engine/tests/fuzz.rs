//! Hostile input for the engine's readers: positions (valid ones from
//! play, mutated at random places in their JSON and in their text),
//! actions, rule switches, rules files and game logs. Nothing may panic
//! or hang: every input is refused with a message, or accepted and then
//! usable — a loaded position lists its actions, applies each and plays
//! on (or, built so, is a dead end whose actions are all refused with a
//! rule); accepted rules deal and play a hand.
//!
//! Bounded for the test suite (`KANASZTA_FUZZ_CASES`, default 2,000 cases
//! a property, from a fixed seed); a longer run, from another seed:
//! `KANASZTA_FUZZ_CASES=100000 KANASZTA_FUZZ_SEED=7 cargo test --release -p kanaszta-engine --test fuzz`.

use kanaszta_engine::{Action, GameLog, GameState, Position, Rules};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde_json::Value;
use std::cell::Cell;

fn cases() -> u32 {
    std::env::var("KANASZTA_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000)
}

/// A runner drawing from a fixed seed (`KANASZTA_FUZZ_SEED` for
/// another), so that the suite tries the same inputs on every run.
fn runner() -> TestRunner {
    let seed: u64 = std::env::var("KANASZTA_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2026);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// Positions of real play: every phase, from several deals.
fn corpus() -> Vec<String> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..6u64 {
        let mut g = GameState::new(Rules::default(), seed);
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut n = 0;
        while !g.is_terminal() {
            if n % 7 == 0 {
                out.push(g.to_position_json());
            }
            g.legal_actions(&mut legal);
            let a = legal[rng.random_range(0..legal.len())];
            g.apply(a).unwrap();
            n += 1;
        }
        out.push(g.to_position_json());
    }
    out
}

/// Plays an accepted state on: its listing, each listed action applied to
/// a copy, then up to `steps` listed actions. Nothing may panic.
fn play_on(mut g: GameState, steps: u32, seed: u64) {
    let mut legal = Vec::new();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    for _ in 0..steps {
        if g.is_terminal() {
            let _ = g.scores();
            return;
        }
        g.legal_actions(&mut legal);
        if legal.is_empty() {
            // A built position may leave its mover nothing to do (one card
            // and no canasta in the meld phase, D-13.2): a dead end to
            // inspect, whose every action is refused with its rule.
            let mut t = g.clone();
            let e = t.apply(Action::Draw).unwrap_err();
            assert!(!e.rule.is_empty());
            return;
        }
        for &a in &legal {
            let mut t = g.clone();
            t.apply(a)
                .unwrap_or_else(|e| panic!("listed `{a}` refused: {e}"));
        }
        let a = legal[rng.random_range(0..legal.len())];
        g.apply(a).unwrap();
    }
}

/// A JSON value of any kind, hostile numbers and card texts included.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        prop_oneof![Just(-1e308), Just(1e308), Just(0.5), Just(-0.0)].prop_map(Value::from),
        "[2-9TJQKA]?[CDHS]?( [2-9TJQKA]?[CDHSK]?){0,6}".prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
        prop_oneof![
            Just("meld"),
            Just("draw"),
            Just("over"),
            Just("cut"),
            Just("JK")
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-z_]{1,8}", inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Replaces the node found by walking `path` (indices taken modulo the
/// children) with `new`, or removes it from its parent when `remove`.
fn mutate(v: &mut Value, path: &[usize], new: Value, remove: bool) {
    let (first, rest) = match path.split_first() {
        Some(x) => x,
        None => {
            *v = new;
            return;
        }
    };
    match v {
        Value::Object(map) if !map.is_empty() => {
            let key = map.keys().nth(first % map.len()).unwrap().clone();
            if rest.is_empty() && remove {
                map.remove(&key);
            } else {
                mutate(map.get_mut(&key).unwrap(), rest, new, remove);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let i = first % items.len();
            if rest.is_empty() && remove {
                items.remove(i);
            } else {
                mutate(&mut items[i], rest, new, remove);
            }
        }
        _ => *v = new,
    }
}

/// Positions of play with one node replaced or removed anywhere in their
/// JSON: refused with a message, or loaded and playable.
#[test]
fn mutated_positions_are_refused_or_playable() {
    let corpus = corpus();
    let (loaded, refused) = (Cell::new(0), Cell::new(0));
    runner()
        .run(
            &(
                0..corpus.len(),
                prop::collection::vec(any::<usize>(), 0..5),
                any_json(),
                any::<bool>(),
            ),
            |(k, path, new, remove)| {
                let mut v: Value = serde_json::from_str(&corpus[k]).unwrap();
                mutate(&mut v, &path, new, remove);
                let text = v.to_string();
                match GameState::from_position_json(&text) {
                    Ok(g) => {
                        loaded.set(loaded.get() + 1);
                        play_on(g, 20, k as u64);
                    }
                    Err(e) => {
                        refused.set(refused.get() + 1);
                        prop_assert!(!e.to_string().is_empty(), "an empty message for {text}");
                    }
                }
                Ok(())
            },
        )
        .unwrap();
    let (loaded, refused) = (loaded.get(), refused.get());
    assert!(
        loaded > 0 && refused > 0,
        "{loaded} loaded, {refused} refused"
    );
}

/// Positions' text cut short, spliced, or with a byte-order mark or a
/// top-level array: refused with a message or loaded and playable.
#[test]
fn damaged_position_text_is_refused_or_playable() {
    let corpus = corpus();
    runner()
        .run(
            &(0..corpus.len(), any::<usize>(), any::<usize>(), 0..4u8),
            |(k, i, j, how)| {
                let t = &corpus[k];
                let cut = |n: usize| {
                    let mut n = n % (t.len() + 1);
                    while !t.is_char_boundary(n) {
                        n -= 1;
                    }
                    n
                };
                let text = match how {
                    0 => t[..cut(i)].to_string(),
                    1 => format!("{}{}", &t[..cut(i)], &t[cut(j)..]),
                    2 => format!("\u{feff}{t}"),
                    _ => format!("[{t}]"),
                };
                match GameState::from_position_json(&text) {
                    Ok(g) => play_on(g, 10, k as u64),
                    Err(e) => prop_assert!(!e.to_string().is_empty()),
                }
                Ok(())
            },
        )
        .unwrap();
}

/// Any text given as an action is refused with a message or parsed, and
/// an action parsed prints back to text that parses to itself.
#[test]
fn action_text_round_trips_or_is_refused() {
    let text = prop_oneof![
        "(lay|extend|take|draw|discard|keep|back|rest|reset|heart|free|wild|move)( [0-9A-Z]{1,3}){0,6}",
        "\\PC{0,24}",
    ];
    runner()
        .run(&text, |t| {
            if let Ok(a) = t.parse::<Action>() {
                let again: Action = a.to_string().parse().unwrap();
                prop_assert_eq!(a, again);
            }
            Ok(())
        })
        .unwrap();
}

/// Any value for any rule switch (and unknown keys) is refused with a
/// message naming what is accepted, or accepted; accepted rules that
/// validate deal hands that play on.
#[test]
fn rule_switches_are_refused_or_playable() {
    let keys: Vec<String> = Rules::default()
        .settings()
        .into_iter()
        .map(|(k, _)| k)
        .chain(["nonsense".to_string()])
        .collect();
    let value = prop_oneof![
        "-?[0-9]{1,12}",
        "[a-z_]{1,12}",
        "[0-9]{1,5}:[0-9]{1,3}(,[0-9]{1,5}:[0-9]{1,3}){0,3}",
        "\\PC{0,10}",
        Just("1e308".to_string()),
        Just("NaN".to_string()),
        Just(String::new()),
    ];
    let (played, refused) = (Cell::new(0), Cell::new(0));
    runner()
        .run(&(0..keys.len(), value, any::<u64>()), |(k, v, seed)| {
            let mut rules = Rules::default();
            match rules.set(&keys[k], &v) {
                Err(e) => {
                    refused.set(refused.get() + 1);
                    prop_assert!(!e.to_string().is_empty());
                }
                Ok(()) => {
                    if rules.validate().is_ok() {
                        played.set(played.get() + 1);
                        play_on(GameState::new(rules, seed), 60, seed);
                    }
                }
            }
            Ok(())
        })
        .unwrap();
    let (played, refused) = (played.get(), refused.get());
    assert!(
        played > 0 && refused > 0,
        "{played} played, {refused} refused"
    );
}

/// Any text as a rules file or a game log is refused with a message or
/// read; a log read replays or is refused, never panics.
#[test]
fn rules_files_and_logs_are_refused_or_read() {
    let text = prop_oneof![
        any_json().prop_map(|v| v.to_string()),
        "\\PC{0,40}",
        Just("[]".to_string()),
        Just(r#"{"tax": true}"#.to_string()),
    ];
    runner()
        .run(&text, |t| {
            if let Err(e) = Rules::from_json(&t) {
                prop_assert!(!e.to_string().is_empty());
            }
            if let Ok(log) = GameLog::from_json(&t) {
                let _ = log.replay();
            }
            Ok(())
        })
        .unwrap();
}

/// A position saved from play loads back to the same state: the corpus
/// the mutations start from is valid.
#[test]
fn the_corpus_loads() {
    for text in corpus() {
        let g = GameState::from_position_json(&text).unwrap();
        assert_eq!(g.to_position_json(), text);
        let p = Position::from_json(&text).unwrap();
        assert!(p.to_state().is_ok());
    }
}
