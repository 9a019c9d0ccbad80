//! The fixes of the `rules` agent, each on its own constructed position
//! (several taken from replays): the decision with the fix on, and the
//! decision of the yardstick, `rules` with its fixes off, where the fix
//! changes it. See the module documentation of `kanaszta_agents::rules`.

use kanaszta_agents::{seat_rng, Agent, AgentSpec, Params, RulesAgent, RulesParams};
use kanaszta_engine::{Action, Card, GameState, MoveBuf};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// A position from JSON (`kanaszta_engine::Position`); panics with the
/// parser's message if it is refused.
fn pos(json: &str) -> GameState {
    GameState::from_position_json(json).unwrap_or_else(|e| panic!("bad position: {e}\n{json}"))
}

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// `rules` with the parameters of `spec` (`key=value,…`).
fn params(spec: &str) -> RulesParams {
    let mut p = RulesParams::default();
    for kv in spec.split(',').filter(|kv| !kv.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap();
        p.set(k, v).unwrap();
    }
    p
}

/// The yardstick: every fix off.
const OFF: &str = "fixes=off";

/// Plays the mover's turn to its end (its discard) with `rules` of these
/// parameters, from a few generator seeds that must agree; the actions.
fn play_turn(g: &GameState, p: &RulesParams) -> (GameState, Vec<Action>) {
    let mut first: Option<(GameState, Vec<Action>)> = None;
    for seed in 1..4 {
        let mut g = g.clone();
        let me = g.current_player();
        let mut agent = RulesAgent::new(p.clone());
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut legal = Vec::new();
        let mut done = Vec::new();
        while !g.is_terminal() && g.current_player() == me {
            g.legal_actions(&mut legal);
            let a = agent.act(&g.view(me), &mut g.moves(&mut MoveBuf::new()), &mut rng);
            g.apply(a).unwrap_or_else(|e| panic!("`{a}` refused: {e}"));
            done.push(a);
            assert!(done.len() < 200, "the turn does not end: {done:?}");
            if matches!(a, Action::Discard(_)) {
                break;
            }
        }
        match &first {
            None => first = Some((g, done)),
            Some((_, d)) => assert_eq!(&done, d, "seed {seed}"),
        }
    }
    first.unwrap()
}

/// The discard that ends the turn.
fn discard_of(turn: &[Action]) -> Card {
    match turn.last() {
        Some(Action::Discard(c)) => *c,
        other => panic!("the turn ends with {other:?}"),
    }
}

/// Dead locks (I-32, `dead`): extending the kings would leave one card
/// that no card could ever take out (no group can reach seven), so it
/// keeps its cards; with a six-card group of queens, which a queen or a
/// wild completes, the same step is a live lock and it takes it. Without
/// the charge it extends into the dead lock too.
#[test]
fn rules_never_melds_into_a_dead_lock() {
    let position = |queens: &str| {
        pos(&format!(
            r#"{{"phase": "meld", "turns": 20, "players": [
                {{"hand": "KC 5D 8H", "table": {{"groups": ["{queens}", "KD KH KS"]}}}},
                {{"hand": "JC TC 4S 5S 8C 8D AS 9D", "table": {{"groups": ["6C 6D 6H"]}}}}],
              "pile": "4C 9S JS 7D"}}"#
        ))
    };
    let dead = position("QC QD QH");
    let extend = Action::Extend {
        group: 1,
        card: card("KC"),
    };
    let (_, turn) = play_turn(&dead, &params(""));
    assert!(!turn.contains(&extend), "{turn:?}");
    for p in ["dead=0", OFF] {
        let (_, turn) = play_turn(&dead, &params(p));
        assert_eq!(turn[0], extend, "{p}: {turn:?}");
    }
    let live = position("QC QD QH QS 2C JK");
    for p in ["", OFF] {
        let (_, turn) = play_turn(&live, &params(p));
        assert_eq!(turn[0], extend, "{p}: {turn:?}");
    }
}

/// Its last card (`dead`, `plan_out`): one five left, a canasta on the
/// table and the fives laid this turn, it discards the five and goes out.
/// (The yardstick put the five on its fives, which left nothing to
/// discard, before the engine stopped listing a step after which the turn
/// cannot end without undoing, I-9; now it goes out too.)
#[test]
fn rules_does_not_lay_its_last_card() {
    let g = pos(r#"{"phase": "meld", "turns": 30, "players": [
            {"hand": "5S", "table": {"groups": ["QC QD QH QS 2C JK JK",
                                                {"cards": "5C 5D 5H", "new": true}]}},
            {"hand": "JC TC 4S 8C 8D AS 9D", "table": {"groups": ["6C 6D 6H"]}}],
          "anchor": {"hand": "5C 5D 5H 5S", "table": {"groups": ["QC QD QH QS 2C JK JK"]}},
          "pile": "4C 9S JS 7D"}"#);
    for p in ["", "dead=0", "plan_out=off"] {
        let (t, turn) = play_turn(&g, &params(p));
        assert!(t.is_terminal() && t.score_of(0).went_out, "{p}: {turn:?}");
    }
    for p in ["dead=0,plan_out=off", OFF] {
        let (t, turn) = play_turn(&g, &params(p));
        assert!(t.is_terminal() && t.score_of(0).went_out, "{p}: {turn:?}");
    }
}

/// Going out on the turn of the first canasta (`plan_out`; replay `--a
/// ismcts:iters=300 --b rules --seed 77 --game 26`, turn 30): the 2H
/// makes the nines a canasta and the ♥A is discarded to go out. (The
/// yardstick laid the ♥A apart, which left no card to discard, took it
/// back and threw the 2H, before the engine stopped listing such a step,
/// I-9; now it goes out too.)
#[test]
fn rules_goes_out_on_its_first_canasta_turn() {
    let g = pos(
        r#"{"phase": "meld", "turns": 30, "starter": 1, "current": 1, "players": [
            {"hand": "4C 4H 4H 6D 6S 7C 7C 7D 8D 9D JC JH KH AS",
             "table": {"groups": ["TC TD TH TS 2C 2H", "QC QD QD QH QS 2C 2S", "5C 5H 5S"],
                       "red_threes": "3H", "twins": 1}},
            {"hand": "AH 2H",
             "table": {"groups": ["9C 9D 9S 9S 2S JK", "JC JD JH JS", "AC AC AD AS", "8C 8C 8S", "KC KD KD"],
                       "red_threes": "3D"}}],
          "pile": "3C 9H 3S"}"#,
    );
    for p in ["", "dead=0,hearts=off,dead_out=off"] {
        let (t, turn) = play_turn(&g, &params(p));
        assert!(t.is_terminal() && t.score_of(1).went_out, "{p}: {turn:?}");
        assert_eq!(discard_of(&turn), Card::HEART_ACE, "{p}");
    }
    let (t, turn) = play_turn(&g, &params(OFF));
    assert!(t.is_terminal() && t.score_of(1).went_out, "{turn:?}");
}

/// Going out by moving a wild (`plan_out`; replay `--a rules --b rules
/// --seed 2026 --game 30`, turn 31): the 2C of the tens completes the
/// eights' canasta, so the ♥A is laid apart (500) and the queen discarded
/// to go out. (The yardstick, which never moves a wild on its own, laid
/// the ♥A, took it back and kept it, before the engine stopped listing a
/// step after which the turn cannot end without undoing, I-9: now laying
/// the ♥A is listed only with the way out that moves the wild, which the
/// engine's shortest way to end the turn then takes.)
#[test]
fn rules_moves_a_wild_to_go_out() {
    let g = pos(r#"{"phase": "meld", "turns": 31, "current": 1, "players": [
            {"hand": "TS JD QD QS", "known": "QD QS",
             "table": {"groups": ["8H 8H 8S 2H JK", "9C 9D 9H 9S 9S 2D 2S", "4D 4H 4H 4S"],
                       "red_threes": "3D 3H", "twins": 3}},
            {"hand": "QS AH",
             "table": {"groups": ["8C 8C 8D 8D 2H JK", "TC TD TH 2C", "5C 5D 5D 5H 5S", "7C 7H 7S"],
                       "red_threes": "3D", "twins": 1}}],
          "pile": "3C AD AD AS AC JS JC KS KS 9D JH 6C KD 6D 6D 6S AS"}"#);
    for p in ["", "dead=0,hearts=off,dead_out=off"] {
        let (t, turn) = play_turn(&g, &params(p));
        assert!(t.is_terminal() && t.score_of(1).went_out, "{p}: {turn:?}");
        assert_eq!(t.table(1).heart_aces, 1, "{p}: {turn:?}");
        assert!(
            turn.iter().any(|a| matches!(a, Action::TakeWild { .. })),
            "{p}: {turn:?}"
        );
    }
    let (t, turn) = play_turn(&g, &params(OFF));
    assert!(t.is_terminal() && t.score_of(1).went_out, "{turn:?}");
}

/// Heart aces before the opening (`hearts`; replay `--a rules --b greedy
/// --seed 7 --game 0`, turn 13): the eights and the sevens make the 50
/// of the opening (D-8.2), the sevens over two steps, and the ♥A is laid
/// apart (500, D-9.4). The yardstick drops the sevens' first step (it
/// reads only new groups from the hand as the rest of the opening) and
/// finishes the opening by the engine's shortest way, burying the ♥A in
/// a group of aces.
#[test]
fn rules_opens_without_burying_the_heart_ace() {
    let g = pos(
        r#"{"phase": "meld", "turns": 13, "starter": 1, "current": 0, "players": [
            {"hand": "5H 6H 6S 7C 7D 7D 7S 8C 8D 8S QD QH AC AC AH", "known": "8C",
             "table": {"twins": 1}},
            {"hand": "7S",
             "table": {"groups": ["QC QS JK", "KC KS KS 2H JK", "4D 4H 4H 2S"], "heart_aces": 1}}],
          "pile": "JS JS 6D JH 5D 9S 8H TC TD 5C 6D"}"#,
    );
    let buried = |t: &GameState| {
        t.table(0)
            .groups()
            .iter()
            .any(|gr| gr.count(Card::HEART_ACE) > 0)
    };
    for p in ["", "dead=0,plan_out=off,dead_out=off"] {
        let (t, turn) = play_turn(&g, &params(p));
        assert!(t.table(0).opened, "{p}: {turn:?}");
        assert_eq!(t.table(0).heart_aces, 1, "{p}: {turn:?}");
        assert!(!buried(&t), "{p}: {turn:?}");
    }
    for p in ["hearts=off", OFF] {
        let (t, turn) = play_turn(&g, &params(p));
        assert!(buried(&t), "{p}: {turn:?}");
    }
}

/// A locked hand's ♥A (`hearts`): holding one card after the discard and
/// no canasta, it could never lay the ♥A apart (that would leave nothing
/// to discard, D-13.2), so the ♥A is an ace like another and goes rather
/// than the king that feeds the opponent's six kings. The yardstick lays
/// the ♥A, takes it back and keeps it for good.
#[test]
fn rules_locked_hand_does_not_keep_a_heart_ace() {
    let g = pos(r#"{"phase": "meld", "turns": 20, "players": [
            {"hand": "KS AH", "table": {"groups": ["8C 8D 8H", "TC TD TH"]}},
            {"hand": "JC TC 4S 5S 8S 9D AS 9S", "table": {"groups": ["KC KD KH KS KC 2D"]}}],
          "pile": "4C 9S JS 7D"}"#);
    for p in ["", "dead=0,plan_out=off,dead_out=off"] {
        let (_, turn) = play_turn(&g, &params(p));
        assert_eq!(turn, [Action::Discard(Card::HEART_ACE)], "{p}");
    }
    for p in ["hearts=off", OFF] {
        let (_, turn) = play_turn(&g, &params(p));
        assert_eq!(discard_of(&turn), card("KS"), "{p}: {turn:?}");
    }
}

/// The position of the two `dead_out` tests: the opponent holds one card
/// and no group he could ever bring to a canasta (I-32), `mine` are its
/// groups, `theirs` his table's other items; it can go out by laying the
/// sixes.
fn against_a_hopeless_opponent(mine: &str, theirs: &str) -> GameState {
    pos(&format!(
        r#"{{"phase": "meld", "turns": 40, "players": [
            {{"hand": "6C 6D 6H 9C", "table": {{"groups": [{mine}]}}}},
            {{"hand": "4S", "table": {{"groups": ["8C 8H 8S", "KC KC KD KS", "9D 9H 9S"]{theirs}}}}}],
          "pile": "4C 9S JS 7D"}}"#
    ))
}

/// Going out against a dead-locked opponent (`dead_out`; replay `--a
/// rules --b rules --seed 2026 --game 3480` with the yardstick): he can
/// never go out and its groups are all canastas, so waiting builds
/// nothing, and it goes out though it trails on the visible count (his
/// two ♥As, three red threes and ten twins). The yardstick declines turn
/// after turn while it trails.
#[test]
fn rules_goes_out_against_a_dead_locked_opponent() {
    let g = against_a_hopeless_opponent(
        r#""JC JD JH JS JC JD JH", "QC QD QH QS 2C JK JK""#,
        r#", "heart_aces": 2, "red_threes": "3H 3H 3D", "twins": 10"#,
    );
    for p in ["", "dead=0,plan_out=off,hearts=off"] {
        let (t, turn) = play_turn(&g, &params(p));
        assert!(t.is_terminal() && t.score_of(0).went_out, "{p}: {turn:?}");
    }
    for p in ["dead_out=off", OFF] {
        let (t, turn) = play_turn(&g, &params(p));
        assert!(!t.is_terminal(), "{p}: {turn:?}");
    }
}

/// Building on against a dead-locked opponent (`dead_out`): ahead, it
/// could go out, but he can never go out and its five fives can still
/// become a canasta, so it plays on. The yardstick goes out as soon as it
/// leads.
#[test]
fn rules_builds_on_while_the_opponent_can_never_go_out() {
    let g = against_a_hopeless_opponent(r#""JC JD JH JS JC JD JH", "5C 5D 5H 5S 5C""#, "");
    for p in ["", "dead=0,plan_out=off,hearts=off"] {
        let (t, turn) = play_turn(&g, &params(p));
        assert!(!t.is_terminal(), "{p}: {turn:?}");
    }
    for p in ["dead_out=off", OFF] {
        let (t, turn) = play_turn(&g, &params(p));
        assert!(t.is_terminal() && t.score_of(0).went_out, "{p}: {turn:?}");
    }
}

/// FNV-1a of every action and the final scores of `hands` hands between
/// two `rules` agents of parameters `p`.
fn fingerprint(p: &RulesParams, hands: u64) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut eat = |b: &[u8]| {
        for &x in b {
            h ^= x as u64;
            h = h.wrapping_mul(0x100_0000_01B3);
        }
    };
    let mut legal = Vec::new();
    for i in 0..hands {
        let seed = kanaszta_engine::derive_seed(0xF1C5, i);
        let mut g = GameState::new(kanaszta_engine::Rules::default(), seed);
        let mut agents = [RulesAgent::new(p.clone()), RulesAgent::new(p.clone())];
        let mut rngs = [seat_rng(seed, 0), seat_rng(seed, 1)];
        while !g.is_terminal() {
            let s = g.current_player();
            g.legal_actions(&mut legal);
            let a = agents[s].act(&g.view(s), &mut g.moves(&mut MoveBuf::new()), &mut rngs[s]);
            eat(a.to_string().as_bytes());
            g.apply(a).unwrap();
        }
        for s in g.scores() {
            eat(&s.total.to_le_bytes());
        }
    }
    h
}

/// The yardstick: `fixes=off` is every fix off, whatever their own values,
/// prints as such, and plays as `rules` played before the fixes: the
/// fingerprint of 100 hands between two of them was recorded on that
/// agent (commit b1dfd10), and again on the exact completion check
/// (d9a18f0), where the engine lists fewer steps: `rules` of d9a18f0 and
/// `rules:fixes=off` play the same 3,000 hands against greedy and 1,000
/// against each other, column for column. Record it again only where the
/// engine's play changes, and say why in the commit.
#[test]
fn fixes_off_plays_as_rules_did_before_the_fixes() {
    let off = params(OFF);
    let spec: AgentSpec = "rules:fixes=off".parse().unwrap();
    assert_eq!(spec, AgentSpec::of(off.clone()));
    assert_eq!(spec.params::<RulesParams>(), Some(&off));
    assert_eq!(spec.to_string(), "rules:fixes=off");
    // The expert play came after the fixes: `fixes=off` turns it off too.
    let each = params("dead=0,plan_out=off,hearts=off,dead_out=off,expert=off");
    let both = params("fixes=off,dead=800,plan_out=on,hearts=on,dead_out=on");
    assert_eq!(fingerprint(&off, 100), 0xdf63_a162_9172_aa0f);
    assert_eq!(fingerprint(&each, 20), fingerprint(&off, 20));
    assert_eq!(fingerprint(&both, 20), fingerprint(&off, 20));
    assert_ne!(
        fingerprint(&RulesParams::default(), 20),
        fingerprint(&off, 20)
    );
}

/// A pickup weighed through to its rest (`through`; replay `--a rules --b
/// greedy --seed 2026 --game 160`, turn 16): with JH JK and the top JD, the
/// thirteen-card pile holds three black threes while greedy is on one
/// card, a joker he can move beside five fives. The meld policy puts the
/// joker on the eights and leaves the JD to the engine's way, so the
/// simulation used to value the turn with the pile still lying; weighed
/// with the rest in hand (200 points of threes that cannot all be thrown
/// before he goes out, D-6.3) it draws. With `piles=off` the big pile was
/// taken unseen; an opponent on two cards or fewer has it weighed too.
/// Without `through`, `lone` declines it as well: the pairs the pile
/// would give are worth little against greedy on one card.
#[test]
fn rules_takes_no_black_threes_against_a_player_on_one_card() {
    let g = pos(
        r#"{"phase": "draw", "starter": 1, "current": 0, "turns": 15, "players": [
            {"hand": "JH JK", "table": {"groups": ["8C 8D 8H", "9C 9H JK", "QD QH QS", "AC AD AD"],
                                        "red_threes": "3D"}},
            {"hand": "4S", "table": {"groups": ["9C 9D 9S JK", "5C 5D 5D 5S 5S", "6H 6H 6S"],
                                     "red_threes": "3D", "heart_aces": 1}}],
          "pile": "3S 7C TC TD TH 7H 7D 6D 4S JC 3S 3C JD",
          "stock": "KD 8S 4H 8C 8H 5H 6S 2C 2C AS AC KD KH JS TC 5C 9S 4C 8S 5H QC 6C AS AH 4D 2H 2S TS TH JK 3C 6C KC KS 7C 3H KS 9H 2D JK JD TS 7H JC JK 6D KH 8D QD JK QH JK 7S 9D 7S QC JS 4H 4D KC 7D 2S 2D QS 4C TD JH 3H 2H",
          "stock_known_bottom": 2}"#,
    );
    for p in ["", "piles=off", "movable=off", "pile=112", "through=off"] {
        let (_, turn) = play_turn(&g, &params(p));
        assert_eq!(turn[0], Action::Draw, "{p}: {turn:?}");
    }
    for p in ["through=off,lone=off", "through=off,piles=off", OFF] {
        let (_, turn) = play_turn(&g, &params(p));
        assert_eq!(turn[0], Action::TakePile, "{p}: {turn:?}");
    }
}

/// The meld policy again after a pickup the engine's way finished
/// (`resume`; replay `--a rules --b greedy --seed 2026 --game 912`, turn
/// 19): the sixes needed the joker moved from the fives (D-11.2), which
/// the engine's way did; once the rest of the pile is in hand it lays its
/// aces and extends its groups instead of discarding at once, greedy being
/// on one card. Without the fix it discards the 3S and keeps 100 points of
/// meldable cards.
#[test]
fn rules_melds_the_pile_after_a_pickup_finished_the_engines_way() {
    let g = pos(
        r#"{"phase": "draw", "starter": 0, "current": 0, "turns": 18, "players": [
            {"hand": "6D 7C 7D 7S JC JD 2H",
             "table": {"groups": ["5C 5D 5S JK JK", "TC TH 2C", "9H 9H 9S"], "red_threes": "3H", "twins": 1}},
            {"hand": "7H", "table": {"groups": ["JC JD JH JS JK", "KC KS KS JK", "4C 4H 2D"],
                                     "red_threes": "3D 3D 3H", "heart_aces": 1}}],
          "pile": "3S AD AC AS 8D AD QD 5H 4H TS 6C 6H",
          "stock": "KC 4C QH 8H 5H 9D KH 7H TC AC TD JK QS JK 7C TS 9C AS KH AH 8C 6S 3C 3C 2C JK 4S 6D 4D JK JS 4D KD 6C 5D 6S JH QC TD QD 8S 8D 9D 3S 8S QH 9S 8C 7D QC 2S QS 9C 7S 2S 8H 4S TH 6H 2D 5C KD 5S 2H",
          "stock_known_bottom": 2}"#,
    );
    let after_rest = |turn: &[Action]| {
        let i = turn.iter().position(|a| *a == Action::TakeRest).unwrap();
        turn[i + 1]
    };
    let aces = |t: &GameState| {
        ["AC", "AD", "AS"]
            .iter()
            .map(|c| t.hand(0).count(card(c)))
            .sum::<u32>()
    };
    let (t, turn) = play_turn(&g, &params(""));
    assert_eq!(turn[0], Action::TakePile, "{turn:?}");
    assert!(!matches!(after_rest(&turn), Action::Discard(_)), "{turn:?}");
    assert_eq!(aces(&t), 0, "{turn:?}");
    let (t, turn) = play_turn(&g, &params("resume=off"));
    assert_eq!(after_rest(&turn), Action::Discard(card("3S")), "{turn:?}");
    assert_eq!(aces(&t), 4, "{turn:?}");
}

/// Meldable cards laid against an opponent on two cards (`close`, off by
/// default; replay `--a rules --b rules --seed 2026 --game 8`, turn 25):
/// the opponent holds two wilds and can go out as soon as a seven or a
/// wild completes his sevens (D-13.1). Counting him at least half-way out
/// (`close=0.5`) it lays its three fours and three sixes rather than keep
/// them as pairs for the pile; with the threat as read (the default, and
/// the yardstick) it keeps them, 30 points, until he goes out.
#[test]
fn rules_lays_its_triplets_against_a_player_on_two_cards() {
    let g = pos(
        r#"{"phase": "draw", "starter": 0, "current": 0, "turns": 24, "players": [
            {"hand": "4C 4H 4S 6C 6S 7C 7H JC AC", "known": "6C",
             "table": {"groups": ["KC KD KH KS 2C 2H JK", "QC QH QS", "5C 5H 5H 5S"], "red_threes": "3D 3H 3H"}},
            {"hand": "2H 2S",
             "table": {"groups": ["AC AS JK", "9D 9S JK", "7D 7H 7S 2C 2D", "4C 4S JK"],
                       "red_threes": "3D", "twins": 1, "heart_aces": 1}}],
          "pile": "8H 8D 3C TH TC JD 3C JS",
          "stock": "6C QS JH 9D 3S 9S QC 9H QH KS 6S JK TS 5D 4H KD 2S 8C AD TD 4D 6H 6H 9C JK KH TC TD AH JK 7C 7D AD JC 8S 3S 5D JK AS KC 6D JD 9H 4D 8S 2D QD JS QD 8D 7S 8H TS JH 8C 5S 5C TH 9C 6D",
          "stock_known_bottom": 2}"#,
    );
    let fours = |t: &GameState| t.hand(0).count(card("4C")) + t.hand(0).count(card("4H"));
    let (t, turn) = play_turn(&g, &params("close=0.5"));
    assert_eq!(fours(&t), 0, "{turn:?}");
    assert_eq!(t.table(0).groups().len(), 5, "{turn:?}");
    for p in ["", "close=0.4", OFF] {
        let (t, turn) = play_turn(&g, &params(p));
        assert_eq!(fours(&t), 2, "{p}: {turn:?}");
        assert_eq!(t.table(0).groups().len(), 3, "{p}: {turn:?}");
    }
}

/// Meldable cards against an opponent who may make his canasta this turn
/// (`near`, off by default; the position of the test above): he is on two
/// cards, with no canasta, and a seven and a wild let him make his sevens
/// the canasta he goes out with (D-9.1, D-11.2, D-13.1). Counting him
/// half-way out there (`near=0.5`), it lays its three fours and three
/// sixes (30 points) rather than keep them as pairs for the pile; by
/// default (and the yardstick) it keeps them. Against an opponent on two
/// cards whose sevens no two cards make a canasta, `near=0.5` keeps them
/// too.
#[test]
fn near_lays_triplets_against_a_player_who_may_make_his_canasta() {
    let position = |theirs: &str, pile: &str| {
        pos(&format!(
            r#"{{"phase": "draw", "starter": 0, "current": 0, "turns": 24, "players": [
            {{"hand": "4C 4H 4S 6C 6S 7C 7H JC AC", "known": "6C",
             "table": {{"groups": ["KC KD KH KS 2C 2H JK", "QC QH QS", "5C 5H 5H 5S"], "red_threes": "3D 3H 3H"}}}},
            {{"hand": "2H 2S",
             "table": {{"groups": [{theirs}], "red_threes": "3D", "twins": 1, "heart_aces": 1}}}}],
          "pile": "{pile}8H 8D 3C TH TC JD 3C JS",
          "stock": "6C QS JH 9D 3S 9S QC 9H QH KS 6S JK TS 5D 4H KD 2S 8C AD TD 4D 6H 6H 9C JK KH TC TD AH JK 7C 7D AD JC 8S 3S 5D JK AS KC 6D JD 9H 4D 8S 2D QD JS QD 8D 7S 8H TS JH 8C 5S 5C TH 9C 6D",
          "stock_known_bottom": 2}}"#
        ))
    };
    let near = position(
        r#""AC AS JK", "9D 9S JK", "7D 7H 7S 2C 2D", "4C 4S JK""#,
        "",
    );
    let fours = |t: &GameState| t.hand(0).count(card("4C")) + t.hand(0).count(card("4H"));
    let (t, turn) = play_turn(&near, &params("near=0.5"));
    assert_eq!(fours(&t), 0, "{turn:?}");
    assert_eq!(t.table(0).groups().len(), 5, "{turn:?}");
    for p in ["", OFF] {
        let (t, turn) = play_turn(&near, &params(p));
        assert_eq!(fours(&t), 2, "{p}: {turn:?}");
        assert_eq!(t.table(0).groups().len(), 3, "{p}: {turn:?}");
    }
    // Three sevens and no wild to move (his twos in the pile): no two
    // cards make his canasta.
    let far = position(
        r#""AC AS JK", "9D 9S JK", "7D 7H 7S", "4C 4S JK""#,
        "2C 2D ",
    );
    let (t, turn) = play_turn(&far, &params("near=0.5"));
    assert_eq!(fours(&t), 2, "{turn:?}");
}

/// Opening and the wild freeze (`opened`, `wildcap`; replay `--a rules
/// --b rules --seed 2026 --game 24`, turn 22): neither player has opened,
/// the pile of twenty holds five twos thrown to freeze it (D-6.3), and it
/// holds four nines and three jokers. With a pile that big, having opened
/// is worth `opened` (only an opened player takes the pile with a pair,
/// D-6.2), so it opens with the nines and jokers. Not counting it
/// (`opened=0`) it holds its cards, and with the pile already holding
/// `wildcap` wilds it throws a natural, no joker; without the limit
/// either (`wildcap=0`, as the yardstick) it throws a joker to freeze the
/// pile once more.
#[test]
fn rules_opens_rather_than_throw_wilds_to_freeze() {
    let g = pos(
        r#"{"phase": "draw", "starter": 1, "current": 0, "turns": 21, "players": [
            {"hand": "4S 5C 5S 6C 6H 9D 9D 9H 9S JH JS JK JK JK",
             "table": {"red_threes": "3D 3H", "twins": 1}},
            {"hand": "4C 4C 5C 5H 5H 5S 6D 6D 6S KD KS KS JK JK", "known": "4C JK",
             "table": {"twins": 1}}],
          "pile": "3S 7H 8C 8H QS TC QC 7D KH AD AD QD AC TH TS 2C 2D 2H 2S 2S",
          "stock": "7S 9H 3C QC AS KC QH 7D 6C 2D KD TH 8C 4H JC 4S 7H QH JD 4D KH AS AH 8H 6S 3C 4H 7S 8D 2H TD TC 8S AH 4D 5D 3D TD 9C KC 8S 8D JS 6H 5D JD JK TS 3H 9S JH JK JK QD JC AC 7C 9C 3S 2C 7C QS",
          "stock_known_bottom": 2}"#,
    );
    let (t, turn) = play_turn(&g, &params(""));
    assert!(t.table(0).opened, "{turn:?}");
    assert!(!discard_of(&turn).is_wild(), "{turn:?}");
    let (t, turn) = play_turn(&g, &params("opened=0"));
    assert!(!t.table(0).opened, "{turn:?}");
    assert!(!discard_of(&turn).is_wild(), "{turn:?}");
    for p in ["opened=0,wildcap=0", OFF] {
        let (t, turn) = play_turn(&g, &params(p));
        assert!(!t.table(0).opened, "{p}: {turn:?}");
        assert!(discard_of(&turn).is_wild(), "{p}: {turn:?}");
    }
}

/// Triplets laid against an opponent who may go out next turn over a
/// small pile (`thin`; replay `--a rules --b greedy --seed 2026 --game
/// 7`, turn 35): greedy is on one card with no canasta, but a ten makes
/// his tens a canasta with his jokers moved (D-9.1, D-11.2), and he goes
/// out (D-13.1). The pile holds two cards: a pair in hand would take a
/// pile of four, so `rules` lays its three fives and three sevens (60
/// points saved if he goes out) rather than keep them as pairs for it.
/// `thin=off` (the play before it) and the yardstick keep them.
#[test]
fn rules_lays_its_triplets_over_a_small_pile_against_a_player_near_out() {
    let g = pos(
        r#"{"phase": "draw", "starter": 0, "current": 0, "turns": 34, "players": [
            {"hand": "3C 3S 5C 5H 5S 6S 7D 7H 7H AS", "known": "3C 3S 5C 5H 5S 7D 7H 7H AS",
             "table": {"groups": ["8C 8D 8D 8H 8S JK JK", "TC TD TS", "JC JD JD JH JS",
                                  "QC QC QD QH 2C 2H", "KC KS KS", "9C 9H 9S", "4C 4D 4H 4S 4S"],
                       "red_threes": "3D 3H", "twins": 2}},
            {"hand": "7S",
             "table": {"groups": ["JK JK JK", "9C 9S 2C", "TD TH TS 2S", "6C 6D 6S"],
                       "red_threes": "3H", "twins": 1}}],
          "pile": "3C KD",
          "stock": "2D 2D 2H 3D 3S 4C 4H 5C 5D 5D 5H 5S 6C 6H 6H 7C 7C 7D 7S 8C 8H 8S 9D 9D 9H AC AC AD AH AH AS JC JH JK JK JK JS KC KD KH KH QD QH QS QS TC TH 6D 4D 2S AD",
          "stock_known_bottom": 0}"#,
    );
    let fives = |t: &GameState| {
        t.hand(0)
            .iter()
            .filter(|c| c.rank() == card("5C").rank())
            .count()
    };
    let (t, turn) = play_turn(&g, &params(""));
    assert_eq!(fives(&t), 0, "{turn:?}");
    for p in ["thin=off", OFF] {
        let (t, turn) = play_turn(&g, &params(p));
        assert_eq!(fives(&t), 3, "{p}: {turn:?}");
    }
}

/// Triplets laid against an opponent on one card over a big pile (`lone`;
/// replay `--a rules --b rules --seed 2026 --game 8`, turn 27): the pile
/// holds ten cards, so `thin` counts each pair in hand at its full worth,
/// but the opponent, on one card with no canasta, goes out when either
/// of his two cards is a seven (his sevens a canasta with his joker
/// moved, D-9.1, D-11.2, D-13.1), about as likely as his discard being a
/// four, a six or a seven. So `rules`
/// lays its three fours and three sixes (30 points saved if he goes out)
/// and keeps one pair, the sevens, for the pile; `lone=off` (the play
/// before it), `thin=off` and the yardstick keep all three.
#[test]
fn rules_lays_its_triplets_over_a_big_pile_against_a_player_on_one_card() {
    let g = pos(
        r#"{"phase": "draw", "starter": 0, "current": 0, "turns": 26, "players": [
            {"hand": "4C 4H 4S 6C 6D 6S 7C 7H AC", "known": "6C",
             "table": {"groups": ["KC KD KH KS 2C 2H JK", "QC QH QS", "5C 5H 5H 5S"],
                       "red_threes": "3D 3H 3H"}},
            {"hand": "2S",
             "table": {"groups": ["AC AS JK", "9C 9D 9S JK", "7D 7H 7S 2C 2D", "4C 4S JK"],
                       "red_threes": "3D", "twins": 1, "heart_aces": 1}}],
          "pile": "8H 8D 3C TH TC JD 3C JS JC 2H",
          "stock": "6C QS JH 9D 3S 9S QC 9H QH KS 6S JK TS 5D 4H KD 2S 8C AD TD 4D 6H 6H 9C JK KH TC TD AH JK 7C 7D AD JC 8S 3S 5D JK AS KC 6D JD 9H 4D 8S 2D QD JS QD 8D 7S 8H TS JH 8C 5S 5C TH",
          "stock_known_bottom": 2}"#,
    );
    let held = |t: &GameState, c: &str| {
        t.hand(0)
            .iter()
            .filter(|x| x.rank() == card(c).rank())
            .count()
    };
    let (t, turn) = play_turn(&g, &params(""));
    assert_eq!((held(&t, "4C"), held(&t, "6C")), (0, 0), "{turn:?}");
    assert_eq!(held(&t, "7C"), 2, "{turn:?}");
    for p in ["lone=off", "thin=off", OFF] {
        let (t, turn) = play_turn(&g, &params(p));
        assert_eq!((held(&t, "4C"), held(&t, "6C")), (3, 3), "{p}: {turn:?}");
    }
}
