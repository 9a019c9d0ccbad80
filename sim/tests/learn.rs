//! `kanaszta learn`: the data files read back as written, their legal ids
//! are the engine's mask at each decision, the same seed writes the same
//! files on any number of threads; bad input is refused with a message.

mod common;
use common::{kanaszta, s, tmp};
use kanaszta::learn::data::{At, DataPlan, DataSet, Rows, Views};
use kanaszta::run::Mode;
use kanaszta_agents::{play_turns_observed, seat_rng, AgentSpec, Family, Observer};
use kanaszta_engine::classic::{ClassicRules, ClassicState};
use kanaszta_engine::{seed, ActionIds, Encode, GameState, Rules};

/// Every decision of a hand as the engine sees it: the decider, its
/// encoding and the legal mask's ids.
struct Truth<G: ActionIds + Encode> {
    rows: Vec<(usize, Vec<f32>, Vec<u16>, i32)>,
    legal: Vec<G::Action>,
}

impl<G: Family + ActionIds + Encode> Observer<G> for Truth<G> {
    fn before(&mut self, state: &G, p: usize, action: G::Action) {
        let mut mask = vec![false; G::ACTION_IDS];
        state.legal_mask(&mut self.legal, &mut mask);
        let ids = (0..G::ACTION_IDS)
            .filter(|&i| mask[i])
            .map(|i| i as u16)
            .collect();
        let mut obs = vec![0.0; G::OBS_LEN];
        G::encode(&state.view(p), &mut obs);
        let id = G::action_id(&action).map_or(-1, |i| i as i32);
        self.rows.push((p, obs, ids, id));
    }
}

/// Checks game `g` of the data set (whose rows start at `first`) against
/// the truth of its hand, played again; returns the rows it covered.
fn check_against_truth<G: Family + ActionIds + Encode>(
    set: &DataSet,
    first: usize,
    mut state: G,
    specs: &[AgentSpec<G>],
    rng_seed: u64,
) -> usize {
    let mut agents: Vec<_> = specs.iter().map(|s| s.build()).collect();
    let mut rngs: Vec<_> = (0..specs.len()).map(|p| seat_rng(rng_seed, p)).collect();
    let mut truth = Truth::<G> {
        rows: Vec::new(),
        legal: Vec::new(),
    };
    play_turns_observed(&mut state, &mut agents, &mut rngs, &mut truth).unwrap();
    let mut dense = vec![0.0; set.obs_len];
    for (k, (p, obs, ids, id)) in truth.rows.iter().enumerate() {
        let i = first + k;
        assert_eq!(set.seat[i] as usize, *p, "row {i}");
        assert_eq!(set.decider[i], 1);
        assert_eq!(
            set.legal(i),
            &ids[..],
            "row {i}: the legal ids are the mask's"
        );
        assert_eq!(set.action[i], *id, "row {i}");
        assert!(
            set.legal(i).contains(&(*id as u16)),
            "row {i}: the action taken is legal"
        );
        set.dense(i, &mut dense);
        assert_eq!(&dense[..], &obs[..], "row {i}: the encoding");
        let side = kanaszta_engine::Game::side_of(&state, *p);
        assert_eq!(
            set.margin[i],
            kanaszta::learn::data::margin_of(&state, side)
        );
    }
    truth.rows.len()
}

#[test]
fn decorated_data_reads_back_as_the_engine_saw_each_decision() {
    let dir = tmp("learn-dec");
    let rules = Rules::default();
    let specs: [AgentSpec<GameState>; 2] = ["rules".parse().unwrap(), "greedy".parse().unwrap()];
    let plan = DataPlan::<GameState> {
        rules,
        seats: [
            vec![specs[0].clone(), specs[1].clone()],
            vec![specs[1].clone(), specs[0].clone()],
        ],
        names: ["rules".into(), "greedy".into()],
        mode: Mode::Hands,
        games: 4,
        seed: 3,
        sample: 1.0,
        views: Views::Decider,
        at: At::Decisions,
    };
    let summary = plan.execute(&dir, 2, true).unwrap();
    std::fs::write(
        dir.join("meta.json"),
        plan.meta(&summary, "decorated-2003-02").to_string(),
    )
    .unwrap();
    let set = DataSet::read(&dir).unwrap();
    assert_eq!(set.len() as u64, summary.rows);
    assert_eq!(set.family, "decorated");
    // Read back = what was written: the rows of each game in memory.
    let mut at = 0;
    for g in 0..4 {
        let rows: Rows = plan.play(g).rows;
        let n = rows.len();
        assert!(n > 10);
        assert!(set.game[at..at + n].iter().all(|&x| x == g as i64));
        assert_eq!(&set.margin[at..at + n], &rows.margin[..]);
        assert_eq!(&set.action[at..at + n], &rows.action[..]);
        let deal_seed = seed::deal(3, g / 2);
        let seats = &plan.seats[(g % 2) as usize];
        let covered =
            check_against_truth(&set, at, GameState::new(rules, deal_seed), seats, deal_seed);
        assert_eq!(covered, n);
        at += n;
    }
    assert_eq!(at, set.len());
}

#[test]
fn match_data_holds_each_match_outcome_per_side() {
    let d = tmp("learn-m");
    let (code, _, err) = kanaszta(&[
        "learn",
        "data",
        "--a",
        "greedy",
        "--b",
        "random",
        "--matches",
        "2",
        "--sample",
        "0.05",
        "--views",
        "all",
        "-q",
        "--out",
        s(&d),
    ]);
    assert_eq!(code, 0, "{err}");
    let set = DataSet::read(&d).unwrap();
    let outcome = set.outcome.as_ref().expect("outcome.npy with --matches");
    for i in (0..set.len()).step_by(2) {
        // Two seats, each alone: one won what the other lost.
        assert_eq!(set.game[i], set.game[i + 1]);
        assert_eq!(outcome[i] + outcome[i + 1], 1.0, "row {i}");
        assert_eq!(set.margin[i], -set.margin[i + 1]);
    }
    assert!(set.hand.iter().any(|&h| h > 0), "a match has several hands");
}

#[test]
fn classic_data_in_partnerships_with_every_view() {
    let dir = tmp("learn-cl");
    let mut rules = ClassicRules::preset("classic-002").unwrap();
    rules.set("players", "4").unwrap();
    let r: AgentSpec<ClassicState> = "rules".parse().unwrap();
    let gr: AgentSpec<ClassicState> = "greedy".parse().unwrap();
    let seats = |sw: bool| -> Vec<AgentSpec<ClassicState>> {
        (0..4)
            .map(|p| {
                if kanaszta::classic::agent_of(p, sw) == 0 {
                    r.clone()
                } else {
                    gr.clone()
                }
            })
            .collect()
    };
    let plan = DataPlan::<ClassicState> {
        rules,
        seats: [seats(false), seats(true)],
        names: ["rules".into(), "greedy".into()],
        mode: Mode::Hands,
        games: 2,
        seed: 5,
        sample: 1.0,
        views: Views::All,
        at: At::Decisions,
    };
    // An earlier run's meta.json does not outlive the files it described.
    std::fs::write(dir.join("meta.json"), "{\"rows\": 3}").unwrap();
    let summary = plan.execute(&dir, 1, true).unwrap();
    assert!(!dir.join("meta.json").exists());
    std::fs::write(
        dir.join("meta.json"),
        plan.meta(&summary, "classic-002").to_string(),
    )
    .unwrap();
    let set = DataSet::read(&dir).unwrap();
    assert_eq!(set.family, "classic");
    assert_eq!(summary.rows, 4 * summary.decisions);
    for i in 0..set.len() {
        // Rows come four to a decision, the decider's first; partners
        // share a margin, opponents have its opposite.
        let k = i % 4;
        assert_eq!(set.decider[i], u8::from(k == 0));
        let first = i - k;
        let d = set.seat[first] as usize;
        assert_eq!(set.seat[i] as usize, (d + k) % 4);
        let sign = if k % 2 == 0 { 1 } else { -1 };
        assert_eq!(set.margin[i], sign * set.margin[first], "row {i}");
        if k > 0 {
            assert!(set.legal(i).is_empty());
            assert_eq!(set.action[i], -1);
        }
    }
}

#[test]
fn data_files_do_not_depend_on_threads_and_sample_by_seed() {
    let a = tmp("learn-t1");
    let b = tmp("learn-t2");
    let c = tmp("learn-t3");
    let args = |d: &std::path::Path, t: &str, sample: &str| {
        let (code, _, err) = kanaszta(&[
            "learn",
            "data",
            "--rules",
            "classic-002",
            "--a",
            "rules",
            "--b",
            "greedy",
            "--hands",
            "6",
            "--seed",
            "9",
            "--sample",
            sample,
            "--threads",
            t,
            "-q",
            "--out",
            s(d),
        ]);
        assert_eq!(code, 0, "{err}");
    };
    args(&a, "1", "1");
    args(&b, "3", "1");
    args(&c, "2", "0.25");
    for f in [
        "obs_indptr",
        "obs_index",
        "obs_value",
        "legal_id",
        "action",
        "margin",
        "game",
    ] {
        let name = format!("{f}.npy");
        assert_eq!(
            std::fs::read(a.join(&name)).unwrap(),
            std::fs::read(b.join(&name)).unwrap(),
            "{f}"
        );
    }
    let all = DataSet::read(&a).unwrap();
    let some = DataSet::read(&c).unwrap();
    assert!(
        some.len() * 8 < all.len() * 3 && some.len() * 8 > all.len(),
        "{} of {}",
        some.len(),
        all.len()
    );
}

#[test]
fn data_refuses_bad_options() {
    let d = tmp("learn-bad");
    let (code, _, err) = kanaszta(&["learn", "data", "--sample", "0", "--out", s(&d)]);
    assert_eq!(code, 1);
    assert!(err.contains("expected a share in (0, 1]"), "{err}");
    let (code, _, err) = kanaszta(&["learn", "data", "--views", "some", "--out", s(&d)]);
    assert_eq!(code, 1);
    assert!(err.contains("decider") && err.contains("all"), "{err}");
    let (code, _, err) = kanaszta(&[
        "learn",
        "data",
        "--hands",
        "2",
        "--matches",
        "2",
        "--out",
        s(&d),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("not both"), "{err}");
    let (code, _, err) = kanaszta(&[
        "learn",
        "data",
        "--a",
        "bogus",
        "--hands",
        "2",
        "--out",
        s(&d),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("bogus"), "{err}");
}

/// Writes data of `hands` hands of the family of `rules` into `dir`.
fn small_data(dir: &std::path::Path, rules: &[&str], hands: &str) {
    let mut args = vec![
        "learn", "data", "--a", "rules", "--b", "greedy", "--hands", hands,
    ];
    args.extend_from_slice(rules);
    args.extend_from_slice(&["--views", "all", "-q", "--out", s(dir)]);
    let (code, _, err) = kanaszta(&args);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn fit_is_deterministic_and_reports_held_out_error() {
    let d = tmp("learn-fit");
    small_data(&d, &["--rules", "classic-002"], "12");
    for kind in ["linear", "mlp"] {
        let a = d.join(format!("{kind}-a.json"));
        let b = d.join(format!("{kind}-b.json"));
        let c = d.join(format!("{kind}-c.json"));
        for (m, seed) in [(&a, "3"), (&b, "3"), (&c, "4")] {
            let (code, out, err) = kanaszta(&[
                "learn",
                "fit",
                s(&d),
                "--kind",
                kind,
                "--epochs",
                "2",
                "--holdout",
                "0.3",
                "--seed",
                seed,
                "--out",
                s(m),
            ]);
            assert_eq!(code, 0, "{err}");
            assert!(
                out.contains("held-out: mse") && out.contains("calibration"),
                "{out}"
            );
        }
        let (ta, tb, tc) = (common::read(&a), common::read(&b), common::read(&c));
        assert_eq!(ta, tb, "{kind}: one seed, one model");
        assert_ne!(ta, tc, "{kind}: the seed draws the held-out deals");
        let v: serde_json::Value = serde_json::from_str(&ta).unwrap();
        assert_eq!(v["family"], "classic");
        assert_eq!(v["kind"], kind);
        let t = &v["training"];
        assert!(t["held_out_rows"].as_u64().unwrap() > 0);
        assert_eq!(
            t["held_out_rows"].as_u64().unwrap() + t["train_rows"].as_u64().unwrap(),
            t["samples"].as_u64().unwrap()
        );
        assert!(t["held_out_mse"].as_f64().unwrap() > 0.0);
        assert_eq!(t["calibration"].as_array().unwrap().len(), 10);
    }
}

/// The network is trained by candle on the CPU: the model file is the same
/// byte for byte whatever number of threads candle and rayon are told the
/// machine has.
#[test]
fn a_network_is_the_same_for_any_thread_count() {
    let d = tmp("learn-threads");
    small_data(&d, &["--rules", "decorated-2003-02"], "6");
    let mut files = Vec::new();
    for threads in ["1", "2", "7"] {
        let m = d.join(format!("mlp-{threads}.json"));
        let (code, _, err) = common::kanaszta_env(
            &[
                "learn",
                "fit",
                s(&d),
                "--kind",
                "mlp",
                "--hidden",
                "6",
                "--epochs",
                "2",
                "--batch",
                "16",
                "--out",
                s(&m),
            ],
            &[
                ("RAYON_NUM_THREADS", threads),
                ("CANDLE_NUM_THREADS", threads),
            ],
        );
        assert_eq!(code, 0, "{err}");
        files.push(std::fs::read(&m).unwrap());
    }
    assert_eq!(files[0], files[1], "1 and 2 threads");
    assert_eq!(files[0], files[2], "1 and 7 threads");
}

/// A network started from the ridge fit and not trained further predicts
/// what the linear model does, row for row; trained on, it stays as
/// deterministic as any fit.
#[test]
fn a_network_from_the_linear_fit_starts_where_it_is() {
    use kanaszta::learn::fit::{fit, FitConfig, Kind};
    let d = tmp("learn-from-linear");
    small_data(&d, &["--rules", "classic-002"], "6");
    let set = DataSet::read(&d).unwrap();
    let linear = fit(&set, &FitConfig::default()).unwrap();
    let start = FitConfig {
        kind: Kind::Mlp,
        hidden: 5,
        epochs: 0,
        from_linear: true,
        ..FitConfig::default()
    };
    let mlp = fit(&set, &start).unwrap();
    assert_eq!(mlp.training["from_linear"], true);
    let mut dense = vec![0.0; set.obs_len];
    let mut h = vec![0.0; 5];
    for i in 0..set.len() {
        set.dense(i, &mut dense);
        let (a, b) = (linear.margin(&dense, &mut []), mlp.margin(&dense, &mut h));
        assert!((a - b).abs() < 0.05, "row {i}: linear {a}, network {b}");
    }
    let trained = FitConfig { epochs: 2, ..start };
    let (x, y) = (fit(&set, &trained).unwrap(), fit(&set, &trained).unwrap());
    assert_eq!(x, y);
    assert_ne!(x.net, mlp.net, "training moves the weights");
}

/// A linear model fitted by hand to data whose margin is one entry of the
/// encoding times 100: ridge recovers it.
#[test]
fn ridge_recovers_a_linear_target() {
    use kanaszta::learn::fit::{fit, FitConfig, Kind};
    let d = tmp("learn-ridge");
    small_data(&d, &["--rules", "classic-002"], "4");
    let mut set = DataSet::read(&d).unwrap();
    // The margin becomes 100 × the stock's size (index 160) + 7.
    let mut dense = vec![0.0; set.obs_len];
    for i in 0..set.len() {
        set.dense(i, &mut dense);
        set.margin[i] = (100.0 * dense[160] * 110.0).round() as i32 + 7;
    }
    let cfg = FitConfig {
        kind: Kind::Linear,
        lambda: 0.0,
        iters: 2000,
        holdout: 0.0,
        ..FitConfig::default()
    };
    let m = fit(&set, &cfg).unwrap();
    let mut h = [];
    for i in (0..set.len()).step_by(7) {
        set.dense(i, &mut dense);
        let p = m.margin(&dense, &mut h);
        assert!(
            (p - set.margin[i] as f32).abs() < 1.0,
            "row {i}: {p} v {}",
            set.margin[i]
        );
    }
}

#[test]
fn a_model_trained_on_a_tiny_set_plays_legal_moves_in_both_families() {
    for (name, rules) in [
        ("dec", vec!["--rules", "decorated-2003-02"]),
        ("cl4", vec!["--rules", "classic-002", "--set", "players=4"]),
    ] {
        let d = tmp(&format!("learn-play-{name}"));
        small_data(&d, &rules, "4");
        for kind in ["linear", "mlp"] {
            let m = d.join(format!("{kind}.json"));
            let (code, _, err) = kanaszta(&[
                "learn",
                "fit",
                s(&d),
                "--kind",
                kind,
                "--hidden",
                "4",
                "--epochs",
                "1",
                "--out",
                s(&m),
            ]);
            assert_eq!(code, 0, "{err}");
            let spec = format!("value:model={}", s(&m));
            let mut args = vec!["play", "--a", &spec, "--b", "greedy", "--hands", "4", "-q"];
            args.extend_from_slice(&rules);
            let out = d.join(format!("run-{kind}"));
            args.extend_from_slice(&["--out", s(&out)]);
            // Exit 0: no game ended by an illegal action (that is exit 2).
            let (code, stdout, err) = kanaszta(&args);
            assert_eq!(code, 0, "{name} {kind}: {err}");
            assert!(stdout.contains("value:model="), "{stdout}");
        }
        // The searches with the model scoring their cut rollouts: the
        // decorated ones, and the classic ones cut at `depth` turns.
        let searches = if name == "dec" {
            [
                ("ismcts", "ismcts:iters=20,depth=2,race=0"),
                ("pimc", "pimc:worlds=3,depth=2"),
            ]
        } else {
            [
                ("ismcts", "ismcts:iters=12,depth=2"),
                ("pimc", "pimc:worlds=2,depth=1"),
            ]
        };
        for (search, spec) in searches {
            let spec = format!("{spec},eval={}", s(&d.join("mlp.json")));
            let out = d.join(format!("run-{search}"));
            let mut args = vec!["play", "--a", &spec, "--b", "greedy", "--hands", "2", "-q"];
            args.extend_from_slice(&rules);
            args.extend_from_slice(&["--out", s(&out)]);
            let (code, _, err) = kanaszta(&args);
            assert_eq!(code, 0, "{name} {search}: {err}");
            let (_, rows) = common::table(&out.join("hands.csv"));
            let seats = if name == "dec" { 2 } else { 4 };
            assert_eq!(
                rows.len(),
                2 * seats,
                "{name} {search}: one row a seat and hand"
            );
        }
    }
}

#[test]
fn bad_model_files_are_refused_with_what_was_wrong() {
    let d = tmp("learn-badmodel");
    small_data(&d, &["--rules", "classic-002"], "2");
    let m = d.join("m.json");
    let (code, _, err) = kanaszta(&["learn", "fit", s(&d), "--out", s(&m)]);
    assert_eq!(code, 0, "{err}");
    let play = |spec: &str, rules: &str| {
        kanaszta(&[
            "play",
            "--a",
            spec,
            "--b",
            "greedy",
            "--hands",
            "2",
            "-q",
            "--rules",
            rules,
            "--out",
            s(&d.join("run")),
        ])
    };
    // A classic model in a decorated game.
    let (code, _, err) = play(&format!("value:model={}", s(&m)), "decorated-2003-02");
    assert_eq!(code, 1);
    assert!(
        err.contains("a model of classic canasta; this is decorated canasta"),
        "{err}"
    );
    // No such file.
    let (code, _, err) = play("value:model=/nonexistent/m.json", "classic-002");
    assert_eq!(code, 1);
    assert!(err.contains("cannot read /nonexistent/m.json"), "{err}");
    // Not JSON; JSON of something else; another encoding version.
    let bad = d.join("bad.json");
    std::fs::write(&bad, "weights: 1").unwrap();
    let (code, _, err) = play(&format!("value:model={}", s(&bad)), "classic-002");
    assert_eq!(code, 1);
    assert!(err.contains("not JSON"), "{err}");
    std::fs::write(&bad, "{\"format\": \"something\"}").unwrap();
    let (_, _, err) = play(&format!("value:model={}", s(&bad)), "classic-002");
    assert!(err.contains("not a value model"), "{err}");
    let text = common::read(&m).replace("\"encoding_version\":1", "\"encoding_version\":99");
    std::fs::write(&bad, text).unwrap();
    let (code, _, err) = play(&format!("value:model={}", s(&bad)), "classic-002");
    assert_eq!(code, 1);
    assert!(err.contains("encoding version 99"), "{err}");
    // A model cut short.
    let text = common::read(&m);
    std::fs::write(&bad, &text[..text.len() / 2]).unwrap();
    let (code, _, err) = play(&format!("value:model={}", s(&bad)), "classic-002");
    assert_eq!(code, 1);
    assert!(err.contains("not JSON"), "{err}");
    // The classic searches: a model without a depth to cut at, a model
    // of the other family, a file that is not there.
    let (code, _, err) = play(&format!("ismcts:eval={}", s(&m)), "classic-002");
    assert_eq!(code, 1);
    assert!(
        err.contains("judges simulations cut at `depth` turns, and depth is 0")
            && err.contains("give depth=N too"),
        "{err}"
    );
    // The spec is quoted once, with the model's path in it: not again.
    assert_eq!(err.matches(&s(&m)).count(), 1, "{err}");
    let (code, _, err) = play(
        &format!("pimc:worlds=2,eval={},depth=0", s(&m)),
        "classic-002",
    );
    assert_eq!(code, 1);
    assert!(err.contains("give depth=N too"), "{err}");
    let (code, _, err) = play("pimc:depth=3,eval=/nonexistent/m.json", "classic-002");
    assert_eq!(code, 1);
    assert!(
        err.contains("for pimc's `eval`") && err.contains("cannot read /nonexistent/m.json"),
        "{err}"
    );
    let dec = tmp("learn-badmodel-dec");
    small_data(&dec, &[], "2");
    let dm = dec.join("m.json");
    let (code, _, err) = kanaszta(&["learn", "fit", s(&dec), "--out", s(&dm)]);
    assert_eq!(code, 0, "{err}");
    for search in ["ismcts", "pimc"] {
        let (code, _, err) = play(&format!("{search}:depth=2,eval={}", s(&dm)), "classic-002");
        assert_eq!(code, 1);
        assert!(
            err.contains("a model of decorated canasta; this is classic canasta"),
            "{search}: {err}"
        );
    }
    // Fit refuses a directory that is not data.
    let (code, _, err) = kanaszta(&["learn", "fit", s(&d.join("run")), "--out", s(&bad)]);
    assert_eq!(code, 1);
    assert!(err.contains("meta.json"), "{err}");
}

#[test]
fn fit_refuses_a_negative_lambda_and_says_when_nothing_is_held_out() {
    let d = tmp("learn-fit-small");
    small_data(&d, &[], "2");
    let m = d.join("m.json");
    let (code, _, err) = kanaszta(&["learn", "fit", s(&d), "--lambda", "-1", "--out", s(&m)]);
    assert_eq!(code, 1);
    assert!(err.contains("expected a number from 0"), "{err}");
    // Two hands are one deal: --holdout 0.1 holds it out or not; seed 1
    // does not, so there is no held-out figure to print.
    let (code, out, err) = kanaszta(&["learn", "fit", s(&d), "--out", s(&m)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("0 held out"), "{out}");
    assert!(out.contains("no held-out figures"), "{out}");
    assert!(!out.contains("-0.0") && !out.contains("r² 1"), "{out}");
    let v: serde_json::Value = serde_json::from_str(&common::read(&m)).unwrap();
    assert!(v["training"]["held_out_mse"].is_null());
    assert!(v["training"]["held_out_r2"].is_null());
}

/// The options of a tiny loop, writing into `dir`.
fn tiny_loop<'a>(dir: &'a str, generations: &'a str, threads: &'a str) -> Vec<&'a str> {
    vec![
        "learn",
        "loop",
        "--out",
        dir,
        "--generations",
        generations,
        "--hands",
        "8",
        "--gate-hands",
        "4",
        "--eval-hands",
        "4",
        "--seed",
        "5",
        "--threads",
        threads,
        "-q",
    ]
}

/// Every file of a loop's directory but run.json (which records the
/// command), by path relative to it.
fn loop_files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().unwrap() != "run.json" {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn loop_runs_generations_deterministically_and_resumes() {
    let root = tmp("learn-loop");
    let (one, two, three) = (root.join("one"), root.join("two"), root.join("three"));
    let (code, _, err) = kanaszta(&tiny_loop(s(&one), "2", "1"));
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = kanaszta(&tiny_loop(s(&two), "2", "2"));
    assert_eq!(code, 0, "{err}");
    // One seed, the same directory, for any number of threads (the
    // agents name their model by its path: the two directories' names
    // differ in the data's meta.json and in loop.csv only by that).
    let strip = |files: Vec<(String, Vec<u8>)>, name: &str| -> Vec<(String, String)> {
        files
            .into_iter()
            .map(|(p, b)| (p, String::from_utf8_lossy(&b).replace(name, "DIR")))
            .collect()
    };
    let a = strip(loop_files(&one), s(&one));
    let b = strip(loop_files(&two), s(&two));
    assert_eq!(a, b);
    assert!(a.iter().any(|(p, _)| p == "gen-001/model.json"));

    let (header, rows) = common::table(&one.join("loop.csv"));
    assert_eq!(header, kanaszta::learn::iteration::columns());
    assert_eq!(rows.len(), 2);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(rows[0][col("generation")], "0");
    assert_eq!(rows[0][col("data_a")], "rules");
    assert_eq!(rows[0][col("accepted")], "1");
    assert_eq!(rows[0][col("gate_hands")], "", "generation 0 has no gate");
    assert!(rows[1][col("data_a")].starts_with("value:model="));
    assert_eq!(rows[1][col("gate_hands")], "4");
    let accepted = rows[1][col("accepted")] == "1";
    let gate: f64 = rows[1][col("gate_diff")].parse().unwrap();
    assert_eq!(accepted, gate >= 0.0, "accepted when not worse");
    assert_eq!(
        rows[1][col("best")],
        if accepted { "1" } else { "0" },
        "the best is the accepted model"
    );
    for r in &rows {
        let (w, lo, hi): (f64, f64, f64) = (
            r[col("rules_win")].parse().unwrap(),
            r[col("rules_win_lo")].parse().unwrap(),
            r[col("rules_win_hi")].parse().unwrap(),
        );
        assert!(lo <= w && w <= hi, "{r:?}");
        assert_eq!(
            r[col("fit_hands")],
            (8 * (r[0].parse::<u64>().unwrap() + 1)).to_string()
        );
    }

    // Going on: a third generation after the two, the first two kept as
    // they were; the same as three generations in one run.
    let before = loop_files(&one);
    let (code, _, err) = kanaszta(&tiny_loop(s(&one), "3", "2"));
    assert_eq!(code, 0, "{err}");
    let after = loop_files(&one);
    for (p, bytes) in &before {
        if p != "loop.csv" {
            let same = after.iter().find(|(q, _)| q == p).unwrap();
            assert_eq!(&same.1, bytes, "{p} kept");
        }
    }
    let (code, _, err) = kanaszta(&tiny_loop(s(&three), "3", "1"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        strip(loop_files(&one), s(&one)),
        strip(loop_files(&three), s(&three))
    );
    // Nothing left to do is no error.
    let (code, _, err) = kanaszta(&tiny_loop(s(&one), "3", "1"));
    assert_eq!(code, 0, "{err}");

    // Another loop's settings, or a directory of something else: refused.
    let mut other = tiny_loop(s(&one), "4", "1");
    other[7] = "9";
    let (code, _, err) = kanaszta(&other);
    assert_eq!(code, 1);
    assert!(err.contains("hands is 8, not 9"), "{err}");
    let stranger = root.join("stranger");
    std::fs::create_dir_all(&stranger).unwrap();
    std::fs::write(stranger.join("notes.txt"), "mine").unwrap();
    let (code, _, err) = kanaszta(&tiny_loop(s(&stranger), "1", "1"));
    assert_eq!(code, 1);
    assert!(err.contains("no run.json of a learn loop"), "{err}");
}

#[test]
fn loop_plays_classic_canasta_too() {
    let d = tmp("learn-loop-classic");
    let mut args = tiny_loop(s(&d), "2", "2");
    args.extend_from_slice(&["--rules", "classic-002", "--kind", "mlp", "--hidden", "4"]);
    args.extend_from_slice(&["--gate", "hands"]);
    let (code, _, err) = kanaszta(&args);
    assert_eq!(code, 0, "{err}");
    let (header, rows) = common::table(&d.join("loop.csv"));
    assert_eq!(rows.len(), 2);
    // The fixed gate: its hands, no test.
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(rows[1][col("gate_hands")], "4");
    assert_eq!(rows[1][col("gate_decision")], "");
    assert_eq!(rows[1][col("gate_llr")], "");
    let v: serde_json::Value =
        serde_json::from_str(&common::read(&d.join("gen-001/model.json"))).unwrap();
    assert_eq!(v["family"], "classic");
    assert_eq!(v["kind"], "mlp");
    let run: serde_json::Value = serde_json::from_str(&common::read(&d.join("run.json"))).unwrap();
    assert_eq!(run["settings"]["family"], "classic");
    assert_eq!(run["settings"]["gate"], "hands");
    assert!(run["settings"]["gate_sprt"].is_null());
    assert_eq!(run["command"][1], "learn");
    assert!(header.contains(&"greedy_diff_hi".to_string()));
}

#[test]
fn loop_refuses_bad_options() {
    let d = tmp("learn-loop-bad");
    let dir = d.join("l");
    for (flag, value, says) in [
        ("--generations", "0", "from 1 to 999"),
        ("--hands", "-3", "--hands"),
        ("--data", "some", "latest"),
        ("--lambda", "-1", "expected a number from 0"),
        ("--a", "bogus", "bogus"),
        ("--opponent", "bogus", "bogus"),
        ("--gate", "nope", "expected sprt"),
        (
            "--gate-hands",
            "5",
            "expected an even number under --gate sprt",
        ),
        (
            "--gate-alpha",
            "1",
            "--gate-alpha 1: expected an error rate",
        ),
        ("--gate-sprt", "-10", "e.g. --gate-sprt 50"),
        ("--gate-metric", "elo", "unknown SPRT metric"),
        ("--turn", "yes", "expected on"),
        ("--worlds", "0", "from 1 to 64"),
        ("--worlds", "65", "from 1 to 64"),
        ("--at", "end", "expected decision"),
        // Worlds are the turn-level agent's only.
        ("--worlds", "4", "--turn is off"),
    ] {
        let (code, _, err) = kanaszta(&["learn", "loop", "--out", s(&dir), flag, value]);
        assert_eq!(code, 1, "{flag} {value}");
        assert!(err.contains(says), "{flag} {value}: {err}");
    }
    assert!(!dir.join("loop.csv").exists());
}

/// A tiny classic loop gated by the sequential test, deciding within its
/// cap: the new models of two players' games are far apart.
fn sprt_loop<'a>(dir: &'a str, generations: &'a str, threads: &'a str) -> Vec<&'a str> {
    vec![
        "learn",
        "loop",
        "--rules",
        "classic-002",
        "--out",
        dir,
        "--generations",
        generations,
        "--hands",
        "24",
        "--gate",
        "sprt",
        "--gate-sprt",
        "200",
        "--gate-min-deals",
        "4",
        "--gate-hands",
        "60",
        "--eval-hands",
        "4",
        "--seed",
        "2",
        "--threads",
        threads,
        "-q",
    ]
}

#[test]
fn the_sprt_gate_is_deterministic_records_its_decision_and_resumes() {
    let root = tmp("learn-loop-sprt");
    let (one, two, three) = (root.join("one"), root.join("two"), root.join("three"));
    let (code, _, err) = kanaszta(&sprt_loop(s(&one), "3", "1"));
    assert_eq!(code, 0, "{err}");
    // Two threads: the games of a batch finish in another order, and the
    // test still reads them deal by deal.
    let (code, _, err) = kanaszta(&sprt_loop(s(&two), "2", "2"));
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = kanaszta(&sprt_loop(s(&two), "3", "2"));
    assert_eq!(code, 0, "{err}");
    let strip = |dir: &std::path::Path| -> Vec<(String, String)> {
        loop_files(dir)
            .into_iter()
            .map(|(p, b)| (p, String::from_utf8_lossy(&b).replace(s(dir), "DIR")))
            .collect()
    };
    assert_eq!(
        strip(&one),
        strip(&two),
        "one seed, any threads, resumed or not"
    );

    let (header, rows) = common::table(&one.join("loop.csv"));
    assert_eq!(header, kanaszta::learn::iteration::columns());
    assert_eq!(rows.len(), 3);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(
        rows[0][col("gate_decision")],
        "",
        "generation 0 has no gate"
    );
    let mut decided = 0;
    for r in &rows[1..] {
        let hands: u64 = r[col("gate_hands")].parse().unwrap();
        assert!(
            hands.is_multiple_of(2) && (8..=60).contains(&hands),
            "{r:?}"
        );
        let diff: f64 = r[col("gate_diff")].parse().unwrap();
        let llr = &r[col("gate_llr")];
        assert!(
            llr.parse::<f64>().is_ok() || llr == "inf" || llr == "-inf",
            "{llr}"
        );
        let accepted = r[col("accepted")] == "1";
        match r[col("gate_decision")].as_str() {
            "H1" => assert!(accepted),
            "H0" => assert!(!accepted),
            "undecided" => {
                assert_eq!(hands, 60, "undecided only at the cap");
                assert_eq!(accepted, diff >= 0.0);
            }
            other => panic!("decision {other}"),
        }
        if hands < 60 {
            decided += 1;
            assert_ne!(r[col("gate_decision")], "undecided");
        }
    }
    assert!(decided > 0, "the test stops before the cap: {rows:?}");
    let run: serde_json::Value =
        serde_json::from_str(&common::read(&one.join("run.json"))).unwrap();
    assert_eq!(run["settings"]["gate"], "sprt");
    assert_eq!(run["settings"]["gate_sprt"]["h1"], 200.0);
    assert_eq!(run["settings"]["gate_sprt"]["min_deals"], 4);

    // The same loop under the fixed gate is another loop: refused.
    let mut other = sprt_loop(s(&one), "4", "1");
    let at = other.iter().position(|a| *a == "sprt").unwrap();
    other[at] = "hands";
    other.drain(at + 1..at + 5);
    let (code, _, err) = kanaszta(&other);
    assert_eq!(code, 1);
    assert!(err.contains("gate is \"sprt\", not \"hands\""), "{err}");
    // A test's option with the fixed gate is refused.
    let (code, _, err) = kanaszta(&[
        "learn",
        "loop",
        "--out",
        s(&three),
        "--gate",
        "hands",
        "--gate-min-deals",
        "10",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("drop --gate-min-deals, or give --gate sprt"),
        "{err}"
    );
}

/// `value:turn=on` in both families: the switch and `worlds` are read
/// and refused with what is accepted; a turn-level player with a model
/// plays whole hands legally (exit 0: no game ended by an illegal
/// action), and the same seed gives the same hands.
#[test]
fn turn_level_value_player_is_legal_deterministic_and_checks_its_switches() {
    for (name, rules) in [
        ("dec", vec!["--rules", "decorated-2003-02"]),
        ("cl2", vec!["--rules", "classic-002"]),
        ("cl4", vec!["--rules", "classic-002", "--set", "players=4"]),
    ] {
        let d = tmp(&format!("learn-turn-{name}"));
        small_data(&d, &rules, "4");
        let m = d.join("m.json");
        let (code, _, err) = kanaszta(&["learn", "fit", s(&d), "--out", s(&m)]);
        assert_eq!(code, 0, "{err}");
        let play = |spec: &str, out: &str| {
            let mut args = vec!["play", "--a", spec, "--b", "greedy", "--hands", "4", "-q"];
            args.extend_from_slice(&rules);
            let out = d.join(out);
            args.extend_from_slice(&["--seed", "5", "--out", s(&out)]);
            let r = kanaszta(&args);
            (r, out)
        };
        let spec = format!("value:model={},turn=on,worlds=2", s(&m));
        let ((code, stdout, err), one) = play(&spec, "one");
        assert_eq!(code, 0, "{name}: {err}");
        assert!(stdout.contains("turn=on"), "{stdout}");
        let ((code, _, err), two) = play(&spec, "two");
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(
            common::read(&one.join("hands.csv")),
            common::read(&two.join("hands.csv")),
            "{name}: the same seed, the same hands"
        );
        // A turn-level player judges other positions than the one-step
        // one: the same model plays other hands.
        let ((code, _, err), step) = play(&format!("value:model={}", s(&m)), "step");
        assert_eq!(code, 0, "{name}: {err}");
        assert_ne!(
            common::read(&one.join("hands.csv")),
            common::read(&step.join("hands.csv")),
            "{name}"
        );
        for (bad, says) in [
            ("value:turn=maybe", "expected on or off"),
            ("value:turn=on,worlds=0", "1 to 64"),
            ("value:worlds=65", "1 to 64"),
        ] {
            let ((code, _, err), _) = play(bad, "bad");
            assert_eq!(code, 1, "{name} {bad}");
            assert!(err.contains(says), "{name} {bad}: {err}");
        }
    }
}

/// `learn data --at turn-end` writes exactly the first decision of each
/// turn but a hand's first, as `--at decision` wrote it, every seat's
/// view: the position at the end of the turn before.
#[test]
fn turn_end_rows_are_the_first_decision_of_each_turn() {
    for (name, rules) in [
        ("dec", vec!["--rules", "decorated-2003-02"]),
        ("cl4", vec!["--rules", "classic-002", "--set", "players=4"]),
    ] {
        let run = |at: &str| {
            let d = tmp(&format!("learn-at-{name}-{at}"));
            let mut args = vec![
                "learn", "data", "--a", "rules", "--b", "greedy", "--hands", "4", "--at", at,
            ];
            args.extend_from_slice(&rules);
            args.extend_from_slice(&["--views", "all", "--seed", "7", "-q", "--out", s(&d)]);
            let (code, _, err) = kanaszta(&args);
            assert_eq!(code, 0, "{err}");
            assert!(common::read(&d.join("meta.json")).contains(&format!("\"at\": \"{at}\"")));
            DataSet::read(&d).unwrap()
        };
        let all = run("decision");
        let ends = run("turn-end");
        let players = if name == "dec" { 2 } else { 4 };
        // The rows of `all` that open a turn: a decider's row whose turn
        // count differs from the decision before it in the same game.
        let mut want = Vec::new();
        let mut before: Option<(i64, i32, i32)> = None;
        for i in 0..all.len() {
            if all.decider[i] == 0 {
                continue;
            }
            let key = (all.game[i], all.hand[i], all.turn[i]);
            if all.turn[i] > 0 && before != Some(key) {
                want.extend(i..i + players);
            }
            before = Some(key);
        }
        assert!(ends.len() > 20, "{name}: {} rows", ends.len());
        assert_eq!(ends.len(), want.len(), "{name}");
        let (mut x, mut y) = (vec![0.0; all.obs_len], vec![0.0; all.obs_len]);
        for (k, &i) in want.iter().enumerate() {
            assert_eq!(ends.game[k], all.game[i]);
            assert_eq!(ends.turn[k], all.turn[i]);
            assert!(
                ends.turn[k] > 0,
                "{name}: no row before the first turn ends"
            );
            assert_eq!(ends.seat[k], all.seat[i]);
            assert_eq!(ends.decider[k], all.decider[i]);
            assert_eq!(ends.margin[k], all.margin[i]);
            assert_eq!(ends.action[k], all.action[i]);
            all.dense(i, &mut x);
            ends.dense(k, &mut y);
            assert_eq!(x, y, "{name}: row {k}");
        }
    }
    let d = tmp("learn-at-bad");
    let (code, _, err) = kanaszta(&["learn", "data", "--at", "end", "--out", s(&d)]);
    assert_eq!(code, 1);
    assert!(
        err.contains("decision") && err.contains("turn-end"),
        "{err}"
    );
}

/// `learn fit` of several data runs fits them as one set and records
/// each run; runs of two families are refused with the reason.
#[test]
fn fit_reads_several_runs_of_one_family() {
    let d = tmp("learn-fit-runs");
    let (a, b, c) = (d.join("a"), d.join("b"), d.join("c"));
    small_data(&a, &["--rules", "classic-002"], "4");
    small_data(&b, &["--rules", "classic-002"], "2");
    small_data(&c, &["--rules", "decorated-2003-02"], "2");
    let m = d.join("m.json");
    let (code, out, err) = kanaszta(&["learn", "fit", s(&a), s(&b), "--out", s(&m)]);
    assert_eq!(code, 0, "{err}");
    let rows = |dir: &std::path::Path| DataSet::read(dir).unwrap().len();
    assert!(
        out.contains(&format!("{} rows", rows(&a) + rows(&b))),
        "{out}"
    );
    let model: serde_json::Value = serde_json::from_str(&common::read(&m)).unwrap();
    let runs = model["training"]["data"]["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[1]["rows"], rows(&b) as u64);
    assert_eq!(runs[0]["at"], "decision");
    let (code, _, err) = kanaszta(&["learn", "fit", s(&a), s(&c), "--out", s(&m)]);
    assert_eq!(code, 1);
    assert!(
        err.contains("data of decorated canasta") && err.contains("one model reads one encoding"),
        "{err}"
    );
}

#[test]
fn a_loop_of_the_turn_level_agent_runs_deterministically() {
    let root = tmp("learn-loop-turn");
    let (one, two) = (root.join("one"), root.join("two"));
    let turn = ["--turn", "on", "--worlds", "2", "--at", "turn-end"];
    for (d, threads) in [(&one, "1"), (&two, "2")] {
        let mut args = tiny_loop(s(d), "2", threads);
        args.extend_from_slice(&turn);
        let (code, _, err) = kanaszta(&args);
        assert_eq!(code, 0, "{err}");
    }
    let strip = |d: &std::path::Path| -> Vec<(String, String)> {
        loop_files(d)
            .into_iter()
            .map(|(p, b)| (p, String::from_utf8_lossy(&b).replace(s(d), "DIR")))
            .collect()
    };
    assert_eq!(strip(&one), strip(&two));
    let (header, rows) = common::table(&one.join("loop.csv"));
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(rows[0][col("data_a")], "rules");
    let a = &rows[1][col("data_a")];
    assert!(
        a.starts_with("value:model=") && a.ends_with("/gen-000/model.json,turn=on,worlds=2"),
        "{a}"
    );
    let meta: serde_json::Value =
        serde_json::from_str(&common::read(&one.join("gen-001/data/meta.json"))).unwrap();
    assert_eq!(meta["at"], "turn-end");
    let run: serde_json::Value =
        serde_json::from_str(&common::read(&one.join("run.json"))).unwrap();
    assert_eq!(run["settings"]["turn"], "on");
    assert_eq!(run["settings"]["worlds"], 2);
    assert_eq!(run["settings"]["at"], "turn-end");
    // The same loop without the turn-level agent is another loop.
    let mut args = tiny_loop(s(&one), "3", "1");
    args.extend_from_slice(&["--at", "turn-end"]);
    let (code, _, err) = kanaszta(&args);
    assert_eq!(code, 1);
    assert!(err.contains(r#"turn is "on", not "off""#), "{err}");
}

#[test]
fn a_loop_written_before_its_newer_settings_resumes() {
    let root = tmp("learn-loop-old");
    let (old, new) = (root.join("old"), root.join("new"));
    let fixed = ["--gate", "hands"];
    for d in [&old, &new] {
        let mut args = tiny_loop(s(d), "2", "1");
        args.extend_from_slice(&fixed);
        let (code, _, err) = kanaszta(&args);
        assert_eq!(code, 0, "{err}");
    }
    // The layout of a version before the sequential gate and the
    // turn-level agent: no such settings, no such columns.
    let path = old.join("run.json");
    let mut run: serde_json::Value = serde_json::from_str(&common::read(&path)).unwrap();
    for k in ["gate", "gate_sprt", "turn", "worlds", "at"] {
        run["settings"].as_object_mut().unwrap().remove(k).unwrap();
    }
    std::fs::write(&path, serde_json::to_string_pretty(&run).unwrap()).unwrap();
    let (header, rows) = common::table(&old.join("loop.csv"));
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| header[i] != "gate_decision" && header[i] != "gate_llr")
        .collect();
    let line = |cells: &[String]| {
        keep.iter()
            .map(|&i| cells[i].clone())
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut text = line(&header) + "\n";
    for r in &rows {
        text += &(line(r) + "\n");
    }
    std::fs::write(old.join("loop.csv"), text).unwrap();
    // Another setting than the old default is still refused.
    let mut args = tiny_loop(s(&old), "3", "1");
    args.extend_from_slice(&["--gate", "hands", "--at", "turn-end"]);
    let (code, _, err) = kanaszta(&args);
    assert_eq!(code, 1);
    assert!(err.contains(r#"at is "decision", not "turn-end""#), "{err}");
    let (code, _, err) = kanaszta(&tiny_loop(s(&old), "3", "1"));
    assert_eq!(code, 1, "the default gate is not the old one");
    assert!(err.contains(r#"gate is "hands", not "sprt""#), "{err}");
    // The old defaults go on, as the same loop of today's layout does.
    for d in [&old, &new] {
        let mut args = tiny_loop(s(d), "3", "1");
        args.extend_from_slice(&fixed);
        let (code, _, err) = kanaszta(&args);
        assert_eq!(code, 0, "{err}");
    }
    let strip = |d: &std::path::Path| -> Vec<(String, String)> {
        loop_files(d)
            .into_iter()
            .map(|(p, b)| (p, String::from_utf8_lossy(&b).replace(s(d), "DIR")))
            .collect()
    };
    assert_eq!(strip(&old), strip(&new));
}

#[test]
fn the_committed_loops_resume() {
    // results/learning/decorated-greedy, written before the sequential
    // gate: its models and loop.csv, with the options it was run with.
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results/learning/decorated-greedy");
    let d = tmp("learn-loop-committed").join("decorated-greedy");
    for g in 0..5 {
        let gen = format!("gen-{g:03}");
        std::fs::create_dir_all(d.join(&gen)).unwrap();
        std::fs::copy(
            from.join(&gen).join("model.json"),
            d.join(&gen).join("model.json"),
        )
        .unwrap();
    }
    for f in ["run.json", "loop.csv"] {
        std::fs::copy(from.join(f), d.join(f)).unwrap();
    }
    let (code, _, err) = kanaszta(&[
        "learn",
        "loop",
        "--a",
        "rules",
        "--b",
        "rules",
        "--opponent",
        "greedy",
        "--generations",
        "5",
        "--hands",
        "2000",
        "--sample",
        "0.25",
        "--gate",
        "hands",
        "--gate-hands",
        "400",
        "--eval-hands",
        "400",
        "--seed",
        "1",
        "--out",
        s(&d),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("holds 5 generations already"), "{err}");
}
