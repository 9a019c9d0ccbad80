//! `rules`: a classic canasta player (C-1 … C-24) that plays like a careful
//! club player. It sees only its seat's [`ClassicView`]; a partner's hand
//! is hidden from it like an opponent's.
//!
//! - Start of the turn: in partnerships it asks "may I go out?" (C-18)
//!   when most sampled draws let it go out and its side leads (or the
//!   opponents threaten); it takes the pile (C-7, C-13, C-14) with a
//!   natural pair or onto its side's meld whenever the engine allows,
//!   with a natural and a wild only for a pile worth it; it takes 004's
//!   turned card (C-22) when it pairs with the hand.
//! - Answering (C-18): "yes" when its side leads and its own hand would
//!   cost little, or when the opponents threaten to go out; "no" when
//!   the partner's going out would cost.
//! - Opening (C-6, C-17): with `open_players` players or more where an
//!   opened side takes the pile onto its melds (002, 003; `minimum`,
//!   rules/late.rs), when its melds reach the minimum its side faces with
//!   at most `open_wilds` wilds, `open_step` more for each step of the
//!   minimum above 50 (90, 120), any number once an opponent side can go
//!   out; the opening is laid with the fewest wilds, and until its side
//!   opens it keeps the cards it will open with. Otherwise (and with
//!   `minimum=off`): only natural melds and at most `open_wilds` wilds,
//!   the first meld natural.
//! - Melding: naturals always (onto the side's melds first: partners
//!   share one table, C-20); wilds only to bring a meld of `wild_from`
//!   cards or more to a canasta (C-4, C-5), or a wild canasta (C-21).
//! - Going out (C-10, C-19): when the side leads by `go_out_margin`, the
//!   opponents threaten, the answer was "yes", or it goes out concealed.
//! - The match (C-12, C-24; `stakes`): it goes out, asks and answers
//!   "yes" when going out now would win the match on the estimated
//!   scores, never when it would give the match to the opponents.
//! - Discarding: the card the next opponent is least likely to take the
//!   pile with (ranks he discarded, ranks gone from play, no meld of his
//!   side open to it), and never one that completes his side's canasta
//!   (`feed`: the canasta bonus it hands over, C-5, and the going out
//!   when that canasta is the one his side lacks, C-10, count against
//!   it); a black three as a stopper (C-7), keeping two
//!   black threes to go out with (C-16); a wild to freeze the pile
//!   (C-7, C-13) against opponents who collect (their known cards).

use crate::agent_params;
use crate::classic::ClassicMoves;
use crate::spec::{range, switch};
use crate::Agent;
use kanaszta_engine::classic::{
    kind_counts, value_of, ClassicAction, ClassicEnd, ClassicPhase, ClassicRules, ClassicState,
    ClassicView, Kind, MeldKey, PickupRule, SideTable, WildTop,
};
use kanaszta_engine::CardSet;
use rand_pcg::Pcg64Mcg;

mod late;
use late::{opening_wilds, stakes, Stakes};

agent_params! {
    /// Parameters of [`ClassicRulesAgent`].
    pub struct ClassicRulesParams for classic ClassicRulesAgent {
        name: "rules",
        summary: "a careful club player: opens without wrecking the hand, takes the pile when it pays, freezes it against collectors, keeps wilds for canastas, discards safely, goes out when ahead",
        /// Smallest pile it takes with a natural and a wild (C-7).
        wild_take: u32 = 4, range(1, 110), "1..110", "smallest pile it takes with one natural and a wild (C-7)";
        /// Most wilds it spends to open (C-6, C-17).
        open_wilds: u32 = 1, range(0, 7), "0..7", "most wilds it spends to reach the opening minimum (C-6, C-17)";
        /// Smallest meld it adds a wild to, short of going out (C-4, C-5).
        wild_from: u32 = 5, range(2, 7), "2..7", "smallest meld it adds a wild to, short of going out (C-4, C-5)";
        /// Smallest pile it freezes with a wild against collectors (C-7, C-13).
        freeze_pile: u32 = 5, range(1, 110), "1..110", "smallest pile it freezes with a wild when the opponents collect (C-7, C-13)";
        /// What keeping a 2 is worth against a risky discard (a joker 30 more).
        wild_keep: i32 = 40, range(0, 10_000), "0..10000", "what keeping a 2 is worth against a risky discard (a joker 30 more)";
        /// What keeping a pair is worth against a risky discard (C-7, C-14).
        pair_keep: i32 = 20, range(0, 10_000), "0..10000", "what keeping a natural pair is worth against a risky discard (C-14)";
        /// Keeps two black threes to go out with (C-9, C-16).
        hold_threes: bool = true, switch, "on|off", "keeps two black threes to go out with when its side has its canastas (C-9, C-16)";
        /// The least lead (estimated hand score) at which it goes out (C-10).
        go_out_margin: i32 = -300, range(-100_000, 100_000), "-100000..100000", "the least estimated lead of its side at which it goes out (C-10)";
        /// Goes out concealed whenever it can (C-19).
        concealed: bool = true, switch, "on|off", "goes out concealed whenever it can (C-19)";
        /// The least lead at which it asks "may I go out?" (C-18).
        ask_margin: i32 = 0, range(-100_000, 100_000), "-100000..100000", "the least estimated lead at which it asks \"may I go out?\" (C-18)";
        /// Draws sampled before asking (C-18).
        ask_samples: u32 = 6, range(1, 100), "1..100", "draws sampled before asking \"may I go out?\" (C-18)";
        /// Share (percent) of sampled draws that must let it go out before it asks.
        ask_share: u32 = 80, range(1, 100), "1..100", "percent of sampled draws that must let it go out before it asks (C-18)";
        /// The least lead at which it answers "yes" (C-18).
        answer_margin: i32 = 0, range(-100_000, 100_000), "-100000..100000", "the least estimated lead at which it answers \"yes\" (C-18)";
        /// The most card value in its own hand a "yes" gives away (C-18).
        answer_hand: i32 = 100, range(0, 10_000), "0..10000", "the most card value in its hand that a \"yes\" gives away (C-18)";
        /// An opponent with its canastas and at most this many cards threatens to go out.
        threat_hand: u32 = 4, range(0, 20), "0..20", "an opponent side with its canastas and a player holding at most this many cards threatens to go out";
        /// Plays towards the opening minimum its side faces (C-6, C-17).
        minimum: bool = true, switch, "on|off", "opens with the wilds the minimum its side faces asks for, more as the hand goes on (C-6, C-17); off: only within open_wilds";
        /// Wilds it adds to `open_wilds` per step of the minimum above the lowest (C-6).
        open_step: u32 = 1, range(0, 7), "0..7", "wilds it adds to open_wilds per step of the opening minimum above the lowest (C-6; with minimum=on)";
        /// Fewest players at the table for `minimum` (C-6).
        open_players: u32 = 3, range(2, 6), "2..6", "fewest players at the table at which minimum=on plays towards the minimum (two-handed hands are long enough to wait)";
        /// Weighs going out against the match score (C-12, C-24).
        stakes: bool = true, switch, "on|off", "goes out, asks and answers \"yes\" when going out wins the match, never when it loses it (C-12, C-18, C-24)";
        /// Counts the canasta and the going out a discard hands over (C-5, C-10).
        feed: bool = true, switch, "on|off", "a discard's cost counts the canasta bonus it hands the next opponent's side and the going out that canasta opens to it (C-5, C-10); off: the pile only";
    }
}

/// The classic club player (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct ClassicRulesAgent {
    params: ClassicRulesParams,
    /// Kinds each player discarded this hand (bit per kind), forgotten
    /// when he takes the pile.
    discarded: [u16; 6],
    /// Players who took the pile this hand.
    took: [bool; 6],
    /// The player who asked "may I go out?" this turn and was told "yes"
    /// (C-18), until his turn ends.
    told_yes: Option<usize>,
    /// The last player who asked (C-18).
    asker: usize,
    /// Failed "yes" answers by asker this hand (C-18: 100 each off his
    /// side's score): told "yes", he ended his turn without going out.
    failed_yes: [i32; 6],
}

impl ClassicRulesAgent {
    /// A player with these parameters.
    pub fn new(params: ClassicRulesParams) -> ClassicRulesAgent {
        ClassicRulesAgent {
            params,
            ..ClassicRulesAgent::default()
        }
    }

    /// The parameters.
    pub fn params(&self) -> &ClassicRulesParams {
        &self.params
    }
}

impl Agent<ClassicState> for ClassicRulesAgent {
    fn name(&self) -> String {
        "rules".into()
    }

    fn act(
        &mut self,
        view: &ClassicView<'_>,
        moves: &mut ClassicMoves<'_>,
        rng: &mut Pcg64Mcg,
    ) -> ClassicAction {
        let legal = moves.all();
        let a = match view.phase() {
            ClassicPhase::Answer => self.answer(view, legal),
            ClassicPhase::Draw => self.start(view, legal, rng),
            ClassicPhase::Meld => self.meld(view, legal, rng),
            ClassicPhase::Over => None,
        };
        match a {
            Some(a) if legal.contains(&a) => a,
            _ => fallback(legal),
        }
    }

    fn inform(&mut self, player: usize, action: ClassicAction) {
        if player >= 6 {
            return;
        }
        match action {
            ClassicAction::Answer(true) => self.told_yes = Some(self.asker),
            ClassicAction::Ask => self.asker = player,
            _ => {}
        }
        if matches!(action, ClassicAction::Discard(_) | ClassicAction::End)
            && self.told_yes == Some(player)
        {
            // A turn that went out ends the hand: the count no longer
            // matters then.
            self.failed_yes[player] += 1;
            self.told_yes = None;
        }
        match action {
            ClassicAction::Discard(k) => self.discarded[player] |= 1 << k.index(),
            ClassicAction::TakePile { .. } => {
                self.took[player] = true;
                self.discarded[player] = 0;
            }
            _ => {}
        }
    }

    fn restart(&mut self) {
        self.discarded = [0; 6];
        self.took = [false; 6];
        self.told_yes = None;
        self.failed_yes = [0; 6];
    }
}

/// The first listed action that is not an undo (I-25), else the first.
fn fallback(legal: &[ClassicAction]) -> ClassicAction {
    legal
        .iter()
        .copied()
        .find(|a| !matches!(a, ClassicAction::TakeBack { .. } | ClassicAction::Reset))
        .unwrap_or(legal[0])
}

/// A side's canasta bonuses (C-5).
fn canasta_bonus(r: &ClassicRules, t: &SideTable) -> i32 {
    let mut b = 0;
    for m in t.melds {
        if m.len() >= 7 {
            b += if m.wild_count() == 0 { 500 } else { 300 };
        }
    }
    for w in t.wild_canastas {
        if !w.is_empty() {
            b += r.wild_canasta;
        }
    }
    b
}

/// A side's red threes as they would score now (C-8).
fn red_three_score(r: &ClassicRules, t: &SideTable) -> i32 {
    let n = t.red_threes.red_three_count() as i32;
    let v = if n == 4 { 800 } else { 100 * n };
    if t.has_melds() || n == 0 {
        v
    } else {
        -v - r.red_three_extra * n
    }
}

/// The rough value of an unseen card in a hand.
const UNSEEN_VALUE: i32 = 10;

/// What a side's hand would score if it ended now, hidden hands valued
/// at [`UNSEEN_VALUE`] a card (C-23).
fn side_estimate(view: &ClassicView<'_>, side: usize) -> i32 {
    let r = view.rules();
    let t = view.table(side);
    let mut s = t.melded_value() + canasta_bonus(r, t) + red_three_score(r, t);
    for p in 0..r.players as usize {
        if r.side_of(p) != side {
            continue;
        }
        s -= hand_estimate(view, p);
    }
    s
}

/// The value of a player's hand as the seat sees it.
fn hand_estimate(view: &ClassicView<'_>, p: usize) -> i32 {
    if p == view.seat() {
        value_of(view.hand())
    } else {
        let k = view.known(p);
        value_of(k) + (view.hand_len(p) as i32 - k.len() as i32) * UNSEEN_VALUE
    }
}

/// The seat's side's estimated lead over the best other side.
fn lead(view: &ClassicView<'_>) -> i32 {
    let r = view.rules();
    let me = r.side_of(view.seat());
    let mine = side_estimate(view, me);
    let best = (0..r.sides())
        .filter(|&s| s != me)
        .map(|s| side_estimate(view, s))
        .max()
        .unwrap_or(0);
    mine - best
}

impl ClassicRulesAgent {
    /// An opponent side with its canastas (C-10) and a player holding at
    /// most `threat_hand` cards.
    fn threat(&self, view: &ClassicView<'_>) -> bool {
        let r = view.rules();
        let me = r.side_of(view.seat());
        let need = r.canastas_to_go_out() as u32;
        (0..r.players as usize).any(|p| {
            let s = r.side_of(p);
            s != me
                && view.table(s).canastas() >= need
                && view.hand_len(p) <= self.params.threat_hand as usize
        })
    }

    /// C-6, C-7 (`minimum`): whether it plays towards the minimum: with
    /// `open_players` players or more, where an opened side may take the
    /// pile onto its melds (002, 003). Two-handed the hands are long
    /// enough to wait for a natural opening, and under 004 an unopened
    /// side loses no pickups onto melds (there are none).
    fn minimum_play(&self, view: &ClassicView<'_>) -> bool {
        let r = view.rules();
        self.params.minimum
            && r.players as u32 >= self.params.open_players
            && r.pickup == PickupRule::PairWildMeld
    }

    /// Whether it wants to go out now (C-10, C-18, C-19).
    fn want_out(&self, view: &ClassicView<'_>) -> bool {
        if view.answer() == Some(true) {
            return true;
        }
        if self.params.stakes {
            match stakes(
                view,
                hand_estimate(view, view.seat()),
                &self.failed_yes,
                |s| side_estimate(view, s),
            ) {
                Stakes::Wins => return true,
                Stakes::Loses => return false,
                Stakes::Open => {}
            }
        }
        (self.params.concealed && !view.melded_before(view.seat()) && view.drew())
            || self.threat(view)
            || lead(view) + 100 >= self.params.go_out_margin
    }

    /// C-18: the partner's answer.
    fn answer(&self, view: &ClassicView<'_>, legal: &[ClassicAction]) -> Option<ClassicAction> {
        let no = ClassicAction::Answer(false);
        if !legal.contains(&no) {
            return Some(ClassicAction::Answer(true));
        }
        let r = view.rules();
        let asker = (view.seat() + 2) % r.players as usize;
        // The asker's cards leave his side's minus; his side gains 100.
        let gain = lead(view) + 100 + hand_estimate(view, asker);
        let mine = value_of(view.hand());
        if self.params.stakes {
            match stakes(view, hand_estimate(view, asker), &self.failed_yes, |s| {
                side_estimate(view, s)
            }) {
                Stakes::Wins => return Some(ClassicAction::Answer(true)),
                Stakes::Loses => return Some(no),
                Stakes::Open => {}
            }
        }
        let yes = self.threat(view)
            || (gain >= self.params.answer_margin && mine <= self.params.answer_hand);
        Some(ClassicAction::Answer(yes))
    }

    /// The start of the turn: ask, take the pile or the turned card, draw.
    fn start(
        &self,
        view: &ClassicView<'_>,
        legal: &[ClassicAction],
        rng: &mut Pcg64Mcg,
    ) -> Option<ClassicAction> {
        if legal.contains(&ClassicAction::Ask) && self.should_ask(view, rng) {
            return Some(ClassicAction::Ask);
        }
        if let Some(a) = self.best_take(view, legal) {
            return Some(a);
        }
        if legal.contains(&ClassicAction::TakeTurned) {
            if let Some(k) = view.pile().last().copied().and_then(Kind::of) {
                let a = kind_counts(view.hand());
                if !k.is_wild() && k != Kind::BLACK_THREE && a[k.index()] >= 1 {
                    return Some(ClassicAction::TakeTurned);
                }
            }
        }
        if legal.contains(&ClassicAction::Draw) {
            return Some(ClassicAction::Draw);
        }
        legal.iter().copied().find(|a| *a == ClassicAction::EndHand)
    }

    /// C-18: asks when most sampled draws after a "yes" let it go out and
    /// going out suits its side.
    fn should_ask(&self, view: &ClassicView<'_>, rng: &mut Pcg64Mcg) -> bool {
        let r = view.rules();
        let me = r.side_of(view.seat());
        let need = r.canastas_to_go_out() as u32;
        // Quick refusals: far from its canastas or with a big hand.
        let t = view.table(me);
        let near = t.melds.iter().filter(|m| m.len() >= 5).count() as u32 + t.canastas();
        if near < need || view.hand_len(view.seat()) > 9 || view.stock_len() == 0 {
            return false;
        }
        let stake = if self.params.stakes {
            stakes(
                view,
                hand_estimate(view, view.seat()),
                &self.failed_yes,
                |s| side_estimate(view, s),
            )
        } else {
            Stakes::Open
        };
        if stake == Stakes::Loses
            || !(stake == Stakes::Wins
                || self.threat(view)
                || lead(view) + 100 >= self.params.ask_margin)
        {
            return false;
        }
        let seat = view.seat();
        let n = self.params.ask_samples;
        let mut ok = 0;
        for _ in 0..n {
            let mut g = view.determinize(rng);
            if g.apply(ClassicAction::Ask).is_err()
                || g.apply(ClassicAction::Answer(true)).is_err()
                || g.apply(ClassicAction::Draw).is_err()
            {
                return false;
            }
            if g.phase() == ClassicPhase::Meld
                && g.current_player() == seat
                && g.view(seat).can_go_out()
            {
                ok += 1;
            }
        }
        ok * 100 >= self.params.ask_share * n
    }

    /// The best way to take the pile (C-7, C-13, C-14), if it pays.
    fn best_take(&self, view: &ClassicView<'_>, legal: &[ClassicAction]) -> Option<ClassicAction> {
        let pile = view.pile().len() as u32;
        let mut best: Option<(i32, ClassicAction)> = None;
        for &a in legal {
            let ClassicAction::TakePile { key, with } = a else {
                continue;
            };
            let wilds = with.wilds() as i32;
            if wilds > 0 && pile < self.params.wild_take && view.stock_len() > 0 {
                continue;
            }
            // Onto a meld first, then a pair, then a natural and a 2, then
            // with a joker; a black-three pickup goes out (C-16).
            let mut score = 100 - 40 * wilds - 10 * with.jokers as i32 - with.naturals as i32;
            if key == MeldKey::BlackThrees {
                score += 200;
            }
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, a));
            }
        }
        best.map(|(_, a)| a)
    }

    /// The meld phase: go out if it suits, else meld what helps and
    /// discard.
    fn meld(
        &self,
        view: &ClassicView<'_>,
        legal: &[ClassicAction],
        rng: &mut Pcg64Mcg,
    ) -> Option<ClassicAction> {
        let out = self.want_out(view);
        if out && view.can_go_out() {
            if let Some(a) = self.go_out_step(view, legal, rng) {
                return Some(a);
            }
        }
        if legal.contains(&ClassicAction::TakeRest) {
            return Some(ClassicAction::TakeRest);
        }
        let free = legal
            .iter()
            .any(|a| matches!(a, ClassicAction::Discard(_) | ClassicAction::End));
        let side = view.rules().side_of(view.seat());
        let opening = !view.table(side).has_melds() && view.pickup().is_none();
        if opening && free {
            let open = if self.minimum_play(view) {
                self.opening_due(view)
            } else {
                self.opening_reachable(view)
            };
            if !open {
                return self.discard(view, legal);
            }
        }
        // C-17: an opening that needs a wild from its first meld on lays it.
        let wild_first = opening && free && self.minimum_play(view);
        let hand_len = view.hand_len(view.seat()) as i32;
        // C-17: an opening under way (the minimum not met yet) is laid
        // with the fewest wilds, each where it adds most.
        let short = self.minimum_play(view)
            && !free
            && !legal.contains(&ClassicAction::TakeRest)
            && view.table(side).melded_value() < view.minimum(side);
        let mut best: Option<(i32, ClassicAction)> = None;
        for &a in legal {
            let Some((score, used)) = self.meld_score(view, a) else {
                continue;
            };
            let score = match opening_score(a) {
                Some(s) if short || wild_first => s,
                _ => score,
            };
            // Short of going out, keep two cards so the discard does not
            // go out (C-10).
            let wild_lay = wild_first && matches!(a, ClassicAction::Lay { .. });
            if free && ((score <= 0 && !wild_lay) || (!out && hand_len - used < 2)) {
                continue;
            }
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, a));
            }
        }
        if let Some((_, a)) = best {
            return Some(a);
        }
        self.discard(view, legal)
    }

    /// A meld step's worth and the hand cards it uses; `None` for other
    /// actions.
    fn meld_score(&self, view: &ClassicView<'_>, a: ClassicAction) -> Option<(i32, i32)> {
        let side = view.rules().side_of(view.seat());
        let t = view.table(side);
        match a {
            ClassicAction::Lay { key, cards } => {
                let used = cards.len() as i32;
                let w = cards.wilds() as i32;
                Some(match key {
                    MeldKey::Wilds => (1000, used),
                    MeldKey::BlackThrees => (-50, used),
                    MeldKey::Rank(k) => {
                        if w == 0 {
                            (100 + k.value(), used)
                        } else {
                            (-10 - 10 * w - cards.jokers as i32, used)
                        }
                    }
                })
            }
            ClassicAction::Extend { rank, kind } => {
                let m = t.melds[rank.index()];
                let len = m.len();
                let completes = if len == 6 { 50 } else { 0 };
                if !kind.is_wild() {
                    return Some((90 + completes, 1));
                }
                let joker = if kind == Kind::JOKER { 1 } else { 0 };
                // Only a wild that helps close the canasta this turn.
                let a = kind_counts(view.hand());
                let reach = len
                    + a[rank.index()] as u32
                    + a[Kind::TWO.index()] as u32
                    + a[Kind::JOKER.index()] as u32;
                if len >= self.params.wild_from && len < 7 && reach >= 7 {
                    Some((60 + completes - joker, 1))
                } else {
                    Some((-20 - joker, 1))
                }
            }
            _ => None,
        }
    }

    /// C-6, C-17 (`minimum=on`): whether it opens now: the fewest wilds
    /// its hand reaches the side's minimum with are at most `open_wilds`,
    /// `open_step` more for each step of the minimum above 50 (90, 120);
    /// any number once an opponent side has the canastas to go out
    /// (C-10): the hand may end any turn, and an unmelded side's red
    /// threes then count minus and its hands are all minus (C-8, C-23).
    fn opening_due(&self, view: &ClassicView<'_>) -> bool {
        let r = view.rules();
        let me = r.side_of(view.seat());
        let need = view.minimum(me);
        let Some(wilds) = opening_wilds(r, view.hand(), need) else {
            return false;
        };
        let steps = if need > 90 {
            2
        } else if need > 50 {
            1
        } else {
            0
        };
        let need_out = r.canastas_to_go_out() as u32;
        let late = (0..r.sides()).any(|s| s != me && view.table(s).canastas() >= need_out);
        late || wilds <= self.params.open_wilds + self.params.open_step * steps
    }

    /// C-6, C-17: whether natural melds with at most `open_wilds` wilds
    /// reach the side's minimum.
    fn opening_reachable(&self, view: &ClassicView<'_>) -> bool {
        let r = view.rules();
        let side = r.side_of(view.seat());
        let need = view.minimum(side);
        let a = kind_counts(view.hand());
        let mut value = 0;
        let mut pairs = [0i32; 11];
        let mut np = 0;
        let mut triples = false;
        for (k, &c) in a.iter().enumerate().take(11) {
            let v = Kind::from_index(k).value();
            if c >= 3 {
                value += v * c as i32;
                triples = true;
            } else if c == 2 {
                pairs[np] = 2 * v;
                np += 1;
            }
        }
        if value >= need && triples {
            return true;
        }
        // Wilds, jokers first (the minimum counts their values), on
        // pairs first, then onto the natural melds.
        let mut wilds = [0i32; 16];
        let mut nw = 0;
        for _ in 0..a[Kind::JOKER.index()] {
            if nw < 16 {
                wilds[nw] = 50;
                nw += 1;
            }
        }
        for _ in 0..a[Kind::TWO.index()] {
            if nw < 16 {
                wilds[nw] = 20;
                nw += 1;
            }
        }
        pairs[..np].sort_unstable_by(|x, y| y.cmp(x));
        let budget = (self.params.open_wilds as usize).min(nw);
        let mut used = 0;
        let mut melded = triples;
        for &p in &pairs[..np] {
            if used >= budget || value >= need {
                break;
            }
            value += p + wilds[used];
            used += 1;
            melded = true;
        }
        while used < budget && value < need && melded {
            value += wilds[used];
            used += 1;
        }
        melded && value >= need
    }

    /// Plays the step towards going out: the first meld (by worth) after
    /// which it can still go out, else the discard or end that goes out.
    fn go_out_step(
        &self,
        view: &ClassicView<'_>,
        legal: &[ClassicAction],
        rng: &mut Pcg64Mcg,
    ) -> Option<ClassicAction> {
        let seat = view.seat();
        let g = view.determinize(rng);
        let mut order: [(i32, ClassicAction); 64] = [(0, ClassicAction::End); 64];
        let mut n = 0;
        for &a in legal {
            if n == order.len() {
                break;
            }
            let score = match a {
                ClassicAction::TakeBack { .. } | ClassicAction::Reset => continue,
                ClassicAction::TakeRest => 2000,
                ClassicAction::Discard(k) => -1000 - k.value(),
                ClassicAction::End => -900,
                _ => match self.meld_score(view, a) {
                    // Every meld goes before the discard; wilds last.
                    Some((s, _)) => 500 + s,
                    None => continue,
                },
            };
            order[n] = (score, a);
            n += 1;
        }
        order[..n].sort_by_key(|x| std::cmp::Reverse(x.0));
        for &(_, a) in &order[..n] {
            let mut h: ClassicState = g.clone();
            if h.apply(a).is_err() {
                continue;
            }
            let went = matches!(h.end(), Some(ClassicEnd::WentOut { player, .. }) if player as usize == seat);
            if went
                || (h.phase() == ClassicPhase::Meld
                    && h.current_player() == seat
                    && h.view(seat).can_go_out())
            {
                return Some(a);
            }
        }
        None
    }

    /// The discard (or the end of the turn) least likely to feed the next
    /// opponent, keeping pairs, wilds and black threes to go out with.
    fn discard(&self, view: &ClassicView<'_>, legal: &[ClassicAction]) -> Option<ClassicAction> {
        let mut best: Option<(i32, ClassicAction)> = None;
        for &a in legal {
            let cost = match a {
                ClassicAction::Discard(k) => self.discard_cost(view, k),
                ClassicAction::End => -10_000,
                _ => continue,
            };
            if best.is_none_or(|(c, _)| cost < c) {
                best = Some((cost, a));
            }
        }
        if let Some((_, a)) = best {
            return Some(a);
        }
        // Bound to meld on: the best listed meld step.
        let mut best: Option<(i32, ClassicAction)> = None;
        for &a in legal {
            if let Some((s, _)) = self.meld_score(view, a) {
                if best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, a));
                }
            }
        }
        best.map(|(_, a)| a)
    }

    /// The cost of discarding a card of kind `k`: the chance the next
    /// opponent takes the pile with it times what the pile holds, plus
    /// what the card is worth keeping.
    fn discard_cost(&self, view: &ClassicView<'_>, k: Kind) -> i32 {
        let r = view.rules();
        let seat = view.seat();
        let n = r.players as usize;
        let next = (seat + 1) % n;
        let my_side = r.side_of(seat);
        let next_side = r.side_of(next);
        let hand = view.hand();
        let a = kind_counts(hand);
        let pile = view.pile();
        let stake = value_of(pile_set(view)) + k.value() + 8 * (pile.len() as i32 + 1);
        let frozen = view.pile_frozen();
        let need = r.canastas_to_go_out() as u32;
        if k == Kind::BLACK_THREE {
            // A stopper (C-7); two kept to go out with (C-16) once the
            // side has its canastas.
            if self.params.hold_threes
                && a[k.index()] >= 2
                && view.table(my_side).canastas() >= need
            {
                return 150;
            }
            return 15;
        }
        if k.is_wild() {
            let keep = self.params.wild_keep + if k == Kind::JOKER { 30 } else { 0 };
            let collects = (0..n)
                .any(|p| r.side_of(p) != my_side && (self.took[p] || !view.known(p).is_empty()));
            if frozen || !collects || (pile.len() as u32) < self.params.freeze_pile {
                return 1000 + keep;
            }
            let exposure = match r.wild_top {
                // Any natural pair takes a wild on top (C-13).
                WildTop::Pair => stake,
                WildTop::Forbidden => 0,
                // Laid under: the top card stays open to a natural pair.
                WildTop::Under => match pile.last().copied().and_then(Kind::of) {
                    Some(t) if t.rank().is_some() => {
                        (self.p_holds(view, next, t, 2) * stake as f64) as i32
                    }
                    _ => 0,
                },
            };
            return keep + exposure;
        }
        // A natural: the ways the next opponent takes the pile with it.
        let open = !frozen && view.table(next_side).has_melds();
        let mut p = self.p_holds(view, next, k, 2);
        if open {
            let onto = r.pickup == PickupRule::PairWildMeld
                && !view.table(next_side).melds[k.index()].is_empty();
            if onto {
                p = 1.0;
            } else {
                p = p.max(0.5 * self.p_holds(view, next, k, 1));
            }
        }
        if self.discarded[next] & (1 << k.index()) != 0 {
            p *= 0.3;
        }
        let mut danger = (p * stake as f64) as i32;
        if self.params.feed {
            danger += self.canasta_gift(view, k, open);
        }
        let mut keep = -k.value() / 2;
        if a[k.index()] >= 2 {
            keep += self.params.pair_keep;
        }
        if self.minimum_play(view) && !view.table(my_side).has_melds() {
            keep += opening_keep(k, a[k.index()]);
        }
        if !view.table(my_side).melds[k.index()].is_empty() {
            keep += 30;
        }
        danger + keep
    }

    /// C-5, C-10 (`feed`): what a discard of the natural `k` hands the
    /// next opponent's side beyond the pile, by the chance he completes
    /// its meld of `k` into a canasta with it (the top card alone onto the
    /// meld of six where the pile is `open` to it, C-7; a natural pair
    /// from his hand onto a meld of four or more): the canasta's bonus,
    /// and, when it is the canasta his side still lacks to go out and one
    /// of its players holds at most `threat_hand` cards, the going out:
    /// 100 and the cards left in the hands of the seat's side (C-23).
    fn canasta_gift(&self, view: &ClassicView<'_>, k: Kind, open: bool) -> i32 {
        let r = view.rules();
        let n = r.players as usize;
        let next = (view.seat() + 1) % n;
        let my_side = r.side_of(view.seat());
        let next_side = r.side_of(next);
        if next_side == my_side {
            return 0;
        }
        let t = view.table(next_side);
        let m = t.melds[k.index()];
        let len = m.len();
        if len == 0 || len >= 7 {
            return 0;
        }
        let p = if open && r.pickup == PickupRule::PairWildMeld && len == 6 {
            1.0
        } else if len >= 4 {
            self.p_holds(view, next, k, 2)
        } else {
            0.0
        };
        if p == 0.0 {
            return 0;
        }
        let bonus = if m.wild_count() == 0 { 500 } else { 300 };
        let need = r.canastas_to_go_out() as u32;
        let short_hand = (0..n).any(|q| {
            r.side_of(q) == next_side && view.hand_len(q) <= self.params.threat_hand as usize
        });
        let out = if t.canastas() + 1 == need && short_hand {
            100 + (0..n)
                .filter(|&q| r.side_of(q) == my_side)
                .map(|q| hand_estimate(view, q))
                .sum::<i32>()
        } else {
            0
        };
        (p * (bonus + out) as f64) as i32
    }

    /// The chance that player `p` holds at least `need` naturals of `k`:
    /// his known cards, then the unseen copies dealt at random.
    fn p_holds(&self, view: &ClassicView<'_>, p: usize, k: Kind, need: u32) -> f64 {
        let known = k.count_in(view.known(p));
        if known >= need {
            return 1.0;
        }
        let need = need - known;
        let r = view.rules();
        let mut seen = view.hand();
        for q in 0..r.players as usize {
            if q != view.seat() {
                seen = seen.checked_add(view.known(q)).unwrap_or(seen);
            }
        }
        let mut seen_k = k.count_in(seen) as i32;
        let mut seen_all = seen.len() as i32;
        for s in 0..r.sides() {
            let t = view.table(s).all();
            seen_k += k.count_in(t) as i32;
            seen_all += t.len() as i32;
        }
        for c in view.pile() {
            seen_all += 1;
            if Kind::of(*c) == Some(k) {
                seen_k += 1;
            }
        }
        // The discarded card itself lies on the pile.
        let copies = 8 - seen_k - 1;
        let unseen = r.pack_size() as i32 - seen_all - 1;
        let slots = view.hand_len(p) as i32 - view.known(p).len() as i32;
        hyper_at_least(unseen, copies.max(0), slots.max(0), need as i32)
    }
}

/// C-17 (`minimum=on`): a meld step's worth towards the opening
/// minimum: the card values it lays, less 100 a wild (the fewest wilds
/// first); `None` for other steps (a wild canasta, black threes).
fn opening_score(a: ClassicAction) -> Option<i32> {
    match a {
        ClassicAction::Lay {
            key: MeldKey::Rank(k),
            cards,
        } => Some(
            k.value() * cards.naturals as i32 + 20 * cards.twos as i32 + 50 * cards.jokers as i32
                - 100 * cards.wilds() as i32,
        ),
        ClassicAction::Extend { kind, .. } => {
            Some(kind.value() - if kind.is_wild() { 100 } else { 0 })
        }
        _ => None,
    }
}

/// C-6, C-17 (`minimum=on`): what a natural of kind `k`, of which the
/// hand holds `held`, is worth keeping to a side that has not opened: a
/// meld's card most, a pair's card by its value, a single's high value
/// (instead of shedding it, as after the opening).
fn opening_keep(k: Kind, held: u8) -> i32 {
    let v = k.value();
    match held {
        0 | 1 => v,
        2 => 10 + 2 * v,
        _ => 100 + v,
    }
}

/// The pile as a set of cards.
fn pile_set(view: &ClassicView<'_>) -> CardSet {
    let mut s = CardSet::EMPTY;
    for c in view.pile() {
        s.insert(*c);
    }
    s
}

/// P(X ≥ need) for X hypergeometric: `draws` cards from `total`, of which
/// `good` are good; `need` is 1 or 2.
fn hyper_at_least(total: i32, good: i32, draws: i32, need: i32) -> f64 {
    if need <= 0 {
        return 1.0;
    }
    if good < need || draws < need || total <= 0 {
        return 0.0;
    }
    let bad = total - good;
    if draws > bad {
        // Fewer bad cards than draws: at least draws - bad good ones.
        if draws - bad >= need {
            return 1.0;
        }
    }
    // P(0) = Π (bad - i) / (total - i).
    let mut p0 = 1.0;
    for i in 0..draws {
        let b = (bad - i) as f64;
        if b <= 0.0 {
            p0 = 0.0;
            break;
        }
        p0 *= b / (total - i) as f64;
    }
    if need == 1 {
        return (1.0 - p0).clamp(0.0, 1.0);
    }
    // P(1) = draws · good · Π_{i<draws-1} (bad - i) / Π_{i<draws} (total - i).
    let mut p1 = draws as f64 * good as f64 / total as f64;
    for i in 0..draws - 1 {
        let b = (bad - i) as f64;
        if b <= 0.0 {
            p1 = 0.0;
            break;
        }
        p1 *= b / (total - 1 - i) as f64;
    }
    (1.0 - p0 - p1).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn hypergeometric_tails() {
        // All good: certain.
        assert!((hyper_at_least(10, 10, 3, 2) - 1.0).abs() < 1e-9);
        // No good card: never.
        assert_eq!(hyper_at_least(10, 0, 3, 1), 0.0);
        // 2 good of 4, draw 2: P(both) = 1/6.
        assert!((hyper_at_least(4, 2, 2, 2) - 1.0 / 6.0).abs() < 1e-9);
        // 1 good of 4, draw 2: P(≥1) = 1/2.
        assert!((hyper_at_least(4, 1, 2, 1) - 0.5).abs() < 1e-9);
    }

    /// A 4-player 002 position, player 0 in his meld phase after drawing
    /// the 5D, the pile empty (as after a pickup): the next opponent
    /// (player 1, one card left) has six 9s with wilds.
    fn feeding(theirs: &[&str]) -> ClassicState {
        use kanaszta_engine::classic::testing::{position, table};
        let mut r = ClassicRules::preset("classic-002").unwrap();
        r.players = 4;
        let tables = [table(&["7C 7D 7S"], ""), table(theirs, "")];
        let hands = ["9C 3S 5H 5S 8C 8H", "QC", "6S 6C 4H", "QD QS JH"];
        let mut g = position(r, &hands, &tables, "", "5D");
        g.apply(ClassicAction::Draw).unwrap();
        assert_eq!(g.phase(), ClassicPhase::Meld);
        g
    }

    fn rules_with(spec: &str) -> ClassicRulesAgent {
        let mut p = ClassicRulesParams::default();
        for kv in spec.split(',').filter(|s| !s.is_empty()) {
            let (k, v) = kv.split_once('=').unwrap();
            p.set(k, v).unwrap();
        }
        ClassicRulesAgent::new(p)
    }

    /// C-5, C-7, C-10 (`feed`): a 9 onto the next opponent's six 9s
    /// completes his side's canasta, the one it lacks to go out: it costs
    /// the bonus and the going out, and `rules` keeps it through its turn
    /// (it lays its 5s, then throws another card); `feed=off` counts the
    /// empty pile only and throws the 9, as the player did before.
    #[test]
    fn c5_c10_it_does_not_discard_the_card_completing_the_next_canasta() {
        let nines = "9D 9H 9S 2C 2C 2H";
        let g = feeding(&[nines]);
        let v = g.view(0);
        let nine = Kind::of("9C".parse().unwrap()).unwrap();
        let on = rules_with("");
        let off = rules_with("feed=off");
        assert!(
            on.discard_cost(&v, nine) >= 300 + 100,
            "bonus and going out"
        );
        assert!(off.discard_cost(&v, nine) < off.discard_cost(&v, Kind::BLACK_THREE));
        // The turn to its discard, each player choosing.
        let discard = |spec: &str| {
            let mut a = rules_with(spec);
            let mut rng = Pcg64Mcg::seed_from_u64(3);
            let mut g = g.clone();
            let mut legal = Vec::new();
            for _ in 0..20 {
                g.legal_actions(&mut legal);
                let x = a.act(&g.view(0), &mut ClassicMoves::new(&legal), &mut rng);
                if let ClassicAction::Discard(k) = x {
                    return k;
                }
                g.apply(x).unwrap();
            }
            panic!("{spec}: no discard");
        };
        assert_ne!(discard(""), nine);
        assert_eq!(discard("feed=off"), nine);
        // With a canasta already on their table the going out is theirs
        // anyway: the 9 costs the bonus alone.
        let g2 = feeding(&[nines, "KC KC KD KD KH KH KS"]);
        let on = rules_with("");
        let with_out = on.discard_cost(&v, nine);
        let bonus_only = on.discard_cost(&g2.view(0), nine);
        assert!(
            bonus_only >= 300 && with_out >= bonus_only + 100,
            "{with_out} v {bonus_only}"
        );
    }

    #[test]
    fn params_parse_and_print() {
        let mut p = ClassicRulesParams::default();
        p.set("freeze_pile", "3").unwrap();
        assert_eq!(p.get("freeze_pile").as_deref(), Some("3"));
        assert!(matches!(
            p.set("freeze_pile", "0"),
            Err(crate::ParamError::Value(
                crate::ParamValueError::Range { .. }
            ))
        ));
        let e = p.set("nope", "1").unwrap_err();
        assert_eq!(e, crate::ParamError::UnknownKey("nope".into()));
        assert!(e.to_string().contains("unknown key"));
        assert_eq!(ClassicRulesParams::NAME, "rules");
        assert_eq!(p.build().name(), "rules");
    }
}
