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

mod d12_d14;
mod d9_d11;
mod i25_d16;
mod scripted;
