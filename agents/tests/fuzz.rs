//! Hostile agent specs: any text is refused with a message that says what
//! is accepted, or parsed into a spec whose text parses back to it and
//! whose agent can be built. Nothing may panic. Bounded for the test
//! suite (`KANASZTA_FUZZ_CASES`, default 2,000 cases, from a fixed seed,
//! `KANASZTA_FUZZ_SEED` for another).

use kanaszta_agents::{agent_names, AgentSpec};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn agent_specs_round_trip_or_are_refused() {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&env("KANASZTA_FUZZ_SEED", 2026).to_le_bytes());
    let config = Config {
        cases: env("KANASZTA_FUZZ_CASES", 2000) as u32,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
    let names: Vec<&str> = agent_names().collect();
    let value = prop_oneof![
        "-?[0-9]{1,12}(\\.[0-9]{1,4})?",
        "[a-z]{1,8}",
        "\\PC{0,6}",
        Just("1e308".to_string()),
        Just("NaN".to_string()),
        Just("inf".to_string()),
    ];
    let key = prop_oneof![
        "[a-z_]{1,10}",
        Just("iters".to_string()),
        Just("pile".to_string()),
        Just("rollout".to_string()),
        Just("fixes".to_string()),
        Just("discard".to_string()),
    ];
    let spec = (
        0..names.len() + 1,
        prop::collection::vec((key, value), 0..4),
        "[ :,=]{0,2}",
    )
        .prop_map(move |(k, items, junk)| {
            let name = names.get(k).copied().unwrap_or("nobody");
            let body: Vec<String> = items.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("{name}{junk}:{}", body.join(","))
        });
    let text = prop_oneof![spec, "\\PC{0,30}"];
    runner
        .run(&text, |t| {
            match t.parse::<AgentSpec>() {
                Ok(s) => {
                    let again: AgentSpec = s.to_string().parse().unwrap();
                    prop_assert_eq!(&again, &s);
                    let _ = s.build();
                }
                Err(e) => {
                    let e = e.to_string();
                    prop_assert!(
                        e.contains("accepted")
                            || e.contains("accepts")
                            || e.contains("given twice")
                            || e.contains("expected"),
                        "{}",
                        e
                    );
                }
            }
            Ok(())
        })
        .unwrap();
}
