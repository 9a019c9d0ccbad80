//! The command line: [`Cli`], its [`Command`]s, and the options several
//! commands share (rules; runs of games). Each command's own options live
//! in its module under `cmd/`.

use crate::cmd;
use crate::error::CliError;
use crate::input;
use crate::run::{Manifest, Mode, Plan, SeriesSpec, Shard};
use clap::{Args, Parser, Subcommand};
use kanaszta_engine::classic::ClassicRules;
use kanaszta_engine::Rules;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "kanaszta",
    version,
    about = "Decorated canasta (Díszített kanaszta) between AI agents",
    after_help = "Without a command, `kanaszta` runs `kanaszta play`: rules vs greedy, 10,000 paired hands, CSVs in kanaszta-out/; options without a command are play's (`kanaszta --hands 100`).\n\
Exit status: 0 done; 1 bad input (the message says what is accepted); 2 some game ended by an agent error (recorded in errors.csv); 3 `check` or `apply`: an action is illegal; 130/143/129 a run stopped by SIGINT/SIGTERM/SIGHUP (summary.csv of the games played, run.json \"complete\": false).\n\
The CSV columns are documented in sim/CSV.md."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Agent A against agent B over many hands or matches: summary table,
    /// CSVs (hands.csv, matches.csv, errors.csv, summary.csv) in --out.
    /// The default command. Exit 2 if an agent erred in some game.
    #[command(
        after_help = "Examples:\n  kanaszta play --a ismcts:iters=250 --b rules --hands 2000 --out runs/ir\n      ismcts against rules on 1,000 deals, each played twice with the seats swapped; CSVs in runs/ir/\n  kanaszta play --a rules --b greedy --matches 500 --set tax=off\n      500 full matches to 10,000 without the tax (D-15)\n  kanaszta play --a rules --b random --sprt 50 --hands 4000\n      stops as soon as \"rules is stronger than random by at least 50 points per hand\" is accepted or rejected (a sequential test on paired deals; see --help)\n  kanaszta play --rules classic-002 --set players=4 --a rules --b greedy --hands 4000 --shard 0/2 --out runs/c4/s0\n      classic canasta in partnerships, the first half of the deals (shard 0 of 2); `kanaszta merge` joins the halves"
    )]
    Play(cmd::play::PlayArgs),
    /// Every pair of agents on the same paired deals: win-rate matrix,
    /// Bradley–Terry ratings (tournament.csv, ratings.csv) besides the CSVs of play.
    #[command(
        after_help = "Examples:\n  kanaszta tournament --agents random,greedy,rules --hands 1000 --out runs/t\n      every pair of the three on the same 500 paired deals; win-rate matrix and ratings in runs/t/\n  kanaszta tournament --rules classic-002 --set players=4 --agents random,greedy,rules --hands 1000 --out runs/ct\n      the same in classic canasta, two partnerships a table (C-20): win rates, points per hand with intervals, ratings"
    )]
    Tournament(cmd::tournament::TournamentArgs),
    /// One matchup over the cartesian product of rule settings: sweep.csv with
    /// the settings as columns, and all games in one hands.csv.
    #[command(
        after_help = "Examples:\n  kanaszta sweep --a rules --b greedy --vary tax=on,off --vary opening=50,90 --matches 500\n      rules v greedy under the four settings, 500 matches each; one sweep.csv row per setting\n  kanaszta sweep --rules classic-002 --a rules --b greedy --vary players=2,3,4 --vary wild_canasta=none,1000 --hands 1000\n      classic canasta under six settings (`kanaszta rules --rules classic-002` lists the switches)"
    )]
    Sweep(cmd::sweep::SweepArgs),
    /// Combine the run directories of shards (or recompute one run's summary).
    #[command(
        after_help = "Examples:\n  kanaszta merge runs/big/s0 runs/big/s1 --out runs/big/all\n      the games of two shards in one run directory, its summary recomputed\n  kanaszta merge runs/c4/s0 runs/c4/s1 --out runs/c4/all\n      the same for a classic canasta run (runs of one family only): the files of the run played whole"
    )]
    Merge(cmd::merge::MergeArgs),
    /// One Bradley–Terry rating table from the summary.csv files of several
    /// runs (play, tournament, merge): agents are rated through the pairs
    /// they played, e.g. the steps of a ladder, when all are linked.
    #[command(
        after_help = "Example:\n  kanaszta ratings runs/greedy-random runs/rules-greedy --file ratings.csv\n      one Bradley–Terry table of random, greedy and rules from two runs, also written to ratings.csv"
    )]
    Ratings(cmd::ratings::RatingsArgs),
    /// Engine and agent throughput: hands/s and actions/s per thread count.
    #[command(
        after_help = "Example:\n  kanaszta bench --a greedy --b greedy --threads 1,2 --repeat 5\n      hands/s and actions/s on 1 and 2 threads, the median of 5 measurements"
    )]
    Bench(cmd::bench::BenchArgs),
    /// One game of a run, move by move in card notation.
    #[command(alias = "show")]
    #[command(
        after_help = "Examples:\n  kanaszta replay --run runs/ir --game 17\n      game 17 of the run in runs/ir, move by move (agents, seed and rules from its run.json)\n  kanaszta replay --a rules --b greedy --seed 7 --unit matches --game 0 --hand 5\n      hand 5 of match 0 of `kanaszta play --a rules --b greedy --seed 7 --matches N`\n  kanaszta replay --rules classic-002 --set players=4 --a rules --b greedy --seed 7 --game 3\n      game 3 of that classic play, turn by turn: seats and sides, \"may I go out?\" and the answer, pickups, melds, red threes, the end and the score per side"
    )]
    Replay(cmd::replay::ReplayArgs),
    /// Every agent with its parameters, defaults and accepted values.
    #[command(
        after_help = "Example:\n  kanaszta agents\n      every agent, its parameters, their defaults and accepted values"
    )]
    Agents,
    /// Group the rows of a CSV (e.g. hands.csv) and summarize numeric
    /// columns: n, mean with a 95% interval, sd, share non-zero, min, max.
    /// Booleans count as 1/0, so their mean is a share.
    #[command(
        after_help = "Example:\n  kanaszta aggregate runs/ir/hands.csv --by starter --cols won,raw\n      the share of hands won and the mean raw score, starters against the others, each mean with its 95% interval (mean_lo, mean_hi)"
    )]
    Aggregate(cmd::aggregate::AggregateArgs),
    /// Draw an SVG chart from a CSV: bars or lines with 95% intervals, or a histogram.
    #[command(
        after_help = "Example:\n  kanaszta plot runs/ir/summary.csv --x agent --y hand_win_rate --lo hand_win_lo --hi hand_win_hi --file win.svg\n      each agent's hand-win rate as a bar with its 95% interval, in win.svg"
    )]
    Plot(cmd::plot::PlotArgs),
    /// Play one seeded hand between two agents (random by default), printed move by move, with its score.
    #[command(
        after_help = "Example:\n  kanaszta demo --seed 7 --set opening=90\n      one hand of two random agents with an opening minimum of 90, move by move\n  kanaszta demo --a rules --b greedy --seed 3\n      rules against greedy on deal 3, ending with the hands, tables and score items"
    )]
    Demo(cmd::demo::DemoArgs),
    /// Play a hand or a match against an agent in the terminal (--lines for pipes).
    #[command(
        after_help = "Examples:\n  kanaszta human --vs ismcts:iters=500 --match\n      a whole match with the tax against ismcts, in the terminal; `help` at the prompt lists the commands\n  kanaszta human --vs rules --seed 7 --lines\n      the same deal every time, plain text, moves read line by line from standard input (numbers or the action notation), e.g. piped from a file"
    )]
    Human(cmd::human::HumanArgs),
    /// List the legal actions of the player to move in a position (JSON file, `-` for stdin).
    #[command(
        after_help = "Examples:\n  kanaszta legal p.json\n      the legal actions of the player to move in p.json, one per line, in the notation check and apply take\n  kanaszta apply p.json draw | kanaszta legal -\n      what may follow a draw (the position on standard input)\n  kanaszta legal classic.json\n      a classic canasta position (its `family` or `rules` says so): the actions in classic notation, e.g. take K 2 0 0, lay 8 3 0 0, discard 9\n\nThe position format (every field, its default, an example per phase): sim/POSITIONS.md."
    )]
    Legal(cmd::legal::LegalArgs),
    /// Is ACTION legal in the position, and if not which rule forbids it?
    /// Exit status 0 when legal, 3 when illegal.
    #[command(
        after_help = "Example:\n  kanaszta check p.json \"lay 8D 8S 2C\"\n      exit 0 if laying 8D 8S 2C is legal in p.json; else exit 3 and the rule that forbids it\n  kanaszta check classic.json \"lay 8 3 0 0\"\n      in a classic canasta position: three eights as a new meld; exit 3 naming the C- rule if not\n\nThe position format (every field, its default, an example per phase): sim/POSITIONS.md."
    )]
    Check(cmd::check::CheckArgs),
    /// The scoring breakdown (D-14) of a position's hand, raw and taxed (D-15);
    /// of a classic canasta hand, per side (C-23).
    #[command(
        after_help = "Example:\n  kanaszta score p.json\n      each player's scoring breakdown (D-14) as CSV: base items, card value, raw, and taxed on the totals before the hand (D-15)\n  kanaszta score classic.json\n      a classic canasta hand, one CSV row per side: red threes (C-8), canastas natural, mixed and wild (C-5), going out and concealed (C-10, C-19), melded, in hand, failed \"yes\" (C-18), total and the totals before and after\n\nThe position format (every field, its default, an example per phase): sim/POSITIONS.md."
    )]
    Score(cmd::score::ScoreArgs),
    /// Apply actions to a position in order and print the position they lead
    /// to (and the score when the hand ended); stderr says what each did.
    /// Exit status 3 at an illegal action, naming the rule.
    #[command(
        after_help = "Examples:\n  kanaszta apply p.json draw \"lay 8D 8S 2C\" \"discard 9C\"\n      draw, lay a group, discard: the position after them (with the score if the hand ended); stderr says what each did\n  kanaszta apply --each --seed 3 p.json draw \"discard 9C\"\n      the position after each action; the stock p.json leaves out shuffled by seed 3\n  kanaszta apply classic.json ask yes draw \"discard 9\"\n      a classic canasta turn with a partner: \"may I go out?\", the answer, a draw, a discard; exit 3 at an illegal action, naming the C- rule\n\nThe position format (every field, its default, an example per phase): sim/POSITIONS.md."
    )]
    Apply(cmd::apply::ApplyArgs),
    /// Print the rule switches and their values.
    #[command(
        after_help = "Examples:\n  kanaszta rules --rules decorated-2003-01 --set tax=off\n      every switch of the 2003-01 rules with the tax turned off\n  kanaszta rules --explain D-6.3 --explain C-18\n      the text of two rules\n\nThe rules reference (every rule, interpretation and switch): docs/RULES.md."
    )]
    Rules(cmd::rules::RulesCmdArgs),
    /// Tune an agent's number parameters by self-play against a set of
    /// opponents on paired deals (SPSA): trace.csv of every step, best.txt
    /// with the tuned spec, run.json.
    #[command(
        after_help = "How it works: each parameter moves within its range (declared by the agent, see `kanaszta agents`, or KEY=LO..HI), as a fraction of it. Step k draws a direction of ±1 per parameter and plays the agent at x + c_k·Δ and at x − c_k·Δ against every opponent on the same paired deals (--hands-per-step each), so the luck of the cards cancels from the difference of the two margins (raw points per hand, averaged over the opponents); x moves by a_k·(m+ − m−)/rms·Δ, rms the root mean square of those differences so far, so a step is a fraction a_k of each range. a_k = --step-size·((1 + A)/(k + A))^0.602 with A a tenth of --steps, c_k = --perturb/k^0.101. Whole-number parameters are rounded, and perturbed by at least 1 (a note says when c_k is less than one unit of the range); a start outside --param's range is refused (a default outside it is moved into it, with a note). --hands-per-step is even: the hands are paired deals.\n\
Stopping: after --steps, or once settled: in the last --window steps every parameter's gradient estimate (m+ − m−)·Δ/2 averages within one standard error of 0, so no parameter has a direction left (--window 0: never stop early).\n\
Output in --out: trace.csv (step; each parameter's value at the start of the step; delta_KEY, the direction; plus_KEY and minus_KEY, the values played; margin_plus, margin_minus; margin, their mean; gain, half their difference; perturb and step_size, c_k and a_k), best.txt (the tuned spec: the mean of the points after the last --window steps), run.json (the settings, the steps done, whether settled, and each parameter's range, start and best). The same --seed gives the same files for any --threads.\n\n\
Examples:\n  kanaszta tune --agent greedy --param pile,patience=5..200 --vs random,greedy --hands-per-step 200 --steps 40 --out runs/tune-greedy\n      tunes greedy's pile and patience (patience within 5..200) against random and greedy, 200 hands per opponent and point, at most 40 steps\n  kanaszta tune --agent rules --param caution,wild --vs greedy,rules --seed 3 -q\n      rules' caution and wild against greedy and rules, 50 steps of 200 hands unless settled earlier; best.txt in kanaszta-tune/"
    )]
    Tune(cmd::tune::TuneArgs),
}

/// `--rules` and `--set`.
#[derive(Args, Debug, Clone, Default)]
pub struct RulesArgs {
    /// Rules: a preset name (decorated-2003-02, decorated-2003-01; classic
    /// canasta: classic-002, classic-003, classic-004 for play, tournament,
    /// sweep, bench, replay and rules) or a JSON file.
    #[arg(long, default_value = "decorated-2003-02")]
    rules: String,
    /// Change one rule switch, e.g. --set tax=off --set opening=90 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

impl RulesArgs {
    /// Whether `--rules` names a classic canasta preset.
    pub fn is_classic(&self) -> bool {
        self.rules.starts_with("classic") && ClassicRules::preset(&self.rules).is_ok()
    }

    /// Classic rules when `--rules` names a classic preset (then every
    /// `--set` in order, with the classic switches); `None` for decorated.
    pub fn classic(&self) -> Result<Option<ClassicRules>, CliError> {
        if !self.is_classic() {
            return Ok(None);
        }
        let mut r =
            ClassicRules::preset(&self.rules).map_err(|e| CliError::Input(e.to_string()))?;
        r.apply_settings(self.set.iter().map(String::as_str))
            .and_then(|()| r.validate())
            .map_err(|e| CliError::Input(format!("--rules {}: {e}", self.rules)))?;
        Ok(Some(r))
    }

    /// The rules: the preset or file, then every `--set` in order. A
    /// classic preset is refused: the commands that call this play
    /// decorated canasta only.
    pub fn build(&self) -> Result<Rules, CliError> {
        if self.is_classic() {
            return Err(CliError::Input(format!(
                "--rules {}: not yet for classic canasta in this command (classic rules are \
                 accepted by kanaszta play, tournament, sweep, bench, replay and rules); here: a \
                 decorated preset ({}) or a rules JSON file",
                self.rules,
                kanaszta_engine::PRESETS.join(", ")
            )));
        }
        let mut r = match Rules::preset(&self.rules) {
            Ok(r) => r,
            Err(preset_err) => {
                // A file that cannot be read (a symlink loop, no
                // permission) is named with its error, not taken for a
                // preset.
                if std::fs::symlink_metadata(&self.rules).is_ok() {
                    let text = input::read_text(&self.rules, "rules", input::JSON_LIMIT)?;
                    Rules::from_json(&text).map_err(|e| match e {
                        e if classic_json(&text)
                            || matches!(&e, kanaszta_engine::RulesError::UnknownSwitch(k) if k == "preset") =>
                        {
                            CliError::Input(format!(
                                "{}: classic canasta rules (a classic `preset` or `family`): a \
                                 rules JSON file holds the switches of decorated canasta \
                                 (`kanaszta rules` lists them); classic rules are a preset and \
                                 --set, e.g. --rules classic-004 --set players=4 (`kanaszta \
                                 rules --rules classic-002` lists the classic switches)",
                                self.rules
                            ))
                        }
                        e => CliError::Rules {
                            context: self.rules.clone(),
                            source: e,
                        },
                    })?
                } else {
                    return Err(CliError::UnknownRules(preset_err));
                }
            }
        };
        r.apply_settings(self.set.iter().map(String::as_str))?;
        for w in r.warnings() {
            eprintln!("kanaszta: warning: {w}");
        }
        Ok(r)
    }
}

/// Whether rules JSON names a classic preset or family.
fn classic_json(text: &str) -> bool {
    let v: serde_json::Value = match serde_json::from_str(text.trim_start_matches('\u{feff}')) {
        Ok(v) => v,
        Err(_) => return false,
    };
    v.get("family").and_then(|f| f.as_str()) == Some("classic")
        || v.get("preset")
            .and_then(|p| p.as_str())
            .is_some_and(|p| p.starts_with("classic"))
}

/// A seed, count or index: a whole number from 0 (a negative number is
/// named as such, rather than taken for an option).
pub fn whole<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    let t = s.trim();
    t.parse::<T>().map_err(|_| {
        if t.starts_with('-') {
            "a negative number: expected a whole number from 0, e.g. 7".to_string()
        } else {
            "expected a whole number from 0, e.g. 7".to_string()
        }
    })
}

/// A number of hands or matches: a whole number, at least 1.
fn parse_count(s: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| "expected a whole number of at least 1, e.g. 1000".to_string())
}

/// Options shared by play, tournament and sweep.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Number of hands per matchup (default: 10,000 for play; 2,000 per pair
    /// or setting for tournament and sweep).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_count)]
    hands: Option<u64>,
    /// Number of full matches (to the target, with the tax) per matchup.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_count)]
    matches: Option<u64>,
    /// Master seed: every game's deal and generators derive from it and the game index.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>)]
    seed: u64,
    /// Worker threads (0: one per core). The output does not depend on it.
    #[arg(long, default_value_t = 0, value_name = "T", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub threads: usize,
    /// Directory for the CSV files (created). The files of an earlier run
    /// there are replaced, all of them, with a note on stderr; files of a
    /// run's names that no run wrote (no run.json of a run beside them)
    /// are never removed: the run is refused. One run at a time per
    /// directory: DIR/.lock names the run writing there.
    #[arg(long, default_value = "kanaszta-out", value_name = "DIR")]
    pub out: PathBuf,
    /// Play only shard I of N: the deals whose index mod N is I (both seatings of each deal).
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Play every game on its own deal instead of each deal twice with the seats swapped.
    #[arg(long)]
    unpaired: bool,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub rules: RulesArgs,
}

impl RunArgs {
    /// Mode and games per series, checked.
    fn count(&self, default_hands: u64) -> Result<(Mode, u64), CliError> {
        match (self.hands, self.matches) {
            (Some(_), Some(_)) => Err(CliError::Input(
                "give either --hands N or --matches N, not both (hands are single deals; matches are played to the target)"
                    .into(),
            )),
            (Some(0), None) | (None, Some(0)) => Err(CliError::Input(
                "the number of --hands or --matches must be at least 1".into(),
            )),
            (Some(n), None) => Ok((Mode::Hands, n)),
            (None, Some(n)) => Ok((Mode::Matches, n)),
            (None, None) => Ok((Mode::Hands, default_hands)),
        }
    }

    fn shard(&self) -> Result<Shard, CliError> {
        match &self.shard {
            None => Ok(Shard::all()),
            Some(s) => {
                let sh = Shard::parse(s)?;
                if sh.indices.len() != 1 {
                    return Err(CliError::Input(format!(
                        "bad shard `{s}`: expected I/N with 0 ≤ I < N, e.g. 0/4 (one shard per run)"
                    )));
                }
                Ok(sh)
            }
        }
    }

    /// The mode, the games per series and the shard, checked (with the
    /// number of threads).
    pub fn checked(&self, default_hands: u64) -> Result<(Mode, u64, Shard), CliError> {
        let (mode, games) = self.count(default_hands)?;
        let shard = self.shard()?;
        if self.threads > 1024 {
            return Err(CliError::Input(format!(
                "--threads {}: at most 1024 (0: one per core)",
                self.threads
            )));
        }
        Ok((mode, games, shard))
    }

    /// The plan of a run of `series` (validated by building it).
    pub fn plan(
        &self,
        command: &str,
        agents: Vec<String>,
        series: Vec<SeriesSpec>,
        default_hands: u64,
    ) -> Result<Plan, CliError> {
        Plan::new(self.manifest(command, agents, series, default_hands)?)
    }

    /// The manifest of a run of `series`, of either family (`R`, its
    /// rules): the switches checked, the build recorded.
    pub fn manifest<R>(
        &self,
        command: &str,
        agents: Vec<String>,
        series: Vec<SeriesSpec<R>>,
        default_hands: u64,
    ) -> Result<Manifest<R>, CliError> {
        let (mode, games, shard) = self.checked(default_hands)?;
        let paired = !self.unpaired;
        // A shard may hold no deal of a short run (4 hands in shards of 4
        // are 2 deals): that is no error, as scripts run every shard, but
        // it is said, since the run plays nothing.
        if crate::run::games_in_shard(games, paired, &shard) == 0 {
            let deals = if paired { games.div_ceil(2) } else { games };
            eprintln!(
                "kanaszta: warning: shard {shard} holds none of this run's deals: {games} {mode}{} \
                 are {deals} deals (0 to {}), and shard I/N plays the deals whose index mod N is \
                 I; nothing is played (run.json and empty CSVs are written, and merge with the \
                 other shards); give more --{mode} or fewer shards",
                if paired { ", paired," } else { "" },
                deals.saturating_sub(1)
            );
        }
        let (version, commit, dirty) = crate::run::build_info();
        Ok(Manifest {
            command: command.into(),
            seed: self.seed,
            mode,
            games,
            paired,
            shard,
            agents,
            series,
            complete: None,
            games_done: None,
            reproducible: None,
            reproducible_note: None,
            version: Some(version),
            commit: Some(commit),
            dirty: Some(dirty),
        })
    }
}
