//! Rules and positions that were refused with misleading
//! messages, or accepted although degenerate, are refused saying what was
//! wrong and what is accepted.

use kanaszta_engine::{Position, Rules, RulesError};

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
