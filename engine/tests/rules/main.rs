//! The decorated family's rules (D-1 … D-16 and the interpretations
//! I-1 … I-32 of docs/RULES.md), one test binary: a module per part of
//! the reference, each test named after the identifier it checks.

mod d1_d8;
mod d9_d16;
mod i25_progress;
mod i32_deadlock;

/// Every `D-…` and `I-…` identifier docs/RULES.md defines (as a heading, a
/// rule's own paragraph, or in passing as `I-14:`) is named by a test
/// function of the engine (its tests or its modules' unit tests): `d6_3_…`
/// for D-6.3, `i32_…` for I-32.
#[test]
fn every_decorated_rule_is_named_by_a_test() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let reference = std::fs::read_to_string(format!("{root}/docs/RULES.md"))
        .expect("docs/RULES.md, the rules reference");
    let mut defined = Vec::new();
    for line in reference.lines() {
        let own = line
            .strip_prefix("## ")
            .or_else(|| line.strip_prefix("- "))
            .and_then(|rest| rest.split_whitespace().next())
            .filter(|w| w.starts_with("D-") || w.starts_with("I-"));
        defined.extend(own.map(str::to_string));
        for (i, _) in line.match_indices(':') {
            let word = line[..i].rsplit([' ', '(']).next().unwrap_or("");
            let number = word.get(2..).unwrap_or("");
            if (word.starts_with("D-") || word.starts_with("I-"))
                && number.starts_with(|c: char| c.is_ascii_digit())
                && number.chars().all(|c| c.is_ascii_digit() || c == '.')
            {
                defined.push(word.to_string());
            }
        }
    }
    defined.sort();
    defined.dedup();
    assert!(defined.len() >= 90, "{defined:?}");
    let mut names = String::new();
    let mut dirs: Vec<std::path::PathBuf> = ["engine/tests", "engine/src"]
        .iter()
        .map(|d| format!("{root}/{d}").into())
        .collect();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                names.push_str(&std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    for id in &defined {
        let stem = stem_of(id);
        assert!(
            names.contains(&format!("fn {stem}_")) || names.contains(&format!("_{stem}_")),
            "no test names {id} (a test function named {stem}_…)"
        );
    }
}

/// `d6_2_1` for D-6.2.1, `i32` for I-32.
fn stem_of(id: &str) -> String {
    id.to_lowercase().replacen('-', "", 1).replace('.', "_")
}
