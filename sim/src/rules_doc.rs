//! The rules reference, docs/RULES.md, built into the binary: `kanaszta
//! rules --explain ID` prints one rule, and a message that names rules is
//! followed by the command that explains them.

/// docs/RULES.md, as built.
pub const RULES_MD: &str = include_str!("../../docs/RULES.md");

/// Where the reference lives in the repository.
pub const RULES_PATH: &str = "docs/RULES.md";

/// The rule identifiers (`D-6.3`, `I-7`, `C-18`) named in `text`, in order
/// of first appearance, each once.
pub fn rule_ids(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut ids: Vec<String> = Vec::new();
    for (i, w) in bytes.windows(2).enumerate() {
        if !matches!(w[0], b'D' | b'I' | b'C') || w[1] != b'-' {
            continue;
        }
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let rest = &text[i + 2..];
        let mut end = 0;
        let mut last_digit = false;
        for c in rest.bytes() {
            if c.is_ascii_digit() {
                last_digit = true;
            } else if c == b'.' && last_digit {
                last_digit = false;
            } else {
                break;
            }
            end += 1;
        }
        // A trailing dot ends a sentence, not an identifier.
        let num = rest[..end].trim_end_matches('.');
        if num.is_empty() {
            continue;
        }
        let id = format!("{}-{num}", w[0] as char);
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids
}

/// The text of rule `id` in the reference: a whole section for a heading
/// (`D-6`, with its sub-rules), else the rule's own paragraph (`D-6.3`,
/// `I-7`, `C-18`); `None` when the reference has no such rule.
pub fn explain(id: &str) -> Option<String> {
    let lines: Vec<&str> = RULES_MD.lines().collect();
    let heading = format!("## {id} ");
    if let Some(start) = lines.iter().position(|l| l.starts_with(&heading)) {
        let end = lines[start + 1..]
            .iter()
            .position(|l| l.starts_with("## ") || l.starts_with("### "))
            .map_or(lines.len(), |n| start + 1 + n);
        return Some(lines[start..end].join("\n").trim_end().to_string());
    }
    // A rule's own paragraph, or the paragraph that defines it in passing
    // (`I-14: the top card included`).
    let bullet = format!("- {id} ");
    let inline = format!("{id}:");
    let at = lines
        .iter()
        .position(|l| l.starts_with(&bullet))
        .or_else(|| lines.iter().position(|l| l.contains(&inline)))?;
    let start = (0..=at)
        .rev()
        .find(|&i| !lines[i].starts_with("  ") || i == 0)
        .unwrap_or(at);
    let end = lines[at + 1..]
        .iter()
        .position(|l| !l.starts_with("  ") || l.trim().is_empty())
        .map_or(lines.len(), |n| at + 1 + n);
    Some(lines[start..end].join("\n"))
}

/// Every rule identifier the reference defines, as a heading or a rule's
/// own paragraph, in the reference's order.
#[cfg(test)]
fn defined_ids() -> Vec<String> {
    let mut ids = Vec::new();
    for line in RULES_MD.lines() {
        let own = line
            .strip_prefix("## ")
            .or_else(|| line.strip_prefix("- "))
            .and_then(|rest| rest.split_whitespace().next());
        for id in rule_ids(line) {
            let defines = own == Some(id.as_str()) || line.contains(&format!("{id}:"));
            if defines && !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    ids
}

/// One line that tells where to read the rules a message names, or `None`
/// when it names none the reference defines.
pub fn see_also(message: &str) -> Option<String> {
    if message.starts_with("unknown rule identifier") {
        return None;
    }
    let ids: Vec<String> = rule_ids(message)
        .into_iter()
        .filter(|id| explain(id).is_some())
        .collect();
    let first = ids.first()?;
    Some(format!(
        "rules: {} in {RULES_PATH}; `kanaszta rules --explain {first}` prints {}",
        ids.join(", "),
        if ids.len() == 1 { "it" } else { "the first" }
    ))
}

/// The message for an identifier the reference does not define.
pub fn unknown(id: &str) -> String {
    format!(
        "unknown rule identifier `{id}`: the rules are D-1 … D-16 (with sub-rules such as \
         D-6.3) and the interpretations I-1 … I-32 of decorated canasta, and C-1 … C-24 of \
         classic canasta; {RULES_PATH} lists them all"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ids_are_read_from_messages() {
        assert_eq!(
            rule_ids("illegal: D-6.3 (and I-9.) not C-18; see XD-1, D-"),
            ["D-6.3", "I-9", "C-18"]
        );
    }

    #[test]
    fn explain_finds_sections_and_paragraphs() {
        let d6 = explain("D-6").unwrap();
        assert!(d6.starts_with("## D-6 ") && d6.contains("- D-6.2 "), "{d6}");
        assert!(!d6.contains("## D-7"), "{d6}");
        let c18 = explain("C-18").unwrap();
        assert!(c18.starts_with("- C-18 "), "{c18}");
        assert!(!c18.contains("- C-19"), "{c18}");
        assert!(explain("I-32").unwrap().contains("Dead lock"));
        assert_eq!(explain("D-99"), None);
    }

    /// The `.rs` files under `dir`, recursively.
    fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// Every identifier the workspace's code and tests name is defined in
    /// docs/RULES.md, and every one docs/RULES.md defines is named in the
    /// code or its tests.
    #[test]
    fn the_reference_and_the_code_name_the_same_rules() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        for krate in ["engine", "agents", "sim", "benches"] {
            for dir in ["src", "tests", "benches", "examples"] {
                let d = root.join(krate).join(dir);
                if d.is_dir() {
                    sources(&d, &mut files);
                }
            }
        }
        assert!(files.len() > 50, "{} source files", files.len());
        let mut named = std::collections::BTreeMap::new();
        // This file names made-up identifiers on purpose.
        files.retain(|f| !f.ends_with("rules_doc.rs"));
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            for id in rule_ids(&text) {
                named.entry(id).or_insert_with(|| f.display().to_string());
            }
        }
        let defined = defined_ids();
        assert!(defined.len() > 100, "{defined:?}");
        for (id, file) in &named {
            assert!(
                defined.contains(id),
                "{file} names {id}, which {RULES_PATH} does not define"
            );
        }
        for id in &defined {
            assert!(explain(id).is_some(), "--explain {id} finds nothing");
            assert!(
                named.contains_key(id),
                "{RULES_PATH} defines {id}, which no code or test names"
            );
        }
    }

    /// The reference's switch tables list every switch of both families
    /// with the default preset's value.
    #[test]
    fn the_reference_lists_every_switch_with_its_default() {
        let decorated = kanaszta_engine::Rules::default().settings();
        let classic: Vec<(String, String)> = kanaszta_engine::classic::ClassicRules::default()
            .settings()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        assert!(decorated.len() > 15 && classic.len() > 15);
        for (k, v) in decorated.iter().chain(&classic) {
            let row = format!("| `{k}` | `{v}` |");
            assert!(RULES_MD.contains(&row), "{RULES_PATH} lacks {row}");
        }
    }

    #[test]
    fn see_also_names_only_defined_rules() {
        let s = see_also("illegal: C-18, D-99").unwrap();
        assert!(s.contains("C-18") && !s.contains("D-99"), "{s}");
        assert_eq!(see_also("no rule here"), None);
    }
}
