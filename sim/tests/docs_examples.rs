//! Every shell example of the README and the guides runs as written.
//!
//! Each ```sh block of README.md, docs/*.md, sim/*.md and python/README.md
//! that holds a `kanaszta` command line is run by bash in a scratch
//! directory, one directory per file, the blocks in order (a later block
//! reads what an earlier one wrote). `kanaszta` is the binary under test
//! and so is `cargo run --release -p kanaszta [-- …]`; `cargo build
//! --release -p kanaszta` and `alias kanaszta=…` stand for building it and
//! are skipped. Every command must exit 0, or the status its comment names
//! as `(exit N)`.
//!
//! A block that cannot run in about a second (a million hands, a search
//! over thousands of hands, a Slurm script) is marked by the line
//! `<!-- options only -->` just before it: each of its `kanaszta` lines is
//! run with `--help` appended, which clap refuses when an option is not
//! the command's. A block without a `kanaszta` line (cargo test, pip) is
//! not run.
//!
//! The links of README.md and docs/*.md point to files of the repository,
//! and the README's one result is the committed CSV's.

mod common;

use common::{kanaszta, read, table};
use std::path::{Path, PathBuf};
use std::process::Command;

const OPTIONS_ONLY: &str = "<!-- options only -->";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// The markdown files whose examples are run.
fn example_files() -> Vec<PathBuf> {
    let r = root();
    let mut files = vec![r.join("README.md"), r.join("python/README.md")];
    for dir in ["docs", "sim"] {
        let mut md: Vec<PathBuf> = std::fs::read_dir(r.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        md.sort();
        files.extend(md);
    }
    files
}

/// A ```sh block: its first line's number, whether it is options only,
/// and its commands (continuation lines joined, a here-document kept
/// whole with the line that opens it), each with its line number.
struct Block {
    line: usize,
    options_only: bool,
    commands: Vec<(usize, String)>,
}

fn blocks(doc: &str) -> Vec<Block> {
    let lines: Vec<&str> = doc.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "```sh" {
            i += 1;
            continue;
        }
        let options_only = lines[..i]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.trim() == OPTIONS_ONLY);
        let start = i + 1;
        i += 1;
        let mut commands = Vec::new();
        while i < lines.len() && lines[i].trim() != "```" {
            let at = i + 1;
            let mut cmd = lines[i].to_string();
            // Continuation lines.
            while cmd.ends_with('\\') && i + 1 < lines.len() {
                cmd.pop();
                cmd.truncate(cmd.trim_end().len());
                i += 1;
                cmd.push(' ');
                cmd.push_str(lines[i].trim_start());
            }
            // A here-document: its body up to the terminator.
            if let Some(tag) = heredoc_tag(&cmd) {
                loop {
                    i += 1;
                    assert!(i < lines.len(), "line {at}: here-document without {tag}");
                    cmd.push('\n');
                    cmd.push_str(lines[i]);
                    if lines[i] == tag {
                        break;
                    }
                }
            }
            if !cmd.trim().is_empty() && !cmd.trim_start().starts_with('#') {
                commands.push((at, cmd));
            }
            i += 1;
        }
        out.push(Block {
            line: start,
            options_only,
            commands,
        });
        i += 1;
    }
    out
}

fn heredoc_tag(cmd: &str) -> Option<String> {
    let at = cmd.find("<<")?;
    let tag: String = cmd[at + 2..]
        .trim_start_matches('-')
        .chars()
        .filter(|c| *c != '\'' && *c != '"')
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!tag.is_empty()).then_some(tag)
}

/// The command without its trailing `# comment` (a `#` after a blank,
/// outside quotes).
fn strip_comment(cmd: &str) -> (&str, &str) {
    let mut quote = None;
    let mut prev = ' ';
    for (k, c) in cmd.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') if prev.is_whitespace() => {
                return (cmd[..k].trim_end(), &cmd[k..]);
            }
            _ => {}
        }
        prev = c;
    }
    (cmd.trim_end(), "")
}

/// `cargo run --release -p kanaszta [-- ARGS]` is `kanaszta [ARGS]`.
fn map_cargo(cmd: &str) -> String {
    let run = "cargo run --release -p kanaszta";
    match cmd.strip_prefix(run) {
        Some("") => "kanaszta".into(),
        Some(rest) if rest.starts_with(" -- ") => format!("kanaszta {}", &rest[4..]),
        _ => cmd.to_string(),
    }
}

/// Skipped lines: building the binary the test already has.
fn is_build(cmd: &str) -> bool {
    cmd.starts_with("cargo build --release -p kanaszta") || cmd.starts_with("alias kanaszta=")
}

/// The status a comment names, `(exit N)`, else 0.
fn expected_status(comment: &str) -> i32 {
    comment
        .split("(exit ")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// Words as a shell splits them (single and double quotes).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            (_, c) => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

fn is_kanaszta(cmd: &str) -> bool {
    cmd == "kanaszta" || cmd.starts_with("kanaszta ") || cmd.contains("| kanaszta ")
}

/// Runs (or parse-checks) every example block of one file; the failures.
fn check_file(path: &Path) -> Vec<String> {
    let name = path.strip_prefix(root()).unwrap().display().to_string();
    let doc = read(path);
    let dir = std::env::temp_dir().join(format!(
        "kanaszta-docs-{}-{}",
        std::process::id(),
        name.replace(['/', '.'], "-")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    let started = std::time::Instant::now();
    for b in blocks(&doc) {
        let cmds: Vec<(usize, String, &str)> = b
            .commands
            .iter()
            .map(|(at, c)| {
                let (cmd, comment) = strip_comment(c);
                (*at, map_cargo(cmd), comment)
            })
            .collect();
        if !cmds.iter().any(|(_, c, _)| is_kanaszta(c)) {
            continue;
        }
        if b.options_only {
            for (at, cmd, _) in &cmds {
                for part in cmd.split(" | ").filter(|p| p.starts_with("kanaszta")) {
                    let mut w = words(part);
                    w.remove(0);
                    w.push("--help".into());
                    let args: Vec<&str> = w.iter().map(String::as_str).collect();
                    let (code, _, err) = kanaszta(&args);
                    if code != 0 {
                        failures.push(format!("{name}:{at}: `{part}` refused: {err}"));
                    }
                }
            }
            continue;
        }
        let mut script = String::from(
            "set -o pipefail\nkanaszta() { \"$KANASZTA_BIN\" \"$@\"; }\nexport -f kanaszta\n",
        );
        for (at, cmd, comment) in &cmds {
            if is_build(cmd) {
                continue;
            }
            if cmd.starts_with("cargo ") {
                failures.push(format!(
                    "{name}:{at}: `{cmd}` cannot run here: mark the block {OPTIONS_ONLY} \
                     or move the line to a block without kanaszta commands"
                ));
                continue;
            }
            let want = expected_status(comment);
            script.push_str(cmd);
            script.push_str(&format!(
                "\ns=$?; if [ $s -ne {want} ]; then echo \"{name}:{at}: exit $s, not {want}\" >&2; exit 99; fi\n"
            ));
        }
        let out = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(&dir)
            .env("KANASZTA_BIN", env!("CARGO_BIN_EXE_kanaszta"))
            .env("NO_COLOR", "1")
            .output()
            .expect("run bash");
        let err = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() || err.contains("panicked") {
            failures.push(format!(
                "{name}: the block of line {} failed:\n{}\nstdout:\n{}\nstderr:\n{err}",
                b.line,
                script,
                String::from_utf8_lossy(&out.stdout)
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{name}: {:.1} s", started.elapsed().as_secs_f64());
    failures
}

#[test]
fn every_shell_example_of_the_docs_runs() {
    let files = example_files();
    assert!(files.len() >= 10, "{files:?}");
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .iter()
            .map(|f| s.spawn(move || check_file(f)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The README shows both kinds of example and the guides are run too.
#[test]
fn the_readme_and_guides_hold_run_examples() {
    let r = root();
    for f in ["README.md", "docs/COMPARE.md", "docs/STUDY-A-RULE.md"] {
        let doc = read(&r.join(f));
        let run = blocks(&doc)
            .iter()
            .filter(|b| !b.options_only)
            .flat_map(|b| b.commands.iter())
            .filter(|(_, c)| is_kanaszta(&map_cargo(strip_comment(c).0)))
            .count();
        assert!(run >= 1, "{f}: no example is run");
    }
}

#[test]
fn the_parser_reads_markers_continuations_heredocs_and_statuses() {
    let doc = "x\n\n<!-- options only -->\n```sh\nkanaszta play \\\n  --hands 3   # a comment\n```\n\
               ```sh\ncat > p.json <<'JSON'\n{\"a\": 1}\nJSON\nkanaszta check p.json take  # illegal (exit 3)\n```\n";
    let b = blocks(doc);
    assert_eq!(b.len(), 2);
    assert!(b[0].options_only && !b[1].options_only);
    assert_eq!(b[0].commands.len(), 1);
    let (cmd, comment) = strip_comment(&b[0].commands[0].1);
    assert_eq!(cmd, "kanaszta play --hands 3");
    assert_eq!(expected_status(comment), 0);
    assert_eq!(b[1].commands.len(), 2, "{:?}", b[1].commands);
    assert!(b[1].commands[0].1.ends_with("\nJSON"));
    assert_eq!(expected_status(strip_comment(&b[1].commands[1].1).1), 3);
    assert_eq!(map_cargo("cargo run --release -p kanaszta"), "kanaszta");
    assert_eq!(
        map_cargo("cargo run --release -p kanaszta -- play --hands 2"),
        "kanaszta play --hands 2"
    );
    assert_eq!(
        words("aggregate x --where 'a<=-2' --title \"A b\""),
        ["aggregate", "x", "--where", "a<=-2", "--title", "A b"]
    );
}

/// The relative links of the markdown file, as written.
fn links(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = doc;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].to_string());
        }
    }
    out
}

#[test]
fn every_link_of_the_readme_and_docs_is_a_file_of_the_repository() {
    let r = root();
    let mut files = vec![r.join("README.md")];
    for e in std::fs::read_dir(r.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            files.push(p);
        }
    }
    let mut bad = Vec::new();
    let mut count = 0;
    for f in &files {
        let doc = read(f);
        let name = f.strip_prefix(&r).unwrap().display().to_string();
        for word in ["http://", "https://", "www."] {
            if doc.contains(word) {
                bad.push(format!("{name}: links outside the repository ({word})"));
            }
        }
        for l in links(&doc) {
            count += 1;
            let target = l.split('#').next().unwrap();
            if target.is_empty() {
                continue;
            }
            let p = f.parent().unwrap().join(target);
            match p.canonicalize() {
                Ok(c) if c.starts_with(&r) => {}
                Ok(_) => bad.push(format!("{name}: `{l}` is outside the repository")),
                Err(_) => bad.push(format!("{name}: `{l}` is no file")),
            }
        }
    }
    assert!(count > 30, "{count} links");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The README's result is the committed CSV's: its table is the one this
/// test makes from results/tax/sweep.csv.
#[test]
fn the_readme_result_is_the_committed_csv() {
    let r = root();
    let (h, rows) = table(&r.join("results/tax/sweep.csv"));
    let get = |row: &[String], c: &str| -> f64 {
        row[common::col(&h, c)]
            .parse()
            .unwrap_or_else(|_| panic!("{c}"))
    };
    let pct = |x: f64| format!("{:.1}", x * 100.0);
    let mut expected = String::from(
        "| tax | hands a match | rules wins the match [95%] | final margin A − B [95%] |\n\
         |---|---|---|---|\n",
    );
    for tax in ["on", "off"] {
        let row = rows
            .iter()
            .find(|x| x[common::col(&h, "tax")] == tax)
            .unwrap_or_else(|| panic!("no tax={tax} row"));
        assert_eq!(row[common::col(&h, "a")], "rules");
        assert_eq!(row[common::col(&h, "b")], "greedy");
        expected.push_str(&format!(
            "| {tax} | {:.1} | {}% [{}, {}] | {:.0} [{:.0}, {:.0}] |\n",
            get(row, "mean_match_hands"),
            pct(get(row, "a_match_win_rate")),
            pct(get(row, "a_match_win_lo")),
            pct(get(row, "a_match_win_hi")),
            get(row, "mean_diff"),
            get(row, "mean_diff_lo"),
            get(row, "mean_diff_hi"),
        ));
    }
    let readme = read(&r.join("README.md"));
    assert!(
        readme.contains(&expected),
        "README.md lacks the table of results/tax/sweep.csv:\n{expected}"
    );
    let matches = get(&rows[0], "matches");
    assert!(
        readme.contains(&format!("--matches {matches}")),
        "the README's command plays {matches} matches"
    );
}
