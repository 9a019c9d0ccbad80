//! Integration tests for RULES.md D-9 … D-16 and the interpretations I-12 …
//! I-20, I-22, I-23 and I-25 … I-31, on constructed positions
//! (`Position`), scripted hands and matches (`Match::record`).
//!
//! Every test names the identifier it checks in its name and doc comment,
//! and shows both what the rule allows and what it refuses (with the `rule`
//! of the `RuleError` where the engine refuses). Switches are tested in
//! both settings.

use kanaszta_engine::{
    Action, CanastaKind, Card, CardSet, GameState, HandEnd, Match, MoveBuf, Phase, Rules,
};

// ----- helpers ---------------------------------------------------------------

/// Rules with some switches set by `key=value` (`Rules::apply_settings`).
fn rules(settings: &[&str]) -> Rules {
    let mut r = Rules::default();
    r.apply_settings(settings.iter().copied())
        .unwrap_or_else(|e| panic!("{settings:?}: {e}"));
    r
}

fn c(s: &str) -> Card {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn cs(s: &str) -> CardSet {
    CardSet::parse(s).unwrap_or_else(|e| panic!("{e}"))
}

fn a(s: &str) -> Action {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// Applies actions in notation, separated by `;`; panics with the rule error
/// if one is refused.
fn act(g: &mut GameState, script: &str) {
    for s in script.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        if let Err(e) = g.apply(a(s)) {
            let p = g.current_player();
            panic!(
                "`{s}` refused: {e}\nhand [{}] table {:?}",
                g.hand(p),
                g.table(p)
            );
        }
    }
}

/// Applies an action that must be refused; checks that the refusal changed
/// nothing and returns the rule it names.
fn refused(g: &mut GameState, s: &str) -> &'static str {
    let before = g.clone();
    match g.apply(a(s)) {
        Ok(()) => panic!("`{s}` was accepted"),
        Err(e) => {
            assert!(*g == before, "a refused `{s}` changed the state: {e}");
            e.rule
        }
    }
}

fn legal(g: &GameState) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

fn is_legal(g: &GameState, s: &str) -> bool {
    legal(g).contains(&a(s))
}

/// Group `i` of player `p`, as a card set.
fn group(g: &GameState, p: usize, i: usize) -> CardSet {
    g.table(p)
        .group(i)
        .unwrap_or_else(|| panic!("player {p} has no group {i}"))
        .cards()
}

/// A hand that ends stalled (I-5) at once: `turn_cap = 1`, the starter keeps
/// no cut card and discards. The first seed whose deal gives the players
/// `red` red threes (player 0, player 1) is used, so that under
/// `stalled_hand_cards = ignore` the raw scores are exactly 100 × red threes.
fn stalled_hand(settings: &[&str], red: [u32; 2]) -> GameState {
    let mut all = vec!["turn_cap=1"];
    all.extend_from_slice(settings);
    let r = rules(&all);
    for seed in 0..5000 {
        let mut g = GameState::new(r, seed);
        act(&mut g, "keep 000");
        if (0..2).any(|p| g.table(p).red_threes.len() != red[p]) {
            continue;
        }
        let s = g.current_player();
        let card = g.hand(s).iter().next().unwrap();
        g.apply(Action::Discard(card)).unwrap();
        assert_eq!(g.end(), Some(HandEnd::Stalled));
        return g;
    }
    panic!("no seed deals red threes {red:?}");
}

// ----- I-30, I-31, D-16 on scripted hands --------------------------------------

/// I-30: a stalled hand (I-5) is scored like any other: cards left in hand
/// count minus under `stalled_hand_cards = minus` (the default), nothing
/// under `ignore`; nobody gets a going-out bonus.
#[test]
fn i30_stalled_hand_cards_minus_and_ignore() {
    for (setting, minus) in [
        ("stalled_hand_cards=minus", true),
        ("stalled_hand_cards=ignore", false),
    ] {
        let g = stalled_hand(&[setting], [1, 0]);
        for p in 0..2 {
            let sc = g.score_of(p);
            let in_hand = g.hand(p).points();
            assert!(in_hand > 0, "player {p} holds cards");
            assert!(!sc.went_out && sc.going_out_points == 0 && sc.from_hand_points == 0);
            assert_eq!(sc.in_hand, if minus { -in_hand } else { 0 }, "{setting}");
            assert_eq!(sc.red_three_points, if p == 0 { 100 } else { 0 });
            assert_eq!(sc.total, sc.red_three_points + sc.in_hand, "{setting}");
        }
    }
    assert_eq!(
        Rules::default().stalled_hand_cards,
        rules(&["stalled_hand_cards=minus"]).stalled_hand_cards
    );
}

/// I-31: a hand whose two best raw scores tie has no winner; a match ends
/// after `max_hands` hands (default 200) with the highest total winning, and
/// a tie then is a drawn match.
#[test]
fn i31_hand_ties_and_max_hands() {
    let tie = stalled_hand(&["stalled_hand_cards=ignore"], [0, 0]);
    let p0 = stalled_hand(&["stalled_hand_cards=ignore"], [1, 0]);
    assert_eq!(Rules::default().max_hands, 200);

    // Default cap: two tied hands leave the match going.
    let mut m = Match::new(Rules::default(), 1);
    let rec = m.record(&tie);
    assert_eq!(rec.raw, vec![0, 0]);
    assert_eq!(rec.winner, None, "I-31: tied hand, no winner");
    m.record(&tie);
    assert!(!m.is_over());

    // max_hands = 2: the second hand ends the match, drawn on a tie.
    let mut m = Match::new(rules(&["max_hands=2"]), 1);
    m.record(&tie);
    assert!(!m.is_over(), "one hand of two");
    m.record(&tie);
    let res = m.result().expect("capped after two hands");
    assert!(res.capped);
    assert_eq!(res.winner, None, "a tie at the cap is a drawn match");
    assert_eq!(res.hands, 2);

    // max_hands = 2 with a leader: the highest total wins.
    let mut m = Match::new(rules(&["max_hands=2"]), 1);
    let rec = m.record(&p0);
    assert_eq!(rec.winner, Some(0));
    m.record(&tie);
    let res = m.result().expect("capped");
    assert!(res.capped);
    assert_eq!(res.winner, Some(0));
    assert_eq!(res.totals, vec![100, 0]);
}

/// D-16.2, I-20: the match is won by a running total strictly above the
/// target (default 10,000; switch `target`), checked at the end of a hand;
/// an exact tie for the lead plays another hand.
#[test]
fn d16_2_i20_target_strictly_above_and_ties() {
    assert_eq!(Rules::default().target, 10_000);
    let tie = stalled_hand(&["stalled_hand_cards=ignore"], [0, 0]);
    let p0 = stalled_hand(&["stalled_hand_cards=ignore"], [1, 0]);
    let p1 = stalled_hand(&["stalled_hand_cards=ignore"], [0, 1]);

    // target = 100: reaching exactly 100 is not passing it.
    let mut m = Match::new(rules(&["target=100"]), 1);
    m.record(&p0);
    assert_eq!(m.totals(), &[100, 0]);
    assert!(!m.is_over(), "exactly the target does not win");
    m.record(&p0);
    let res = m.result().expect("200 > 100");
    assert_eq!(res.winner, Some(0));
    assert!(!res.capped);

    // Default target: 200 is far from 10,000.
    let mut m = Match::new(Rules::default(), 1);
    m.record(&p0);
    m.record(&p0);
    assert!(!m.is_over());

    // target = -1: both pass it with 0 — an exact tie for the lead plays on;
    // then both above it, the higher total wins.
    let mut m = Match::new(rules(&["target=-1"]), 1);
    m.record(&tie);
    assert!(!m.is_over(), "a tie for the lead plays another hand");
    m.record(&p1);
    assert_eq!(m.result().unwrap().winner, Some(1));
    assert_eq!(m.result().unwrap().totals, vec![0, 100]);
}

// ----- constructed positions ---------------------------------------------------

/// A position from JSON (see `Position`'s docs); panics with the parser's
/// message if it is refused.
fn pos(json: &str) -> GameState {
    let p = kanaszta_engine::Position::from_json(json)
        .unwrap_or_else(|e| panic!("bad position: {e}\n{json}"));
    p.to_state()
        .unwrap_or_else(|e| panic!("position refused: {e}\n{json}"))
}

/// A two-player position, built field by field and turned into the JSON of
/// `Position`. By default: player 0 to move, both free-pickup chances gone,
/// nothing on the tables, empty pile; the stock holds the remaining cards.
#[derive(Clone, Debug)]
struct P {
    settings: Vec<String>,
    current: usize,
    /// `draw` (step 1 of a turn to come) or `meld` (the card of the turn has
    /// been drawn: meld, then discard).
    phase: &'static str,
    hands: [String; 2],
    groups: [Vec<String>; 2],
    red_threes: [String; 2],
    twins: [u8; 2],
    heart_aces: [u8; 2],
    opened: [bool; 2],
    pile: String,
    pile_top_fresh: bool,
    free_pending: [bool; 2],
    totals: [i32; 2],
    stock: Option<String>,
}

impl P {
    fn new(phase: &'static str) -> P {
        P {
            settings: Vec::new(),
            current: 0,
            phase,
            hands: [String::new(), String::new()],
            groups: [Vec::new(), Vec::new()],
            red_threes: [String::new(), String::new()],
            twins: [0; 2],
            heart_aces: [0; 2],
            opened: [false; 2],
            pile: String::new(),
            pile_top_fresh: false,
            free_pending: [false; 2],
            totals: [0; 2],
            stock: None,
        }
    }
    /// Player 0 has drawn and is melding.
    fn meld() -> P {
        P::new("meld")
    }
    /// Player 0 is to draw or take from the pile.
    fn draw() -> P {
        P::new("draw")
    }
    fn rules(mut self, settings: &[&str]) -> P {
        self.settings.extend(settings.iter().map(|s| s.to_string()));
        self
    }
    fn hand(mut self, p: usize, cards: &str) -> P {
        self.hands[p] = cards.to_string();
        self
    }
    /// Groups laid in earlier turns; a player with groups has opened.
    fn table(mut self, p: usize, groups: &[&str]) -> P {
        self.groups[p] = groups.iter().map(|s| s.to_string()).collect();
        self.opened[p] = !groups.is_empty();
        self
    }
    fn red_threes(mut self, p: usize, cards: &str) -> P {
        self.red_threes[p] = cards.to_string();
        self
    }
    fn twins(mut self, p: usize, n: u8) -> P {
        self.twins[p] = n;
        self
    }
    fn heart_aces(mut self, p: usize, n: u8) -> P {
        self.heart_aces[p] = n;
        self.opened[p] = true;
        self
    }
    /// The pile, bottom first; `fresh`: its top is the previous player's
    /// discard of the turn just ended (a twin or a free pickup may follow).
    fn pile(mut self, cards: &str, fresh: bool) -> P {
        self.pile = cards.to_string();
        self.pile_top_fresh = fresh;
        self
    }
    fn free_pending(mut self, p: usize, pending: bool) -> P {
        self.free_pending[p] = pending;
        self
    }
    /// An explicit stock, bottom first (otherwise: the rest of the pack).
    fn stock(mut self, cards: &str) -> P {
        self.stock = Some(cards.to_string());
        self
    }
    fn mover(mut self, p: usize) -> P {
        self.current = p;
        self
    }
    fn totals(mut self, t: [i32; 2]) -> P {
        self.totals = t;
        self
    }
    /// The position in the `kanaszta-position/1` format.
    fn json(&self) -> String {
        let settings: Vec<&str> = self.settings.iter().map(String::as_str).collect();
        let r = rules(&settings);
        let players: Vec<serde_json::Value> = (0..2)
            .map(|p| {
                serde_json::json!({
                    "hand": self.hands[p],
                    "free_pending": self.free_pending[p],
                    "table": {
                        "groups": self.groups[p],
                        "red_threes": self.red_threes[p],
                        "twins": self.twins[p],
                        "heart_aces": self.heart_aces[p],
                        "opened": self.opened[p],
                    },
                })
            })
            .collect();
        let mut v = serde_json::json!({
            "format": "kanaszta-position/1",
            "seed": 1,
            "rules": r,
            "phase": self.phase,
            "starter": 0,
            "current": self.current,
            "turns": 10,
            "totals": self.totals,
            "players": players,
            "pile": self.pile,
        });
        if !self.pile.is_empty() {
            v["pile_top_fresh"] = serde_json::Value::Bool(self.pile_top_fresh);
        }
        if let Some(stock) = &self.stock {
            v["stock"] = serde_json::Value::from(stock.as_str());
        }
        v.to_string()
    }
    fn state(&self) -> GameState {
        let g = pos(&self.json());
        g.check_invariants().unwrap();
        assert_eq!(g.current_player(), self.current);
        g
    }
}

// ----- D-9 Groups ----------------------------------------------------------------

/// D-9.1: a group is one natural rank plus wilds, 3 to 8 cards, wilds
/// strictly fewer than naturals (3–4 cards: 1 wild, 5–6: 2, 7: 3), and a
/// group of 8 holds no wild — checked on `lay` and `extend` in play.
#[test]
fn d9_1_group_limits_in_play() {
    let mut g = P::meld()
        .table(0, &["KC KC KD KD KH KH KS"])
        .hand(0, "8C 8D 8S 8H 9C 2C 2D JK KS QC QD")
        .state();
    assert_eq!(
        refused(&mut g, "lay 8C 2C JK"),
        "D-9.1",
        "1 natural, 2 wilds"
    );
    assert_eq!(refused(&mut g, "lay 8C 8D"), "D-9.1", "fewer than 3");
    assert_eq!(refused(&mut g, "lay 8C 9C 2C"), "D-9.1", "two ranks");
    assert_eq!(
        refused(&mut g, "lay 8C 8D 2C JK"),
        "D-9.1",
        "4 cards, 2 wilds"
    );
    assert_eq!(
        refused(&mut g, "extend 0 2C"),
        "D-9.1",
        "8 cards with a wild"
    );
    act(&mut g, "lay 8C 8D 2C");
    assert_eq!(refused(&mut g, "extend 1 JK"), "D-9.1", "4 cards, 2 wilds");
    act(&mut g, "extend 1 8S; extend 1 JK");
    assert_eq!(
        group(&g, 0, 1),
        cs("8C 8D 8S 2C JK"),
        "5 cards hold 2 wilds"
    );
    assert_eq!(refused(&mut g, "extend 1 2D"), "D-9.1", "6 cards, 3 wilds");
    act(&mut g, "extend 1 8H; extend 1 2D");
    assert_eq!(
        group(&g, 0, 1),
        cs("8C 8D 8S 8H 2C 2D JK"),
        "7 cards hold 3 wilds"
    );
    act(&mut g, "extend 0 KS");
    assert_eq!(group(&g, 0, 0).len(), 8, "8 naturals");
    act(&mut g, "discard 9C");
}

/// D-9.2: the only exception: a group of wilds only, 3 to 7 cards.
#[test]
fn d9_2_wild_groups_three_to_seven() {
    let mut g = P::meld()
        .table(0, &["2C 2D JK JK JK JK JK"])
        .hand(0, "2H 2S JK 2C 9C 9D")
        .state();
    act(&mut g, "lay 2H 2S JK");
    assert!(g.table(0).group(1).unwrap().is_wild_only());
    assert_eq!(refused(&mut g, "extend 0 2C"), "D-9.2", "8 wilds");
    act(&mut g, "extend 1 2C");
    assert_eq!(group(&g, 0, 1), cs("2C 2H 2S JK"));
    act(&mut g, "discard 9C");
}

/// D-9.3: threes are never melded, neither in a new group nor added.
#[test]
fn d9_3_threes_never_melded() {
    let mut g = P::meld()
        .table(0, &["8C 8D 8S"])
        .hand(0, "3S 3S 3C 8H 9C 9D 9H 5C")
        .state();
    assert_eq!(refused(&mut g, "lay 3S 3S 3C"), "D-9.3");
    assert_eq!(refused(&mut g, "lay 9C 9D 3S"), "D-9.3");
    assert_eq!(refused(&mut g, "extend 0 3C"), "D-9.3");
    act(&mut g, "lay 9C 9D 9H; extend 0 8H; discard 5C");
    assert_eq!(g.hand(0), cs("3S 3S 3C"));
}

/// D-9.4: in `decorated-2003-02` one or both ♥A may be laid separately, at
/// the earliest in the opening turn, counting nothing towards the minimum;
/// `decorated-2003-01` has no separate heart aces.
#[test]
fn d9_4_heart_aces_laid_separately() {
    let p = P::meld().hand(0, "AH AH AC AD AS 5C 6D");
    let mut g = p.state();
    act(&mut g, "heart; heart");
    assert_eq!(g.table(0).heart_aces, 2, "both ♥A, each on its own");
    assert_eq!(
        refused(&mut g, "discard 5C"),
        "D-8.2",
        "♥A count nothing towards 50"
    );
    act(&mut g, "lay AC AD AS; discard 5C");
    assert!(g.table(0).opened);
    assert_eq!(g.table(0).heart_aces, 2);
    assert_eq!(group(&g, 0, 0), cs("AC AD AS"), "the group holds no ♥A");

    let mut g = p.clone().rules(&["version=decorated-2003-01"]).state();
    assert_eq!(refused(&mut g, "heart"), "D-9.4");
    assert!(!is_legal(&g, "heart"));
    act(&mut g, "lay AH AH AC; discard 5C");
}

/// I-12: `groups_per_rank = one` (default): one group per natural rank, more
/// cards of it go into it; `many`: a second group of the rank may be laid.
/// Groups of wilds only may be several in either case.
#[test]
fn i12_groups_per_rank_one_and_many() {
    let p = P::meld()
        .table(0, &["8C 8D 8S", "2C JK JK"])
        .hand(0, "8H 8H 8C 2D JK JK 5C 6D");
    let mut g = p.clone().state();
    assert_eq!(
        Rules::default().groups_per_rank,
        rules(&["groups_per_rank=one"]).groups_per_rank
    );
    assert_eq!(refused(&mut g, "lay 8H 8H 8C"), "I-12");
    act(&mut g, "extend 0 8H; lay 2D JK JK; discard 5C");
    assert_eq!(g.table(0).len(), 3, "a second group of wilds only");

    let mut g = p.rules(&["groups_per_rank=many"]).state();
    act(&mut g, "lay 8H 8H 8C; lay 2D JK JK; discard 5C");
    let eights = g
        .table(0)
        .groups()
        .iter()
        .filter(|gr| gr.rank() == c("8C").rank())
        .count();
    assert_eq!(eights, 2, "two groups of eights");
}

/// I-12: under `groups_per_rank = one` a pickup whose card must join a full
/// group (here a 7-card black canasta that cannot swap a wild, under
/// `black_canasta_wilds = convert_only`) is not possible; under `many` the
/// top card starts a new group; with a swap it joins the canasta.
#[test]
fn i12_pickup_onto_a_full_group() {
    let p = P::draw()
        .table(0, &["8C 8D 8S 8H JK JK JK"])
        .hand(0, "8C 2D KC KD 5C")
        .pile("5H 8D", false);
    let mut g = p
        .clone()
        .rules(&["groups_per_rank=one", "black_canasta_wilds=convert_only"])
        .state();
    assert_eq!(refused(&mut g, "take"), "I-9");
    assert!(!is_legal(&g, "take"));

    let mut g = p
        .clone()
        .rules(&["groups_per_rank=many", "black_canasta_wilds=convert_only"])
        .state();
    act(&mut g, "take; lay 8D 8C 2D; rest; discard 5H");
    assert_eq!(g.table(0).len(), 2);

    let mut g = p
        .rules(&["groups_per_rank=one", "black_canasta_wilds=swap"])
        .state();
    act(&mut g, "take; swap 0 8D JK; lay KC KD JK; rest; discard 5H");
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8D 8S 8H JK JK"));
}

// ----- D-10 Canastas ---------------------------------------------------------------

/// D-10: a canasta is a legal group of 7 or 8 cards, of five kinds (black,
/// red, gold, black wild, red wild), each reached here by extending in play.
#[test]
fn d10_canasta_kinds_built_in_play() {
    let mut g = P::meld()
        .table(
            0,
            &[
                "8C 8D 8S 8H JK JK",
                "9C 9C 9D 9D 9H 9H",
                "2C 2C 2D 2D 2H 2H",
                "JK JK JK JK JK 2S",
            ],
        )
        .hand(0, "8H 8C 9S 9S 2S JK QC QD QH")
        .state();
    assert_eq!(g.table(0).canastas(), 0);
    let kind = |g: &GameState, i: usize| g.table(0).group(i).unwrap().canasta_kind();
    act(&mut g, "extend 0 8H");
    assert_eq!(kind(&g, 0), Some(CanastaKind::Black));
    act(&mut g, "extend 1 9S");
    assert_eq!(kind(&g, 1), Some(CanastaKind::Red));
    act(&mut g, "extend 1 9S");
    assert_eq!(kind(&g, 1), Some(CanastaKind::Gold));
    act(&mut g, "extend 2 2S");
    assert_eq!(kind(&g, 2), Some(CanastaKind::RedWild), "all 2s");
    act(&mut g, "extend 3 JK");
    assert_eq!(kind(&g, 3), Some(CanastaKind::BlackWild), "2s and jokers");
    assert_eq!(g.table(0).canastas(), 4);
    // Nothing goes beyond the kinds: no 8th card in a black canasta.
    assert_eq!(refused(&mut g, "extend 0 8C"), "D-11.4");
    act(&mut g, "lay QC QD QH; discard 8C");
    let s = g.score_of(0);
    assert_eq!(
        s.canastas,
        [1, 1, 0, 1, 1],
        "black wild, black, red, red wild, gold"
    );
    assert_eq!(s.canasta_points, 200 + 300 + 500 + 600);
}

// ----- D-11 Rearranging ------------------------------------------------------------

/// D-11.1: extend: add a card from the hand (dealt or drawn) to one of one's
/// groups, keeping D-9; only after step 1 of the turn.
#[test]
fn d11_1_extend_from_hand() {
    let p = P::meld().table(0, &["8C 8D 8S"]).hand(0, "8H KC KD QC");
    let mut g = p.clone().state();
    act(&mut g, "extend 0 8H");
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8S 8H"));
    assert!(!g.hand(0).contains(c("8H")));
    assert_eq!(
        refused(&mut g, "extend 0 8H"),
        "D-11.1",
        "no 8H left in hand"
    );
    assert_eq!(
        refused(&mut g, "extend 0 KC"),
        "D-9.1",
        "a king among eights"
    );
    act(&mut g, "discard QC");

    let mut g = P { phase: "draw", ..p }.state();
    assert_eq!(refused(&mut g, "extend 0 8H"), "D-5.1", "draw first");
}

/// D-11.2: a wild taken out of a group (which stays legal) never returns to
/// the hand: it must go at once into another group, existing or new.
#[test]
fn d11_2_moved_wild_goes_into_another_group() {
    let p = P::meld()
        .table(0, &["8C 8D 8S 2C", "KC KD KH KS", "9C 9D 2H"])
        .hand(0, "QC QD 5H 6H 7H");
    let mut g = p.clone().state();
    assert_eq!(
        refused(&mut g, "unwild 2 2H"),
        "D-11.2",
        "9C 9D alone is no group"
    );
    act(&mut g, "unwild 0 2C");
    assert_eq!(g.pending_wilds(), cs("2C"));
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8S"));
    assert!(!g.hand(0).contains(c("2C")), "not into the hand");
    assert_eq!(refused(&mut g, "discard 5H"), "D-11.2");
    assert_eq!(refused(&mut g, "takeback 1"), "D-11.2");
    act(&mut g, "extend 1 2C");
    assert_eq!(group(&g, 0, 1), cs("KC KD KH KS 2C"));
    assert!(g.pending_wilds().is_empty());
    act(&mut g, "discard 5H");

    // Into a group being laid this turn.
    let mut g = p.state();
    act(&mut g, "unwild 0 2C; lay QC QD 2C; discard 5H");
    assert_eq!(group(&g, 0, 3), cs("QC QD 2C"));
}

/// D-11.3: a group of wilds only that is not a canasta may be broken up, its
/// wilds going into other groups (a wild canasta cannot, I-22).
#[test]
fn d11_3_wild_group_broken_up() {
    let mut g = P::meld()
        .table(0, &["2C JK JK", "KC KD KH KS KC", "QC QD QH QS"])
        .hand(0, "5C 6D 7H")
        .state();
    act(&mut g, "unwild 0 JK");
    assert_eq!(g.table(0).len(), 2, "the group of wilds is gone");
    assert_eq!(
        g.pending_wilds(),
        cs("2C JK JK"),
        "all its wilds must be placed"
    );
    assert_eq!(refused(&mut g, "discard 5C"), "D-11.2");
    act(&mut g, "extend 0 JK; extend 0 JK; extend 1 2C; discard 5C");
    assert_eq!(group(&g, 0, 0), cs("KC KC KD KH KS JK JK"));
    assert_eq!(group(&g, 0, 1), cs("QC QD QH QS 2C"));

    let mut g = P::meld()
        .table(0, &["2C JK JK JK JK JK JK", "KC KD KH KS KC"])
        .hand(0, "5C 6D 7H")
        .state();
    assert_eq!(
        refused(&mut g, "unwild 0 JK"),
        "I-22",
        "a wild canasta stays"
    );
}

/// D-11.4: a group becomes a canasta when brought to 7; a black canasta never
/// exceeds 7 cards: a natural joins it only while a wild leaves (swap).
#[test]
fn d11_4_black_canasta_never_exceeds_seven() {
    let mut g = P::meld()
        .table(
            0,
            &["8C 8D 8S 8H 8C 2C JK", "KC KD KH", "9C 9C 9D 9D 9H 9H"],
        )
        .hand(0, "8D 8H 9S QC QD")
        .state();
    assert_eq!(refused(&mut g, "extend 0 8D"), "D-11.4");
    act(&mut g, "extend 2 9S");
    assert_eq!(
        g.table(0).group(2).unwrap().canasta_kind(),
        Some(CanastaKind::Red),
        "6 → 7: a canasta"
    );
    act(&mut g, "swap 0 8D JK; extend 1 JK");
    assert_eq!(group(&g, 0, 0), cs("8C 8C 8D 8D 8S 8H 2C"));
    assert_eq!(
        g.table(0).group(0).unwrap().canasta_kind(),
        Some(CanastaKind::Black)
    );
    assert_eq!(refused(&mut g, "extend 0 8H"), "D-11.4", "still 7 at most");
    act(&mut g, "discard QC");
}

/// I-13 `swap` (default): a wild leaves a black canasta only when a natural
/// of its rank replaces it in the same move, so it stays a canasta; taking
/// all wilds out for naturals makes it red. `unwild` and `convert` are refused.
#[test]
fn i13_black_canasta_wilds_swap() {
    let mut g = P::meld()
        .table(0, &["8C 8D 8S 8H 8C 2C JK", "QC QD QH QS QC"])
        .hand(0, "8D 8H KC KD 5C")
        .state();
    assert_eq!(
        Rules::default().black_canasta_wilds,
        rules(&["black_canasta_wilds=swap"]).black_canasta_wilds
    );
    assert_eq!(refused(&mut g, "unwild 0 JK"), "I-13");
    assert_eq!(refused(&mut g, "convert 0 8D 8H"), "I-13");
    assert_eq!(
        refused(&mut g, "swap 0 KC JK"),
        "I-13",
        "not a natural of its rank"
    );
    act(&mut g, "swap 0 8D JK; extend 1 JK");
    assert_eq!(
        g.table(0).group(0).unwrap().canasta_kind(),
        Some(CanastaKind::Black)
    );
    assert_eq!(g.table(0).group(0).unwrap().wilds(), 1, "5 + 2 → 6 + 1");
    act(&mut g, "swap 0 8H 2C; extend 1 2C; discard 5C");
    assert_eq!(
        g.table(0).group(0).unwrap().canasta_kind(),
        Some(CanastaKind::Red)
    );
    assert_eq!(group(&g, 0, 1), cs("QC QC QD QH QS 2C JK"));
}

/// I-13 `convert_only`: all wilds leave a black canasta at once, naturals
/// making it red (7) or gold (8); a single swap is refused.
#[test]
fn i13_black_canasta_wilds_convert_only() {
    let mut g = P::meld()
        .rules(&["black_canasta_wilds=convert_only"])
        .table(0, &["8C 8D 8S 8H 8C 2C JK", "QC QD QH QS QC"])
        .hand(0, "8D 8H KC KD 5C")
        .state();
    assert_eq!(refused(&mut g, "swap 0 8D JK"), "I-13");
    assert_eq!(refused(&mut g, "unwild 0 JK"), "I-13");
    assert_eq!(
        refused(&mut g, "convert 0 8D"),
        "I-13",
        "6 naturals is no canasta"
    );
    act(&mut g, "convert 0 8D 8H");
    assert_eq!(
        g.table(0).group(0).unwrap().canasta_kind(),
        Some(CanastaKind::Red)
    );
    assert_eq!(g.pending_wilds(), cs("2C JK"));
    act(&mut g, "extend 1 2C; extend 1 JK; discard 5C");
    assert_eq!(
        g.table(0).group(1).unwrap().canasta_kind(),
        Some(CanastaKind::Black)
    );

    // Four naturals for three wilds: gold.
    let mut g = P::meld()
        .rules(&["black_canasta_wilds=convert_only"])
        .table(0, &["8C 8D 8S 8H 2C 2D JK", "QC QD QH QS QC"])
        .hand(0, "8C 8D 8S 8H KC KD KH 5C")
        .state();
    act(&mut g, "convert 0 8C 8D 8S 8H");
    assert_eq!(
        g.table(0).group(0).unwrap().canasta_kind(),
        Some(CanastaKind::Gold)
    );
    act(&mut g, "extend 1 2C; extend 1 2D; lay KC KD JK; discard 5C");
}

/// I-22 `wild_canasta = locked` (default): no wild ever leaves a wild
/// canasta; `open`: D-11.2 applies and the group stays legal at 3–6 wilds.
#[test]
fn i22_wild_canasta_locked_and_open() {
    let p = P::meld()
        .table(0, &["2C 2D JK JK JK JK JK", "KC KD KH KS KC"])
        .hand(0, "5C 6D 7H");
    let mut g = p.clone().state();
    assert_eq!(
        Rules::default().wild_canasta,
        rules(&["wild_canasta=locked"]).wild_canasta
    );
    assert_eq!(refused(&mut g, "unwild 0 JK"), "I-22");
    assert_eq!(refused(&mut g, "unwild 0 2C"), "I-22");

    let mut g = p.rules(&["wild_canasta=open"]).state();
    act(&mut g, "unwild 0 JK; extend 1 JK; discard 5C");
    let w = g.table(0).group(0).unwrap();
    assert!(w.is_wild_only() && w.is_legal() && !w.is_canasta());
    assert_eq!(w.wilds(), 6);
    assert_eq!(group(&g, 0, 1), cs("KC KC KD KH KS JK"));
}

/// D-11.5: a group laid this turn may be taken back into the hand before the
/// discard (e.g. when the opening minimum cannot be reached); anything laid
/// in an earlier turn stays.
#[test]
fn d11_5_take_back_this_turn_only() {
    let mut g = P::meld()
        .table(0, &["8C 8D 8S"])
        .hand(0, "KC KD KH 5C 6D")
        .state();
    act(&mut g, "lay KC KD KH; takeback 1");
    assert_eq!(g.hand(0), cs("KC KD KH 5C 6D"));
    assert_eq!(g.table(0).len(), 1);
    assert_eq!(
        refused(&mut g, "takeback 0"),
        "D-12.2",
        "laid in an earlier turn"
    );

    // Short of the opening minimum: take it back and just discard (the
    // queens would have made it 60).
    let mut g = P::meld().hand(0, "KC KD KH QC QD QH 5C 6D").state();
    act(&mut g, "lay KC KD KH");
    assert_eq!(refused(&mut g, "discard 5C"), "D-8.2", "30 < 50");
    act(&mut g, "takeback 0; discard 5C");
    assert!(!g.table(0).opened && g.table(0).is_empty());
    assert_eq!(g.hand(0), cs("KC KD KH QC QD QH 6D"));
}

// ----- D-12 Forbidden ----------------------------------------------------------------

/// D-12.1: a group is never split into parts that each hold naturals, under
/// either `groups_per_rank` setting: no action takes naturals out of a group.
#[test]
fn d12_1_no_splitting() {
    for (setting, why) in [
        ("groups_per_rank=one", "I-12"),
        ("groups_per_rank=many", "D-11.1"),
    ] {
        let mut g = P::meld()
            .rules(&[setting])
            .table(0, &["AC AC AD AD AH AS"])
            .hand(0, "KC KD KH 5C 6D")
            .state();
        // A second group of aces would have to come from the hand.
        assert_eq!(refused(&mut g, "lay AC AD AS"), why, "{setting}");
        assert_eq!(refused(&mut g, "unwild 0 AC"), "D-11.2", "{setting}");
        let moves = legal(&g);
        assert!(moves.len() > 3);
        for m in moves {
            let mut t = g.clone();
            t.apply(m).unwrap();
            let aces = t.table(0).group(0).unwrap();
            assert_eq!(aces.naturals(), 6, "`{m}` under {setting}");
        }
        act(&mut g, "lay KC KD KH; discard 5C");
    }
}

/// D-12.2: melded cards never return to the hand (except D-11.5) and are
/// never discarded.
#[test]
fn d12_2_melded_cards_stay() {
    let mut g = P::meld()
        .table(0, &["8C 8D 8S"])
        .hand(0, "KC KD KH 5C 6D")
        .state();
    assert_eq!(refused(&mut g, "takeback 0"), "D-12.2");
    assert_eq!(refused(&mut g, "discard 8S"), "D-12.2");
    act(&mut g, "lay KC KD KH; takeback 1; discard 5C");
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8S"));
}

/// D-12.3: a ♥A laid separately never joins a group of aces, and a ♥A in a
/// group of aces never leaves it to lie separately.
#[test]
fn d12_3_heart_ace_never_moves() {
    let mut g = P::meld()
        .table(0, &["AC AD AS"])
        .heart_aces(0, 1)
        .hand(0, "KC KD 5C")
        .state();
    assert_eq!(refused(&mut g, "extend 0 AH"), "D-12.3");
    act(&mut g, "discard 5C");
    assert_eq!(g.table(0).heart_aces, 1);

    let mut g = P::meld()
        .table(0, &["AH AD AS"])
        .hand(0, "KC KD 5C")
        .state();
    assert_eq!(refused(&mut g, "heart"), "D-12.3");
    assert_eq!(refused(&mut g, "unwild 0 AH"), "D-11.2");
    // A ♥A from the hand may go either way.
    let mut g = P::meld()
        .table(0, &["AC AD AS"])
        .hand(0, "AH AH 5C 6D")
        .state();
    act(&mut g, "extend 0 AH; heart; discard 5C");
    assert_eq!(g.table(0).heart_aces, 1);
    assert_eq!(group(&g, 0, 0), cs("AC AD AH AS"));
}

// ----- D-13 Going out -----------------------------------------------------------------

/// D-13.1: a player goes out by discarding his last card, with a canasta; he
/// cannot go out by melding every card (no discard is then possible).
#[test]
fn d13_1_going_out_needs_canasta_and_discard() {
    let mut g = P::meld()
        .table(0, &["KC KC KD KD KH KH KS"])
        .hand(0, "8C 8D 8S 8H")
        .hand(1, "5C 6D")
        .state();
    // Melding every card leaves nothing to discard: refused (I-9), and
    // were it made, no discard could follow.
    assert_eq!(refused(&mut g, "lay 8C 8D 8S 8H"), "I-9");
    let mut all = g.clone();
    all.apply_listed(a("lay 8C 8D 8S 8H")).unwrap();
    assert!(all.hand(0).is_empty());
    assert_eq!(refused(&mut all, "discard 8H"), "D-12.2", "8H is melded");
    act(&mut g, "lay 8C 8D 8S; discard 8H");
    assert!(g.is_terminal());
    assert_eq!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: false,
            cleared_table: false
        })
    );

    let mut g = P::meld()
        .table(0, &["KC KD KH"])
        .hand(0, "8C 8D 8S 8H")
        .state();
    let mut made = g.clone();
    made.apply_listed(a("lay 8C 8D 8S")).unwrap();
    assert_eq!(refused(&mut made, "discard 8H"), "D-13.2", "no canasta");
    assert_eq!(refused(&mut g, "lay 8C 8D 8S"), "I-9", "a dead end");
}

/// D-13.2: without a canasta a player keeps at least one card after
/// discarding.
#[test]
fn d13_2_keep_a_card_without_canasta() {
    let mut g = P::meld()
        .table(0, &["KC KD KH"])
        .hand(0, "8C 8D 8S 9H")
        .state();
    // Laid, the eights would leave one card and no canasta: that card
    // cannot go (D-13.2), so the lay is not even listed (I-9).
    let mut made = g.clone();
    made.apply_listed(a("lay 8C 8D 8S")).unwrap();
    assert_eq!(refused(&mut made, "discard 9H"), "D-13.2");
    assert!(!legal(&g).contains(&a("lay 8C 8D 8S")));
    act(&mut g, "discard 9H");
    assert!(!g.is_terminal());
    assert_eq!(g.hand(0), cs("8C 8D 8S"));
}

/// I-9, D-13.1, D-13.2: with two cards in hand, nothing laid this turn and
/// no pickup in progress, an extend leaves one card that can only go out.
/// Without a canasta in reach it is not listed, and the candidate check
/// rules it out before trying it (`surely_unlisted`); with one in reach it
/// is listed. During a pickup, before the rest is taken, the same extend
/// is listed: the rest of the pile still comes.
#[test]
fn i9_extend_leaving_one_card() {
    let check = |g: &GameState, extend: &str, listed: bool, ruled_out: bool| {
        let extend = a(extend);
        assert_eq!(legal(g).contains(&extend), listed, "listed");
        let mut buf = MoveBuf::new();
        let mut c = g.moves(&mut buf);
        assert_eq!(c.surely_unlisted(extend), ruled_out, "ruled out");
        assert_eq!(c.is_listed(extend), listed, "checked");
        assert!(c.read_table_after(extend, |_| ()).is_some(), "a step made");
    };
    // No canasta in reach: the extend is ruled out.
    let g = P::meld()
        .table(0, &["8C 8D 8S", "KC KD KH"])
        .hand(0, "8H 5C")
        .state();
    check(&g, "extend 0 8H", false, true);
    // Extended to seven, the group is a canasta and 5C goes out.
    let g = P::meld()
        .table(0, &["8C 8D 8S 8S 8D JK", "KC KD KH"])
        .hand(0, "8H 5C")
        .state();
    check(&g, "extend 0 8H", true, false);
    // A wild moved from the kings makes the canasta: going out again.
    let g = P::meld()
        .table(0, &["8C 8D 8S 8S 8D", "KC KD KH JK"])
        .hand(0, "8H 5C")
        .state();
    check(&g, "extend 0 8H", true, false);
    // During a pickup: the pile taken with 8C 8D, 8C extended; the top
    // card (8H) and 8D are left. Extending 8D, then the top card, leaves
    // the rest of the pile to take and discard from.
    let mut g = P::draw()
        .table(0, &["8S 8S 8H"])
        .hand(0, "8C 8D")
        .pile("5C 6D 9S 8H", false)
        .state();
    act(&mut g, "take; extend 0 8C");
    assert_eq!(g.hand(0), cs("8D 8H"));
    check(&g, "extend 0 8D", true, false);
    act(&mut g, "extend 0 8D; extend 0 8H; rest; discard 5C");
    assert!(!g.is_terminal());
}

/// D-13.3: when a player goes out the others may do nothing more; cards left
/// in their hands count minus.
#[test]
fn d13_3_nothing_after_going_out() {
    let mut g = P::meld()
        .table(0, &["KC KC KD KD KH KH KS"])
        .hand(0, "9C")
        .hand(1, "QC 5H 2D")
        .state();
    act(&mut g, "discard 9C");
    assert_eq!(g.phase(), Phase::Over);
    assert!(legal(&g).is_empty());
    assert_eq!(refused(&mut g, "draw"), "D-13.3");
    assert_eq!(refused(&mut g, "discard QC"), "D-13.3");
    assert_eq!(g.score_of(1).in_hand, -35);
    assert_eq!(g.hand(1), cs("QC 5H 2D"), "player 1 did not move");
}

// ----- D-14 Scoring ---------------------------------------------------------------------

/// D-14.1: going out from hand (in the opening turn: all but one card laid,
/// a canasta among them, the last discarded) scores 100 + 100; a player who
/// had opened before gets 100.
#[test]
fn d14_1_going_out_from_hand() {
    let p = P::meld()
        .hand(0, "KC KC KD KD KH KH KS 9C")
        .hand(1, "5C 6D");
    let mut g = p.clone().state();
    act(&mut g, "lay KC KC KD KD KH KH KS; discard 9C");
    assert_eq!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: true,
            cleared_table: false
        })
    );
    let s = g.score_of(0);
    assert!(s.from_hand);
    assert_eq!((s.going_out_points, s.from_hand_points), (100, 100));
    assert_eq!(s.base, 400 + 200);
    assert_eq!(s.total, 600 + 70);
    assert_eq!(g.score_of(1).total, -10);

    let mut g = p.clone().table(0, &["5C 5D 5H"]).state();
    act(&mut g, "lay KC KC KD KD KH KH KS; discard 9C");
    let s = g.score_of(0);
    assert!(s.went_out && !s.from_hand);
    assert_eq!(s.base, 400 + 100);
    assert_eq!(s.total, 500 + 70 + 15);

    // Without a canasta there is no going out, from hand or not.
    let mut g = P::meld().hand(0, "KC KD KH 9C").state();
    g.apply_listed(a("lay KC KD KH")).unwrap();
    assert_eq!(refused(&mut g, "discard 9C"), "D-13.2");
}

/// D-14.2, I-14: clearing the table: from hand, with a penalized pickup of a
/// pile of at least 10 cards (the top card included), laying everything and
/// going out: 100 + 100 + 100. Played out through a real pickup turn.
#[test]
fn d14_2_i14_clearing_the_table_in_play() {
    // 10 cards with the top: cleared.
    let mut g = P::draw()
        .pile("4C 4C 4D 4D 4H 4H 4S 9C 9D KS", false)
        .hand(0, "KC KD 9H QC")
        .hand(1, "5C 6D")
        .state();
    act(&mut g, "take");
    assert_eq!(
        g.pickup().unwrap().pile_size,
        10,
        "I-14: the top card counts"
    );
    act(&mut g, "lay KC KD KS; rest");
    act(&mut g, "lay 4C 4C 4D 4D 4H 4H 4S; lay 9C 9D 9H; discard QC");
    assert_eq!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: true,
            cleared_table: true
        })
    );
    let s = g.score_of(0);
    assert_eq!(
        (
            s.going_out_points,
            s.from_hand_points,
            s.cleared_table_points
        ),
        (100, 100, 100)
    );
    assert_eq!(s.total, 400 + 300 + 30 + 35 + 30);

    // 9 cards with the top: from hand, but the table is not cleared.
    let mut g = P::draw()
        .pile("4C 4C 4D 4D 4H 4H 4S 9C KS", false)
        .hand(0, "KC KD 9D 9H QC")
        .state();
    act(
        &mut g,
        "take; lay KC KD KS; rest; lay 4C 4C 4D 4D 4H 4H 4S; lay 9C 9D 9H; discard QC",
    );
    assert_eq!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: true,
            cleared_table: false
        })
    );
    assert_eq!(g.score_of(0).cleared_table_points, 0);
    assert_eq!(g.score_of(0).total, 400 + 200 + 95);

    // Not from hand (opened before): no clearing, whatever the pile.
    let mut g = P::draw()
        .table(0, &["5C 5D 5H"])
        .pile("4C 4C 4D 4D 4H 4H 4S 9C 9D KS", false)
        .hand(0, "KC KD 9H QC")
        .state();
    act(
        &mut g,
        "take; lay KC KD KS; rest; lay 4C 4C 4D 4D 4H 4H 4S; lay 9C 9D 9H; discard QC",
    );
    let s = g.score_of(0);
    assert!(s.went_out && !s.from_hand && !s.cleared_table);
    assert_eq!(s.base, 400 + 100);
}

/// I-15: the worked example "went out from hand with a black wild canasta,
/// four red threes, three twins" is worth base 1,500 (not 2,300), played out.
#[test]
fn i15_from_hand_black_wild_canasta_1500() {
    let mut g = P::meld()
        .red_threes(0, "3H 3H 3D 3D")
        .twins(0, 3)
        .hand(0, "2C 2D JK JK JK JK JK 9C")
        .state();
    act(&mut g, "lay 2C 2D JK JK JK JK JK; discard 9C");
    let s = g.score_of(0);
    assert!(s.from_hand);
    assert_eq!(
        s.canastas,
        [1, 0, 0, 0, 0],
        "one black wild canasta, nothing else"
    );
    assert_eq!(s.base, 800 + 300 + 200 + 100 + 100);
    assert_ne!(s.base, 2300);
    assert_eq!(s.total, 1500 + 40 + 250);
}

/// I-16: a black three left in hand costs 100 when somebody goes out, in
/// both versions — never +100.
#[test]
fn i16_black_three_in_hand_minus_100() {
    for version in ["version=decorated-2003-02", "version=decorated-2003-01"] {
        let mut g = P::meld()
            .rules(&[version])
            .table(0, &["KC KC KD KD KH KH KS"])
            .hand(0, "9C")
            .hand(1, "3S 3C 5H")
            .state();
        act(&mut g, "discard 9C");
        let s = g.score_of(1);
        assert_eq!(s.in_hand, -205, "{version}");
        assert_eq!(s.total, -205, "{version}");
    }
}

// ----- I-25 … I-29 ------------------------------------------------------------------------

/// I-25: a meld phase is judged on its final state at the discard; older
/// groups stay; a group laid this turn taken back returns wilds moved into
/// it to where they came from; in a pickup turn, what was laid before the
/// rest of the pile is committed.
#[test]
fn i25_meld_phase_judged_at_the_discard() {
    // A wild moved into a new group goes back to its old group on takeback.
    let mut g = P::meld()
        .table(0, &["8C 8D 8S JK", "KC KD KH KS"])
        .hand(0, "QC QD 5C 6D 7H")
        .state();
    act(&mut g, "unwild 0 JK; lay QC QD JK");
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8S"));
    act(&mut g, "takeback 2");
    assert_eq!(
        group(&g, 0, 0),
        cs("8C 8D 8S JK"),
        "the joker returned to its group"
    );
    assert_eq!(g.hand(0), cs("QC QD 5C 6D 7H"), "not to the hand");
    assert_eq!(refused(&mut g, "takeback 0"), "D-12.2");
    act(&mut g, "discard 5C");

    // The opening is judged at the discard, whatever happened before.
    let mut g = P::meld().hand(0, "KC KD KH KS QC QD QH 5C 6D").state();
    act(&mut g, "lay KC KD KH");
    assert_eq!(refused(&mut g, "discard 5C"), "D-8.2");
    act(&mut g, "extend 0 KS; lay QC QD QH; discard 5C");
    assert!(g.table(0).opened);

    // A pickup turn: the group laid before the rest is committed.
    let mut g = P::draw()
        .table(0, &["5C 5D 5H"])
        .pile("4C 9C KS", false)
        .hand(0, "KC KD 9H QC")
        .state();
    act(&mut g, "take; lay KC KD KS");
    let mut before_rest = g.clone();
    act(&mut before_rest, "takeback 1");
    assert_eq!(
        refused(&mut before_rest, "rest"),
        "I-8",
        "the top card must be laid"
    );
    act(&mut g, "rest");
    assert_eq!(
        refused(&mut g, "takeback 1"),
        "D-12.2",
        "committed by the rest"
    );
    assert_eq!(
        refused(&mut g, "reset"),
        "I-25",
        "nothing to undo after the rest"
    );
    act(&mut g, "discard 9H");
    assert_eq!(group(&g, 0, 1), cs("KC KD KS"));
}

/// I-26: if what is laid before the rest of the pile falls short of the
/// opening minimum, the turn is legal only if the player goes out in it.
#[test]
fn i26_short_pickup_opening_must_go_out() {
    let mut g = P::draw()
        .pile("4C 4C 4D 4D 4H 4H 4S 9C 9D KS", false)
        .hand(0, "KC KD 9H QC")
        .state();
    act(&mut g, "take; lay KC KD KS; rest");
    assert!(g.must_go_out(), "30 < 50");
    assert_eq!(refused(&mut g, "discard QC"), "I-26");
    act(&mut g, "lay 4C 4C 4D 4D 4H 4H 4S; lay 9C 9D 9H; discard QC");
    assert!(matches!(g.end(), Some(HandEnd::WentOut { player: 0, .. })));

    // No way out: the pickup itself is refused.
    let mut g = P::draw()
        .pile("4C 4D 9C KS", false)
        .hand(0, "KC KD 9H QC")
        .state();
    assert_eq!(refused(&mut g, "take"), "I-9");

    // Reaching the minimum before the rest: an ordinary turn.
    let mut g = P::draw()
        .pile("4C 4D 9C KS", false)
        .hand(0, "KC KD KH JK 9H QC")
        .state();
    act(&mut g, "take; lay KC KD KH KS JK; rest");
    assert!(!g.must_go_out());
    act(&mut g, "discard 4C");
    assert!(!g.is_terminal() && g.table(0).opened);
}

/// I-27: the pickup precondition counts the hand only; under
/// `groups_per_rank = one` the top card may then join an existing group even
/// when the two hand cards could not join it too.
#[test]
fn i27_pickup_precondition_counts_the_hand_only() {
    let mut g = P::draw()
        .table(0, &["8C 8D 8S 8H JK JK"])
        .hand(0, "8C 2D QC QD QH")
        .pile("5C 8D", false)
        .state();
    act(&mut g, "take; extend 0 8D; rest");
    assert_eq!(
        g.table(0).group(0).unwrap().canasta_kind(),
        Some(CanastaKind::Black)
    );
    assert_eq!(
        refused(&mut g, "extend 0 8C"),
        "D-11.4",
        "the hand cards could not join"
    );
    act(&mut g, "discard 5C");

    // The group on the table does not count towards the precondition.
    let mut g = P::draw()
        .table(0, &["8C 8D 8S 8H JK JK"])
        .hand(0, "8C QC QD QH")
        .pile("5C 8D", false)
        .state();
    assert_eq!(refused(&mut g, "take"), "D-6.2");
}

/// I-28: a group of wilds only stays wilds only; a wild leaves a black canasta
/// only against a natural, never another wild; under `groups_per_rank =
/// many`, groups of one rank never merge and naturals never move.
#[test]
fn i28_wild_groups_stay_wild_and_naturals_stay_put() {
    let mut g = P::meld()
        .table(0, &["2C JK JK", "8C 8D 8S 8H 8C 2H JK"])
        .hand(0, "8D 9C 9D 2D JK")
        .state();
    assert_eq!(refused(&mut g, "extend 0 9C"), "I-28");
    assert_eq!(refused(&mut g, "swap 1 JK 2H"), "I-13", "a wild for a wild");
    assert_eq!(refused(&mut g, "swap 1 2D JK"), "I-13");
    act(&mut g, "extend 0 2D; swap 1 8D JK; extend 0 JK; discard 9C");
    assert_eq!(group(&g, 0, 0), cs("2C 2D JK JK JK"));

    let mut g = P::meld()
        .rules(&["groups_per_rank=many"])
        .table(0, &["8C 8D 8S", "8C 8D 8H JK"])
        .hand(0, "8S 9C 9D 5C")
        .state();
    for m in legal(&g) {
        let mut t = g.clone();
        t.apply(m).unwrap();
        let n0 = t.table(0).group(0).unwrap().naturals();
        let n1 = t.table(0).group(1).unwrap().naturals();
        assert!(n0 >= 3 && n1 >= 3, "`{m}` moved naturals");
        assert!(t.table(0).len() >= 2, "`{m}` merged groups");
    }
    assert_eq!(refused(&mut g, "unwild 0 8C"), "D-11.2");
    act(&mut g, "extend 0 8S; discard 5C");
    assert_eq!(group(&g, 0, 0), cs("8C 8D 8S 8S"));
    assert_eq!(group(&g, 0, 1), cs("8C 8D 8H JK"));
}

/// I-29: with `opening = table` and a minimum of 0, a separately laid ♥A may
/// be the whole opening (with a minimum of 50 it may not).
#[test]
fn i29_heart_ace_alone_opens_at_minimum_zero() {
    let p = P::meld().rules(&["opening=table"]).hand(0, "AH 5C 6D");
    let mut g = p.clone().totals([-100, 0]).state();
    assert_eq!(g.opening_minimum(0), 0);
    act(&mut g, "heart; discard 5C");
    assert!(g.table(0).opened);
    assert_eq!(g.table(0).heart_aces, 1);

    let mut g = p.totals([0, 0]).state();
    assert_eq!(g.opening_minimum(0), 50);
    let mut laid = g.clone();
    laid.apply_listed(a("heart")).unwrap();
    assert_eq!(refused(&mut laid, "discard 5C"), "D-8.2");
    // So it is not listed: the turn could not be ended without taking the
    // ♥A back (I-9).
    assert_eq!(refused(&mut g, "heart"), "I-9");
}

/// I-29: a discard that goes out can earn a twin.
#[test]
fn i29_going_out_discard_earns_a_twin() {
    let p = P::meld()
        .table(0, &["KC KC KD KD KH KH KS", "8C 8D 8S"])
        .hand(0, "8H 9C");
    let mut g = p.clone().pile("5C 9C", true).state();
    act(&mut g, "extend 1 8H; discard 9C");
    assert!(g.is_terminal());
    assert_eq!(g.table(0).twins, 1);
    assert_eq!(g.score_of(0).twin_points, 100);

    // The 9C on top is not the previous player's fresh discard: no twin.
    let mut g = p.pile("5C 9C", false).state();
    act(&mut g, "extend 1 8H; discard 9C");
    assert!(g.is_terminal());
    assert_eq!(g.table(0).twins, 0);
}

/// I-29: clearing the table needs a penalized pickup: going out from hand
/// after a free pickup from a big pile does not clear it.
#[test]
fn i29_free_pickup_does_not_clear_the_table() {
    let mut g = P::draw()
        .free_pending(0, true)
        .pile("4C 4C 4D 4D 4H 4H 4S 9C 9D 9H KS", true)
        .hand(0, "KC KC KD KD KH KH 9S")
        .state();
    assert!(g.free_pickup_offered());
    act(&mut g, "free; lay KC KC KD KD KH KH KS; discard 9S");
    assert_eq!(
        g.end(),
        Some(HandEnd::WentOut {
            player: 0,
            from_hand: true,
            cleared_table: false
        })
    );
    assert_eq!(g.score_of(0).cleared_table_points, 0);
}

// ----- D-15, D-16 through Match::record ------------------------------------------------

/// A finished hand: player 0 goes out (not from hand) with raw 2,375 — four
/// red threes 800, three twins 300, a gold canasta of kings 600 + 80, a red
/// canasta of fives 400 + 35, three queens 30, three nines 30, going out
/// 100 — while player 1 holds ♠3 ♣3 ♣J: −210.
fn hand_2375() -> GameState {
    let mut g = P::meld()
        .table(
            0,
            &[
                "KC KC KD KD KH KH KS KS",
                "5C 5C 5D 5D 5H 5H 5S",
                "QC QD QH",
                "9C 9D 9H",
            ],
        )
        .red_threes(0, "3H 3H 3D 3D")
        .twins(0, 3)
        .hand(0, "9S")
        .hand(1, "3S 3C JC")
        .state();
    act(&mut g, "discard 9S");
    assert_eq!(
        g.scores().iter().map(|s| s.total).collect::<Vec<_>>(),
        vec![2375, -210]
    );
    g
}

/// A finished hand: player 1 goes out with a black canasta of queens and
/// three 2s (300 + 100 + 100 = 500); player 0 has a red canasta of fives, three
/// fours and a twin, a ♠4 in hand: 400 + 100 + 35 + 15 − 5 = 545.
fn hand_545() -> GameState {
    let mut g = P::meld()
        .mover(1)
        .table(0, &["5C 5C 5D 5D 5H 5H 5S", "4C 4D 4H"])
        .twins(0, 1)
        .hand(0, "4S")
        .table(1, &["QC QD QH QS 2C 2D 2H"])
        .hand(1, "9C")
        .state();
    act(&mut g, "discard 9C");
    assert_eq!(
        g.scores().iter().map(|s| s.total).collect::<Vec<_>>(),
        vec![545, 500]
    );
    g
}

/// A finished hand: player 1 goes out with a red canasta of kings (570);
/// player 0 has nothing laid and ♠3 ♣3 ♣J in hand: −210.
fn hand_minus_210() -> GameState {
    let mut g = P::meld()
        .mover(1)
        .hand(0, "3S 3C JC")
        .table(1, &["KC KC KD KD KH KH KS"])
        .hand(1, "9C")
        .state();
    act(&mut g, "discard 9C");
    assert_eq!(
        g.scores().iter().map(|s| s.total).collect::<Vec<_>>(),
        vec![-210, 570]
    );
    g
}

/// Records `hands` in order; returns player 0's taxed scores and totals.
fn play(m: &mut Match, hands: &[&GameState]) -> (Vec<i32>, Vec<i32>) {
    let mut taxed = Vec::new();
    let mut totals = Vec::new();
    for h in hands {
        let rec = m.record(h);
        assert_eq!(rec.totals_after, m.totals());
        taxed.push(rec.taxed[0]);
        totals.push(rec.totals_after[0]);
    }
    (taxed, totals)
}

/// D-15, D-15.1 – D-15.3: the hand score is taxed by the running total of
/// the previous hands (below 5,000 unchanged, then halved, quartered, a
/// tenth) with the text's roundings, then added — through `Match::record`.
#[test]
fn d15_taxed_totals_through_match_record() {
    let big = hand_2375();
    let small = hand_545();
    let mut m = Match::new(Rules::default(), 1);
    let (taxed, totals) = play(
        &mut m,
        &[&big, &big, &small, &small, &big, &big, &big, &big, &big],
    );
    assert_eq!(
        taxed,
        vec![
            2375, // total 0: unchanged
            2375, // 2,375
            545,  // 4,750: still below 5,000
            275,  // 5,295: halved, D-15.1: 545 → 550 → 275
            1190, // 5,570: 2,375 → 2,380 → 1,190
            1190, // 6,760
            595,  // 7,950: quartered, D-15.2: 2,375 → 2,380 → 1,190 → 595
            595,  // 8,545
            240,  // 9,140: a tenth, D-15.3: 2,375 → 237 → 240
        ]
    );
    assert_eq!(
        totals,
        vec![2375, 4750, 5295, 5570, 6760, 7950, 8545, 9140, 9380]
    );
    // Player 1's totals stay low: his scores are never taxed.
    assert_eq!(m.totals()[1], -210 * 7 + 500 * 2);
    assert!(!m.is_over());
    assert_eq!(
        m.tax_paid()[0],
        (7 * 2375 + 2 * 545 - taxed.iter().sum::<i32>()) as i64
    );
}

/// D-16.1, I-19: the hand is won by the player with more points — the raw,
/// untaxed hand score; the record keeps the taxed one too.
#[test]
fn d16_1_i19_hand_won_on_raw_score() {
    let big = hand_2375();
    let small = hand_545();
    let mut m = Match::new(Rules::default(), 1);
    assert_eq!(m.record(&big).winner, Some(0));
    assert_eq!(m.record(&hand_minus_210()).winner, Some(1));
    m.record(&big);
    m.record(&big);
    assert!(m.totals()[0] >= 5000);
    let rec = m.record(&small);
    assert_eq!(rec.raw, vec![545, 500]);
    assert_eq!(rec.taxed, vec![275, 500], "player 0 is taxed, player 1 not");
    assert_eq!(
        rec.winner,
        Some(0),
        "I-19: 545 beats 500 although 275 < 500"
    );
}

/// I-17: negative hand scores are not taxed under `tax_negative = exempt`
/// (default); under `apply` the same rounding on the absolute value.
#[test]
fn i17_negative_scores_exempt_or_taxed() {
    let big = hand_2375();
    let neg = hand_minus_210();
    for (setting, expected) in [("tax_negative=exempt", -210), ("tax_negative=apply", -55)] {
        let mut m = Match::new(rules(&[setting]), 1);
        play(&mut m, &[&big, &big, &big]);
        assert_eq!(m.totals()[0], 7125);
        let rec = m.record(&neg);
        assert_eq!(rec.raw[0], -210);
        assert_eq!(rec.taxed[0], expected, "{setting}: 210 → 105 → 110 → 55");
        assert_eq!(m.totals()[0], 7125 + expected);
    }
    assert_eq!(
        Rules::default().tax_negative,
        rules(&["tax_negative=exempt"]).tax_negative
    );
}

/// I-18: `tax = off` leaves every score unchanged; a custom schedule
/// (thresholds and divisors) replaces D-15's.
#[test]
fn i18_tax_off_and_custom_schedule() {
    let big = hand_2375();
    let mut m = Match::new(rules(&["tax=off"]), 1);
    let (taxed, totals) = play(&mut m, &[&big, &big, &big, &big]);
    assert_eq!(taxed, vec![2375; 4]);
    assert_eq!(totals, vec![2375, 4750, 7125, 9500]);

    let mut m = Match::new(rules(&["tax=on"]), 1);
    let (taxed, _) = play(&mut m, &[&big, &big, &big, &big]);
    assert_eq!(taxed, vec![2375, 2375, 2375, 595]);

    let mut m = Match::new(rules(&["tax_schedule=2000:3"]), 1);
    let (taxed, totals) = play(&mut m, &[&big, &big, &big]);
    assert_eq!(taxed, vec![2375, 792, 792], "2,375 / 3 = 791.67 → 792");
    assert_eq!(totals, vec![2375, 3167, 3959]);
}

/// I-23: `tax_rounding = shortcut` (default, D-15.1 – D-15.3) against
/// `nearest` (the true quotient rounded to the nearest point, halves up).
#[test]
fn i23_tax_rounding_shortcut_and_nearest() {
    let big = hand_2375();
    let small = hand_545();
    let seq = [&big, &big, &small, &small, &big, &big, &big, &big, &big];
    let mut m = Match::new(rules(&["tax_rounding=shortcut"]), 1);
    let (shortcut, _) = play(&mut m, &seq);
    assert_eq!(
        shortcut,
        vec![2375, 2375, 545, 275, 1190, 1190, 595, 595, 240]
    );
    let mut m = Match::new(rules(&["tax_rounding=nearest"]), 1);
    let (nearest, totals) = play(&mut m, &seq);
    assert_eq!(
        nearest,
        vec![2375, 2375, 545, 273, 1188, 1188, 594, 594, 238],
        "272.5 → 273, 1,187.5 → 1,188, 593.75 → 594, 237.5 → 238"
    );
    assert_eq!(totals[8], 4750 + 545 + 273 + 2 * 1188 + 2 * 594 + 238);
    assert_eq!(
        Rules::default().tax_rounding,
        rules(&["tax_rounding=shortcut"]).tax_rounding
    );
}

/// D-16.2: with the default target the first total strictly above 10,000
/// wins, checked when a hand is recorded.
#[test]
fn d16_2_match_won_above_10000() {
    let big = hand_2375();
    let mut m = Match::new(rules(&["tax=off"]), 1);
    play(&mut m, &[&big, &big, &big, &big]);
    assert_eq!(m.totals()[0], 9500);
    assert!(!m.is_over());
    m.record(&big);
    let res = m.result().expect("11,875 > 10,000");
    assert_eq!(res.winner, Some(0));
    assert_eq!(res.hands, 5);
    assert!(!res.capped);
}

/// D-14: the first two worked examples, scored at the end of a real hand in
/// which the other player goes out: a red canasta of eights, three aces laid
/// and two jacks in hand make a card value of 110; a black canasta of 4
/// jacks + 3 twos, a red canasta of fives, one red three, one twin and an ace
/// in hand make 1,015.
#[test]
fn d14_worked_examples_scored_in_play() {
    let mut g = P::meld()
        .mover(1)
        .table(0, &["8C 8C 8D 8D 8H 8H 8S", "AC AD AS"])
        .hand(0, "JC JD")
        .table(1, &["KC KC KD KD KH KH KS"])
        .hand(1, "9C")
        .state();
    act(&mut g, "discard 9C");
    let s = g.score_of(0);
    assert_eq!((s.melded, s.in_hand, s.card_value), (130, -20, 110));
    assert_eq!(s.base, 400, "the red canasta; no going out");
    assert_eq!(s.total, 510);

    let mut g = P::meld()
        .mover(1)
        .table(0, &["JC JD JH JS 2C 2D 2H", "5C 5C 5D 5D 5H 5H 5S"])
        .red_threes(0, "3H")
        .twins(0, 1)
        .hand(0, "AS")
        .table(1, &["KC KC KD KD KH KH KS"])
        .hand(1, "9C")
        .state();
    act(&mut g, "discard 9C");
    let s = g.score_of(0);
    assert_eq!(s.base, 900);
    assert_eq!(s.card_value, 40 + 60 + 35 - 20);
    assert_eq!(s.total, 1015);
    assert_eq!(g.score_of(1).total, 400 + 100 + 70);
}

/// I-30: an exhausted hand (I-4: stock and pile empty when a card must be
/// drawn) is scored like any other, without a going-out bonus: cards in hand
/// count minus under `stalled_hand_cards = minus`, nothing under `ignore`.
#[test]
fn i30_exhausted_hand_cards_minus_and_ignore() {
    // Every card of the pack is on the tables or in the hands.
    let golds: Vec<String> = "4 5 6 7 8 9 T J Q K A"
        .split(' ')
        .map(|r| {
            ["C", "C", "D", "D", "H", "H", "S", "S"]
                .iter()
                .map(|s| format!("{r}{s}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let mut groups: Vec<&str> = golds.iter().map(String::as_str).collect();
    groups.push("2C 2C 2D 2D 2H 2H 2S");
    groups.push("JK JK JK JK JK JK JK");
    for (setting, minus) in [
        ("stalled_hand_cards=minus", true),
        ("stalled_hand_cards=ignore", false),
    ] {
        let mut g = P::draw()
            .rules(&[setting])
            .table(0, &groups)
            .red_threes(0, "3H 3H 3D 3D")
            .hand(0, "3S")
            .hand(1, "2S JK 3S 3C 3C")
            .stock("")
            .state();
        assert!(g.stock().is_empty() && g.pile().is_empty());
        act(&mut g, "draw");
        assert_eq!(g.end(), Some(HandEnd::Exhausted));
        let (s0, s1) = (g.score_of(0), g.score_of(1));
        assert!(!s0.went_out && s0.going_out_points == 0);
        assert_eq!(s0.in_hand, if minus { -100 } else { 0 }, "{setting}");
        assert_eq!(s1.in_hand, if minus { -370 } else { 0 }, "{setting}");
        assert_eq!(s1.total, s1.in_hand);
        assert_eq!(s0.canastas, [0, 0, 0, 2, 11], "two red wild, eleven gold");
    }
}
