//! The classic `rules` player late in a match (C-6, C-8, C-12, C-17,
//! C-24): it plays towards the opening minimum its side faces
//! (`minimum`), and weighs going out against the match score
//! (`stakes`); with both off it plays as it did before them.

use kanaszta_agents::classic::rules::{ClassicRulesAgent, ClassicRulesParams};
use kanaszta_agents::classic::ClassicMoves;
use kanaszta_agents::Agent;
use kanaszta_engine::classic::testing::{setup, table};
use kanaszta_engine::classic::*;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn params(spec: &str) -> ClassicRulesParams {
    let mut p = ClassicRulesParams::default();
    for kv in spec.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap();
        p.set(k, v).unwrap();
    }
    p
}

/// FNV-1a of every action and the side scores of `hands` hands among
/// `rules` players of parameters `p`, over the three presets, two and
/// four players, and running totals from below 0 to near the target.
fn fingerprint(p: &ClassicRulesParams, hands: u64) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut eat = |b: &[u8]| {
        for &x in b {
            h ^= x as u64;
            h = h.wrapping_mul(0x100_0000_01B3);
        }
    };
    const TOTALS: [[i32; 2]; 6] = [
        [0, 0],
        [-50, 1600],
        [1500, 3000],
        [3100, 3000],
        [4900, 4400],
        [3600, 4980],
    ];
    for i in 0..hands {
        let preset = ["classic-002", "classic-003", "classic-004"][(i % 3) as usize];
        let players = if i % 2 == 0 { 4 } else { 2 };
        let mut r = ClassicRules::preset(preset).unwrap();
        r.set("players", &players.to_string()).unwrap();
        let t = TOTALS[(i / 2 % 6) as usize];
        let seed = 0xC1A5_5000 + i;
        let mut g = ClassicState::new(r, seed, (i % players) as usize, [t[0], t[1], 0, 0, 0, 0]);
        let mut agents: Vec<ClassicRulesAgent> = (0..players)
            .map(|_| ClassicRulesAgent::new(p.clone()))
            .collect();
        let mut rngs: Vec<Pcg64Mcg> = (0..players)
            .map(|s| Pcg64Mcg::seed_from_u64(seed.wrapping_mul(31).wrapping_add(s)))
            .collect();
        let mut legal = Vec::new();
        while !g.is_terminal() {
            let s = g.current_player();
            g.view(s).legal_actions(&mut legal);
            let a = agents[s].act(&g.view(s), &mut ClassicMoves::new(&legal), &mut rngs[s]);
            eat(a.to_string().as_bytes());
            g.apply(a).unwrap();
            for ag in agents.iter_mut() {
                ag.inform(s, a);
            }
        }
        for s in g.scores() {
            eat(&s.to_le_bytes());
        }
    }
    h
}

/// The yardstick: `minimum=off,stakes=off,feed=off` plays as `rules`
/// played before them: the fingerprint of 120 hands among such players was
/// recorded on that player (commit f7b6b29). Record it again only where
/// the engine's play changes, and say why in the commit.
#[test]
fn minimum_and_stakes_off_play_as_rules_did_before() {
    let off = params("minimum=off,stakes=off,feed=off");
    assert_eq!(fingerprint(&off, 120), 0xfbba_307a_dffa_c65b);
    // The parts that only act under minimum=on change nothing without it.
    let tuned = params("minimum=off,stakes=off,feed=off,open_step=3,open_players=2");
    assert_eq!(fingerprint(&tuned, 30), fingerprint(&off, 30));
    assert_ne!(
        fingerprint(&ClassicRulesParams::default(), 30),
        fingerprint(&off, 30)
    );
}

/// A position: player 0 to move at turn 4, sides at `totals`.
fn at(
    preset: &str,
    players: u8,
    hands: &[&str],
    tables: &[SideTable],
    pile: &str,
    stock: &str,
    totals: [i32; 2],
) -> ClassicState {
    let mut r = ClassicRules::preset(preset).unwrap();
    r.set("players", &players.to_string()).unwrap();
    let mut s = setup(r, hands, tables, pile, stock);
    s.turns = 4;
    s.totals[..2].copy_from_slice(&totals);
    s.into_state().unwrap()
}

/// Plays player `p`'s turn with the agent's choices (the hand may end).
fn play_turn(p: &ClassicRulesParams, g: &mut ClassicState) -> Vec<ClassicAction> {
    let mut agent = ClassicRulesAgent::new(p.clone());
    let seat = g.current_player();
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let mut legal = Vec::new();
    let mut done = Vec::new();
    while !g.is_terminal() && g.current_player() == seat {
        g.view(seat).legal_actions(&mut legal);
        let a = agent.act(&g.view(seat), &mut ClassicMoves::new(&legal), &mut rng);
        assert!(legal.contains(&a), "{a} is not listed: {legal:?}");
        g.apply(a).unwrap();
        done.push(a);
        assert!(done.len() < 200);
    }
    done
}

fn act(s: &str) -> ClassicAction {
    s.parse().unwrap()
}

const OFF: &str = "minimum=off,stakes=off";

/// Four hands: player 0's, then three others that hold nothing to meld.
fn four(mine: &str) -> [&str; 4] {
    [mine, "4c 5c 7d 9d Td", "4h 5d 7c 9h Th", "4s 5s 7h 9s Ts"]
}

/// C-6, C-17: at 3,000 (minimum 120) jacks with a joker (70), eights
/// with a 2 (40) and three sixes (15) open; without `minimum` it waits
/// for an opening within one wild, as it did. At 0 (minimum 50) the
/// jacks alone would do, so it keeps the second wild.
#[test]
fn c6_opens_with_the_wilds_the_minimum_asks() {
    let hands = four("6c 6d 6h 8d 8s Jc Js 2d JK 9c Qh");
    let empty = [SideTable::default(), SideTable::default()];
    let open = |spec: &str, totals: [i32; 2]| {
        let mut g = at("classic-002", 4, &hands, &empty, "5h", "Kd", totals);
        g.apply(act("draw")).unwrap();
        let turn = play_turn(&params(spec), &mut g);
        let t = g.table(0);
        let wilds: u32 = t.melds.iter().map(|m| m.wild_count()).sum();
        (t.has_melds(), t.melded_value(), wilds, turn)
    };
    let (opened, value, _, turn) = open("", [3000, 3000]);
    assert!(opened && value >= 120, "{turn:?}");
    let (opened, _, _, turn) = open(OFF, [3000, 3000]);
    assert!(!opened, "{turn:?}");
    let (opened, _, wilds, turn) = open("", [0, 0]);
    assert!(opened && wilds == 1, "{turn:?}");
}

/// C-6, C-7: two-handed, and under 004 (no pickup onto a meld), it
/// waits for an opening within `open_wilds` as before: the hands are
/// long enough, and an unopened side loses no pickups onto melds.
#[test]
fn c6_two_handed_and_004_wait_as_before() {
    let mine = "6c 6d 6h 8d 8s Jc Js 2d JK 9c Qh";
    let empty = [SideTable::default(), SideTable::default()];
    for (preset, players) in [("classic-002", 2), ("classic-004", 4)] {
        let hands = four(mine);
        let mut g = at(
            preset,
            players,
            &hands[..players as usize],
            &empty,
            "5h",
            "Kd",
            [3000, 3000],
        );
        g.apply(act("draw")).unwrap();
        let turn = play_turn(&params(""), &mut g);
        assert!(!g.table(0).has_melds(), "{preset} {players}: {turn:?}");
    }
}

/// C-17: an opening whose every meld needs a wild (a pair of jacks and a
/// joker reach 50) is laid; without `minimum` the first meld had to be
/// natural and it discarded instead.
#[test]
fn c17_lays_an_opening_that_starts_with_a_wild() {
    let hands = four("Jc Js JK 4d 5h 7s 9c");
    let empty = [SideTable::default(), SideTable::default()];
    let first = |spec: &str| {
        let mut g = at("classic-003", 4, &hands, &empty, "6h", "8d", [0, 0]);
        g.apply(act("draw")).unwrap();
        play_turn(&params(spec), &mut g)
    };
    let turn = first("");
    assert_eq!(turn[0], act("lay J 2 0 1"), "{turn:?}");
    let turn = first(OFF);
    assert!(matches!(turn[0], ClassicAction::Discard(_)), "{turn:?}");
}

/// C-6, C-17: short of the minimum 120, it keeps the three aces it will
/// open with (60 of the 120) and sheds a low single.
#[test]
fn c6_keeps_its_meld_until_it_opens() {
    let hands = four("Ac Ad Ah 4d 6h 8s 9c Tc Qd");
    let empty = [SideTable::default(), SideTable::default()];
    let mut g = at("classic-002", 4, &hands, &empty, "5h", "Kd", [3000, 3000]);
    g.apply(act("draw")).unwrap();
    let turn = play_turn(&params(""), &mut g);
    assert!(!g.table(0).has_melds(), "{turn:?}");
    let last = *turn.last().unwrap();
    assert!(
        [act("discard 4"), act("discard 6")].contains(&last),
        "{turn:?}"
    );
}

/// C-10, C-24: far behind in the hand (the opponents hold two canastas)
/// it melds on (`go_out_margin`) — unless going out wins the match: at
/// 4,900 against 3,000 it goes out.
#[test]
fn c24_goes_out_when_that_wins_the_match() {
    let hands = ["Jd Jc Js 7c", "4c 5c 6c 7d 8d Td Ts Qs 9s"];
    let tables = [
        table(&["Kc Kd Kh Ks Kc Kd Kh"], ""),
        table(&["Qc Qd Qh Qs Qc Qd Qh", "Ac Ad Ah As Ac Ad Ah"], "3h 3d"),
    ];
    let p = |s: &str| params(&format!("concealed=off,go_out_margin=0,{s}"));
    let out = |spec: &str, totals: [i32; 2]| {
        let mut g = at("classic-003", 2, &hands, &tables, "4h", "Jh", totals);
        g.apply(act("draw")).unwrap();
        play_turn(&p(spec), &mut g);
        matches!(g.end(), Some(ClassicEnd::WentOut { player: 0, .. }))
    };
    assert!(out("", [4900, 3000]));
    assert!(!out("stakes=off", [4900, 3000]));
    // Going out reaches 5,000 but the opponents end higher: no.
    assert!(!out("", [4900, 4500]));
}

/// C-24: ahead in the hand it goes out (`go_out_margin`) — unless the
/// hand's end gives the match to the opponents: at 3,000 against 4,600
/// (their canasta takes them past 5,000) it melds on.
#[test]
fn c24_never_goes_out_into_a_lost_match() {
    let hands = ["Jd Jc Js 7c", "4c 5c 6c 7d 8d Td Ts Qs 9s"];
    let tables = [
        table(&["Kc Kd Kh Ks Kc Kd Kh", "9c 9d 9h 9s 9c"], "3h"),
        table(&["Qc Qd Qh Qs Qc Qd Qh"], ""),
    ];
    let out = |spec: &str, totals: [i32; 2]| {
        let mut g = at("classic-003", 2, &hands, &tables, "4h", "Jh", totals);
        g.apply(act("draw")).unwrap();
        play_turn(&params(&format!("concealed=off,{spec}")), &mut g);
        matches!(g.end(), Some(ClassicEnd::WentOut { player: 0, .. }))
    };
    assert!(out("", [3000, 3000]));
    assert!(!out("", [3000, 4600]));
    assert!(out("stakes=off", [3000, 4600]));
}

/// C-18, C-24: the partner answers "yes" when his side's going out wins
/// the match, though his own hand would cost (`answer_hand`), and "no"
/// when it would lose it, though the side leads in the hand.
#[test]
fn c18_answers_by_the_match() {
    let tables = [
        table(&["Kc Kd Kh Ks Kc Kd Kh", "9c 9d 9h"], ""),
        table(&["Qc Qd Qh Qs Qc Qd Qh"], ""),
    ];
    let hands = [
        "Jd Jc Js 9s",
        "4c 5c 6c 7d 8d",
        "Tc 5s Ac Ad Ah Jh Qs 8c 7s",
        "4s 5h 6h 7s 8s",
    ];
    let answer = |spec: &str, totals: [i32; 2]| {
        let mut g = at("classic-002", 4, &hands, &tables, "4h", "7c", totals);
        g.apply(ClassicAction::Ask).unwrap();
        let mut legal = Vec::new();
        g.view(2).legal_actions(&mut legal);
        let mut a = ClassicRulesAgent::new(params(spec));
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        a.act(&g.view(2), &mut ClassicMoves::new(&legal), &mut rng)
    };
    // His hand (110) is within answer_hand only when that is raised.
    assert_eq!(
        answer("answer_hand=50", [4600, 3000]),
        ClassicAction::Answer(true)
    );
    assert_eq!(
        answer("answer_hand=50,stakes=off", [4600, 3000]),
        ClassicAction::Answer(false)
    );
    assert_eq!(
        answer("answer_hand=500", [3000, 4990]),
        ClassicAction::Answer(false)
    );
    assert_eq!(
        answer("answer_hand=500,stakes=off", [3000, 4990]),
        ClassicAction::Answer(true)
    );
}

/// C-18, C-24: the failed "yes" answers it has seen count in the
/// stakes: opponents whose table takes them past 5,000 hold it back from
/// going out, unless a failed "yes" (100 off) has put them below it.
#[test]
fn c18_failed_yes_answers_count_in_the_stakes() {
    let hands = four("Jd Jc Js 7c");
    let tables = [
        table(&["Kc Kd Kh Ks Kc Kd Kh", "9c 9d 9h 9s 9c"], "3h"),
        table(&["Qc Qd Qh Qs Qc Qd Qh"], ""),
    ];
    let out = |failed: bool| {
        let mut g = at("classic-002", 4, &hands, &tables, "4h", "Jh", [3000, 4530]);
        let mut agent = ClassicRulesAgent::new(params("concealed=off"));
        if failed {
            for (p, a) in [(1, "ask"), (3, "yes"), (1, "discard 5")] {
                agent.inform(p, act(a));
            }
        }
        g.apply(act("draw")).unwrap();
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let mut legal = Vec::new();
        while !g.is_terminal() && g.current_player() == 0 {
            g.view(0).legal_actions(&mut legal);
            let a = agent.act(&g.view(0), &mut ClassicMoves::new(&legal), &mut rng);
            g.apply(a).unwrap();
        }
        matches!(g.end(), Some(ClassicEnd::WentOut { player: 0, .. }))
    };
    assert!(!out(false));
    assert!(out(true));
}
