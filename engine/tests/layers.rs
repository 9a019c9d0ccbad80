//! The workspace's layering, read from the source: no two modules of the
//! engine or the agents import each other, directly or through others, and
//! no source file of the engine is longer than 1,500 lines.
//!
//! A module imports another when its code (tests excluded: a test may
//! reach any layer for its inputs) names it in a `use` or a path
//! (`crate::seed::deal(…)`, `super::steps::…`). A name the crate root
//! re-exports counts as the module that defines it; the root's own
//! re-exports are its facade, not imports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, with its module path (`state::flow`;
/// `` for the crate root).
fn modules(dir: &Path) -> Vec<(String, PathBuf)> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let path = e.path();
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            let join = |n: &str| {
                if prefix.is_empty() {
                    n.to_string()
                } else {
                    format!("{prefix}::{n}")
                }
            };
            if path.is_dir() {
                walk(&path, &join(&name), out);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let m = match name.as_str() {
                    "lib" | "main" if prefix.is_empty() => String::new(),
                    "mod" => prefix.to_string(),
                    _ => join(&name),
                };
                out.push((m, path));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, "", &mut out);
    out
}

/// The code of a file without comments and without `#[cfg(test)]` items.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut skip_depth: Option<i32> = None;
    let mut depth = 0i32;
    let mut pending_test = false;
    for line in text.lines() {
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        let trimmed = code.trim();
        if trimmed.starts_with("#[cfg(test)]") {
            pending_test = true;
            continue;
        }
        let opens = code.matches('{').count() as i32;
        let closes = code.matches('}').count() as i32;
        if pending_test && !trimmed.is_empty() && !trimmed.starts_with("#[") {
            pending_test = false;
            if skip_depth.is_none() {
                if opens > closes {
                    skip_depth = Some(depth);
                } else {
                    // A one-line item (`mod tests;`, `use …;`).
                    continue;
                }
            }
        }
        depth += opens - closes;
        if let Some(d) = skip_depth {
            if depth <= d {
                skip_depth = None;
            }
            continue;
        }
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The module paths named after `crate::` and `super::` in `code`,
/// `use` groups (`crate::{a::X, b::Y}`) expanded.
fn named_paths(code: &str, this: &str) -> Vec<String> {
    let parent = |m: &str| {
        m.rsplit_once("::")
            .map_or(String::new(), |(p, _)| p.to_string())
    };
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for (start, root) in [("crate::", ""), ("super::", "super")] {
        let mut i = 0;
        while let Some(k) = code[i..].find(start) {
            let at = i + k;
            i = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let base = if root.is_empty() {
                String::new()
            } else {
                parent(this)
            };
            // The path, and a brace group after it.
            let rest = &code[i..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            let path = rest[..end].trim_end_matches(':');
            let join = |p: &str| {
                if base.is_empty() {
                    p.to_string()
                } else if p.is_empty() {
                    base.clone()
                } else {
                    format!("{base}::{p}")
                }
            };
            if rest[end..].starts_with('{') {
                let close = rest[end..].find('}').map_or(rest.len(), |c| end + c);
                for part in rest[end + 1..close].split(',') {
                    let part = part.trim();
                    let name = part.split(" as ").next().unwrap_or("").trim();
                    if !name.is_empty() {
                        let full = if path.is_empty() {
                            name.to_string()
                        } else {
                            format!("{path}::{name}")
                        };
                        out.push(join(&full));
                    }
                }
            } else {
                out.push(join(path));
            }
        }
    }
    out
}

/// The import graph of the crate whose sources are in `dir`: module →
/// the modules it imports.
fn graph(dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules(dir);
    let names: BTreeSet<String> = mods.iter().map(|(m, _)| m.clone()).collect();
    // The root's re-exports: name → the module that defines it.
    let root_text = mods
        .iter()
        .find(|(m, _)| m.is_empty())
        .map(|(_, p)| code_of(&std::fs::read_to_string(p).unwrap()))
        .unwrap_or_default();
    let mut reexport: BTreeMap<String, String> = BTreeMap::new();
    for p in named_paths(&root_text, "") {
        if let Some((m, item)) = p.rsplit_once("::") {
            reexport.insert(item.to_string(), m.to_string());
        }
    }
    let joined = root_text.replace('\n', " ");
    for stmt in joined.split(';') {
        let Some(body) = stmt.trim().strip_prefix("pub use ") else {
            continue;
        };
        let (m, items) = match body.split_once("::{") {
            Some((m, items)) => (m, items.trim_end_matches('}')),
            None => match body.rsplit_once("::") {
                Some((m, item)) => (m, item),
                None => continue,
            },
        };
        for item in items.split(',') {
            let item = item.trim();
            if !item.is_empty() {
                reexport.insert(item.to_string(), m.trim().to_string());
            }
        }
    }
    let resolve = |p: &str| -> Option<String> {
        // The longest module path that prefixes `p`.
        let parts: Vec<&str> = p.split("::").filter(|s| !s.is_empty()).collect();
        for n in (1..=parts.len()).rev() {
            let m = parts[..n].join("::");
            if names.contains(&m) {
                return Some(m);
            }
        }
        match parts.first() {
            Some(first) => reexport.get(*first).cloned().or(Some(String::new())),
            None => Some(String::new()),
        }
    };
    let mut g = BTreeMap::new();
    for (m, path) in &mods {
        if m.is_empty() || path.file_name().is_some_and(|f| f == "tests.rs") {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(path).unwrap());
        let mut deps = BTreeSet::new();
        // `use child::…` and `self::child::…`: a module of its own.
        for stmt in code.split(';') {
            let stmt = stmt.trim();
            let body = stmt
                .strip_prefix("pub use ")
                .or_else(|| stmt.strip_prefix("pub(crate) use "))
                .or_else(|| stmt.strip_prefix("use "));
            if let Some(body) = body {
                let first = body
                    .trim_start_matches("self::")
                    .split("::")
                    .next()
                    .unwrap_or("");
                let child = format!("{m}::{first}");
                if names.contains(&child) {
                    deps.insert(child);
                }
            }
        }
        for p in named_paths(&code, m) {
            if let Some(d) = resolve(&p) {
                if d != *m {
                    deps.insert(d);
                }
            }
        }
        g.insert(m.clone(), deps);
    }
    g
}

/// The circles of `g`: its strongly connected components of two modules
/// or more (Tarjan's algorithm).
fn circles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        let g = t.g;
        for w in g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(if w.is_empty() { "crate" } else { w }.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

fn src(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(krate)
        .join("src")
}

/// The checker itself finds a circle, through a third module too.
#[test]
fn circles_are_found() {
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(circles(&g), vec![vec!["a", "b", "c"]]);
    let code = "use crate::{a::X, b};\nuse super::c::Y;\nlet z = crate::d::f();\n";
    assert_eq!(named_paths(code, "m::n"), ["a::X", "b", "d::f", "m::c::Y"]);
    assert_eq!(
        code_of("fn a() {}\n#[cfg(test)]\nmod tests {\n use crate::x;\n}\n"),
        "fn a() {}\n"
    );
}

/// No two modules of the engine import each other, directly or through
/// others.
#[test]
fn engine_modules_import_in_one_direction() {
    let g = graph(&src("engine"));
    assert!(g.contains_key("state::legal") && g["state::flow"].contains("state"));
    assert_eq!(circles(&g), Vec::<Vec<String>>::new(), "{g:#?}");
}

/// No source file of the engine is longer than 1,500 lines.
#[test]
fn engine_files_are_short() {
    for (m, path) in modules(&src("engine")) {
        let n = std::fs::read_to_string(&path).unwrap().lines().count();
        assert!(n <= 1500, "{m} ({}) has {n} lines", path.display());
    }
}

/// No two modules of the agents import each other, directly or through
/// others: the policies, the search they share and the registry of names
/// each call only downward.
#[test]
fn agents_modules_import_in_one_direction() {
    let g = graph(&src("agents"));
    assert!(g["registry"].contains("spec") && g["greedy"].contains("spec"));
    assert_eq!(circles(&g), Vec::<Vec<String>>::new(), "{g:#?}");
}
