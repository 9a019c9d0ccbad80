//! The tax (D-15): a hand score reduced by the scorer's running total from
//! the previous hands, with the text's exact rounding.

use crate::rules::{Rules, Switch, TaxNegative, TaxRounding};

/// Halving with D-15.1's shortcut: a score ending in 5 is first rounded up
/// (545 → 550 → 275). Other odd scores (never produced by D-14's values)
/// round half up.
pub const fn halve_shortcut(x: i64) -> i64 {
    let x = if x % 10 == 5 { x + 5 } else { x };
    (x + 1) / 2
}

/// Quartering, D-15.2: halve as above, round again the same way, halve again.
pub const fn quarter_shortcut(x: i64) -> i64 {
    halve_shortcut(halve_shortcut(x))
}

/// Tenth, D-15.3: drop the last digit, then round to the nearest ten (last
/// digit 0–4 down, 5–9 up): 2,375 → 237 → 240.
pub const fn tenth_shortcut(x: i64) -> i64 {
    let t = x / 10;
    let d = t % 10;
    if d >= 5 {
        t - d + 10
    } else {
        t - d
    }
}

/// `x / divisor` rounded to the nearest whole point, halves up (I-23 `nearest`).
pub const fn divide_nearest(x: i64, divisor: u32) -> i64 {
    let d = divisor as i64;
    (2 * x + d) / (2 * d)
}

/// Divides a non-negative score by `divisor` under the rounding switch.
/// With `shortcut`, divisors 2, 4 and 10 use D-15.1 – D-15.3; any other
/// divisor of a custom schedule (I-18) rounds to nearest.
pub const fn divide(x: i64, divisor: u32, rounding: TaxRounding) -> i64 {
    if divisor <= 1 {
        return x;
    }
    match rounding {
        TaxRounding::Nearest => divide_nearest(x, divisor),
        TaxRounding::Shortcut => match divisor {
            2 => halve_shortcut(x),
            4 => quarter_shortcut(x),
            10 => tenth_shortcut(x),
            _ => divide_nearest(x, divisor),
        },
    }
}

/// The taxed hand score (D-15): `hand` reduced according to the scorer's
/// running total `total_before` from the previous hands. A pure function of
/// the rules (I-17, I-18, I-23).
///
/// ```
/// use kanaszta_engine::{tax, Rules};
/// let r = Rules::default();
/// assert_eq!(tax(2375, 9725, &r), 240);
/// assert_eq!(tax(545, 5000, &r), 275);
/// assert_eq!(tax(545, 4999, &r), 545);
/// ```
pub fn tax(hand: i32, total_before: i32, rules: &Rules) -> i32 {
    if rules.tax == Switch::Off {
        return hand;
    }
    let divisor = rules.tax_schedule.divisor(total_before);
    if divisor <= 1 {
        return hand;
    }
    let x = hand as i64;
    if x >= 0 {
        divide(x, divisor, rules.tax_rounding) as i32
    } else {
        match rules.tax_negative {
            TaxNegative::Exempt => hand,
            TaxNegative::Apply => -(divide(-x, divisor, rules.tax_rounding) as i32),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Switch, TaxSchedule};

    /// D-15 schedule: unchanged below 5,000, halved, quartered, tenth.
    #[test]
    fn d15_schedule_brackets() {
        let r = Rules::default();
        assert_eq!(tax(1000, 0, &r), 1000);
        assert_eq!(tax(1000, 4999, &r), 1000);
        assert_eq!(tax(1000, 5000, &r), 500);
        assert_eq!(tax(1000, 6999, &r), 500);
        assert_eq!(tax(1000, 7000, &r), 250);
        assert_eq!(tax(1000, 8999, &r), 250);
        assert_eq!(tax(1000, 9000, &r), 100);
        assert_eq!(tax(1000, 12000, &r), 100);
        assert_eq!(tax(1000, -300, &r), 1000);
    }

    /// D-15.1 worked example: 545 halved → 550 → 275.
    #[test]
    fn d15_1_halving_example_545() {
        assert_eq!(halve_shortcut(545), 275);
        assert_eq!(tax(545, 6000, &Rules::default()), 275);
        assert_eq!(halve_shortcut(540), 270);
    }

    /// D-15.2 quartering: halve (545 → 275), round again (→ 280), halve → 140.
    #[test]
    fn d15_2_quartering() {
        assert_eq!(quarter_shortcut(545), 140);
        assert_eq!(tax(545, 7500, &Rules::default()), 140);
        assert_eq!(quarter_shortcut(1000), 250);
        // 1,010 → 505 → 510 → 255
        assert_eq!(quarter_shortcut(1010), 255);
    }

    /// D-15.3 worked example: total 9,725, hand 2,375 → 237 → 240 → 9,965.
    #[test]
    fn d15_3_tenth_example_9725_plus_2375() {
        let r = Rules::default();
        assert_eq!(tenth_shortcut(2375), 240);
        let taxed = tax(2375, 9725, &r);
        assert_eq!(taxed, 240);
        assert_eq!(9725 + taxed, 9965);
        // last digit 0–4 down: 2,340 → 234 → 230
        assert_eq!(tenth_shortcut(2340), 230);
    }

    /// I-23 `nearest`: the true quotient rounded, halves up.
    #[test]
    fn i23_nearest_rounding() {
        let r = Rules {
            tax_rounding: TaxRounding::Nearest,
            ..Rules::default()
        };
        assert_eq!(tax(545, 6000, &r), 273); // 272.5 → 273
        assert_eq!(tax(2375, 9725, &r), 238); // 237.5 → 238
        assert_eq!(tax(545, 7000, &r), 136); // 136.25
    }

    /// I-17: negative scores exempt by default; `apply` keeps the sign.
    #[test]
    fn i17_negative_scores() {
        let mut r = Rules::default();
        assert_eq!(tax(-545, 6000, &r), -545);
        r.tax_negative = TaxNegative::Apply;
        assert_eq!(tax(-545, 6000, &r), -275);
        assert_eq!(tax(-2375, 9725, &r), -240);
    }

    /// I-18: tax off, and a custom schedule.
    #[test]
    fn i18_tax_off_and_custom_schedule() {
        let mut r = Rules {
            tax: Switch::Off,
            ..Rules::default()
        };
        assert_eq!(tax(2375, 9725, &r), 2375);
        r.tax = Switch::On;
        r.tax_schedule = "3000:2,6000:3".parse::<TaxSchedule>().unwrap();
        assert_eq!(tax(900, 2999, &r), 900);
        assert_eq!(tax(900, 3000, &r), 450);
        assert_eq!(tax(1000, 6000, &r), 333);
    }

    /// I-18: a custom divisor other than 2, 4 and 10 takes the true
    /// quotient rounded to the nearest whole point, halves up, under either
    /// rounding switch; 2, 4 and 10 keep the text's shortcuts (I-23).
    #[test]
    fn i18_custom_divisors_round_to_nearest_halves_up() {
        for rounding in ["shortcut", "nearest"] {
            let mut r = Rules::default();
            r.set("tax_rounding", rounding).unwrap();
            r.set("tax_schedule", "3000:3,6000:6,9000:8").unwrap();
            assert_eq!(tax(1000, 3000, &r), 333, "{rounding}"); // 333.33
            assert_eq!(tax(1001, 3000, &r), 334, "{rounding}"); // 333.67
            assert_eq!(tax(75, 6000, &r), 13, "{rounding}"); // 12.5, half up
            assert_eq!(tax(65, 6000, &r), 11, "{rounding}"); // 10.83
            assert_eq!(tax(1020, 9000, &r), 128, "{rounding}"); // 127.5
            r.set("tax_negative", "apply").unwrap();
            assert_eq!(tax(-75, 6000, &r), -13, "{rounding}: sign kept");
        }
        // The shortcut divisors: 545 / 2 is 275 (D-15.1), not 273.
        let mut r = Rules::default();
        r.set("tax_schedule", "3000:2,6000:3").unwrap();
        assert_eq!(tax(545, 3000, &r), 275);
        assert_eq!(tax(545, 6000, &r), 182); // 181.67
    }
}
