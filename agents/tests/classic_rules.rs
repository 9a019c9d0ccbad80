//! The classic `rules` player (C-1 … C-24): the club player's choice on
//! constructed positions, its strength against random play and a simple
//! baseline on the same deals, and a sweep where it only ever plays
//! listed actions.
//!
//! Figures: `cargo test -p kanaszta-agents --release --test classic_rules
//! -- --nocapture duel` prints the points per hand and 95% intervals
//! (`KANASZTA_CLASSIC_DUEL_HANDS=N` for more deals, `…_VERBOSE=1` for
//! every hand).

use kanaszta_agents::classic::rules::{ClassicRulesAgent, ClassicRulesParams};
use kanaszta_agents::classic::{ClassicMoves, ClassicRandom};
use kanaszta_agents::Agent;
#[path = "common/classic_duel.rs"]
mod duel_common;

use duel_common::{interval, play_hand, MeldAll};
use kanaszta_engine::classic::testing::{cards as cs, ordered, position, table};
use kanaszta_engine::classic::*;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn rules(preset: &str, players: u8) -> ClassicRules {
    let mut r = ClassicRules::preset(preset).unwrap();
    r.set("players", &players.to_string()).unwrap();
    r
}

fn act(s: &str) -> ClassicAction {
    s.parse().unwrap()
}

fn rules_agent() -> ClassicRulesAgent {
    ClassicRulesAgent::new(ClassicRulesParams::default())
}

/// The agent's choice for the current player.
fn choice(agent: &mut dyn Agent<ClassicState>, g: &ClassicState) -> ClassicAction {
    let p = g.current_player();
    let mut legal = Vec::new();
    g.view(p).legal_actions(&mut legal);
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let a = agent.act(&g.view(p), &mut ClassicMoves::new(&legal), &mut rng);
    assert!(legal.contains(&a), "{a} is not listed: {legal:?}");
    a
}

/// Plays the agent's choices until player `p`'s turn is over (or the
/// hand); returns the actions.
fn play_turn(agent: &mut dyn Agent<ClassicState>, g: &mut ClassicState) -> Vec<ClassicAction> {
    let p = g.current_player();
    let mut done = Vec::new();
    while !g.is_terminal() && g.current_player() == p {
        let a = choice(agent, g);
        g.apply(a).unwrap();
        done.push(a);
        assert!(done.len() < 200);
    }
    done
}

// ---------------------------------------------------------------- positions

/// C-7: a natural pair takes the pile (it pays: the pile holds cards).
#[test]
fn c7_takes_the_pile_with_a_natural_pair() {
    let r = rules("classic-002", 2);
    let g = position(
        r,
        &["9c 9d Ks 4h 5d 7c 8h", "4c 5c 6c 7d 8d Td Jd"],
        &[table(&["Qc Qd Qh"], ""), table(&["Kc Kd Kh"], "")],
        "6h Jc 9h",
        "",
    );
    assert_eq!(choice(&mut rules_agent(), &g), act("take 9 2 0 0"));
}

/// C-7: a natural and a wild are not spent on a small pile, but are on a
/// big one (`wild_take`).
#[test]
fn c7_spends_a_wild_on_the_pile_only_when_it_pays() {
    let r = rules("classic-002", 2);
    let hands = ["9c 2d Ks 4h 5d 7c 8h", "4c 5c 6c 7d 8d Td Jd"];
    let tables = [table(&["Qc Qd Qh"], ""), table(&["Kc Kd Kh"], "")];
    let small = position(r, &hands, &tables, "6h 9h", "");
    assert_eq!(choice(&mut rules_agent(), &small), act("draw"));
    let big = position(r, &hands, &tables, "6h 4c Ad Jc Th 9h", "");
    assert_eq!(choice(&mut rules_agent(), &big), act("take 9 1 1 0"));
    let mut shy = ClassicRulesAgent::new(ClassicRulesParams {
        wild_take: 10,
        ..ClassicRulesParams::default()
    });
    assert_eq!(choice(&mut shy, &big), act("draw"));
}

/// C-6, C-17: it opens when naturals reach the minimum, not when it
/// would take three wilds.
#[test]
fn c6_opens_only_without_wrecking_the_hand() {
    let r = rules("classic-002", 2);
    // Three aces (60) reach 50.
    let mut g = position(
        r,
        &["Ac Ad Ah 4c 6d 8s Jh", "4d 5c 6c 7d 8d Td Jd"],
        &[SideTable::default(), SideTable::default()],
        "5h",
        "9s",
    );
    let mut a = rules_agent();
    g.apply(act("draw")).unwrap();
    let turn = play_turn(&mut a, &mut g);
    assert_eq!(turn[0], act("lay A 3 0 0"), "{turn:?}");
    // Three fours (15) and a pair of fives need three wilds: no opening.
    let mut g = position(
        r,
        &["4c 4d 4h 5c 5d 2c 2d 2h 9s", "4s 5h 6c 7d 8d Td Jd"],
        &[SideTable::default(), SideTable::default()],
        "6h",
        "Ks",
    );
    g.apply(act("draw")).unwrap();
    let turn = play_turn(&mut a, &mut g);
    assert!(
        matches!(turn[0], ClassicAction::Discard(_)),
        "no opening: {turn:?}"
    );
    assert!(!g.table(0).has_melds());
    // With open_wilds=3 it opens.
    let mut g = position(
        r,
        &["4c 4d 4h 5c 5d 2c 2d 2h 9s", "4s 5h 6c 7d 8d Td Jd"],
        &[SideTable::default(), SideTable::default()],
        "6h",
        "Ks",
    );
    let mut loose = ClassicRulesAgent::new(ClassicRulesParams {
        open_wilds: 3,
        ..ClassicRulesParams::default()
    });
    g.apply(act("draw")).unwrap();
    play_turn(&mut loose, &mut g);
    assert!(g.table(0).has_melds());
}

/// C-5, C-20: partners share one table: it extends the partner's meld
/// with its naturals, and keeps its wilds for closing a canasta.
#[test]
fn c20_extends_the_partners_melds_and_keeps_wilds() {
    let r = rules("classic-002", 4);
    // Side 0 (players 0 and 2) has nines (laid by the partner).
    let mut g = position(
        r,
        &[
            "9c 9d 2s Kh 4d 6c 7h",
            "4c 5c 6d 7d 8d",
            "Tc Td Jh Qh 5s",
            "4s 5h 6h 7s 8s",
        ],
        &[table(&["9h 9s 9c"], ""), table(&["Kc Kd Ks"], "")],
        "5d",
        "Jc",
    );
    g.apply(act("draw")).unwrap();
    let turn = play_turn(&mut rules_agent(), &mut g);
    assert!(turn.contains(&act("extend 9 9")), "{turn:?}");
    assert_eq!(g.table(0).melds[Kind::from_index(5).index()].len(), 5);
    assert_eq!(g.table(0).melds[5].wild_count(), 0, "the 2 is kept");
    // A meld of six is closed into a canasta with the 2 (C-5).
    let mut g = position(
        r,
        &[
            "2s Kh 4d 6c 7h",
            "4c 5c 6d 7d 8d",
            "Tc Td Jh Qh 5s",
            "4s 5h 6h 7s 8s",
        ],
        &[table(&["9h 9s 9c 9d 9h 9s"], ""), table(&["Kc Kd Ks"], "")],
        "5d",
        "Jc",
    );
    g.apply(act("draw")).unwrap();
    let turn = play_turn(&mut rules_agent(), &mut g);
    assert!(turn.contains(&act("extend 9 2")), "{turn:?}");
    assert_eq!(g.table(0).canastas(), 1);
}

/// C-7, C-13: against an opponent who collects (he took the pile: his
/// known cards), a pile of five whose every other discard feeds his melds
/// is frozen with a 2 where a wild on top cannot be taken (003) — never
/// under 002, where any natural pair takes a wild on top.
#[test]
fn c7_freezes_the_pile_against_a_collector() {
    for (preset, freezes) in [("classic-003", true), ("classic-002", false)] {
        let r = rules(preset, 2);
        let mut s = ClassicSetup::new(r);
        s.hands[0] = cs("2c 8d Jh Qs");
        s.hands[1] = cs("Td Th Ac Kd 9s Ks Jd");
        s.tables[0] = table(&["5s 5h 5d"], "");
        s.tables[1] = table(&["8c 8h 8s", "Jc Jd Js", "Qc Qd Qh"], "");
        s.pile = ordered("9c 9d Kc Tc");
        s.stock_top = ordered("Qd 7c 6h 4h 7h");
        s.current = 1;
        s.turns = 10;
        let mut g = s.into_state().unwrap();
        let mut a = rules_agent();
        for (p, x) in [
            (1, "take T 2 0 0"),
            (1, "rest"),
            (1, "discard A"),
            (0, "draw"),
            (0, "discard 7"),
            (1, "draw"),
            (1, "discard 4"),
            (0, "draw"),
            (0, "discard 6"),
            (1, "draw"),
            (1, "discard 9"),
            (0, "draw"),
        ] {
            assert_eq!(g.current_player(), p);
            g.apply(act(x)).unwrap();
            a.inform(p, act(x));
        }
        assert!(!g.view(0).known(1).is_empty());
        assert_eq!(g.pile().len(), 5);
        let turn = play_turn(&mut a, &mut g);
        let froze = turn.contains(&act("discard 2"));
        assert_eq!(froze, freezes, "{preset}: {turn:?}");
        if freezes {
            assert!(g.pile_frozen());
        }
    }
}

/// A safe discard: a rank the next opponent discarded (he holds no pair
/// of it) rather than one he melds (the open pile goes onto his meld).
#[test]
fn discards_what_the_next_opponent_cannot_use() {
    let r = rules("classic-002", 2);
    let g0 = position(
        r,
        &["Qs Js 6d", "4c 5c 6c 7d 8d Td"],
        &[table(&["4d 4h 4s"], ""), table(&["Qc Qd Qh"], "")],
        "Th 9h",
        "Kc",
    );
    let mut g = g0.clone();
    let mut a = rules_agent();
    a.inform(1, act("discard J"));
    g.apply(act("draw")).unwrap();
    let turn = play_turn(&mut a, &mut g);
    let last = *turn.last().unwrap();
    assert_ne!(last, act("discard Q"), "Q goes onto his meld: {turn:?}");
    assert_eq!(last, act("discard J"), "{turn:?}");
}

/// C-5, C-7: the next opponent's side has six queens (with two wilds)
/// and the pile is open to them: a queen on top completes their canasta
/// (300) with one card. Holding a black three, `rules` throws the three;
/// with `feed=off` (the discard priced by the pile alone, as the player
/// did before) the nearly empty pile makes the queen its cheapest card.
#[test]
fn c5_c7_keeps_the_card_that_completes_the_next_sides_canasta() {
    let r = rules("classic-002", 4);
    let g0 = position(
        r,
        &[
            "Qd 3c 8d 8s Kh Ks 9c 9d",
            "4c 6c 7c Tc",
            "5h 5d 7d 7h Jd Ad",
            "6d 6s 8h Th Jc",
        ],
        &[
            table(&["4d 4h 4s", "Jh Jh Js Js"], ""),
            table(&["Qc Qh Qs Qs 2c 2d", "6h 6h 2h"], ""),
        ],
        "",
        "4s",
    );
    let discard = |agent: &mut ClassicRulesAgent| {
        let mut g = g0.clone();
        g.apply(act("draw")).unwrap();
        let turn = play_turn(agent, &mut g);
        *turn.last().unwrap()
    };
    let on = discard(&mut rules_agent());
    assert_ne!(on, act("discard Q"), "the queen completes their canasta");
    assert_eq!(on, act("discard 3"));
    let mut old = ClassicRulesAgent::new(ClassicRulesParams {
        feed: false,
        ..ClassicRulesParams::default()
    });
    assert_eq!(discard(&mut old), act("discard Q"));
}

/// C-7, C-9: a black three blocks the next player: the stopper goes on a
/// big pile.
#[test]
fn c7_a_black_three_stops_a_big_pile() {
    let r = rules("classic-002", 2);
    let mut g = position(
        r,
        &["3c Qs 9d 8c", "4c 5c 6c 7d 8d Td Ts"],
        &[
            table(&["4d 4h 4s"], ""),
            table(&["Qc Qd Qh", "9c 9h 9s", "8h 8s 8d"], ""),
        ],
        "Th Tc Kc Kd Ah Ad Jc 7h",
        "6s",
    );
    g.apply(act("draw")).unwrap();
    let turn = play_turn(&mut rules_agent(), &mut g);
    assert_eq!(*turn.last().unwrap(), act("discard 3"), "{turn:?}");
}

/// C-16: two black threes are kept to go out with once the side has its
/// canasta, and then go out as a meld.
#[test]
fn c16_keeps_black_threes_and_goes_out_with_them() {
    let r = rules("classic-003", 2);
    // One canasta suffices under 003 (C-10).
    let canasta = table(&["Kc Kd Kh Ks Kc Kd Kh"], "");
    let mut g = position(
        r,
        &["3c 3s Jd 7c", "4c 5c 6c 7d 8d Td Ts"],
        &[canasta, table(&["Qc Qd Qh"], "")],
        "4h",
        "6s",
    );
    g.apply(act("draw")).unwrap();
    let turn = play_turn(&mut rules_agent(), &mut g);
    assert!(
        !turn.contains(&act("discard 3")),
        "the threes are kept: {turn:?}"
    );
    // With the rest meldable, it goes out laying the threes with a 2
    // (C-16 under 003: wilds no more than the threes).
    let mut g = position(
        r,
        &["3c 3s 2d Jd Jc", "4c 5c 6c 7d 8d Td Ts"],
        &[canasta, table(&["Qc Qd Qh"], "")],
        "4h",
        "Jh",
    );
    g.apply(act("draw")).unwrap();
    let turn = play_turn(&mut rules_agent(), &mut g);
    assert!(
        matches!(g.end(), Some(ClassicEnd::WentOut { player: 0, .. })),
        "{:?} {turn:?}",
        g.end()
    );
    assert_eq!(Kind::BLACK_THREE.count_in(g.table(0).black_threes), 2);
}

/// C-10: it goes out when its side leads, and holds back (melding on)
/// when far behind and nobody threatens (`go_out_margin`).
#[test]
fn c10_goes_out_when_ahead() {
    let r = rules("classic-003", 2);
    let ahead = position(
        r,
        &["Jd Jc Js 7c", "4c 5c 6c 7d 8d Td Ts Qs 9s"],
        &[
            table(&["Kc Kd Kh Ks Kc Kd Kh"], ""),
            table(&["Qc Qd Qh"], ""),
        ],
        "4h",
        "Jh",
    );
    let mut g = ahead.clone();
    g.apply(act("draw")).unwrap();
    play_turn(&mut rules_agent(), &mut g);
    assert!(matches!(
        g.end(),
        Some(ClassicEnd::WentOut { player: 0, .. })
    ));
    // Far behind: the opponents hold two canastas and a big table.
    let behind = position(
        r,
        &["Jd Jc Js 7c", "4c 5c 6c 7d 8d Td Ts Qs 9s"],
        &[
            table(&["Kc Kd Kh Ks Kc Kd Kh"], ""),
            table(&["Qc Qd Qh Qs Qc Qd Qh", "Ac Ad Ah As Ac Ad Ah"], "3h 3d"),
        ],
        "4h",
        "Jh",
    );
    let mut g = behind.clone();
    g.apply(act("draw")).unwrap();
    let mut patient = ClassicRulesAgent::new(ClassicRulesParams {
        go_out_margin: 0,
        concealed: false,
        ..ClassicRulesParams::default()
    });
    play_turn(&mut patient, &mut g);
    assert!(g.end().is_none(), "it melds on instead of going out");
}

/// C-19: a player who has melded nothing goes out concealed when the
/// draw lets him.
#[test]
fn c19_goes_out_concealed() {
    let r = rules("classic-003", 2);
    let mut g = position(
        r,
        &["Kc Kd Kh Ks Kc Kd 4c 4d 4h", "4s 5c 6c 7d 8d Td Ts Qs 9s"],
        &[SideTable::default(), table(&["Qc Qd Qh"], "")],
        "6h",
        "Kh",
    );
    g.apply(act("draw")).unwrap();
    play_turn(&mut rules_agent(), &mut g);
    assert_eq!(
        g.end(),
        Some(ClassicEnd::WentOut {
            player: 0,
            concealed: true
        })
    );
}

/// C-18: it asks when its side leads and the draw lets it go out; the
/// partner answers "yes" when the side leads and "no" when his hand
/// would cost.
#[test]
fn c18_asks_and_answers_like_a_club_player() {
    let r = rules("classic-002", 4);
    let tables = [
        table(&["Kc Kd Kh Ks Kc Kd Kh", "9c 9d 9h"], ""),
        table(&["Qc Qd Qh"], ""),
    ];
    let g = position(
        r,
        &["Jd Jc Js 9s", "4c 5c 6c 7d 8d", "Tc 5s", "4s 5h 6h 7s 8s"],
        &tables,
        "4h",
        "7c",
    );
    let mut a = rules_agent();
    assert_eq!(choice(&mut a, &g), ClassicAction::Ask);
    let mut g2 = g.clone();
    g2.apply(ClassicAction::Ask).unwrap();
    assert_eq!(choice(&mut a, &g2), ClassicAction::Answer(true));
    // The partner holding jokers and aces says "no".
    let g = position(
        r,
        &[
            "Jd Jc Js 9s",
            "4c 5c 6c 7d 8d",
            "JK JK Ac Ad Ah As",
            "4s 5h 6h 7s 8s",
        ],
        &tables,
        "4h",
        "7c",
    );
    let mut g2 = g.clone();
    g2.apply(ClassicAction::Ask).unwrap();
    assert_eq!(choice(&mut a, &g2), ClassicAction::Answer(false));
    // Its hand cannot go out: it does not ask.
    let g = position(
        r,
        &["Jd 5c 7s 9s", "4c Tc 6c 7d 8d", "Tc 5s", "4s 5h 6h 7s 8s"],
        &tables,
        "4h",
        "6d",
    );
    assert_eq!(choice(&mut a, &g), ClassicAction::Draw);
}

// ------------------------------------------------------------- strength

/// `rules` against `other` on the same deals, both seatings: per deal,
/// the mean of (rules' side − other's side) over the two seatings.
fn duel(
    preset: &str,
    players: u8,
    deals: u64,
    other: &dyn Fn() -> Box<dyn Agent<ClassicState>>,
    label: &str,
) -> (f64, f64) {
    let r = rules(preset, players);
    let verbose = std::env::var("KANASZTA_CLASSIC_DUEL_VERBOSE").is_ok();
    let mut diffs = Vec::new();
    for deal in 0..deals {
        let seed = 0x5eed_0000 + deal;
        let mut d = 0.0;
        for rules_seat in 0..2usize {
            let mut agents: Vec<Box<dyn Agent<ClassicState>>> = (0..players as usize)
                .map(|p| {
                    if p % 2 == rules_seat {
                        Box::new(rules_agent()) as Box<dyn Agent<ClassicState>>
                    } else {
                        other()
                    }
                })
                .collect();
            let s = play_hand(r, seed, &mut agents);
            let mine = r.side_of(rules_seat);
            let theirs = r.side_of(1 - rules_seat);
            let x = (s[mine] - s[theirs]) as f64;
            if verbose {
                println!(
                    "{preset} {players}p vs {label} deal {deal} rules seat {rules_seat}: {} to {}",
                    s[mine], s[theirs]
                );
            }
            d += x / 2.0;
        }
        diffs.push(d);
    }
    let (m, h) = interval(&diffs);
    println!(
        "{preset} {players}p rules vs {label}: {deals} deals x 2 seatings, rules' side leads by {m:.0} ± {h:.0} points a hand (95%)"
    );
    (m, h)
}

fn duel_deals(default: u64) -> u64 {
    std::env::var("KANASZTA_CLASSIC_DUEL_HANDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
fn duel_two_players_beats_random_and_baseline() {
    let n = duel_deals(150);
    let (m, h) = duel("classic-002", 2, n, &|| Box::new(ClassicRandom), "random");
    assert!(m - h > 200.0, "decisively above random: {m} ± {h}");
    let (m, h) = duel("classic-002", 2, n, &|| Box::new(MeldAll), "meldall");
    assert!(m - h > 0.0, "above the baseline: {m} ± {h}");
}

#[test]
fn duel_four_players_beats_random_and_baseline() {
    let n = duel_deals(100);
    let (m, h) = duel("classic-002", 4, n, &|| Box::new(ClassicRandom), "random");
    assert!(m - h > 200.0, "decisively above random: {m} ± {h}");
    let (m, h) = duel("classic-002", 4, n, &|| Box::new(MeldAll), "meldall");
    assert!(m - h > 0.0, "above the baseline: {m} ± {h}");
}

// ----------------------------------------------------------------- soak

/// It never plays an unlisted action, and hands finish, under every
/// preset for 2, 3, 4 and 6 players (rules against itself and random).
#[test]
fn soak_only_listed_actions_every_preset() {
    for preset in ["classic-002", "classic-003", "classic-004"] {
        for players in [2u8, 3, 4, 6] {
            let r = rules(preset, players);
            for seed in 0..6u64 {
                let mut agents: Vec<Box<dyn Agent<ClassicState>>> = (0..players as usize)
                    .map(|p| {
                        if p % 3 == 2 && seed % 2 == 1 {
                            Box::new(ClassicRandom) as Box<dyn Agent<ClassicState>>
                        } else {
                            Box::new(rules_agent())
                        }
                    })
                    .collect();
                play_hand(r, seed * 7 + players as u64, &mut agents);
            }
        }
    }
}

#[test]
fn duel_other_presets_beat_the_baseline() {
    let n = duel_deals(80);
    for preset in ["classic-003", "classic-004"] {
        for players in [2u8, 4] {
            let (m, h) = duel(preset, players, n, &|| Box::new(MeldAll), "meldall");
            assert!(
                m - h > 0.0,
                "{preset} {players}p above the baseline: {m} ± {h}"
            );
        }
    }
}

/// C-10: far behind, it still goes out when an opponent side with its
/// canastas holds a short hand (it threatens to go out first).
#[test]
fn c10_goes_out_against_a_threat() {
    let r = rules("classic-003", 2);
    let mut g = position(
        r,
        &["Jd Jc Js 7c", "4c 5c"],
        &[
            table(&["Kc Kd Kh Ks Kc Kd Kh"], ""),
            table(&["Qc Qd Qh Qs Qc Qd Qh", "Ac Ad Ah As Ac Ad Ah"], "3h 3d"),
        ],
        "4h",
        "Jh",
    );
    let mut patient = ClassicRulesAgent::new(ClassicRulesParams {
        go_out_margin: 0,
        concealed: false,
        ..ClassicRulesParams::default()
    });
    g.apply(act("draw")).unwrap();
    play_turn(&mut patient, &mut g);
    assert!(matches!(
        g.end(),
        Some(ClassicEnd::WentOut { player: 0, .. })
    ));
}

/// C-18 (004): going out needs a question first; it asks, and after the
/// partner's "yes" goes out.
#[test]
fn c18_asks_first_under_004() {
    let r = rules("classic-004", 4);
    let mut g = position(
        r,
        &["Jd Jc Js 9s", "4c 5c 6c 7d 8d", "Tc 5s", "4s 5h 6h 7s 8s"],
        &[
            table(&["Kc Kd Kh Ks Kc Kd Kh", "9c 9d 9h"], ""),
            table(&["Qc Qd Qh"], ""),
        ],
        "4h",
        "7c",
    );
    let mut a = rules_agent();
    assert_eq!(choice(&mut a, &g), ClassicAction::Ask);
    g.apply(ClassicAction::Ask).unwrap();
    let yes = choice(&mut a, &g);
    assert_eq!(yes, ClassicAction::Answer(true));
    g.apply(yes).unwrap();
    play_turn(&mut a, &mut g);
    assert!(matches!(
        g.end(),
        Some(ClassicEnd::WentOut { player: 0, .. })
    ));
}

/// C-22 (004): the first player takes the turned card alone when it pairs
/// with his hand, and draws otherwise.
#[test]
fn c22_takes_the_turned_card_when_it_pairs() {
    let r = rules("classic-004", 2);
    let setup = |hand: &str| {
        let mut s = ClassicSetup::new(r);
        s.hands[0] = cs(hand);
        s.hands[1] = cs("4c 5c 6c 7d 8d Td Jd Qd Kd Ad 4d 5d 6d 7c 8c");
        s.pile = ordered("9h");
        s.turns = 0;
        s.into_state().unwrap()
    };
    let g = setup("9c Kc 4h 5h 7h 8h Jh Qh Ah 6s 7s 8s Ts Js Qs");
    assert_eq!(choice(&mut rules_agent(), &g), ClassicAction::TakeTurned);
    let g = setup("Tc Kc 4h 5h 7h 8h Jh Qh Ah 6s 7s 8s Ts Js Qs");
    assert_eq!(choice(&mut rules_agent(), &g), ClassicAction::Draw);
}
