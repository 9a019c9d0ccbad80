//! `kanaszta bench`: hands/s and actions/s of two agents for chosen thread
//! counts, the median of repeated runs. The games are those of `play` (same
//! plan, same executor, no CSV); every measurement must apply the same
//! number of actions, or the run is not deterministic and the bench fails.
//!
//! Runs of either family add the time each agent spends deciding: one
//! more run of the same hands on one thread, each agent behind a
//! stopwatch ([`Timed`]) that reads the clock around its every `act` and
//! nothing else, so that the play is that of the measured runs (the bench
//! checks the action count).

use crate::classic::ClassicPlan;
use crate::error::CliError;
pub(super) use crate::run::family::decorated_plan;
use crate::run::family::{with_family, FamilyBody, RunFamily, TimedRun};
use crate::run::options::RulesArgs;
use crate::run::options::{whole, ValueError};
use crate::run::Played;
use crate::run::{Plan, RunResult};
use clap::Args;
use kanaszta_agents::classic::ClassicMoves;
use kanaszta_agents::{Agent, Family, Moves, Wrapped, Wrapper};
use kanaszta_engine::classic::{ClassicAction, ClassicState, ClassicView};
use kanaszta_engine::{Action, SeatView};
use rand_pcg::Pcg64Mcg;
use std::cell::RefCell;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;

/// Options of `kanaszta bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Agent A.
    #[arg(long, default_value = "rules", value_name = "AGENT")]
    a: String,
    /// Agent B.
    #[arg(long, default_value = "greedy", value_name = "AGENT")]
    b: String,
    /// Hands per measurement.
    #[arg(long, default_value_t = 2000, value_name = "N", allow_negative_numbers = true, value_parser = whole::<u64>)]
    hands: u64,
    /// Thread counts to measure, comma-separated (0: one per core); the
    /// speedup is relative to the first.
    #[arg(long, default_value = "1,0", value_name = "T,T,...")]
    threads: String,
    /// Measurements per thread count; the median is reported.
    #[arg(long, default_value_t = 3, value_name = "R", allow_negative_numbers = true, value_parser = whole::<u32>)]
    repeat: u32,
    /// Master seed.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub seed: u64,
    /// Machine-readable CSV on stdout.
    #[arg(long)]
    csv: bool,
    /// Skip the extra one-thread run that times each agent's decisions.
    #[arg(long)]
    no_agent_time: bool,
    /// Every workload of the speed table in one run (see `--quick`,
    /// `--append`); `--a`, `--b`, `--hands`, `--threads`, `--repeat` and
    /// the rules options are then ignored.
    #[arg(long)]
    pub suite: bool,
    /// With `--suite`: tiny sizes (a check that every workload runs, not a
    /// measurement).
    #[arg(long, requires = "suite")]
    pub quick: bool,
    /// With `--suite`: the CSV file its rows are appended to (created with
    /// its header when missing); `-` appends nowhere.
    #[arg(
        long,
        requires = "suite",
        default_value = "results/bench.csv",
        value_name = "FILE"
    )]
    pub append: String,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs `kanaszta bench` (`--suite` is `suite::run`).
pub fn run(a: BenchArgs) -> Result<ExitCode, CliError> {
    with_family(&a.rules, &a)
}

impl FamilyBody for &BenchArgs {
    type Out = ExitCode;

    /// Measures the bench of the family and prints its table (or CSV),
    /// with the agents' clocks where the family times them.
    fn body<F: RunFamily>(self, rules: F::Rules) -> Result<ExitCode, CliError> {
        let args = self;
        if !F::PARTNERSHIPS {
            super::play::refuse_mixed_side("--a", &args.a)?;
            super::play::refuse_mixed_side("--b", &args.b)?;
        }
        let a = F::side(&args.a)?;
        let b = F::side(&args.b)?;
        if args.hands == 0 {
            return Err(CliError::Input("--hands must be at least 1".into()));
        }
        if args.repeat == 0 {
            return Err(CliError::Input("--repeat must be at least 1".into()));
        }
        let bench = F::bench(&a, &b, args.hands, args.seed, rules)?;
        let timing = (!args.no_agent_time)
            .then(|| F::timed_run(&bench.plan))
            .map(|run| {
                move |actions: u64| -> Result<[AgentClock; 2], CliError> {
                    let clocks = match run {
                        TimedRun::Decorated(plan) => time_agents(plan)?,
                        TimedRun::Classic(plan) => time_classic_agents(plan)?,
                    };
                    let timed = clocks[0].actions + clocks[1].actions;
                    if timed != actions {
                        return Err(CliError::Input(format!(
                            "nondeterministic: {actions} actions in the measured runs, {timed} in \
                             the timed run"
                        )));
                    }
                    Ok(clocks)
                }
            });
        measure(
            &bench.label,
            [&bench.names[0], &bench.names[1]],
            args.hands,
            &args.threads,
            args.repeat,
            args.csv,
            |t| F::bench_execute(&bench.plan, t),
            timing.as_ref().map(|f| f as Timing),
        )
    }
}

fn parse_threads(text: &str) -> Result<Vec<usize>, ValueError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut v: Vec<usize> = Vec::new();
    for t in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let n: usize = t
            .parse()
            .map_err(|_| ValueError::Threads(text.to_string()))?;
        let n = if n == 0 { cores } else { n };
        if n > 1024 {
            return Err(ValueError::TooManyThreads(text.to_string()));
        }
        if !v.contains(&n) {
            v.push(n);
        }
    }
    if v.is_empty() {
        return Err(ValueError::NoThreads(text.to_string()));
    }
    Ok(v)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// What one agent's decisions took: every `act` call is an action played;
/// a decision is a call that offered two or more actions (candidates, in
/// the meld phase), the calls with nothing to choose left out.
#[derive(Clone, Debug, Default)]
pub struct AgentClock {
    /// Actions played (calls of `act`).
    pub actions: u64,
    /// Wall time inside all of them, in seconds.
    pub seconds: f64,
    /// The wall time of each decision, in seconds, in order.
    pub decisions: Vec<f64>,
    /// Searches the agent ran ([`Agent::search_totals`]; a decision may
    /// run two, meld or hold and then the discard).
    pub searches: u64,
    /// Searches whose move was not its policy's own choice: where the
    /// search left the policy it anchors on.
    pub departures: u64,
}

impl AgentClock {
    /// Mean seconds per action played.
    pub fn per_action(&self) -> Option<f64> {
        (self.actions > 0).then(|| self.seconds / self.actions as f64)
    }

    /// Mean seconds per decision.
    pub fn per_decision(&self) -> Option<f64> {
        (!self.decisions.is_empty())
            .then(|| self.decisions.iter().sum::<f64>() / self.decisions.len() as f64)
    }

    /// Median seconds per decision.
    pub fn median_decision(&self) -> Option<f64> {
        (!self.decisions.is_empty()).then(|| median(self.decisions.clone()))
    }
}

/// An agent behind a stopwatch ([`Wrapper`]): `act` is timed into the
/// shared clock, everything else passed through untouched.
pub struct Timed {
    clock: Rc<RefCell<AgentClock>>,
}

impl Timed {
    /// `inner`, timed into `clock`.
    pub fn new(
        inner: Box<dyn Agent>,
        clock: Rc<RefCell<AgentClock>>,
    ) -> Wrapped<Box<dyn Agent>, Timed> {
        Wrapped::new(inner, Timed { clock })
    }

    /// A classic agent `inner`, timed into `clock`.
    pub fn classic(
        inner: Box<dyn Agent<ClassicState>>,
        clock: Rc<RefCell<AgentClock>>,
    ) -> Wrapped<Box<dyn Agent<ClassicState>>, Timed> {
        Wrapped::new(inner, Timed { clock })
    }

    /// Times `act`, a call of `inner`'s decision that offered `choice`
    /// (two actions or more), into the clock.
    fn time<G: Family>(
        &mut self,
        inner: &mut dyn Agent<G>,
        choice: bool,
        act: impl FnOnce(&mut dyn Agent<G>) -> G::Action,
    ) -> G::Action {
        let before = inner.search_totals();
        let start = Instant::now();
        let action = act(&mut *inner);
        let secs = start.elapsed().as_secs_f64();
        let after = inner.search_totals();
        let mut c = self.clock.borrow_mut();
        c.actions += 1;
        c.seconds += secs;
        if choice {
            c.decisions.push(secs);
        }
        if let (Some(b), Some(a)) = (before, after) {
            c.searches += a.searches - b.searches;
            c.departures += a.departures - b.departures;
        }
        action
    }
}

impl Wrapper for Timed {
    fn choose(
        &mut self,
        inner: &mut dyn Agent,
        view: &SeatView,
        moves: &mut Moves,
        rng: &mut Pcg64Mcg,
    ) -> Action {
        let choice = moves.actions().len() >= 2;
        self.time(inner, choice, |a| a.act(view, moves, rng))
    }
}

impl Wrapper<ClassicState> for Timed {
    fn choose(
        &mut self,
        inner: &mut dyn Agent<ClassicState>,
        view: &ClassicView<'_>,
        moves: &mut ClassicMoves<'_>,
        rng: &mut Pcg64Mcg,
    ) -> ClassicAction {
        let choice = moves.len() >= 2;
        self.time(inner, choice, |a| a.act(view, moves, rng))
    }
}

/// Plays every game of `plan` (hands) on this thread, each agent timed:
/// the clocks of agents A and B.
pub(super) fn time_agents(plan: &Plan) -> Result<[AgentClock; 2], CliError> {
    let clocks = [
        Rc::new(RefCell::new(AgentClock::default())),
        Rc::new(RefCell::new(AgentClock::default())),
    ];
    for (series, g) in plan.jobs() {
        let setup = plan.setup(series, g);
        // Seat 0 plays side A unless the seats are swapped.
        let side = |seat: usize| if setup.swapped { 1 - seat } else { seat };
        let mut agents: Vec<Box<dyn Agent>> = setup
            .agents()
            .into_iter()
            .enumerate()
            .map(|(seat, agent)| {
                Box::new(Timed::new(agent, Rc::clone(&clocks[side(seat)]))) as Box<dyn Agent>
            })
            .collect();
        let (_, r) = setup.play_hand(&mut agents);
        if let Err(e) = r {
            return Err(CliError::Input(format!(
                "game {g} ended by an agent error in the timed run: {e}"
            )));
        }
    }
    let [a, b] = clocks;
    Ok([a.take(), b.take()])
}

/// Plays every game of a classic `plan` on this thread, each seat's agent
/// timed on its side's clock: the clocks of sides A and B.
fn time_classic_agents(plan: &ClassicPlan) -> Result<[AgentClock; 2], CliError> {
    let clocks = [
        Rc::new(RefCell::new(AgentClock::default())),
        Rc::new(RefCell::new(AgentClock::default())),
    ];
    for g in 0..plan.games {
        let game = plan.play_wrapped(g, &mut |side, agent| {
            Box::new(Timed::classic(agent, Rc::clone(&clocks[side])))
        });
        if let Some(e) = game.error() {
            return Err(CliError::Input(format!(
                "{e}: the game ended by an agent error in the timed run"
            )));
        }
    }
    let [a, b] = clocks;
    Ok([a.take(), b.take()])
}

/// The timed run of a bench: given the action count of the measured runs,
/// the clocks of agents A and B.
type Timing<'a> = &'a dyn Fn(u64) -> Result<[AgentClock; 2], CliError>;

/// Measures `run` (one run of `hands` hands on `t` threads) `repeat` times
/// per thread count and prints the table (or CSV), with the agents' clocks
/// of `timing` when given.
#[allow(clippy::too_many_arguments)]
fn measure(
    agents: &str,
    [a, b]: [&str; 2],
    hands: u64,
    threads: &str,
    repeat: u32,
    csv: bool,
    run: impl Fn(usize) -> Result<RunResult, crate::error::RunError>,
    timing: Option<Timing>,
) -> Result<ExitCode, CliError> {
    if repeat == 0 {
        return Err(CliError::Input("--repeat must be at least 1".into()));
    }
    let threads = parse_threads(threads)?;
    let rows = medians(&threads, repeat, run)?;
    let actions_seen = rows.last().map(|r| r.1);
    let clocks = match timing {
        Some(f) => Some(f(actions_seen.unwrap_or(0))?),
        None => None,
    };
    let base = rows[0].2;
    let mut text = String::new();
    if csv {
        let _ = write!(
            text,
            "agents,threads,hands,actions,seconds,hands_per_s,actions_per_s,speedup"
        );
        for side in ["a", "b"] {
            let _ = write!(
                text,
                ",{side}_actions,{side}_decisions,{side}_seconds,{side}_us_per_action,{side}_us_per_decision,{side}_median_us_per_decision,{side}_searches,{side}_departures"
            );
        }
        let _ = writeln!(text);
    } else {
        let _ = writeln!(
            text,
            "bench: {agents}, {} hands per measurement, median of {}",
            hands, repeat
        );
        let _ = writeln!(
            text,
            "{:>7}  {:>9}  {:>11}  {:>8}  {:>7}",
            "threads", "hands/s", "actions/s", "seconds", "speedup"
        );
    }
    // The clocks' columns, the same on every row (one timed run).
    let mut clock_cells = String::new();
    for k in 0..2 {
        match &clocks {
            Some(c) => {
                let c = &c[k];
                let us = |v: Option<f64>| v.map_or(String::new(), |v| format!("{:.3}", v * 1e6));
                let _ = write!(
                    clock_cells,
                    ",{},{},{:.4},{},{},{},{},{}",
                    c.actions,
                    c.decisions.len(),
                    c.seconds,
                    us(c.per_action()),
                    us(c.per_decision()),
                    us(c.median_decision()),
                    c.searches,
                    c.departures
                );
            }
            None => clock_cells.push_str(",,,,,,,,"),
        }
    }
    for &(t, actions, s) in &rows {
        let hps = hands as f64 / s;
        let aps = actions as f64 / s;
        let speedup = base / s;
        if csv {
            let _ = writeln!(
                text,
                "{},{t},{},{actions},{s:.4},{hps:.1},{aps:.0},{speedup:.3}{clock_cells}",
                csv_field(agents),
                hands
            );
        } else {
            let _ = writeln!(
                text,
                "{t:>7}  {:>9}  {:>11}  {s:>8.3}  {speedup:>6.2}×",
                crate::report::rate_text(hps),
                crate::report::rate_text(aps)
            );
        }
    }
    if let (false, Some(c)) = (csv, &clocks) {
        let _ = writeln!(
            text,
            "\nagent time: one more run of the {hands} hands on one thread"
        );
        let w = a.chars().count().max(b.chars().count()).max(5);
        let _ = writeln!(
            text,
            "{:>4}  {:<w$}  {:>8}  {:>9}  {:>8}  {:>10}  {:>12}  {:>12}  {:>8}  {:>11}",
            "side",
            "agent",
            "actions",
            "decisions",
            "time",
            "per action",
            "per decision",
            "median dec.",
            "searches",
            "left policy"
        );
        for (k, (side, name)) in [("A", a), ("B", b)].into_iter().enumerate() {
            let c = &c[k];
            let _ = writeln!(
                text,
                "{side:>4}  {name:<w$}  {:>8}  {:>9}  {:>8.3}  {:>10}  {:>12}  {:>12}  {:>8}  {:>11}",
                c.actions,
                c.decisions.len(),
                c.seconds,
                duration_text(c.per_action()),
                duration_text(c.per_decision()),
                duration_text(c.median_decision()),
                c.searches,
                departures_text(c)
            );
        }
    }
    if !csv {
        let mut legend = vec![
            ("threads", "worker threads (0: one per core)".into()),
            (
                "hands/s",
                format!(
                    "hands played per second of wall time, {} and {} agents both included",
                    a, b
                ),
            ),
            ("actions/s", "actions applied per second, both seats".into()),
            (
                "seconds",
                format!("the median of {} measurements of {} hands", repeat, hands),
            ),
            (
                "speedup",
                "the first thread count's time over this one's".into(),
            ),
        ];
        if clocks.is_some() {
            legend.extend([
                ("actions", "calls of the agent's act: the actions it played".into()),
                (
                    "decisions",
                    "the calls that offered two or more actions (meld-phase candidates included)".into(),
                ),
                (
                    "time",
                    "seconds of wall time inside the agent's act calls, in the timed run (shared cores count)".into(),
                ),
                ("per action", "mean wall time per action played".into()),
                ("per decision", "mean wall time per decision".into()),
                ("median dec.", "median wall time of a decision".into()),
                (
                    "searches",
                    "searches the agent ran (a decision may run two: meld or hold, then the discard)".into(),
                ),
                (
                    "left policy",
                    "searches that played another move than the agent's policy would (ismcts, pimc: the rules move they anchor on), and their share".into(),
                ),
            ]);
        }
        crate::stats::legend(&mut text, &legend);
    }
    super::print(&text)
}

/// Runs `run` `repeat` times per thread count: for each count, the
/// actions applied and the median seconds. Every run must apply the same
/// number of actions and end without an agent error.
pub(super) fn medians(
    threads: &[usize],
    repeat: u32,
    run: impl Fn(usize) -> Result<RunResult, crate::error::RunError>,
) -> Result<Vec<(usize, u64, f64)>, CliError> {
    let mut rows: Vec<(usize, u64, f64)> = Vec::new();
    let mut actions_seen: Option<u64> = None;
    for &t in threads {
        let mut secs = Vec::new();
        for _ in 0..repeat {
            let res = run(t)?;
            if res.errors > 0 {
                return Err(CliError::Input(format!(
                    "{} games ended by an agent error; first: {}",
                    res.errors,
                    res.first_error.unwrap_or_default()
                )));
            }
            match actions_seen {
                Some(n) if n != res.actions => {
                    return Err(CliError::Input(format!(
                    "nondeterministic: {n} actions in one measurement, {} in another ({t} threads)",
                    res.actions
                )))
                }
                _ => actions_seen = Some(res.actions),
            }
            secs.push(res.seconds);
        }
        rows.push((t, actions_seen.unwrap_or(0), median(secs)));
    }
    Ok(rows)
}

/// Searches that left the policy, with their share (`–` for no search).
fn departures_text(c: &AgentClock) -> String {
    if c.searches == 0 {
        "–".into()
    } else {
        format!(
            "{} ({:.1}%)",
            c.departures,
            100.0 * c.departures as f64 / c.searches as f64
        )
    }
}

/// A duration in seconds, in the unit that suits it (`–` for none).
fn duration_text(secs: Option<f64>) -> String {
    match secs {
        None => "–".into(),
        Some(s) if s >= 1.0 => format!("{s:.2} s"),
        Some(s) if s >= 1e-3 => format!("{:.2} ms", s * 1e3),
        Some(s) => format!("{:.2} µs", s * 1e6),
    }
}

pub(super) fn csv_field(s: &str) -> String {
    if s.contains([',', '"']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_agents::search::SearchStats;
    use kanaszta_agents::AgentSpec;
    use kanaszta_agents::{play_hand, seat_rng};
    use kanaszta_engine::{GameState, Rules};

    fn agents(names: [&str; 2]) -> Vec<Box<dyn Agent>> {
        names
            .iter()
            .map(|n| n.parse::<AgentSpec>().unwrap().build())
            .collect()
    }

    /// The agents named, each behind a stopwatch on its clock.
    fn timed(names: [&str; 2], clocks: &[Rc<RefCell<AgentClock>>; 2]) -> Vec<Box<dyn Agent>> {
        agents(names)
            .into_iter()
            .zip(clocks)
            .map(|(a, c)| Box::new(Timed::new(a, Rc::clone(c))) as Box<dyn Agent>)
            .collect()
    }

    /// The stopwatch only reads the clock: a hand played by timed agents
    /// ends in the very state the bare agents reach, and every action
    /// played is on the clock of the seat that played it.
    #[test]
    fn timed_agents_play_as_the_bare_ones_and_count_every_action() {
        for seed in 0..6 {
            let mut bare = GameState::new(Rules::default(), seed);
            let mut rngs = vec![seat_rng(seed, 0), seat_rng(seed, 1)];
            let played = play_hand(&mut bare, &mut agents(["rules", "greedy"]), &mut rngs)
                .expect("the bare hand plays");

            let clocks = [
                Rc::new(RefCell::new(AgentClock::default())),
                Rc::new(RefCell::new(AgentClock::default())),
            ];
            let mut timed = timed(["rules", "greedy"], &clocks);
            let mut state = GameState::new(Rules::default(), seed);
            let mut rngs = vec![seat_rng(seed, 0), seat_rng(seed, 1)];
            let timed_play = play_hand(&mut state, &mut timed, &mut rngs).expect("plays");

            assert_eq!(format!("{state:?}"), format!("{bare:?}"), "seed {seed}");
            assert_eq!(timed_play, played);
            let [a, b] = [clocks[0].borrow(), clocks[1].borrow()];
            assert_eq!(a.actions + b.actions, played.actions, "seed {seed}");
            for c in [&a, &b] {
                assert!(c.actions > 0 && c.decisions.len() as u64 <= c.actions);
                assert!(c.seconds >= c.decisions.iter().sum::<f64>() - 1e-12);
                let mean = c.per_decision().expect("some decision");
                let median = c.median_decision().expect("some decision");
                let max = c.decisions.iter().copied().fold(0.0, f64::max);
                assert!(mean <= max && median <= max);
            }
        }
    }

    /// A search agent's clock counts its searches and those that left its
    /// policy, as the agent itself counts them: with no margin pimc leaves
    /// the policy on any lead, so some of its searches do; an agent that
    /// does not search counts none.
    #[test]
    fn timed_agents_count_searches_and_departures() {
        let clocks = [
            Rc::new(RefCell::new(AgentClock::default())),
            Rc::new(RefCell::new(AgentClock::default())),
        ];
        let mut own = SearchStats::default();
        for seed in 0..2 {
            let mut timed = timed(["pimc:worlds=4,margin=0", "greedy"], &clocks);
            let mut state = GameState::new(Rules::default(), seed);
            let mut rngs = vec![seat_rng(seed, 0), seat_rng(seed, 1)];
            play_hand(&mut state, &mut timed, &mut rngs).expect("plays");
            own += timed[0].search_totals().expect("pimc searches");
            assert_eq!(timed[1].search_totals(), None);
        }
        let [a, b] = [clocks[0].borrow(), clocks[1].borrow()];
        assert_eq!((a.searches, a.departures), (own.searches, own.departures));
        assert!(a.departures > 0 && a.departures < a.searches, "{a:?}");
        assert_eq!((b.searches, b.departures), (0, 0));
        assert_eq!(departures_text(&b), "–");
        let c = AgentClock {
            searches: 8,
            departures: 1,
            ..AgentClock::default()
        };
        assert_eq!(departures_text(&c), "1 (12.5%)");
    }

    #[test]
    fn durations_print_in_a_unit_that_suits_them() {
        assert_eq!(duration_text(Some(0.0881)), "88.10 ms");
        assert_eq!(duration_text(Some(2.5e-6)), "2.50 µs");
        assert_eq!(duration_text(Some(3.0)), "3.00 s");
        assert_eq!(duration_text(None), "–");
    }
}
