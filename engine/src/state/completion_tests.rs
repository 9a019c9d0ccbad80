//! Tests of the completion check's quick ways with wilds pending (I-9,
//! D-11.2) against the search.

use super::completion::Way;
use super::tests::{after_each_meld_step, each_meld_biased_state, forward_reference};
use super::*;
use crate::action::Action;

/// Counts of [`way_against_search`]: states where the way was asked,
/// where it said yes, and where no other way did.
struct WayCounts {
    asked: u64,
    yes: u64,
    beyond: u64,
}

/// After every meld step of random and meld-biased play (salt `salt`),
/// and, with `pickups`, after every pile taken where the rules allow it:
/// where wilds are pending and `applies` holds, the way `way` of placing
/// them says yes only where the search and the exhaustive reference do;
/// where it says yes and none of `others` does, [`GameState::pending_search`]
/// answers as the search, with the verdicts' context and without.
fn way_against_search(
    way: Way,
    others: &[Way],
    applies: impl Fn(&GameState, usize) -> bool,
    salt: u64,
    pickups: bool,
) -> WayCounts {
    let mut cand = Vec::new();
    let mut n = WayCounts {
        asked: 0,
        yes: 0,
        beyond: 0,
    };
    let mut check = |t: &GameState, ctx: u64, a: Action| {
        if t.phase != Phase::Meld || t.turn.pending.is_empty() {
            return;
        }
        let p = t.current as usize;
        if !applies(t, p) {
            return;
        }
        n.asked += 1;
        let mut w = t.clone();
        w.quiet = true;
        if !w.placed_in_place(p, None, way) {
            return;
        }
        let at = || format!("after {a}: {}", t.to_position_json());
        assert!(t.forward_finish(None), "{way:?} says yes {}", at());
        assert_ne!(
            forward_reference(t, 5_000),
            Some(false),
            "{way:?} against the reference {}",
            at()
        );
        n.yes += 1;
        let settled = others.iter().any(|&other| {
            let mut o = t.clone();
            o.quiet = true;
            o.placed_in_place(p, None, other)
        });
        if !settled {
            n.beyond += 1;
            assert!(t.pending_search(p, None), "pending_search {}", at());
            assert!(
                t.pending_search(p, Some(ctx)),
                "pending_search, kept {}",
                at()
            );
        }
    };
    each_meld_biased_state(salt, |g| {
        if pickups && g.phase == Phase::Draw && g.take_pile_check(true).is_ok() {
            let mut s = g.clone();
            s.quiet = true;
            s.take_pile();
            s.set_anchor();
            after_each_meld_step(&s, &mut cand, &mut check);
            return;
        }
        after_each_meld_step(g, &mut cand, &mut check);
    });
    n
}

/// I-9 with wilds pending, D-11.2: the third way of placing them
/// ([`Way::Laid`]: three pending wilds laid as a group of wilds before
/// any extend, where the groups lack room for all that are pending,
/// [`GameState::wilds_laid_first`]) says yes only where the search and
/// the exhaustive reference do, after every meld step of random and
/// meld-biased play under every rule variant; and it settles states that
/// neither of the other two ways does, which
/// [`GameState::pending_search`] then answers as the search.
#[test]
fn i9_wilds_laid_first_is_the_search() {
    let others = [Way::First, Way::Longest];
    let n = way_against_search(
        Way::Laid,
        &others,
        |t, p| t.wilds_laid_first(p),
        0x1a1d,
        false,
    );
    let (asked, yes, beyond) = (n.asked, n.yes, n.beyond);
    eprintln!("{asked} states asked, {yes} third-way yes, {beyond} beyond the other ways");
    assert!(
        asked > 1_000 && yes > 800 && beyond > 200,
        "{asked} asked, {yes} yes, {beyond} beyond"
    );
}

/// I-9 with wilds pending during a pickup, I-8, D-11.2: the fourth way of
/// placing them ([`Way::Top`]: the top card, not laid yet, laid with a
/// natural of its rank from the hand and a pending wild before any wild
/// is placed by an extend, [`GameState::top_lay`]) says yes only where
/// the search and the exhaustive reference do, after every meld step of
/// random and meld-biased play under every rule variant (and every
/// pickup whose hand condition holds); and it settles states that none
/// of the other three ways does, which [`GameState::pending_search`] then
/// answers as the search.
#[test]
fn i9_top_laid_first_is_the_search() {
    let others = [Way::First, Way::Longest, Way::Laid];
    let n = way_against_search(
        Way::Top,
        &others,
        |t, p| t.top_lay(p).is_some(),
        0x70b,
        true,
    );
    let (asked, yes, beyond) = (n.asked, n.yes, n.beyond);
    eprintln!("{asked} states asked, {yes} fourth-way yes, {beyond} beyond the other ways");
    assert!(
        asked > 2_000 && yes > 800 && beyond > 120,
        "{asked} asked, {yes} yes, {beyond} beyond"
    );
}

/// I-8, D-9.1, D-11.2: during a pickup before the rest is taken, with
/// nothing pending and no group of the top card's rank on the table,
/// the count's "no" ([`GameState::top_unlayable`]: no natural more of
/// its rank in hand, or one and no wild that the hand holds or that can
/// ever leave a group) is the search's and the exhaustive reference's,
/// and [`GameState::pickup_quick`]'s, after the pile is taken and after
/// every one or two meld steps from there, in random and meld-biased
/// play under every rule variant.
#[test]
fn i8_top_card_unlayable_by_count() {
    let (mut cand, mut cand2) = (Vec::new(), Vec::new());
    let (mut asked, mut no) = (0u64, 0u64);
    let mut check = |t: &GameState| {
        if t.phase != Phase::Meld || !t.turn.pending.is_empty() || !t.before_rest() {
            return;
        }
        let p = t.current as usize;
        let Some(rank) = t.turn.pickup.and_then(|pk| pk.top.rank()) else {
            return;
        };
        if t.top_laid() || t.tables[p].groups().iter().any(|g| g.rank() == Some(rank)) {
            return;
        }
        asked += 1;
        if !t.top_unlayable(p, rank) {
            return;
        }
        no += 1;
        let at = || t.to_position_json();
        assert!(!t.forward_finish(None), "the count's no {}", at());
        assert_ne!(
            forward_reference(t, 5_000),
            Some(true),
            "the count's no against the reference {}",
            at()
        );
        assert_eq!(
            t.pickup_quick(p, None),
            Some(false),
            "pickup_quick {}",
            at()
        );
    };
    each_meld_biased_state(0x70c, |g| {
        if g.phase == Phase::Draw && g.take_pile_check(true).is_ok() {
            let mut s = g.clone();
            s.quiet = true;
            s.take_pile();
            s.set_anchor();
            check(&s);
            // Two steps deep: a wild moved and placed leaves a group
            // that received it, which gives none away.
            after_each_meld_step(&s, &mut cand, &mut |t, _, _| {
                check(t);
                after_each_meld_step(t, &mut cand2, &mut |u, _, _| check(u));
            });
        }
    });
    eprintln!("{asked} states asked, {no} the count's no");
    assert!(asked > 10_000 && no > 200, "{asked} asked, {no} no");
}
