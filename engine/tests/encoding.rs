//! The learner's interface of both families, checked at every step of
//! random hands under each preset and several player counts: every
//! listed action has an id that names it again (id → action → id), no two
//! listed actions share one, and the legal mask is the listing; every
//! seat's encoding has the documented length, fields and ranges; two
//! determinizations of a seat's view (different hidden cards) encode as
//! the view itself does; docs/ENCODING.md lists the fields as the code
//! lays them out; [`AnyGame`] plays by id and by text and scores, and
//! plays an action of its listing as it plays the same action unlisted.
//!
//! `KANASZTA_SOAK_HANDS` sets the number of hands per preset and player
//! count (default 2 in debug builds, 8 in optimised ones).

use kanaszta_engine::classic::{ClassicAction, ClassicRules, ClassicState, CLASSIC_PRESETS};
use kanaszta_engine::{
    Action, ActionIds, AnyError, AnyGame, Card, Encode, Field, GameState, HeldRow, Phase, Rank,
    Rules, Suit, CLASSIC_ACTION_IDS, CLASSIC_OBS_LEN, DECORATED_ACTION_IDS, DECORATED_OBS_LEN,
    MAX_GROUPS, MAX_PLAYERS, PRESETS,
};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn hands() -> u64 {
    std::env::var("KANASZTA_SOAK_HANDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 2 } else { 8 })
}

/// How the random policy treats an action.
#[derive(PartialEq)]
enum Sort {
    /// Ends the turn (a discard, an end).
    End,
    /// Undoes (a reset, a take-back): chosen rarely, so phases end.
    Undo,
    Other,
}

fn decorated_sort(a: &Action) -> Sort {
    match a {
        Action::Discard(_) => Sort::End,
        Action::Reset | Action::TakeBack { .. } | Action::TakeBackHeartAce => Sort::Undo,
        _ => Sort::Other,
    }
}

fn classic_sort(a: &ClassicAction) -> Sort {
    match a {
        ClassicAction::Discard(_) | ClassicAction::End => Sort::End,
        ClassicAction::Reset | ClassicAction::TakeBack { .. } => Sort::Undo,
        _ => Sort::Other,
    }
}

fn pick<A: Copy>(legal: &[A], sort: fn(&A) -> Sort, rng: &mut Pcg64Mcg) -> A {
    let ends: Vec<A> = legal
        .iter()
        .copied()
        .filter(|a| sort(a) == Sort::End)
        .collect();
    if !ends.is_empty() && rng.random_range(0..3) == 0 {
        return ends[rng.random_range(0..ends.len())];
    }
    let pool: Vec<A> = legal
        .iter()
        .copied()
        .filter(|a| sort(a) != Sort::Undo || rng.random_range(0..15) == 0)
        .collect();
    let pool = if pool.is_empty() { legal } else { &pool[..] };
    pool[rng.random_range(0..pool.len())]
}

/// Every value of every field within the field's documented range.
fn check_ranges(fields: &[Field], obs: &[f32], what: &str) {
    for f in fields {
        for (i, &x) in obs[f.offset..f.offset + f.len].iter().enumerate() {
            assert!(
                x.is_finite() && x >= f.min && x <= f.max,
                "{what}: field {} [{i}] = {x}, outside {}..={}",
                f.name,
                f.min,
                f.max
            );
        }
    }
}

/// What one family's soak counted.
#[derive(Default, Debug)]
struct Counted {
    steps: u64,
    ids: u64,
    determinized: u64,
    hidden_differ: u64,
}

/// Plays `g` to its end at random, checking ids, the mask and the
/// encodings at every step.
fn soak<G: ActionIds + Encode + PartialEq + std::fmt::Debug>(
    mut g: G,
    sort: fn(&G::Action) -> Sort,
    hidden: fn(&G, &G) -> bool,
    hand_len: fn(&[f32]) -> u32,
    hand_size: fn(&G, usize) -> u32,
    seed: u64,
    c: &mut Counted,
) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x1D5);
    let mut legal = Vec::new();
    let mut mask = vec![true; G::ACTION_IDS];
    let mut obs = vec![f32::NAN; G::OBS_LEN + 1];
    let mut again = vec![0.0f32; G::OBS_LEN];
    // The listing may hold one action twice (a wild both pending and in
    // hand extends a group the same way): equal actions share their id.
    let mut ids = std::collections::BTreeMap::new();
    while !g.is_terminal() {
        g.legal_mask(&mut legal, &mut mask);
        let mut listed = Vec::new();
        g.legal_actions(&mut listed);
        assert_eq!(
            legal, listed,
            "seed {seed}: legal_mask lists as legal_actions"
        );
        assert!(!legal.is_empty(), "seed {seed}: no legal action");
        ids.clear();
        for a in &legal {
            let id = G::action_id(a).unwrap_or_else(|| panic!("seed {seed}: {a} has no id"));
            assert!((id as usize) < G::ACTION_IDS, "seed {seed}: {a} id {id}");
            assert_eq!(
                g.action_from_id(id),
                Some(*a),
                "seed {seed}: id {id} of {a}"
            );
            let first = *ids.entry(id).or_insert(*a);
            assert_eq!(first, *a, "seed {seed}: two listed actions share id {id}");
            c.ids += 1;
        }
        for (id, &m) in mask.iter().enumerate() {
            assert_eq!(m, ids.contains_key(&(id as u32)), "seed {seed}: mask[{id}]");
        }
        for seat in 0..g.players() {
            obs[G::OBS_LEN] = f32::NAN;
            G::encode(&g.view(seat), &mut obs);
            assert!(
                obs[G::OBS_LEN].is_nan(),
                "nothing written past the encoding"
            );
            check_ranges(
                G::FIELDS,
                &obs[..G::OBS_LEN],
                &format!("seed {seed} seat {seat}"),
            );
            assert_eq!(
                hand_len(&obs),
                hand_size(&g, seat),
                "seed {seed} seat {seat}: the hand field holds the hand"
            );
        }
        // Two worlds of one view: other hidden cards, the same encoding.
        if c.steps.is_multiple_of(3) {
            let seat = (g.current_player() + c.steps as usize / 3) % g.players();
            G::encode(&g.view(seat), &mut obs);
            let w1 = G::determinize(&g.view(seat), &mut rng);
            let w2 = G::determinize(&g.view(seat), &mut rng);
            for w in [&w1, &w2] {
                G::encode(&w.view(seat), &mut again);
                assert!(
                    obs[..G::OBS_LEN] == again[..],
                    "seed {seed} seat {seat}: a determinization encodes otherwise"
                );
            }
            c.determinized += 1;
            if hidden(&w1, &w2) {
                c.hidden_differ += 1;
            }
        }
        let a = pick(&legal, sort, &mut rng);
        g.apply(a)
            .unwrap_or_else(|e| panic!("seed {seed}: listed {a} refused: {e}"));
        c.steps += 1;
        assert!(c.steps < 10_000_000, "runaway");
    }
}

fn decorated_hidden(a: &GameState, b: &GameState) -> bool {
    (0..a.players()).any(|p| a.hand(p) != b.hand(p))
}

fn classic_hidden(a: &ClassicState, b: &ClassicState) -> bool {
    (0..a.players()).any(|p| a.hand(p) != b.hand(p))
}

fn check_counted(c: &Counted, what: &str) {
    assert!(c.steps > 100 && c.ids >= c.steps, "{what}: {c:?}");
    // The worlds' hidden cards do differ: the encodings' equality is
    // not that of identical states.
    assert!(
        c.hidden_differ * 2 > c.determinized,
        "{what}: determinizations mostly differ in hidden cards: {c:?}"
    );
}

#[test]
fn decorated_ids_mask_and_encoding_hold_at_every_step() {
    for preset in PRESETS {
        for players in [2, 3, 4, 6] {
            let mut rules = Rules::preset(preset).unwrap();
            rules.set("players", &players.to_string()).unwrap();
            let mut c = Counted::default();
            for h in 0..hands() {
                let seed = 1000 * players + h;
                soak(
                    GameState::new(rules, seed),
                    decorated_sort,
                    decorated_hidden,
                    |obs| {
                        let f = GameState::field("hand").unwrap();
                        let h = &obs[f.offset..f.offset + f.len];
                        (h[..52].iter().sum::<f32>() * 2.0 + h[52] * 8.0).round() as u32
                    },
                    |g, seat| g.hand(seat).len(),
                    seed,
                    &mut c,
                );
            }
            check_counted(&c, &format!("{preset} {players} players"));
        }
    }
}

/// [`HeldRow::encode`] into one row kept from step to step, as
/// `VectorGame` keeps it, writes what [`Encode::encode`] writes: the
/// seat to act's view, now and then another seat's, over whole hands,
/// each hand's row the last hand's and the player counts from six down
/// (slots of absent players cleared).
#[test]
fn decorated_held_row_encodes_as_encode_does() {
    let mut row = vec![0.0f32; DECORATED_OBS_LEN];
    let mut want = vec![f32::NAN; DECORATED_OBS_LEN];
    let mut held = HeldRow::ZERO;
    let mut legal = Vec::new();
    let mut steps = 0;
    for players in [6, 4, 3, 2] {
        let mut rules = Rules::default();
        rules.set("players", &players.to_string()).unwrap();
        let mut rng = Pcg64Mcg::seed_from_u64(players as u64);
        for h in 0..hands() {
            let seed = 3000 * players as u64 + h;
            let mut g = GameState::new(rules, seed);
            while !g.is_terminal() {
                let seat = if rng.random_range(0..5) == 0 {
                    rng.random_range(0..players)
                } else {
                    g.current_player()
                };
                held.encode(&g.view(seat), &mut row);
                GameState::encode(&g.view(seat), &mut want);
                if let Some(i) =
                    (0..DECORATED_OBS_LEN).find(|&i| row[i].to_bits() != want[i].to_bits())
                {
                    panic!(
                        "seed {seed} seat {seat}: number {i} is {} not {}",
                        row[i], want[i]
                    );
                }
                steps += 1;
                g.legal_actions(&mut legal);
                g.apply(pick(&legal, decorated_sort, &mut rng)).unwrap();
            }
        }
    }
    assert!(steps > 100, "{steps} steps");
}

/// [`HeldRow::encode_mover`] after each meld-phase step other than a
/// discard or a reset (the steps that change only the mover's part),
/// [`HeldRow::encode_drawn`] after each draw-phase step (the mover's
/// part, the stock and the pile), and [`HeldRow::encode`] after the
/// others, into one row kept from step to step, writes what
/// [`Encode::encode`] writes: the seat to act's view, now and then another
/// seat's (with `encode_mover` or `encode_drawn` too, which then compare
/// every slot), over whole hands, for each number of players.
#[test]
fn decorated_mover_row_encodes_as_encode_does() {
    let mut row = vec![0.0f32; DECORATED_OBS_LEN];
    let mut want = vec![f32::NAN; DECORATED_OBS_LEN];
    let mut held = HeldRow::ZERO;
    let mut legal = Vec::new();
    let (mut steps, mut movers, mut draws) = (0, 0, 0);
    for players in [6, 4, 3, 2] {
        let mut rules = Rules::default();
        rules.set("players", &players.to_string()).unwrap();
        let mut rng = Pcg64Mcg::seed_from_u64(100 + players as u64);
        for h in 0..hands() {
            let seed = 5000 * players as u64 + h;
            let mut g = GameState::new(rules, seed);
            let (mut mover, mut drawn) = (false, false);
            while !g.is_terminal() {
                let other = rng.random_range(0..8) == 0;
                let seat = if other {
                    rng.random_range(0..players)
                } else {
                    g.current_player()
                };
                if drawn || (other && seat != g.current_player() && h % 2 == 1) {
                    held.encode_drawn(&g.view(seat), &mut row);
                    draws += usize::from(drawn);
                } else if mover || (other && seat != g.current_player()) {
                    held.encode_mover(&g.view(seat), &mut row);
                    movers += usize::from(mover);
                } else {
                    held.encode(&g.view(seat), &mut row);
                }
                GameState::encode(&g.view(seat), &mut want);
                if let Some(i) =
                    (0..DECORATED_OBS_LEN).find(|&i| row[i].to_bits() != want[i].to_bits())
                {
                    panic!(
                        "seed {seed} seat {seat} (mover {mover}, drawn {drawn}): number {i} is {} not {}",
                        row[i], want[i]
                    );
                }
                steps += 1;
                g.legal_actions(&mut legal);
                let a = pick(&legal, decorated_sort, &mut rng);
                // A row of another seat is followed by one of the seat to
                // act, which `encode_mover` writes whole.
                mover =
                    g.phase() == Phase::Meld && !matches!(a, Action::Discard(_) | Action::Reset);
                drawn = g.phase() == Phase::Draw;
                g.apply(a).unwrap();
            }
        }
    }
    assert!(
        steps > 100 && movers > 20 && draws > 20,
        "{steps} steps, {movers} after a meld step, {draws} after a draw-phase step"
    );
}

/// The rows `VectorGame` writes, into one row kept from step to step:
/// after each step the view of the seat to act, by
/// [`HeldRow::encode_melded`] after a meld step that keeps the table's
/// flags (an extend, a lay, a wild taken out, a swap, a conversion, a
/// take-back: the opening is marked, D-8, only on taking the rest and
/// at the discard), [`HeldRow::encode_mover`] after the other meld-phase
/// steps but a discard or a reset, [`HeldRow::encode_drawn`] after a
/// draw-phase step,
/// and [`HeldRow::encode`] after the others and after a new deal (the row
/// of the hand that ended holds the next hand's first view), for 2 and 4
/// players, write what [`Encode::encode`] writes. The seat to act changes
/// after every discard, so the row holds the last seat's slots, which
/// [`HeldRow::encode`] moves to where the next seat's view puts them.
#[test]
fn decorated_vector_rows_encode_as_encode_does() {
    let mut row = vec![0.0f32; DECORATED_OBS_LEN];
    let mut want = vec![f32::NAN; DECORATED_OBS_LEN];
    let mut legal = Vec::new();
    for players in [2, 4] {
        let mut rules = Rules::default();
        rules.set("players", &players.to_string()).unwrap();
        let mut rng = Pcg64Mcg::seed_from_u64(200 + players as u64);
        let seed = 7000 * players as u64;
        let mut held = HeldRow::ZERO;
        row.fill(0.0);
        let mut g = GameState::new(rules, seed);
        held.encode(&g.view(g.current_player()), &mut row);
        let (mut deals, mut turns, mut steps) = (0, 0, 0);
        while deals < 2 * hands() {
            g.legal_actions(&mut legal);
            let a = pick(&legal, decorated_sort, &mut rng);
            let mover = g.current_player();
            let phase = g.phase();
            g.apply(a).unwrap();
            let mut how = match phase {
                Phase::Meld
                    if !matches!(
                        a,
                        Action::Discard(_)
                            | Action::Reset
                            | Action::TakeRest
                            | Action::LayHeartAce
                            | Action::TakeBackHeartAce
                    ) =>
                {
                    "melded"
                }
                Phase::Meld if !matches!(a, Action::Discard(_) | Action::Reset) => "mover",
                Phase::Draw => "drawn",
                _ => "any",
            };
            if g.is_terminal() {
                deals += 1;
                g = GameState::new(rules, seed + deals);
                how = "any";
            }
            let seat = g.current_player();
            turns += usize::from(seat != mover);
            match how {
                "melded" => held.encode_melded(&g.view(seat), &mut row),
                "mover" => held.encode_mover(&g.view(seat), &mut row),
                "drawn" => held.encode_drawn(&g.view(seat), &mut row),
                _ => held.encode(&g.view(seat), &mut row),
            }
            GameState::encode(&g.view(seat), &mut want);
            if let Some(i) = (0..DECORATED_OBS_LEN).find(|&i| row[i].to_bits() != want[i].to_bits())
            {
                panic!(
                    "{players} players, deal {deals}, step {steps} ({how}): number {i} is {} not {}",
                    row[i], want[i]
                );
            }
            steps += 1;
        }
        assert!(turns > 40, "{players} players: {turns} changes of seat");
    }
}

#[test]
fn classic_ids_mask_and_encoding_hold_at_every_step() {
    for preset in CLASSIC_PRESETS {
        for players in [2, 3, 4, 6] {
            let mut rules = ClassicRules::preset(preset).unwrap();
            rules.set("players", &players.to_string()).unwrap();
            let mut c = Counted::default();
            for h in 0..hands() {
                let seed = 1000 * players + h;
                let g = ClassicState::new(rules, seed, h as usize % players as usize, [0; 6]);
                soak(
                    g,
                    classic_sort,
                    classic_hidden,
                    |obs| {
                        let f = ClassicState::field("hand").unwrap();
                        let h = &obs[f.offset..f.offset + f.len];
                        (h.iter().sum::<f32>() * 8.0).round() as u32
                    },
                    |g, seat| g.hand(seat).len(),
                    seed,
                    &mut c,
                );
            }
            check_counted(&c, &format!("{preset} {players} players"));
        }
    }
}

/// The fields lie end to end from 0 to the documented length.
fn check_layout(fields: &[Field], len: usize) {
    let mut at = 0;
    for f in fields {
        assert_eq!(f.offset, at, "field {} starts where the last ended", f.name);
        assert!(f.len > 0 && f.min < f.max, "field {}", f.name);
        at += f.len;
    }
    assert_eq!(at, len);
}

/// Every group's numbers in the decorated `groups` field are its cards
/// counted card by card: the copies of each suit of its rank and of the
/// 2s / 2, its jokers and its size / 8, at every step of random hands.
#[test]
fn decorated_groups_encode_their_cards_counted_card_by_card() {
    let field = GameState::field("groups").unwrap();
    let width = field.len / MAX_PLAYERS / MAX_GROUPS;
    let mut obs = vec![0.0f32; DECORATED_OBS_LEN];
    let mut legal = Vec::new();
    let mut seen = 0u64;
    for seed in 0..hands() {
        for players in [2u8, 3, 4] {
            let rules = Rules {
                players,
                ..Rules::default()
            };
            let mut g = GameState::new(rules, seed);
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let n = players as usize;
            let mut steps = 0;
            while !g.is_terminal() && steps < 3000 {
                let seat = g.current_player();
                let v = g.view(seat);
                GameState::encode(&v, &mut obs);
                for q in 0..n {
                    let run = field.offset + q * MAX_GROUPS * width;
                    for (i, gr) in v.table((seat + q) % n).groups().iter().enumerate() {
                        let f = &obs[run + i * width..][..width];
                        let half = |c: Card| gr.count(c) as f32 / 2.0;
                        for s in Suit::ALL {
                            let natural = gr.rank().map_or(0.0, |r| half(Card::new(r, s)));
                            assert_eq!(f[13 + s as usize], natural, "seed {seed} group {i}");
                            let two = half(Card::new(Rank::Two, s));
                            assert_eq!(f[17 + s as usize], two, "seed {seed} group {i}");
                        }
                        assert_eq!(f[21], gr.jokers() as f32 / 8.0);
                        assert_eq!(f[22], gr.len() as f32 / 8.0);
                        seen += 1;
                    }
                }
                g.legal_actions(&mut legal);
                g.apply(legal[rng.random_range(0..legal.len())]).unwrap();
                steps += 1;
            }
        }
    }
    assert!(seen > 100, "{seen} groups");
}

#[test]
fn the_encodings_have_the_documented_sizes() {
    check_layout(GameState::FIELDS, GameState::OBS_LEN);
    check_layout(ClassicState::FIELDS, ClassicState::OBS_LEN);
    assert_eq!(DECORATED_OBS_LEN, 7122);
    assert_eq!(CLASSIC_OBS_LEN, 456);
    assert_eq!(DECORATED_ACTION_IDS, 4850);
    assert_eq!(CLASSIC_ACTION_IDS, 233);
}

#[test]
fn the_encoding_doc_lists_every_field_where_the_code_puts_it() {
    let doc = include_str!("../../docs/ENCODING.md");
    for (family, fields) in [
        ("decorated", GameState::FIELDS),
        ("classic", ClassicState::FIELDS),
    ] {
        let section = doc
            .split("\n## ")
            .find(|s| s.to_lowercase().starts_with(&format!("{family} encoding")))
            .unwrap_or_else(|| panic!("docs/ENCODING.md has a section `## {family} encoding`"));
        for f in fields {
            let row = format!("| `{}` | {} | {} |", f.name, f.offset, f.len);
            assert!(
                section.contains(&row),
                "{family}: docs/ENCODING.md lacks `{row}`"
            );
        }
        let rows = section.lines().filter(|l| l.starts_with("| `")).count();
        assert_eq!(rows, fields.len(), "{family}: one row a field");
    }
}

#[test]
fn every_decorated_id_decodes_to_an_action_that_encodes_back() {
    // Groups on the mover's table, so that steps on them decode.
    let mut g = AnyGame::new("decorated-2003-02", 2, 11).unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let (mut decoded, mut steps) = (0, 0);
    for _ in 0..400 {
        if g.is_terminal() {
            break;
        }
        for id in 0..DECORATED_ACTION_IDS as u32 {
            if let Ok(a) = g.action_from_id(id) {
                assert_eq!(g.action_id(a), Some(id), "{a}");
                decoded += 1;
            }
        }
        let legal = g.legal_actions();
        let a = legal[rng.random_range(0..legal.len())];
        g.apply(a).unwrap();
        steps += 1;
    }
    // Every id below the group steps decodes; some group steps do too.
    assert!(steps > 50 && decoded > steps * 825, "{decoded} in {steps}");
    assert!(g.action_from_id(DECORATED_ACTION_IDS as u32).is_err());
}

/// The hand's position JSON, either family.
fn position(g: &AnyGame) -> String {
    match (g.decorated(), g.classic()) {
        (Some(d), _) => d.to_position_json(),
        (_, Some(c)) => c.to_position_json(),
        _ => unreachable!("a hand is of one family"),
    }
}

#[test]
fn any_game_applies_a_listed_action_as_an_unlisted_one() {
    // After `legal_ids` / `legal_mask`, `apply` takes the listed fast
    // path; a clone has no listing and takes the checking one. Both must
    // reach the same hand, and a refused action must be refused alike
    // (same rule and message), leave the hand as it was and keep the
    // listing usable.
    for (preset, players) in [
        ("decorated-2003-02", 2),
        ("decorated-2003-01", 3),
        ("classic-002", 2),
        ("classic-003", 4),
    ] {
        let mut rng = Pcg64Mcg::seed_from_u64(17);
        let (mut steps, mut refused) = (0, 0);
        for seed in 0..2 {
            let mut g = AnyGame::new(preset, players, seed).unwrap();
            let mut ids = Vec::new();
            let mut mask = vec![false; g.action_ids()];
            while !g.is_terminal() && steps < 4000 {
                if steps % 2 == 0 {
                    g.legal_ids(&mut ids);
                } else {
                    g.legal_mask(&mut mask).unwrap();
                    ids = (0..mask.len() as u32)
                        .filter(|&i| mask[i as usize])
                        .collect();
                }
                let before = position(&g);
                // A few ids the listing does not hold, refused alike.
                let start = rng.random_range(0..g.action_ids() as u32);
                let mut tried = 0;
                for id in (start..g.action_ids() as u32).step_by(37) {
                    if ids.contains(&id) || tried == 3 {
                        continue;
                    }
                    let Ok(a) = g.action_from_id(id) else {
                        continue;
                    };
                    tried += 1;
                    let slow = g.clone().apply(a);
                    let fast = g.apply(a);
                    match (&slow, &fast) {
                        (Err(s), Err(f)) => {
                            assert_eq!(s.to_string(), f.to_string());
                            assert!(matches!(f, AnyError::Illegal(_)), "{f}");
                            assert_eq!(
                                position(&g),
                                before,
                                "{preset}: refused `{a}` changed the hand"
                            );
                            refused += 1;
                        }
                        _ => {
                            panic!("{preset}: `{a}` not listed: {slow:?} unlisted, {fast:?} listed")
                        }
                    }
                }
                let i = ids[rng.random_range(0..ids.len())];
                let a = g.action_from_id(i).unwrap();
                let mut slow = g.clone();
                slow.apply(a).unwrap();
                g.apply(a).unwrap();
                assert_eq!(position(&slow), position(&g), "{preset}: `{a}`");
                steps += 1;
            }
            if g.is_terminal() {
                assert!(g.apply_id(0).is_err());
            }
        }
        assert!(
            steps > 200 && refused > 100,
            "{preset}: {steps} steps, {refused} refused"
        );
    }
}

#[test]
fn any_game_plays_both_families_by_id_text_and_action() {
    for (preset, players) in [("decorated", 3), ("classic-002", 2), ("classic-003", 4)] {
        let mut g = AnyGame::new(preset, players, 5).unwrap();
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        let mut ids = Vec::new();
        let mut mask = vec![false; g.action_ids()];
        let mut obs = vec![0.0; g.obs_len()];
        let mut k = 0;
        while !g.is_terminal() {
            g.legal_ids(&mut ids);
            g.legal_mask(&mut mask).unwrap();
            let text = g.legal_text();
            assert_eq!(ids.len(), text.len());
            assert_eq!(mask.iter().filter(|&&m| m).count(), ids.len());
            g.encode(g.current_player(), &mut obs).unwrap();
            let i = rng.random_range(0..ids.len());
            // By text and by id, the same hand follows.
            let mut by_text = g.clone();
            by_text.apply_text(&text[i]).unwrap();
            g.apply_id(ids[i]).unwrap();
            assert_eq!(
                format!("{:?}", by_text.view_text(0)),
                format!("{:?}", g.view_text(0))
            );
            k += 1;
            if k > 3000 && i % 2 == 0 {
                break;
            }
        }
        for side in 0..g.sides() {
            let s = g.score(side).unwrap();
            assert_eq!(s.total, g.scores()[side]);
            assert_eq!(
                s.parts.iter().map(|p| p.1).sum::<i32>(),
                s.total,
                "{preset}: the parts sum to the total {s:?}"
            );
        }
        let w = g.determinize(0, 1).unwrap();
        assert_eq!(w.family(), g.family());
        assert!(g.determinize(players, 1).is_err());
        assert!(g.encode(players, &mut obs).is_err());
        let e = g.encode(0, &mut obs[1..]).unwrap_err().to_string();
        assert!(e.contains("the buffer holds"), "{e}");
        let e = g.legal_mask(&mut mask[1..]).unwrap_err().to_string();
        assert!(e.contains("action ids"), "{e}");
        assert!(g.score(g.sides()).is_err());
    }
}

#[test]
fn any_game_errors_name_what_was_wrong() {
    let e = AnyGame::new("bridge", 2, 1).unwrap_err().to_string();
    assert!(
        e.contains("unknown preset `bridge`") && e.contains("classic-004"),
        "{e}"
    );
    let e = AnyGame::new("classic", 7, 1).unwrap_err().to_string();
    assert!(e.contains("players"), "{e}");
    let mut g = AnyGame::new("decorated-2003-01", 2, 1).unwrap();
    let e = g.apply_text("discrad 3S").unwrap_err().to_string();
    assert!(
        e.contains("unknown action") && e.contains("discard CARD"),
        "{e}"
    );
    let e = g.apply_text("draw").unwrap_err();
    assert!(e.to_string().starts_with("D-3.1:"), "{e}");
    let e = g
        .apply_id(DECORATED_ACTION_IDS as u32)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("names no decorated action") && e.contains("0..4850"),
        "{e}"
    );
    // A step on a group the mover does not have decodes to nothing.
    let e = g.apply_id(825).unwrap_err().to_string();
    assert!(e.contains("needs the mover to have that group"), "{e}");
    let mut c = AnyGame::new("classic", 2, 1).unwrap();
    let e = c.apply_text("lay 8 1 1 1 1").unwrap_err().to_string();
    assert!(e.contains("expected 5 word(s)"), "{e}");
    // A lay before the draw: refused by the rules, naming one.
    let e = c.apply_id(120).unwrap_err();
    assert!(
        matches!(&e, AnyError::Illegal(r) if !r.rule.is_empty()),
        "{e}"
    );
}
