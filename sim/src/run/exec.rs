//! The parallel executor of any family: plays the jobs of a plan on a
//! rayon pool and hands the games to a sink (statistics, CSV files) in
//! game order as they finish, within a bounded reorder window, with an
//! optional early stop that does not depend on the thread count. Threads
//! only change the order in which games finish; the writer puts them back
//! in order.

use super::files::Outputs;
use super::manifest::Mode;
use super::manifest::Rows;
use super::plan::{GameOut, Plan};
use crate::error::RunError;
use crate::stats::SeriesStats;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::{mpsc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// What a run did.
pub struct RunResult {
    /// Per series.
    pub stats: Vec<SeriesStats>,
    /// Games played.
    pub games: u64,
    /// Games lost to errors.
    pub errors: u64,
    /// The first error message, for the user.
    pub first_error: Option<String>,
    /// Actions applied.
    pub actions: u64,
    /// Hands played.
    pub hands: u64,
    /// Wall time.
    pub seconds: f64,
    /// The most games that finished and waited to be written at once (at
    /// most [`REORDER_WINDOW`]).
    pub peak_pending: u64,
    /// The games of the plan (of its shard).
    pub total: u64,
    /// The signal that stopped the run before its last game, if one did.
    pub stopped: Option<i32>,
    /// Whether the early-stop predicate ended the run (see [`execute_until`]).
    pub decided: bool,
}

/// A predicate the writer consults after each game, in game order: `true`
/// ends the run there, the games after it unwritten and uncounted.
pub type EarlyStop<'a> = &'a mut (dyn FnMut(&GameOut) -> bool + Send);

/// A progress bar on stderr (rate and ETA), or nothing when stderr is not a
/// terminal or `quiet`.
pub fn progress(total: u64, quiet: bool, unit: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} {wide_bar} {human_pos}/{human_len} {msg} ({rate}, ETA {eta})",
    ) {
        pb.set_style(style.with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", s.per_sec());
            },
        ));
    }
    pb.set_message(unit.to_string());
    pb
}

/// A rayon pool of `threads` (0: one per core).
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, RunError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| RunError::Threads { threads, source })
}

/// How many games may start ahead of the oldest game not yet written. The
/// writer puts games back in order, so while one slow game runs (a stalled
/// hand can take seconds) the others wait in memory; without a limit a long
/// run's memory grows with every slow game. With it, memory is flat in the
/// number of games, and threads that reach the limit wait for the slow one.
pub const REORDER_WINDOW: u64 = 4096;

/// The gate of [`REORDER_WINDOW`]: jobs enter in order, and job `seq` may
/// start once fewer than `size` games before it are unwritten.
struct Window {
    /// Games written so far, and whether the writer has stopped.
    state: Mutex<(u64, bool)>,
    changed: Condvar,
    size: u64,
}

impl Window {
    fn new(size: u64) -> Window {
        Window {
            state: Mutex::new((0, false)),
            changed: Condvar::new(),
            size: size.max(1),
        }
    }

    /// Whether job `seq` may start now without waiting (or the writer
    /// has stopped).
    fn admits(&self, seq: u64) -> bool {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.1 || seq < st.0 + self.size
    }

    /// Waits until job `seq` may start: true, or false once the writer has
    /// stopped (no more jobs should start).
    fn enter(&self, seq: u64) -> bool {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while !st.1 && seq >= st.0 + self.size {
            st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        !st.1
    }

    /// The writer has written `written` games.
    fn advance(&self, written: u64) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).0 = written;
        self.changed.notify_all();
    }

    /// The writer has stopped: release every waiting job.
    fn close(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.changed.notify_all();
    }
}

/// At most this many finished games wait in a worker before they go to
/// the writer together.
const BATCH_GAMES: usize = 64;

/// A worker hands its finished games to the writer at least this often
/// (and before it waits for the window, and when it stops).
const BATCH_AGE: Duration = Duration::from_millis(20);

/// A worker's finished games on their way to the writer. Handing them over
/// one by one cost a wake-up of the writer, a flush and a wake-up of the
/// window per game: a tenth of the time of a run of fast games. A batch
/// goes when it holds [`BATCH_GAMES`] games, when [`BATCH_AGE`] has passed
/// since the last one went (so a slow game goes at once), before its worker
/// waits for the window (the games the window waits for may be in it), and
/// when it is dropped.
struct Batch<G: Send> {
    tx: mpsc::SyncSender<Vec<(u64, G)>>,
    games: Vec<(u64, G)>,
    sent: Instant,
}

impl<G: Send> Batch<G> {
    fn new(tx: mpsc::SyncSender<Vec<(u64, G)>>) -> Batch<G> {
        Batch {
            tx,
            games: Vec::new(),
            sent: Instant::now(),
        }
    }

    /// Adds a finished game; sends the batch if it is due. Err once the
    /// writer has stopped.
    fn push(&mut self, seq: u64, game: G) -> Result<(), ()> {
        self.games.push((seq, game));
        if self.games.len() >= BATCH_GAMES || self.sent.elapsed() >= BATCH_AGE {
            self.send()
        } else {
            Ok(())
        }
    }

    /// Sends the games held. Err once the writer has stopped.
    fn send(&mut self) -> Result<(), ()> {
        self.sent = Instant::now();
        if self.games.is_empty() {
            return Ok(());
        }
        let games = std::mem::replace(&mut self.games, Vec::with_capacity(BATCH_GAMES));
        self.tx.send(games).map_err(|_| ())
    }
}

impl<G: Send> Clone for Batch<G> {
    fn clone(&self) -> Batch<G> {
        Batch::new(self.tx.clone())
    }
}

impl<G: Send> Drop for Batch<G> {
    fn drop(&mut self) {
        let _ = self.send();
    }
}

/// Closes the window when the writer stops, however it stops.
struct CloseOnDrop<'a>(&'a Window);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// One finished game as the executor's writer takes it in, whatever the
/// rule family: what it took and whether an error ended it.
pub trait Played: Send {
    /// Actions applied.
    fn actions(&self) -> u64;
    /// Hands played.
    fn hands(&self) -> u64;
    /// The error that ended the game, as the user reads it first.
    fn error(&self) -> Option<String>;
}

impl Played for GameOut {
    fn actions(&self) -> u64 {
        self.actions
    }
    fn hands(&self) -> u64 {
        self.facts.len() as u64 / 2
    }
    fn error(&self) -> Option<String> {
        self.error
            .as_ref()
            .map(|e| format!("series {} game {}: {}", e.series, e.game, e.message))
    }
}

/// Where finished games go, one at a time in game order: the statistics
/// and the CSV files of a run.
pub trait Sink<G>: Send {
    /// Takes in the next game.
    fn take(&mut self, game: &G) -> std::io::Result<()>;
    /// Writes what is buffered (every game taken in so far is then on disk).
    fn flush(&mut self) -> std::io::Result<()>;
    /// Writes what is buffered after the last game and ends the files
    /// (a compressed stream's trailer).
    fn finish(&mut self) -> std::io::Result<()> {
        self.flush()
    }
}

/// The statistics and files of a decorated run.
struct RunSink<'a> {
    stats: &'a mut [SeriesStats],
    out: Option<Outputs>,
}

impl Sink<GameOut> for RunSink<'_> {
    fn take(&mut self, g: &GameOut) -> std::io::Result<()> {
        let st = &mut self.stats[g.series as usize];
        if g.error.is_some() {
            st.add_error();
        } else {
            st.add_game(g.facts.iter().copied(), g.match_facts.iter().copied());
        }
        if let Some(o) = &mut self.out {
            o.game(&g.hands, &g.matches, g.error.as_ref());
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.out {
            Some(o) => o.flush(),
            None => Ok(()),
        }
    }

    fn finish(&mut self) -> std::io::Result<()> {
        match &mut self.out {
            Some(o) => o.finish(),
            None => Ok(()),
        }
    }
}

/// Plays every job of the plan on `threads` threads, streaming rows in game
/// order into `out` (if any) as games finish. At most [`REORDER_WINDOW`]
/// games are in play or waiting to be written at any time.
pub fn execute(
    plan: &Plan,
    threads: usize,
    out: Option<Outputs>,
    quiet: bool,
) -> Result<RunResult, RunError> {
    execute_within(plan, threads, out, quiet, REORDER_WINDOW, None)
}

/// [`execute`] that ends at the first game, in game order, for which `stop`
/// says so. The predicate sees the games in the order of the files whatever
/// the thread count, so where the run ends does not depend on it.
pub fn execute_until(
    plan: &Plan,
    threads: usize,
    out: Option<Outputs>,
    quiet: bool,
    stop: EarlyStop<'_>,
) -> Result<RunResult, RunError> {
    execute_within(plan, threads, out, quiet, REORDER_WINDOW, Some(stop))
}

/// [`execute`] with a window of `window` games.
fn execute_within(
    plan: &Plan,
    threads: usize,
    out: Option<Outputs>,
    quiet: bool,
    window: u64,
    stop: Option<EarlyStop<'_>>,
) -> Result<RunResult, RunError> {
    let unit = if plan.mode == Mode::Matches {
        "matches"
    } else {
        "hands"
    };
    let mut stats = plan.new_stats();
    // Rows no file takes are not built.
    let rows = out.as_ref().map_or(Rows::None, Outputs::rows);
    let mut sink = RunSink {
        stats: &mut stats,
        out,
    };
    let mut res = execute_games(
        plan.jobs(),
        plan.job_count(),
        unit,
        |s, g| plan.play(s, g, rows),
        &mut sink,
        threads,
        quiet,
        window,
        stop,
    )?;
    for s in &mut stats {
        s.finish();
    }
    res.stats = stats;
    Ok(res)
}

/// The executor of any family: plays `jobs` (`(series, game)`, `total` of
/// them) with `play` on `threads` threads and hands the games to `sink` in
/// job order as they finish, at most `window` of them in play or waiting
/// at once. `stop`, when given, sees each game in job order and ends the
/// run after the first one it answers `true` for (an early stop that does
/// not depend on the thread count). The result's `stats` is left empty for
/// the caller.
#[allow(clippy::too_many_arguments)]
pub fn execute_games<G: Played>(
    jobs: impl Iterator<Item = (u32, u64)> + Send,
    total: u64,
    unit: &str,
    play: impl Fn(u32, u64) -> G + Sync,
    sink: &mut impl Sink<G>,
    threads: usize,
    quiet: bool,
    window: u64,
    mut stop: Option<&mut (dyn FnMut(&G) -> bool + Send)>,
) -> Result<RunResult, RunError> {
    let start = Instant::now();
    let pb = progress(total, quiet, unit);
    let pool = pool(threads)?;
    let (tx, rx) = mpsc::sync_channel::<Vec<(u64, G)>>(4 * pool.current_num_threads().max(1));
    let pbw = pb.clone();
    let window = Window::new(window);
    let window = &window;
    let play = &play;
    let result = std::thread::scope(|scope| {
        let writer = scope.spawn(move || -> Result<RunResult, RunError> {
            let _close = CloseOnDrop(window);
            let mut pending: BTreeMap<u64, G> = BTreeMap::new();
            let mut peak = 0usize;
            let mut next = 0u64;
            let mut res = RunResult {
                stats: Vec::new(),
                games: 0,
                errors: 0,
                first_error: None,
                actions: 0,
                hands: 0,
                seconds: 0.0,
                peak_pending: 0,
                total,
                stopped: None,
                decided: false,
            };
            let write_err = RunError::Write;
            'games: while let Ok(batch) = rx.recv() {
                // Everything already sent is taken in before the writing.
                for (seq, game) in batch.into_iter().chain(rx.try_iter().flatten()) {
                    pending.insert(seq, game);
                }
                peak = peak.max(pending.len());
                let mut wrote = false;
                while let Some(g) = pending.remove(&next) {
                    next += 1;
                    wrote = true;
                    res.games += 1;
                    res.actions += g.actions();
                    res.hands += g.hands();
                    if let Some(e) = g.error() {
                        res.errors += 1;
                        if res.first_error.is_none() {
                            res.first_error = Some(e);
                        }
                    }
                    sink.take(&g).map_err(write_err)?;
                    pbw.inc(1);
                    if stop.as_mut().is_some_and(|f| f(&g)) {
                        // Dropping the receiver on return stops the workers.
                        res.decided = true;
                        break 'games;
                    }
                }
                // Every game finished in order is on disk before the next wait.
                if wrote {
                    sink.flush().map_err(write_err)?;
                    window.advance(next);
                }
            }
            sink.finish().map_err(write_err)?;
            res.peak_pending = peak as u64;
            Ok(res)
        });
        // A send fails only when the writer has stopped on an error: stop too.
        let _ = pool.install(|| {
            jobs.enumerate().par_bridge().try_for_each_with(
                Batch::new(tx),
                |batch, (seq, (s, g))| {
                    let seq = seq as u64;
                    // After a signal no new game is dealt.
                    if crate::signals::stopped().is_some() {
                        return Err(());
                    }
                    if !window.admits(seq) {
                        // The games the window waits for may be here.
                        batch.send()?;
                    }
                    if !window.enter(seq) || crate::signals::stopped().is_some() {
                        return Err(());
                    }
                    batch.push(seq, play(s, g))
                },
            )
        });
        writer.join().unwrap_or(Err(RunError::Writer))
    });
    pb.finish_and_clear();
    let mut res = result?;
    res.seconds = start.elapsed().as_secs_f64();
    if res.games < res.total && !res.decided {
        res.stopped = crate::signals::stopped();
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Manifest;
    use kanaszta_engine::Rules;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    #[test]
    fn window_holds_a_job_until_the_games_before_it_are_written() {
        let w = Window::new(3);
        assert!(
            w.enter(0) && w.enter(2),
            "jobs inside the window start at once"
        );
        let entered = AtomicU64::new(0);
        std::thread::scope(|s| {
            s.spawn(|| {
                assert!(w.enter(4), "job 4 starts once game 1 is written");
                entered.store(1, Ordering::SeqCst);
            });
            std::thread::sleep(Duration::from_millis(50));
            assert_eq!(
                entered.load(Ordering::SeqCst),
                0,
                "job 4 waits: games 0..1 unwritten"
            );
            w.advance(1);
            std::thread::sleep(Duration::from_millis(50));
            assert_eq!(
                entered.load(Ordering::SeqCst),
                0,
                "one game written is not enough"
            );
            w.advance(2);
        });
        assert_eq!(entered.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_closed_window_releases_waiting_jobs_and_starts_no_more() {
        let w = Window::new(2);
        std::thread::scope(|s| {
            let waiter = s.spawn(|| w.enter(10));
            std::thread::sleep(Duration::from_millis(20));
            w.close();
            assert!(!waiter.join().unwrap(), "a waiting job is told to stop");
        });
        assert!(!w.enter(0), "no job starts after the writer stopped");
    }

    fn plan(games: u64) -> Plan {
        Plan::new(Manifest::pair(
            "test",
            17,
            Mode::Hands,
            games,
            "greedy",
            "random",
            Rules::default(),
        ))
        .expect("a valid plan")
    }

    #[test]
    fn a_narrow_window_bounds_the_waiting_games_and_changes_no_result() {
        let p = plan(40);
        let wide = execute_within(&p, 2, None, true, REORDER_WINDOW, None).expect("runs");
        for size in [1, 2, 5] {
            let narrow = execute_within(&p, 2, None, true, size, None).expect("runs");
            assert!(
                narrow.peak_pending <= size,
                "window {size}: {} games waited",
                narrow.peak_pending
            );
            assert_eq!(narrow.games, 40);
            assert_eq!(
                (narrow.actions, narrow.hands, narrow.errors),
                (wide.actions, wide.hands, wide.errors)
            );
            let cells = |r: &RunResult| -> Vec<Vec<String>> {
                r.stats
                    .iter()
                    .flat_map(|s| [s.cells(0), s.cells(1)])
                    .collect()
            };
            assert_eq!(
                cells(&narrow),
                cells(&wide),
                "window {size}: same statistics"
            );
        }
    }

    #[test]
    fn an_early_stop_ends_the_run_at_the_same_game_for_any_thread_count() {
        let p = plan(200);
        for threads in [1, 2] {
            let mut seen = Vec::new();
            let mut stop = |g: &GameOut| {
                let game = g.game;
                seen.push(game);
                game == 37
            };
            let r = execute_until(&p, threads, None, true, &mut stop).expect("runs");
            assert!(r.decided && r.stopped.is_none());
            assert_eq!(r.games, 38, "{threads} threads: games 0..=37 counted");
            assert_eq!(seen, (0..38).collect::<Vec<u64>>(), "in game order");
            assert_eq!(
                r.stats[0].cells(0),
                plan_stats(&p, 38),
                "the statistics of those games"
            );
        }
    }

    /// The statistics of the first `games` games of `p`'s plan.
    fn plan_stats(p: &Plan, games: u64) -> Vec<String> {
        let mut m = p.manifest.clone();
        m.games = games;
        let short = Plan::new(m).expect("a valid plan");
        execute(&short, 1, None, true).expect("runs").stats[0].cells(0)
    }
}
