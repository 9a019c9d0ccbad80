//! Rules and positions that were refused with misleading
//! messages, or accepted although degenerate, are refused saying what was
//! wrong and what is accepted.

use kanaszta_engine::{GameState, Position, Rules, RulesError};

fn set_err(key: &str, value: &str) -> String {
    let mut r = Rules::default();
    let e = r.set(key, value).unwrap_err().to_string();
    assert_eq!(r, Rules::default(), "a refused setting changes nothing");
    e
}

#[test]
fn opening_out_of_range_is_refused_with_the_range() {
    for v in ["-50", "99999999", "1001", "4294967296"] {
        let e = set_err("opening", v);
        assert!(
            e.contains("opening") && e.contains("0 to 1000") && e.contains("I-11"),
            "{v}: {e}"
        );
        assert!(!e.contains("untagged"), "{v}: {e}");
    }
    let mut r = Rules::default();
    r.set("opening", "1000").unwrap();
    r.set("opening", "0").unwrap();
    r.set("opening", "table").unwrap();
    let e = Rules::from_json(r#"{"opening": 5000}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("0 to 1000"), "{e}");
}

#[test]
fn bad_values_name_the_switch_and_what_it_accepts() {
    let e = set_err("tax", "1");
    assert!(e.contains("`on` or `off`") && e.contains("I-18"), "{e}");
    let e = set_err("players", "300");
    assert!(e.contains("2 to 6"), "{e}");
    let e = set_err("target", "1.5");
    assert!(e.contains("whole number") && e.contains("I-20"), "{e}");
    for key in Rules::keys() {
        assert!(
            Rules::accepted(&key).is_some(),
            "{key} has no accepted text"
        );
    }
}

#[test]
fn rules_json_type_errors_name_the_switch() {
    let e = Rules::from_json(r#"{"tax": true}"#).unwrap_err();
    assert!(
        matches!(e, RulesError::BadValue { ref key, .. } if key == "tax"),
        "{e:?}"
    );
    let e = e.to_string();
    assert!(e.contains("`tax`") && e.contains("`on` or `off`"), "{e}");
    assert!(!e.contains("expected value at line"), "{e}");
    let e = Rules::from_json(r#"{"tax": "off", "taxes": "on"}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown rule switch `taxes`"), "{e}");
}

#[test]
fn rules_json_must_be_an_object() {
    for (text, kind) in [("[]", "an array"), ("5", "a number"), ("null", "null")] {
        let e = Rules::from_json(text).unwrap_err().to_string();
        assert!(
            e.contains("one object of switches") && e.contains(kind),
            "{text}: {e}"
        );
    }
    assert_eq!(Rules::from_json("{}").unwrap(), Rules::default());
    assert_eq!(
        Rules::from_json("\u{feff}{\"tax\": \"off\"}").unwrap().tax,
        kanaszta_engine::Switch::Off
    );
}

#[test]
fn a_negative_target_is_accepted_with_a_warning() {
    let mut r = Rules::default();
    assert!(r.warnings().is_empty());
    r.set("target", "-5").unwrap();
    let w = r.warnings();
    assert!(w.len() == 1 && w[0].contains("I-20"), "{w:?}");
}

const POS: &str = r#"{"phase": "draw", "current": 0, "players": [{"hand": "8D 8S"}, {"hand": "4C"}], "pile": "9C"}"#;

#[test]
fn positions_with_a_bom_are_read() {
    let with_bom = format!("\u{feff}{POS}");
    Position::from_json(&with_bom).unwrap();
}

#[test]
fn a_position_that_is_not_an_object_says_so() {
    for (text, got) in [
        (format!("[{POS}]"), "an array"),
        (String::new(), "empty"),
        ("\"x\"".to_string(), "`\"`"),
    ] {
        let e = Position::from_json(&text).unwrap_err().to_string();
        assert!(
            e.contains("one JSON object") && e.contains(got),
            "{text}: {e}"
        );
    }
}

#[test]
fn a_one_player_position_does_not_suggest_one_player() {
    let e = Position::from_json(r#"{"phase": "draw", "players": [{"hand": "8D 8S"}]}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("2 to 6 players") && e.contains("D-2.1"), "{e}");
    assert!(!e.contains("\"players\": 1"), "{e}");
}

#[test]
fn rules_json_refuses_a_switch_given_twice() {
    let e = Rules::from_json(r#"{"target": 5000, "target": 3000}"#)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("`target` is given twice") && e.contains("give each switch once"),
        "{e}"
    );
    assert_eq!(
        Rules::from_json(r#"{"target": 3000}"#).unwrap().target,
        3000
    );
}

#[test]
fn an_empty_tax_schedule_is_refused_d15_i18() {
    for v in ["", ",", " , "] {
        let mut r = Rules::default();
        let e = r.set("tax_schedule", v).unwrap_err().to_string();
        assert!(
            e.contains("an empty tax schedule taxes nothing") && e.contains("set tax=off"),
            "{v:?}: {e}"
        );
        assert_eq!(r, Rules::default(), "unchanged");
    }
    let e = Rules::from_json(r#"{"tax_schedule": ""}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("an empty tax schedule"), "{e}");
}

#[test]
fn an_unknown_preset_lists_both_families() {
    let e = Rules::preset("nope").unwrap_err().to_string();
    for p in [
        "decorated-2003-02",
        "decorated-2003-01",
        "classic-002",
        "classic-004",
    ] {
        assert!(e.contains(p), "{e}");
    }
}

#[test]
fn positions_read_family_decorated_and_name_a_classic_one() {
    let body = r#""phase": "draw", "current": 0, "players": [{"hand": "8D 8S 2C 5H"}, {"hand": "4C 5D 9S"}], "pile": "9C 8H 3S""#;
    let plain = GameState::from_position_json(&format!("{{{body}}}")).unwrap();
    let dec =
        GameState::from_position_json(&format!(r#"{{"family": "decorated", {body}}}"#)).unwrap();
    assert_eq!(plain, dec);
    assert!(!dec.to_position_json().contains("family"), "never written");
    let e = GameState::from_position_json(&format!(r#"{{"family": "classic", {body}}}"#))
        .unwrap_err()
        .to_string();
    assert!(e.contains("this reads decorated canasta positions"), "{e}");
    let e = GameState::from_position_json(&format!(r#"{{"rules": "classic-003", {body}}}"#))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("`classic-003` is a classic canasta preset"),
        "{e}"
    );
    let older =
        GameState::from_position_json(&format!(r#"{{"rules": "decorated-2003-01", {body}}}"#))
            .unwrap();
    assert_eq!(older.rules(), &Rules::DECORATED_2003_01);
}
