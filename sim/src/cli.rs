//! The command line: [`Cli`] and its [`Command`]s. Each command's own
//! options live in its module under `cmd/`; the options several commands
//! share (rules; runs of games) in [`crate::run::options`].

use crate::cmd;
use clap::{Parser, Subcommand};

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
        after_help = "Examples:\n  kanaszta play --a ismcts:iters=250 --b rules --hands 2000 --out runs/ir\n      ismcts against rules on 1,000 deals, each played twice with the seats swapped; CSVs in runs/ir/\n  kanaszta play --a rules --b greedy --matches 500 --set tax=off\n      500 full matches to 10,000 without the tax (D-15); in match mode the table gives the lead changes, the tax paid and the comebacks (a comeback: a match won by a player who trailed by 2,000 or more after some hand, as sim/CSV.md's `comeback` column), each with its 95% interval, and the final margin A − B\n  kanaszta play --a rules --b random --sprt 50 --hands 4000\n      stops as soon as \"rules is stronger than random by at least 50 points per hand\" is accepted or rejected (a sequential test on paired deals; see --help)\n  kanaszta play --rules classic-002 --set players=4 --a rules --b greedy --hands 4000 --shard 0/2 --out runs/c4/s0\n      classic canasta in partnerships, the first half of the deals (shard 0 of 2); `kanaszta merge` joins the halves"
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
        after_help = "Examples:\n  kanaszta sweep --a rules --b greedy --vary tax=on,off --vary opening=50,90 --matches 500\n      rules v greedy under the four settings, 500 matches each; one sweep.csv row per setting\n  kanaszta sweep --a rules --b rules:fixes=off --matches 300 --vary tax=on,off --threads 1\n      does the tax make comebacks more likely? Per setting: the final margin A − B, the lead changes, the comebacks (matches won by a player who trailed by 2,000 or more after some hand, sim/CSV.md `comeback`) and the tax paid per match, each with its 95% interval (docs/BALANCE.md)\n  kanaszta sweep --rules classic-002 --a rules --b greedy --vary players=2,3,4 --vary wild_canasta=none,1000 --hands 1000\n      classic canasta under six settings (`kanaszta rules --rules classic-002` lists the switches)"
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
        after_help = "Example:\n  kanaszta ratings runs/greedy-random runs/rules-greedy --file ratings.csv\n      one Bradley–Terry table of random, greedy and rules from two runs, also written to ratings.csv\n  kanaszta ratings runs/ct runs/c4/all\n      the same for classic canasta runs (runs of one family and rule set only); a partnership is rated by its players, e.g. rules+greedy"
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
    /// A run directory drawn as one self-contained HTML page: win rates and
    /// points with intervals, how hands ended, match lengths, tax paid.
    #[command(
        after_help = "Example:\n  kanaszta report runs/ir --html ir.html\n      the run in runs/ir as a page: its command and seed, each side's win rates and points a hand with 95% intervals, how the hands ended, and for matches their length and the tax paid (docs/PICTURES.md)"
    )]
    Report(cmd::report::ReportArgs),
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
        after_help = "Example:\n  kanaszta demo --seed 7 --set opening=90\n      one hand of two random agents with an opening minimum of 90, move by move\n  kanaszta demo --a rules --b greedy --seed 3\n      rules against greedy on deal 3, ending with the hands, tables and score items\n  kanaszta demo --rules classic-002 --set players=4 --a rules+greedy --b ismcts\n      a classic canasta hand with partnerships (C-20), the side of rules and greedy against two ismcts: game 0 of a play run of the same seed, as replay prints it, ending with each side's score (C-23)"
    )]
    Demo(cmd::demo::DemoArgs),
    /// Play a hand or a match against an agent in the terminal (--lines for pipes).
    #[command(
        after_help = "Examples:\n  kanaszta human --vs ismcts:iters=500 --match\n      a whole match with the tax against ismcts, in the terminal; `help` at the prompt lists the commands\n  kanaszta human --vs rules --seed 7 --lines\n      the same deal every time, plain text, moves read line by line from standard input (numbers or the action notation), e.g. piped from a file\n  kanaszta human --rules classic-002 --set players=4 --vs rules --seed 3\n      classic canasta at a table of four, rules in the other three seats (your partner too, C-20); a number or the classic notation (draw, take K 2 0 0, lay 8 3 0 0, discard 9, yes) is a move; save and --resume as in decorated games"
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
Examples:\n  kanaszta tune --agent greedy --param pile,patience=5..200 --vs random,greedy --hands-per-step 200 --steps 40 --out runs/tune-greedy\n      tunes greedy's pile and patience (patience within 5..200) against random and greedy, 200 hands per opponent and point, at most 40 steps\n  kanaszta tune --agent rules --param caution,wild --vs greedy,rules --seed 3 -q\n      rules' caution and wild against greedy and rules, 50 steps of 200 hands unless settled earlier; best.txt in kanaszta-tune/\n  kanaszta tune --rules classic-002 --set players=4 --agent rules --param ask_margin=-500..500,wild_take --vs greedy,rules+greedy --hands-per-step 100 --steps 20\n      a classic player's parameters, both seats of its side playing it (C-20), against greedy and a side of rules and greedy; the margins are the side's points per hand (C-23); run.json says \"family\": \"classic\""
    )]
    Tune(cmd::tune::TuneArgs),
    /// Learning from self-play: `learn data` writes training data (NumPy
    /// .npy files), `learn fit` fits a value model to it (docs/LEARNING.md).
    #[command(
        after_help = "Examples:\n  kanaszta learn data --a rules --b greedy --hands 2000 --views all --out data/d1\n      1,000 deals played twice with the seats swapped; every decision, every seat's view, in data/d1/*.npy\n  kanaszta learn fit data/d1 --out models/d1.json\n      a ridge regression of the hand's final margin on the encoding, its held-out error printed\n  kanaszta play --a value:model=models/d1.json --b greedy --hands 2000\n      the model's one-step player against greedy\n\nThe files, field by field, and the figures: docs/LEARNING.md."
    )]
    Learn(cmd::learn::LearnArgs),
}
