//! The modules of the `kanaszta` library use each other without a circle:
//! a graph of the top-level modules of sim/src (and of the files under
//! `cmd/` and `run/`, each its own node), an edge for every `crate::…` or
//! `super::…` path a file names outside its tests (and every `use x::…` of
//! a child module, the re-exports of a `mod.rs`), has no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (`run::plan`) of every source file under `root`.
fn modules(root: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("a readable source directory") {
            let p = e.expect("a directory entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(root, &mut files);
    let mut mods = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(root).expect("under the root");
        let mut parts: Vec<String> = rel
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts.last().is_some_and(|l| l == "mod") {
            parts.pop();
        }
        if parts == ["lib"] || parts == ["main"] {
            continue;
        }
        mods.insert(parts.join("::"), f);
    }
    mods
}

/// The node of a module: its top-level module, or `cmd::X`, `run::X`.
fn node(module: &str) -> String {
    let parts: Vec<&str> = module.split("::").collect();
    match parts.as_slice() {
        ["cmd" | "run", sub, ..] => format!("{}::{sub}", parts[0]),
        [top, ..] => (*top).to_string(),
        [] => String::new(),
    }
}

/// The module paths a source text names: `crate::a::b`, each item of
/// `crate::{a, b::c}`, `super::x` (resolved against `module`), and
/// `use x::…` of a child module `x` (the re-exports of a `mod.rs`).
fn references(module: &str, text: &str) -> Vec<String> {
    // Comments and tests do not count.
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap_or("")
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let path_at = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_' || *c == ':')
            .collect::<String>()
            .trim_end_matches(':')
            .to_string()
    };
    let mut refs = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            for item in inner.split(',') {
                refs.push(path_at(item.trim()));
            }
        } else {
            refs.push(path_at(rest));
        }
    }
    let parent: Vec<&str> = module.split("::").collect();
    let parent = &parent[..parent.len() - 1];
    for (i, _) in code.match_indices("super::") {
        let name = path_at(&code[i + "super::".len()..]);
        let name = name.split("::").next().unwrap_or("").to_string();
        let mut p: Vec<String> = parent.iter().map(|s| s.to_string()).collect();
        p.push(name);
        refs.push(p.join("::"));
    }
    for line in code.lines() {
        let line = line.trim_start();
        let line = line.strip_prefix("pub ").unwrap_or(line);
        if let Some(rest) = line.strip_prefix("use ") {
            let first = path_at(rest);
            let first = first.split("::").next().unwrap_or("");
            if !["crate", "super", "self", "std", ""].contains(&first) {
                refs.push(format!("{module}::{first}"));
            }
        }
    }
    refs
}

/// The edges between nodes: from a node, the nodes it uses and through
/// which file.
fn graph(root: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mods = modules(root);
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (m, file) in &mods {
        let text = std::fs::read_to_string(file).expect("a readable source file");
        let from = node(m);
        for r in references(m, &text) {
            // The longest module the path lies in.
            let target = mods
                .keys()
                .filter(|k| r == **k || r.starts_with(&format!("{k}::")))
                .max_by_key(|k| k.len());
            if let Some(t) = target {
                let to = node(t);
                if to != from {
                    edges
                        .entry(from.clone())
                        .or_default()
                        .entry(to)
                        .or_insert_with(|| m.clone());
                }
            }
        }
    }
    edges
}

/// A cycle of the graph, as its nodes in order, if there is one.
fn cycle(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeMap<String, String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == n) {
            let mut c = path[i..].to_vec();
            c.push(n.to_string());
            return Some(c);
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for next in edges.get(n).into_iter().flat_map(|e| e.keys()) {
            if let Some(c) = visit(next, edges, done, path) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in edges.keys() {
        if let Some(c) = visit(n, edges, &mut done, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

#[test]
fn the_library_modules_use_each_other_without_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = graph(&root);
    assert!(
        edges.contains_key("cmd::play") && edges.contains_key("run::plan"),
        "the graph sees the commands and the run modules: {:?}",
        edges.keys().collect::<Vec<_>>()
    );
    if let Some(c) = cycle(&edges) {
        let steps: Vec<String> = c
            .windows(2)
            .map(|w| format!("{} -> {} (in {})", w[0], w[1], edges[&w[0]][&w[1]]))
            .collect();
        panic!("an import circle: {}", steps.join(", "));
    }
}

#[test]
fn a_circle_is_found_through_crate_super_and_grouped_paths() {
    let dir = std::env::temp_dir().join(format!("kanaszta-layers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("cmd")).expect("a temporary directory");
    let write = |p: &str, t: &str| std::fs::write(dir.join(p), t).expect("written");
    write("lib.rs", "pub mod a; pub mod b; pub mod cmd;");
    write(
        "a.rs",
        "use crate::{error::E, b::thing}; // crate::cmd::x\n",
    );
    write("b.rs", "pub fn thing() { crate::cmd::x::go() }\n");
    write("error.rs", "pub struct E;\n");
    write("cmd/mod.rs", "pub mod x; pub mod y;\npub use y::f;\n");
    write(
        "cmd/x.rs",
        "use super::y::f;\n#[cfg(test)]\nuse crate::b;\n",
    );
    write("cmd/y.rs", "pub fn f() { crate::a::g() }\n");
    let edges = graph(&dir);
    let c = cycle(&edges).expect("a -> b -> cmd::x -> cmd::y -> a is a circle");
    assert_eq!(c.first(), c.last());
    assert_eq!(c.len(), 5, "the circle's four nodes: {c:?}");
    // Without the last step there is none: comments and tests are left out.
    write("cmd/y.rs", "pub fn f() {}\n");
    assert_eq!(cycle(&graph(&dir)), None);
    // Through a re-export of a mod.rs: a -> cmd -> cmd::y -> a.
    write("a.rs", "use crate::cmd::f;\n");
    write("cmd/y.rs", "pub fn f() { crate::a::g() }\n");
    let c = cycle(&graph(&dir)).expect("a -> cmd -> cmd::y -> a is a circle");
    assert_eq!(c.len(), 4, "the circle's three nodes: {c:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
