//! One run layer over both families: [`RunFamily`] gives a command what
//! differs between decorated and classic canasta (how agents and sides
//! parse, how rules are listed, stored and swept, the checked run and how
//! it is played and reported, a bench's run), so `play`, `tournament`,
//! `sweep`, `rules` and `bench` are written once, generic over it, and [`with_family`] picks the family from
//! `--rules` in one place.

use crate::classic::run::{ClassicRun, StoredClassicRules};
use crate::classic::{parse_classic_agent, parse_classic_side, ClassicPlan, ClassicSink};
use crate::error::{CliError, RunError};
use crate::lock::RunLock;
use crate::report::{self, finish};
use crate::run::options::{RulesArgs, RunArgs};
use crate::run::{self, GameOut, Manifest, Mode, Outputs, Plan, RunResult, SeriesSpec};
use crate::signals;
use crate::sprt::{write_with_sprt, Sprt};
use kanaszta_agents::AgentSpec;
use kanaszta_engine::classic::ClassicRules;
use kanaszta_engine::Rules;

use std::process::ExitCode;

/// What a command of many games needs of a family.
pub trait RunFamily {
    /// The rules of a game.
    type Rules: Copy + PartialEq;
    /// The rules as run.json stores them.
    type Stored: Clone;
    /// A checked run: its manifest with the agents and rules parsed.
    type Run;
    /// Whether a side may be several players joined by `+` (a partnership).
    const PARTNERSHIPS: bool;

    /// The canonical spec of one agent (a tournament's `--agents`).
    fn agent(text: &str) -> Result<String, CliError>;
    /// The canonical spec of a side (`--a`, `--b`).
    fn side(text: &str) -> Result<String, CliError>;
    /// The rules as run.json stores them.
    fn store(rules: Self::Rules) -> Self::Stored;
    /// The checked run of `series`.
    fn plan(
        args: &RunArgs,
        command: &str,
        agents: Vec<String>,
        series: Vec<SeriesSpec<Self::Stored>>,
        default_hands: u64,
    ) -> Result<Self::Run, CliError>;
    /// What run.json of a run says.
    fn manifest(run: &Self::Run) -> &Manifest<Self::Stored>;
    /// Plays a run into `args.out` (with a sequential test that may end it
    /// early) and prints its report; exit 2 if games erred.
    fn run(run: Self::Run, args: &RunArgs, sprt: Option<Sprt>) -> Result<ExitCode, CliError>;

    /// Every switch of `rules` with its value, as `--set` takes them.
    fn settings(rules: &Self::Rules) -> Vec<(String, String)>;
    /// What switch `key` accepts.
    fn accepted(key: &str) -> Option<&'static str>;

    /// A bench's run: paired hands played into no file.
    type Bench: Sync;
    /// The bench of `hands` paired hands of sides `a` and `b` under `rules`,
    /// dealt as `play` deals them.
    fn bench(
        a: &str,
        b: &str,
        hands: u64,
        seed: u64,
        rules: Self::Rules,
    ) -> Result<Bench<Self::Bench>, CliError>;
    /// Plays a bench's hands once on `threads` threads.
    fn bench_execute(bench: &Self::Bench, threads: usize) -> Result<RunResult, RunError>;
    /// The run of a bench whose agents' decisions the bench times one by
    /// one.
    fn timed_run(bench: &Self::Bench) -> TimedRun<'_>;

    /// The switches a sweep may vary.
    fn sweep_keys() -> Vec<String>;
    /// The message for `--vary v` of an unknown switch `key`.
    fn unknown_switch(v: &str, key: &str, keys: &[String]) -> String;
    /// Sets switch `key` to `val`, `context` naming it for a message.
    fn set(rules: &mut Self::Rules, key: &str, val: &str, context: &str) -> Result<(), CliError>;
}

/// A bench's run with the names of its sides and its heading.
pub struct Bench<P> {
    /// The run.
    pub plan: P,
    /// Sides A and B.
    pub names: [String; 2],
    /// The heading: the sides (and for classic canasta the table).
    pub label: String,
}

/// A bench's run, of its family, to time the agents' decisions on.
pub enum TimedRun<'a> {
    /// Decorated canasta's plan.
    Decorated(&'a Plan),
    /// Classic canasta's plan.
    Classic(&'a ClassicPlan),
}

/// Decorated canasta (D-…).
pub struct Decorated;

/// Classic canasta (C-…).
pub struct Classic;

impl RunFamily for Decorated {
    type Rules = Rules;
    type Stored = Rules;
    type Run = Plan;
    const PARTNERSHIPS: bool = false;

    fn agent(text: &str) -> Result<String, CliError> {
        Ok(text.parse::<AgentSpec>()?.to_string())
    }
    fn side(text: &str) -> Result<String, CliError> {
        Self::agent(text)
    }
    fn store(rules: Rules) -> Rules {
        rules
    }
    fn plan(
        args: &RunArgs,
        command: &str,
        agents: Vec<String>,
        series: Vec<SeriesSpec>,
        default_hands: u64,
    ) -> Result<Plan, CliError> {
        args.plan(command, agents, series, default_hands)
    }
    fn manifest(run: &Plan) -> &Manifest {
        &run.manifest
    }
    fn run(run: Plan, args: &RunArgs, sprt: Option<Sprt>) -> Result<ExitCode, CliError> {
        run_decorated(run, args, sprt)
    }
    fn settings(rules: &Rules) -> Vec<(String, String)> {
        rules.settings()
    }
    fn accepted(key: &str) -> Option<&'static str> {
        Rules::accepted(key)
    }
    type Bench = Plan;
    fn bench(
        a: &str,
        b: &str,
        hands: u64,
        seed: u64,
        rules: Rules,
    ) -> Result<Bench<Plan>, CliError> {
        Ok(Bench {
            plan: decorated_plan(a, b, hands, seed, rules)?,
            names: [a.to_string(), b.to_string()],
            label: format!("{a} vs {b}"),
        })
    }
    fn bench_execute(plan: &Plan, threads: usize) -> Result<RunResult, RunError> {
        run::execute(plan, threads, None, true)
    }
    fn timed_run(plan: &Plan) -> TimedRun<'_> {
        TimedRun::Decorated(plan)
    }
    fn sweep_keys() -> Vec<String> {
        Rules::keys()
    }
    fn unknown_switch(v: &str, key: &str, keys: &[String]) -> String {
        format!(
            "bad --vary `{v}`: unknown rule switch `{key}`{}: expected one of {}",
            if ClassicRules::keys().contains(&key) {
                " (a switch of classic canasta: sweep it under --rules classic-002)"
            } else {
                ""
            },
            keys.join(", ")
        )
    }
    fn set(rules: &mut Rules, key: &str, val: &str, context: &str) -> Result<(), CliError> {
        rules.set(key, val).map_err(|e| CliError::Rules {
            context: context.into(),
            source: e,
        })
    }
}

impl RunFamily for Classic {
    type Rules = ClassicRules;
    type Stored = StoredClassicRules;
    type Run = ClassicRun;
    const PARTNERSHIPS: bool = true;

    fn agent(text: &str) -> Result<String, CliError> {
        Ok(parse_classic_agent(text)?.to_string())
    }
    fn side(text: &str) -> Result<String, CliError> {
        Ok(parse_classic_side(text)?.name().to_string())
    }
    fn store(rules: ClassicRules) -> StoredClassicRules {
        StoredClassicRules(rules)
    }
    fn plan(
        args: &RunArgs,
        command: &str,
        agents: Vec<String>,
        series: Vec<SeriesSpec<StoredClassicRules>>,
        default_hands: u64,
    ) -> Result<ClassicRun, CliError> {
        args.classic_plan(command, agents, series, default_hands)
    }
    fn manifest(run: &ClassicRun) -> &Manifest<StoredClassicRules> {
        &run.manifest
    }
    fn run(run: ClassicRun, args: &RunArgs, sprt: Option<Sprt>) -> Result<ExitCode, CliError> {
        crate::classic::run::run(run, args, sprt)
    }
    fn settings(rules: &ClassicRules) -> Vec<(String, String)> {
        let settings = rules.settings();
        settings
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    }
    fn accepted(key: &str) -> Option<&'static str> {
        ClassicRules::accepted(key)
    }
    type Bench = ClassicPlan;
    fn bench(
        a: &str,
        b: &str,
        hands: u64,
        seed: u64,
        rules: ClassicRules,
    ) -> Result<Bench<ClassicPlan>, CliError> {
        let sides = [parse_classic_side(a)?, parse_classic_side(b)?];
        let plan = ClassicPlan::new(rules, sides, Mode::Hands, hands, seed, true)?;
        Ok(Bench {
            label: format!(
                "{} vs {} ({}, {} players)",
                plan.names[0], plan.names[1], rules.preset, rules.players
            ),
            names: plan.names.clone(),
            plan,
        })
    }
    fn bench_execute(plan: &ClassicPlan, threads: usize) -> Result<RunResult, RunError> {
        let mut stats = plan.new_stats();
        plan.execute(threads, &mut ClassicSink::counting(&mut stats), true)
    }
    fn timed_run(plan: &ClassicPlan) -> TimedRun<'_> {
        TimedRun::Classic(plan)
    }
    fn sweep_keys() -> Vec<String> {
        let mut keys: Vec<String> = vec!["preset".into()];
        keys.extend(ClassicRules::keys().into_iter().map(String::from));
        keys
    }
    fn unknown_switch(v: &str, key: &str, keys: &[String]) -> String {
        format!(
            "bad --vary `{v}`: unknown classic rule switch `{key}`{}: expected one of {}",
            if Rules::keys().iter().any(|k| k == key) {
                " (a switch of decorated canasta, not of the classic rules)"
            } else {
                ""
            },
            keys.join(", ")
        )
    }
    fn set(rules: &mut ClassicRules, key: &str, val: &str, context: &str) -> Result<(), CliError> {
        rules
            .set(key, val)
            .and_then(|()| rules.validate())
            .map_err(|e| CliError::Input(format!("{context}: {e}")))
    }
}

/// A command's body, written once for both families.
pub trait FamilyBody {
    /// What the body returns.
    type Out;
    /// Runs the body under `rules` of family `F`.
    fn body<F: RunFamily>(self, rules: F::Rules) -> Result<Self::Out, CliError>;
}

/// Runs `body` under the rules of `--rules` and `--set`, of the family
/// they name.
pub fn with_family<B: FamilyBody>(rules: &RulesArgs, body: B) -> Result<B::Out, CliError> {
    match family_rules(rules)? {
        FamilyRules::Classic(r) => body.body::<Classic>(r),
        FamilyRules::Decorated(r) => body.body::<Decorated>(r),
    }
}

/// The rules of `--rules` and `--set`, of the family they name.
pub enum FamilyRules {
    /// Decorated canasta's.
    Decorated(Rules),
    /// Classic canasta's.
    Classic(ClassicRules),
}

/// The rules `--rules` and `--set` name, with their family: the one place
/// a command's family is picked. A command whose body needs more of a
/// family than [`RunFamily`] gives (a trait of its own, implemented for
/// [`Decorated`] and [`Classic`] next to the command) matches on it as
/// [`with_family`] does.
pub fn family_rules(rules: &RulesArgs) -> Result<FamilyRules, CliError> {
    Ok(match rules.classic()? {
        Some(r) => FamilyRules::Classic(r),
        None => FamilyRules::Decorated(rules.build()?),
    })
}

/// The plan of `hands` paired hands of agents `a` and `b` under `rules`,
/// as `play` would deal them, for a bench (no run directory).
pub fn decorated_plan(
    a: &str,
    b: &str,
    hands: u64,
    seed: u64,
    rules: Rules,
) -> Result<Plan, CliError> {
    Plan::new(Manifest::pair(
        "bench",
        seed,
        Mode::Hands,
        hands,
        a,
        b,
        rules,
    ))
}

/// Runs a decorated plan into `args.out` and prints the report, with a
/// sequential test that may end the run early; exit 2 if games erred.
fn run_decorated(plan: Plan, args: &RunArgs, sprt: Option<Sprt>) -> Result<ExitCode, CliError> {
    let _lock = RunLock::acquire(&args.out)?;
    signals::install()?;
    let m = &plan.manifest;
    if m.paired && m.games % 2 == 1 {
        let deals = m.games / 2;
        eprintln!(
            "kanaszta: warning: --{} {} is odd: with paired seats {deals} {} played twice with \
             the seats swapped, and the last game (deal {deals}) only once, unpaired, so its \
             luck does not cancel; give an even number to pair every deal, or --unpaired",
            m.mode,
            m.games,
            if deals == 1 { "deal is" } else { "deals are" },
        );
    }
    if let Some(note) = &plan.manifest.reproducible_note {
        eprintln!(
            "kanaszta: warning: this run is not reproducible: {note}; run.json says \
             \"reproducible\": false, and `kanaszta replay` may show other games than the rows"
        );
    }
    let outputs = Outputs::create_as(&args.out, &plan.manifest, plan.mode, args.written())?;
    let mut test = sprt;
    let res = match &mut test {
        None => run::execute(&plan, args.threads, Some(outputs), args.quiet)?,
        Some(t) => {
            // One series, unsharded: the writer's order is the game index.
            let mut game = 0u64;
            let mut stop = |g: &GameOut| {
                game += 1;
                t.game(game - 1, g)
            };
            run::execute_until(&plan, args.threads, Some(outputs), args.quiet, &mut stop)?
        }
    };
    let mut manifest = plan.manifest.clone();
    if res.decided {
        // The run holds the deals up to the decision, whole: it is the run
        // of that many games (the same games).
        manifest.games = res.games;
    }
    if res.stopped.is_some() {
        // What the directory holds: the first games_done games, whole.
        manifest.complete = Some(false);
        manifest.games_done = Some(res.games);
    }
    let mut text = report::report(Some(&args.out), &manifest, &res.stats)?;
    if args.rows != run::Rows::All {
        run::Accum::of(args.rows, &res, res.stats.clone()).write(&args.out)?;
    }
    match &test {
        Some(t) => {
            write_with_sprt(&manifest, &t.record(plan.manifest.games), &args.out)?;
            let [a, b] = [&manifest.agents[0], &manifest.agents[1]];
            text.push_str(&t.report(a, b, plan.manifest.games / 2));
        }
        None if res.stopped.is_some() => manifest.write(&args.out)?,
        None => {}
    }
    finish(&text, &res, &args.out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    /// What a body sees of its family: whether sides may be partnerships,
    /// a sweep's first switch, and the stored rules' JSON.
    struct Probe<'a>(&'a RunArgs);

    impl FamilyBody for Probe<'_> {
        type Out = (bool, String, String);
        fn body<F: RunFamily>(self, rules: F::Rules) -> Result<Self::Out, CliError> {
            let stored = F::store(rules);
            let series = vec![SeriesSpec {
                a: F::side("greedy")?,
                b: F::side("random")?,
                settings: String::new(),
                rules: stored,
            }];
            let plan = F::plan(
                self.0,
                "play",
                vec!["greedy".into(), "random".into()],
                series,
                2,
            )?;
            let m = F::manifest(&plan);
            Ok((
                F::PARTNERSHIPS,
                F::sweep_keys()[0].clone(),
                format!("{} {}", m.games, m.series.len()),
            ))
        }
    }

    fn probe(args: &[&str]) -> Result<(bool, String, String), CliError> {
        let words = ["x", "--hands", "2"]
            .into_iter()
            .chain(args.iter().copied());
        let cli = Cli::try_parse_from(words).expect("run options");
        with_family(&cli.run.rules, Probe(&cli.run))
    }

    #[test]
    fn with_family_runs_the_body_of_the_family_the_rules_name() {
        let (partners, key, games) = probe(&["--rules", "classic-002"]).expect("classic");
        assert!(partners, "classic sides may be partnerships");
        assert_eq!(key, "preset", "a classic sweep varies the preset first");
        assert_eq!(games, "2 1");
        let (partners, key, _) = probe(&[]).expect("decorated");
        assert!(!partners, "decorated canasta seats one agent a side");
        assert_ne!(key, "preset");
        assert!(Decorated::sweep_keys().contains(&key));
    }

    #[test]
    fn with_family_applies_set_and_refuses_a_bad_switch_of_either_family() {
        assert!(probe(&["--rules", "classic-002", "--set", "players=4"]).is_ok());
        for bad in [
            &["--rules", "classic-002", "--set", "tax=off"][..],
            &["--set", "players=4"][..],
        ] {
            assert!(probe(bad).is_err(), "{bad:?} is refused");
        }
    }

    #[test]
    fn family_rules_names_the_family_of_the_rules_with_their_settings() {
        let rules = |args: &[&str]| {
            let words = ["x", "--hands", "2"]
                .into_iter()
                .chain(args.iter().copied());
            family_rules(&Cli::try_parse_from(words).expect("run options").run.rules)
        };
        match rules(&["--rules", "classic-002", "--set", "players=4"]) {
            Ok(FamilyRules::Classic(r)) => assert_eq!(r.players, 4),
            _ => panic!("classic-002 with players=4 is classic canasta's"),
        }
        match rules(&["--set", "players=4"]) {
            Ok(FamilyRules::Decorated(r)) => assert_eq!(r.players, 4),
            _ => panic!("the default rules are decorated canasta's"),
        }
        let e = rules(&["--rules", "classic-002", "--set", "tax=off"]).err();
        assert!(e.is_some_and(|e| e.to_string().contains("tax")));
    }

    #[test]
    fn every_classic_switch_says_what_it_accepts() {
        // `kanaszta rules` prints `key=value  accepted: …` for each: a
        // classic switch without its text would print a bare line.
        for preset in ["classic-002", "classic-003", "classic-004"] {
            let rules = ClassicRules::preset(preset).expect("a classic preset");
            let settings = Classic::settings(&rules);
            assert_eq!(settings[0], ("preset".to_string(), preset.to_string()));
            for (k, _) in &settings {
                assert!(Classic::accepted(k).is_some(), "{preset}: {k}");
            }
        }
        assert!(Decorated::accepted("tax").is_some());
        assert!(Classic::accepted("tax").is_none());
    }

    #[test]
    fn a_bench_of_either_family_plays_the_same_actions_on_any_threads() {
        let c = ClassicRules::preset("classic-002").expect("a classic preset");
        let bench = Classic::bench("rules", "greedy", 4, 3, c).expect("a classic bench");
        assert_eq!(bench.label, "rules vs greedy (classic-002, 2 players)");
        assert!(matches!(
            Classic::timed_run(&bench.plan),
            TimedRun::Classic(_)
        ));
        let one = Classic::bench_execute(&bench.plan, 1).expect("played");
        let two = Classic::bench_execute(&bench.plan, 2).expect("played");
        assert!(one.actions > 0);
        assert_eq!((one.games, one.actions), (two.games, two.actions));

        let d = Rules::default();
        let bench = Decorated::bench("rules", "greedy", 4, 3, d).expect("a decorated bench");
        assert_eq!(bench.label, "rules vs greedy");
        assert_eq!(bench.names, ["rules".to_string(), "greedy".to_string()]);
        assert!(matches!(
            Decorated::timed_run(&bench.plan),
            TimedRun::Decorated(_)
        ));
        let one = Decorated::bench_execute(&bench.plan, 1).expect("played");
        let two = Decorated::bench_execute(&bench.plan, 2).expect("played");
        assert!(one.actions > 0);
        assert_eq!((one.games, one.actions), (two.games, two.actions));
    }
}
