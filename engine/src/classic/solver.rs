//! The completion test (I-9): whether a meld phase can still end legally
//! without undoing, exactly. Cards only move from the hand to the table in
//! a meld phase, so the question is whether some placement of hand cards
//! (reachable by this engine's steps: a new meld of three, then one card
//! at a time) ends the turn: keeping two cards to discard one, or going
//! out (C-10), with the opening minimum (C-17). A dynamic programme over
//! the melds, tracking wilds used, cards kept (capped at 2), canastas
//! (capped at 2), the waiver (C-17) and the black-three meld (C-16),
//! maximizing the value laid, settles it. Each meld is judged on its
//! final state (I-25): reached from its state at the anchor by some order
//! of legal steps, so a meld whose wild came before the natural it needs
//! must still take it. The one two-stage case (an
//! opening pickup whose rest cannot be discarded from, or that must go
//! out) is searched step by step.

use super::action::{ClassicAction, Kind, MeldKey};
use super::rules::{Ask, ClassicRules, WildLimit};
use super::state::*;
use crate::card_set::CardSet;
use std::cell::RefCell;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The positions (hand, melds) the two-stage search has met.
type Seen = HashSet<(CardSet, [CardSet; 11]), BuildHasherDefault<WordHasher>>;

thread_local! {
    /// The two-stage search's set, reused.
    static SEEN: RefCell<Seen> = RefCell::new(Seen::default());
}

/// A hasher of a few machine words (the card sets of a position), a
/// multiply and a rotate a word: the set's answers are the same with
/// any hasher, and SipHash cost more than the search's steps.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

const XS: usize = 15;
const STATES: usize = XS * 3 * 3 * 2 * 2;

#[inline]
fn idx(x: usize, kept: usize, c: usize, wv: usize, bt: usize) -> usize {
    (((x * 3 + kept) * 3 + c) * 2 + wv) * 2 + bt
}

/// Whether a meld of (n0, w0) grows to (n1, w1) one card at a time, every
/// step legal (C-4), wilds before the meld is complete where only
/// naturals join a completed canasta (C-20).
pub(crate) fn reachable(r: &ClassicRules, n0: u32, w0: u32, n1: u32, w1: u32) -> bool {
    let (mut n, mut w) = (n0, w0);
    while n < n1 || w < w1 {
        if w < w1 && r.meld_ok(n, w + 1) && !(r.completed_naturals_only && n + w >= 7) {
            w += 1;
        } else if n < n1 {
            n += 1;
        } else {
            return false;
        }
    }
    r.meld_ok(n1, w1)
}

/// Whether a new meld of (n, w) is reached from a lay of three.
pub(crate) fn new_reachable(r: &ClassicRules, n: u32, w: u32) -> bool {
    (n >= 3 && reachable(r, 3, 0, n, w)) || (n >= 2 && w >= 1 && reachable(r, 2, 1, n, w))
}

/// What the placement must achieve.
#[derive(Clone, Copy)]
pub(crate) struct Goal {
    /// A normal end: keep two cards or more and discard one (or, with
    /// `no_discard`, keep one or more).
    pub normal: bool,
    /// Going out is permitted (C-10's canastas still needed).
    pub out: bool,
    /// C-23: no discard (a last red three).
    pub no_discard: bool,
    /// Any number of cards kept (no end condition; for C-18's "could lay"
    /// and a pickup whose rest leaves two cards).
    pub kept_free: bool,
    /// The value the table must reach (C-17), or none.
    pub min: Option<i32>,
    /// Laying nothing at all is fine (an opening turn where nothing lies).
    pub nothing_ok: bool,
    /// Black threes may be melded (only when going out, C-16).
    pub black_threes: bool,
}

/// The inputs: the hand's kind counts, the side's table, this turn's new
/// melds and the meld holding the pile's top card (for the waiver).
pub(crate) struct Problem<'a> {
    pub rules: &'a ClassicRules,
    pub hand: [u8; 14],
    pub table: &'a SideTable,
    /// The table the meld phase's steps are judged from (I-25): a meld's
    /// final state must be reached from its state here by some order of
    /// legal steps.
    pub anchor: &'a SideTable,
    pub new_mask: u16,
    pub top_bit: u16,
    pub base_value: i32,
    pub waiver_now: bool,
}

pub(crate) fn solve(pb: &Problem, goal: Goal) -> bool {
    if out_only_quick_no(pb, goal) {
        return false;
    }
    if quick_yes(pb, goal) {
        return true;
    }
    solve_full(pb, goal)
}

/// What a final placement must satisfy to end the turn, as [`solve`]'s
/// programme judges its states: cards kept (capped at 2), canastas
/// (capped), the waiver, a new black-three meld, value laid.
struct Ends<'a> {
    pb: &'a Problem<'a>,
    goal: Goal,
    bt0: usize,
    need: usize,
}

impl<'a> Ends<'a> {
    fn new(pb: &'a Problem<'a>, goal: Goal) -> Ends<'a> {
        Ends {
            pb,
            goal,
            bt0: !pb.table.black_threes.is_empty() as usize,
            need: pb.rules.canastas_to_go_out() as usize,
        }
    }

    /// Whether the placement ends the turn; `nothing`: nothing laid.
    #[inline]
    fn ends(
        &self,
        kept_all: usize,
        canastas: usize,
        wv: usize,
        bt: usize,
        value: i32,
        nothing: bool,
    ) -> bool {
        let goal = &self.goal;
        let min_ok = match goal.min {
            None => true,
            Some(t) => self.pb.base_value + value >= t || wv == 1 || (goal.nothing_ok && nothing),
        };
        if !min_ok {
            return false;
        }
        if goal.kept_free {
            return bt == self.bt0 && !nothing;
        }
        let out_ok = goal.out
            && canastas >= self.need
            && (kept_all == 0 || (kept_all == 1 && !goal.no_discard));
        // A normal end: a discard leaving a card, or (C-23) no discard.
        let normal_ok = goal.normal && bt == 0 && kept_all >= if goal.no_discard { 1 } else { 2 };
        out_ok || normal_ok
    }
}

/// The value of `x` wilds laid out of `jokers` jokers and the rest twos,
/// jokers first, as [`solve`]'s programme counts them.
#[inline]
fn wild_value(x: usize, jokers: usize) -> i32 {
    50 * x.min(jokers) as i32 + 20 * x.saturating_sub(jokers) as i32
}

/// A "yes" of [`solve`] from two placements of the hand, each one of the
/// programme's own (for every rank all, or all but one or two, or none
/// of its naturals, with wilds each meld keeps legal as a whole, I-25;
/// black threes and wild canastas not laid): every natural of a rank
/// whose meld stays legal with them, then no wild, or every wild that
/// fits (first to make a pair of a new rank a meld). `true` only where
/// the programme says yes: the programme reaches the state of such a
/// placement with at least its value, and its end test (C-10, C-17,
/// C-23) only passes more with more value.
fn quick_yes(pb: &Problem, goal: Goal) -> bool {
    let r = pb.rules;
    let h = &pb.hand;
    let twos = h[Kind::TWO.index()] as usize;
    let jokers = h[Kind::JOKER.index()] as usize;
    let wilds = (twos + jokers).min(XS - 1);
    let wild_cap = |n: u32| -> u32 {
        match r.wild_limit {
            WildLimit::WildsLeNaturals => n,
            _ => 3,
        }
    };
    // Per rank: naturals and wilds on the table now, in the hand, and
    // the naturals laid by the placement of naturals alone.
    let mut nw = [(0u32, 0u32); 11];
    let mut kk = [0u32; 11];
    for k in 0..11 {
        let kind = Kind::from_index(k);
        let a = h[k] as u32;
        let m = pb.table.melds[k];
        let (n, w) = if m.is_empty() {
            (0, 0)
        } else {
            (kind.count_in(m), m.wild_count())
        };
        nw[k] = (n, w);
        let lo = a.saturating_sub(2).max(1);
        kk[k] = match (lo..=a).rev().find(|&j| whole(pb, k, n + j, w)) {
            Some(j) => j,
            None if whole(pb, k, n, w) => 0,
            None => return false,
        };
    }
    let ends = Ends::new(pb, goal);
    let c0 = pb.table.canastas() as usize;
    let b = h[Kind::BLACK_THREE.index()] as usize;
    // The placement of naturals `kk` with `x[k]` wilds on rank `k`.
    let judge = |kk: &[u32; 11], x: &[u32; 11]| {
        let (mut value, mut kept, mut c, mut wv, mut xs) = (0i32, b.min(2), 0usize, 0usize, 0usize);
        wv |= pb.waiver_now as usize;
        for k in 0..11 {
            let (n, w) = nw[k];
            let (add, xk) = (kk[k], x[k]);
            let a = h[k] as u32;
            value += add as i32 * Kind::from_index(k).value();
            kept += (a - add) as usize;
            xs += xk as usize;
            let size = n + add + w + xk;
            if add + xk > 0 && size >= 7 {
                c += (n + w < 7) as usize;
                let bit = 1u16 << k;
                let own_new = pb.table.melds[k].is_empty()
                    || (pb.new_mask & bit != 0 && pb.top_bit & bit == 0);
                wv |= (r.minimum_waived && own_new) as usize;
            }
        }
        let kept_all = (kept.min(2) + (wilds - xs)).min(2);
        ends.ends(
            kept_all,
            (c0 + c).min(2),
            wv,
            ends.bt0,
            value + wild_value(xs, jokers),
            false,
        )
    };
    let none = [0u32; 11];
    if judge(&kk, &none) {
        return true;
    }
    if wilds == 0 {
        return false;
    }
    // Every wild that fits: first a rank's naturals left in the hand
    // made a meld with the fewest wilds, then more wilds on any meld.
    let mut x = [0u32; 11];
    let mut left = wilds as u32;
    for k in 0..11 {
        let a = h[k] as u32;
        let (n, w) = nw[k];
        if kk[k] == a || left == 0 {
            continue;
        }
        let cap = wild_cap(n + a).saturating_sub(w).min(left);
        if let Some(xk) = (1..=cap).find(|&xk| whole(pb, k, n + a, w + xk)) {
            kk[k] = a;
            x[k] = xk;
            left -= xk;
        }
    }
    for k in 0..11 {
        let (n, w) = nw[k];
        let nn = n + kk[k];
        if nn == 0 || left == 0 {
            continue;
        }
        let cap = wild_cap(nn).saturating_sub(w).min(x[k] + left);
        while x[k] < cap && whole(pb, k, nn, w + x[k] + 1) {
            x[k] += 1;
            left -= 1;
        }
    }
    left < wilds as u32 && judge(&kk, &x)
}

/// I-25 in [`solve`]'s terms: whether the meld of kind index `k` with
/// `n1` naturals and `w1` wilds is legal as a whole, reached from its
/// state at the anchor (none: nothing laid).
#[inline]
fn whole(pb: &Problem, k: usize, n1: u32, w1: u32) -> bool {
    let base = pb.anchor.melds[k];
    if n1 + w1 == 0 {
        true
    } else if base.is_empty() {
        new_reachable(pb.rules, n1, w1)
    } else {
        reachable(
            pb.rules,
            Kind::from_index(k).count_in(base),
            base.wild_count(),
            n1,
            w1,
        )
    }
}

/// [`solve`]'s programme, without the quick "no".
fn solve_full(pb: &Problem, goal: Goal) -> bool {
    let twos = pb.hand[Kind::TWO.index()] as usize;
    let jokers = pb.hand[Kind::JOKER.index()] as usize;
    // Only the states of at most `wilds` wilds are ever reached (`x` is
    // the outermost index), so a hand of few wilds, the common one, works
    // on tables of that prefix alone, made without clearing the rest.
    if twos + jokers < SMALL_XS {
        solve_in::<SMALL_STATES>(pb, goal)
    } else {
        solve_in::<STATES>(pb, goal)
    }
}

/// A "no" of [`solve`] read off the hand, where going out is the only
/// end the goal leaves (no `kept_free`, and no normal end: not asked
/// for, or fewer cards than it keeps): `true` only where the programme
/// says no. Cards that no placement lays stay in the hand: a lone
/// natural of a rank without a meld (a new meld holds two naturals at
/// least, C-4), a lone black three, or any black three where none may
/// be melded (C-16), and a pair of such a rank beyond the wilds (a new
/// meld of two naturals takes a wild). Going out keeps at most the one
/// card discarded, none without a discard (C-23), and needs C-10's
/// canastas: more than the melds the hand can bring to seven cards and
/// the wild canastas its wilds can make, no again.
pub(crate) fn out_only_quick_no(pb: &Problem, goal: Goal) -> bool {
    if goal.kept_free {
        return false;
    }
    let h = &pb.hand;
    let hand_len: u32 = h.iter().map(|&x| x as u32).sum();
    // A normal end melds no black threes (C-16).
    let normal = goal.normal
        && pb.table.black_threes.is_empty()
        && hand_len >= if goal.no_discard { 1 } else { 2 };
    if normal {
        return false;
    }
    if !goal.out {
        return true;
    }
    let (mut kept, mut pairs) = (0u32, 0u32);
    for (k, &n) in h.iter().enumerate().take(11) {
        if pb.table.melds[k].is_empty() && pb.anchor.melds[k].is_empty() {
            match n {
                1 => kept += 1,
                2 => pairs += 1,
                _ => {}
            }
        }
    }
    let b = h[Kind::BLACK_THREE.index()] as u32;
    if goal.black_threes && pb.table.black_threes.is_empty() {
        kept += (b == 1) as u32;
    } else {
        kept += b;
    }
    let wilds = (h[Kind::TWO.index()] + h[Kind::JOKER.index()]) as u32;
    kept += 2 * pairs.saturating_sub(wilds);
    if kept >= if goal.no_discard { 1 } else { 2 } {
        return true;
    }
    // Going out needs C-10's canastas: a new one is a meld of fewer than
    // seven cards that the hand's naturals of its rank and its wilds
    // bring to seven, or a wild canasta of seven wilds (at most two).
    let mut canastas = pb.table.canastas();
    for (k, &n) in h.iter().enumerate().take(11) {
        let size = pb.table.melds[k].len();
        canastas += (size < 7 && size + n as u32 + wilds >= 7) as u32;
    }
    if pb.rules.wild_canasta > 0 && wilds >= 7 {
        canastas += 2;
    }
    canastas < pb.rules.canastas_to_go_out() as u32
}

/// Wild counts below which [`solve`] works on tables of [`SMALL_STATES`].
const SMALL_XS: usize = 4;
const SMALL_STATES: usize = SMALL_XS * 3 * 3 * 2 * 2;

/// One layer of [`solve`]'s programme: the most value laid in each state
/// (-1 where not reached) and the states reached, in the order reached.
struct Layer<const N: usize> {
    value: [i32; N],
    reached: [u16; N],
    len: usize,
}

impl<const N: usize> Layer<N> {
    fn new() -> Layer<N> {
        Layer {
            value: [-1; N],
            reached: [0; N],
            len: 0,
        }
    }

    /// State `i` reached with value `v` (never negative).
    #[inline]
    fn raise(&mut self, i: usize, v: i32) {
        let old = self.value[i];
        if old < 0 {
            self.reached[self.len] = i as u16;
            self.len += 1;
        }
        if old < v {
            self.value[i] = v;
        }
    }

    /// No state reached.
    #[inline]
    fn clear(&mut self) {
        for &i in &self.reached[..self.len] {
            self.value[i as usize] = -1;
        }
        self.len = 0;
    }
}

/// [`solve`] on tables of `N` states: `N` at least those of the hand's
/// wild count.
fn solve_in<const N: usize>(pb: &Problem, goal: Goal) -> bool {
    let r = pb.rules;
    let twos = pb.hand[Kind::TWO.index()] as usize;
    let jokers = pb.hand[Kind::JOKER.index()] as usize;
    let wilds = (twos + jokers).min(XS - 1);
    let bt0 = !pb.table.black_threes.is_empty() as usize;
    // Two layers, the states before and after a key; `cur` and `next`
    // are swapped after each.
    let (mut l0, mut l1) = (Layer::<N>::new(), Layer::<N>::new());
    let (mut cur, mut next) = (&mut l0, &mut l1);
    cur.raise(idx(0, 0, 0, pb.waiver_now as usize, bt0), 0);
    let wild_cap = |n: u32| -> u32 {
        match r.wild_limit {
            WildLimit::WildsLeNaturals => n,
            _ => 3,
        }
    };
    // One key at a time; `opts` lists (k, x, canasta, waiver, bt, value, kept).
    let mut opts: [(u8, u8, u8, u8, u8, i32, u8); 64] = [(0, 0, 0, 0, 0, 0, 0); 64];
    // Every reached state of `cur` takes every option into `next`; only
    // reached states are visited, and only they are cleared.
    let relax = |cur: &Layer<N>, next: &mut Layer<N>, opts: &[(u8, u8, u8, u8, u8, i32, u8)]| {
        next.clear();
        for j in 0..cur.len {
            let i = cur.reached[j] as usize;
            let v = cur.value[i];
            let (x, kept, c, wv, bt) = (i / 36, i / 12 % 3, i / 4 % 3, i / 2 % 2, i % 2);
            for &(_, ox, oc, ow, ob, oval, okept) in opts {
                let nx = x + ox as usize;
                if nx > wilds {
                    continue;
                }
                let i = idx(
                    nx,
                    (kept + okept as usize).min(2),
                    (c + oc as usize).min(2),
                    wv | ow as usize,
                    bt | ob as usize,
                );
                next.raise(i, v + oval);
            }
        }
    };
    let mut unfinished = false;
    for k in 0..11 {
        let kind = Kind::from_index(k);
        let a = pb.hand[k] as u32;
        let m = pb.table.melds[k];
        let exists = !m.is_empty();
        let (n, w) = if exists {
            (kind.count_in(m), m.wild_count())
        } else {
            (0, 0)
        };
        // I-25: judged from the anchor; a meld not yet legal as a whole
        // (a wild laid before the natural it needs) must take more.
        let base = pb.anchor.melds[k];
        let whole = |n1: u32, w1: u32| {
            if n1 + w1 == 0 {
                true
            } else if base.is_empty() {
                new_reachable(r, n1, w1)
            } else {
                reachable(r, kind.count_in(base), base.wild_count(), n1, w1)
            }
        };
        if !whole(n, w) {
            unfinished = true;
        }
        if a == 0 && (!exists || wilds == 0) {
            if !whole(n, w) {
                // Nothing can be added, and it is not legal as it is.
                return false;
            }
            continue;
        }
        let mut len = 0;
        let lo = a.saturating_sub(2);
        for kk in 0..=a {
            if kk != 0 && kk < lo {
                continue;
            }
            let nn = n + kk;
            let xmax = wild_cap(nn).saturating_sub(w).min(wilds as u32);
            for x in 0..=xmax {
                let ok = whole(nn, w + x);
                if !ok {
                    continue;
                }
                let size = nn + w + x;
                let canasta = (size >= 7 && (n + w) < 7 && (kk + x) > 0) as u8;
                let bit = 1u16 << k;
                let own_new = !exists || (pb.new_mask & bit != 0 && pb.top_bit & bit == 0);
                let waiver = (r.minimum_waived && size >= 7 && own_new && (kk + x) > 0) as u8;
                if len < opts.len() {
                    opts[len] = (
                        kk as u8,
                        x as u8,
                        canasta,
                        waiver,
                        0,
                        kk as i32 * kind.value(),
                        (a - kk) as u8,
                    );
                    len += 1;
                }
            }
        }
        relax(cur, next, &opts[..len]);
        std::mem::swap(&mut cur, &mut next);
    }
    // Black threes (C-16): only when going out, laid at once.
    let b = pb.hand[Kind::BLACK_THREE.index()] as u32;
    if b > 0 {
        let mut len = 0;
        opts[len] = (0, 0, 0, 0, 0, 0, b.min(2) as u8);
        len += 1;
        if goal.black_threes && bt0 == 0 {
            for kb in 2..=b {
                for x in 0..=3u32.min(wilds as u32) {
                    if r.black_three_meld_ok(kb, x) {
                        opts[len] = (
                            kb as u8,
                            x as u8,
                            0,
                            0,
                            1,
                            kb as i32 * 5,
                            (b - kb).min(2) as u8,
                        );
                        len += 1;
                    }
                }
            }
        }
        relax(cur, next, &opts[..len]);
        std::mem::swap(&mut cur, &mut next);
    }
    // Wild canastas (C-21).
    if r.wild_canasta > 0 && wilds >= 7 {
        let free = 2 - pb
            .table
            .wild_canastas
            .iter()
            .filter(|w| !w.is_empty())
            .count();
        let mut len = 0;
        for c in 0..=free.min(wilds / 7) {
            opts[len] = (
                0,
                7 * c as u8,
                c as u8,
                (c > 0 && r.minimum_waived) as u8,
                0,
                0,
                0,
            );
            len += 1;
        }
        relax(cur, next, &opts[..len]);
        std::mem::swap(&mut cur, &mut next);
    }
    let c0 = pb.table.canastas() as usize;
    let end_test = Ends::new(pb, goal);
    let ends = |kept_all, canastas, wv, bt, value, nothing| {
        end_test.ends(kept_all, canastas, wv, bt, value, nothing)
    };
    // Laying nothing more: value maximization below may hide it.
    let hand_len: usize = pb.hand.iter().map(|&x| x as usize).sum();
    if !unfinished
        && ends(
            hand_len.min(2),
            c0.min(2),
            pb.waiver_now as usize,
            bt0,
            0,
            true,
        )
    {
        return true;
    }
    for x in 0..=wilds {
        let wval = 50 * x.min(jokers) as i32 + 20 * x.saturating_sub(jokers) as i32;
        let left_wilds = wilds - x;
        for kept in 0..3 {
            let kept_all = (kept + left_wilds).min(2);
            for c in 0..3 {
                let canastas = (c0 + c).min(2);
                for wv in 0..2 {
                    for bt in 0..2 {
                        let v = cur.value[idx(x, kept, c, wv, bt)];
                        if v >= 0 && ends(kept_all, canastas, wv, bt, v + wval, false) {
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}

/// C-18 (004): whether `hand` could lay cards onto `table`: cards worth
/// `need` or more (the minimum of a side that has not melded, 1 else).
pub(crate) fn could_lay(r: &ClassicRules, hand: CardSet, table: &SideTable, need: i32) -> bool {
    let pb = Problem {
        rules: r,
        hand: kind_counts(hand),
        table,
        anchor: table,
        new_mask: if table.has_melds() { 0 } else { 0x7FF },
        top_bit: 0,
        base_value: 0,
        waiver_now: false,
    };
    solve(
        &pb,
        Goal {
            normal: false,
            out: false,
            no_discard: false,
            kept_free: true,
            min: Some(need),
            nothing_ok: false,
            black_threes: false,
        },
    )
}

/// C-10, C-18: whether all of `hand` could be laid onto `table` in one
/// meld phase, going out without a discard: C-10's canastas (those the
/// hand completes count), `min` the opening minimum of a side that has
/// not melded (C-17), black threes only as a meld of their own (C-16).
pub(crate) fn lays_out(
    r: &ClassicRules,
    hand: CardSet,
    table: &SideTable,
    min: Option<i32>,
) -> bool {
    let hand = kind_counts(hand);
    // Every card must be laid. A lone natural of a rank without a meld
    // cannot be (a new meld holds two naturals at least, C-4), nor a lone
    // black three (C-16: two at least): the solver's answer is no. A pair
    // of a rank without a meld is a new meld only with a wild (three
    // cards at least, C-4): more such pairs than wilds, no again.
    let lone = (0..11).any(|k| hand[k] == 1 && table.melds[k].is_empty())
        || hand[Kind::BLACK_THREE.index()] == 1;
    let pairs = (0..11)
        .filter(|&k| hand[k] == 2 && table.melds[k].is_empty())
        .count();
    let wilds = (hand[Kind::TWO.index()] + hand[Kind::JOKER.index()]) as usize;
    !lone && pairs <= wilds && lays_out_solved(r, hand, table, min)
}

/// [`lays_out`] by the solver alone, the hand as its kind counts.
fn lays_out_solved(r: &ClassicRules, hand: [u8; 14], table: &SideTable, min: Option<i32>) -> bool {
    let pb = Problem {
        rules: r,
        hand,
        table,
        // A meld phase yet to begin: judged from the table as it is.
        anchor: table,
        new_mask: if table.has_melds() { 0 } else { 0x7FF },
        top_bit: 0,
        base_value: 0,
        waiver_now: false,
    };
    solve(
        &pb,
        Goal {
            normal: false,
            out: true,
            no_discard: true,
            kept_free: false,
            min,
            nothing_ok: false,
            black_threes: true,
        },
    )
}

impl ClassicState {
    pub(crate) fn going_out_permitted(&self) -> bool {
        self.turn.answer != Some(false)
            && !(self.rules.partnerships()
                && self.rules.ask == Ask::Compulsory
                && self.turn.answer != Some(true))
    }

    pub(crate) fn top_bit(&self) -> u16 {
        let t = &self.tables[self.side()];
        self.turn.pickup.map(|pk| t.key_bit(pk.key)).unwrap_or(0)
    }

    /// I-9: whether the meld phase can end legally without undoing.
    pub(crate) fn completable(&self) -> bool {
        self.solve_turn(false, None)
    }

    /// [`ClassicState::completable`], asking `melds_whole` (at most
    /// once) whether every meld of the mover's side is legal as a whole
    /// (I-25) instead of [`ClassicState::melds_whole_ok`].
    pub(crate) fn completable_whole(&self, melds_whole: &mut dyn FnMut() -> bool) -> bool {
        self.solve_turn(false, Some(melds_whole))
    }

    /// C-18: whether a meld phase lets the mover go out from here.
    pub(crate) fn can_go_out(&self) -> bool {
        self.solve_turn(true, None)
    }

    /// I-9 or C-18's test; `melds_whole`, if known, is
    /// [`ClassicState::melds_whole_ok`].
    fn solve_turn(&self, out_only: bool, melds_whole: Option<&mut dyn FnMut() -> bool>) -> bool {
        let mut melds_whole = melds_whole;
        let mut melds_whole_ok = || {
            let ok = match melds_whole.as_mut() {
                Some(f) => f(),
                None => self.melds_whole_ok(),
            };
            debug_assert_eq!(ok, self.melds_whole_ok());
            ok
        };
        let p = self.mover as usize;
        let side = self.side();
        let t = &self.tables[side];
        let hand = self.hands[p];
        // A black-three meld on the table binds him to go out (C-16).
        let must_out = out_only
            || self.turn.must_go_out
            || self.turn.black_three_pickup
            || !t.black_threes.is_empty();
        let permitted = self.going_out_permitted();
        if must_out && !permitted {
            return false;
        }
        let rest_pending = matches!(self.turn.pickup, Some(pk) if pk.rest_pending);
        if !rest_pending {
            if !must_out
                && !self.turn.last_red_three
                && t.black_threes.is_empty()
                && self.minimum_met()
                && hand.len() >= 2
                && melds_whole_ok()
            {
                return true;
            }
            let pb = Problem {
                rules: &self.rules,
                hand: kind_counts(hand),
                table: t,
                anchor: &self.turn.anchor,
                new_mask: self.turn.new_mask,
                top_bit: self.top_bit(),
                base_value: if self.turn.opening {
                    self.opening_value()
                } else {
                    0
                },
                waiver_now: self.waiver(),
            };
            let ok = solve(
                &pb,
                Goal {
                    normal: !must_out,
                    out: permitted,
                    no_discard: self.turn.last_red_three,
                    kept_free: false,
                    min: if self.turn.opening {
                        Some(self.minimum(side))
                    } else {
                        None
                    },
                    nothing_ok: self.turn.opening && !t.has_melds(),
                    black_threes: permitted,
                },
            );
            return ok;
        }
        // The rest of the pile still to be taken (C-14, C-17).
        let mut rest = CardSet::EMPTY;
        for c in self.pile() {
            if !c.is_red_three() {
                rest.insert(*c);
            }
        }
        if !melds_whole_ok() {
            // A meld not yet legal as a whole must become so before the
            // rest is taken (I-25: what is laid before it is committed),
            // and only naturals of its rank from the hand make it so: the
            // fewest that do are laid in any way out.
            return match self.unfinished_fixed() {
                Some(g) => g.solve_turn(out_only, None),
                None => false,
            };
        }
        // From here on the table now is the base the rest of the meld
        // phase is judged from (the anchor once the rest is taken).
        if !self.turn.opening {
            // Anything laid before the rest may as well be laid after it.
            let all = hand.checked_add(rest).expect("cards of the pack");
            if !must_out && all.len() >= 2 {
                return true;
            }
            let pb = Problem {
                rules: &self.rules,
                hand: kind_counts(all),
                table: t,
                anchor: t,
                new_mask: self.turn.new_mask,
                top_bit: self.top_bit(),
                base_value: 0,
                waiver_now: false,
            };
            return solve(
                &pb,
                Goal {
                    normal: !must_out,
                    out: permitted,
                    no_discard: false,
                    kept_free: false,
                    min: None,
                    nothing_ok: false,
                    black_threes: permitted,
                },
            );
        }
        if !must_out && rest.len() >= 2 {
            // The rest leaves two cards to discard from: only the minimum.
            let pb = Problem {
                rules: &self.rules,
                hand: kind_counts(hand),
                table: t,
                anchor: t,
                new_mask: self.turn.new_mask,
                top_bit: self.top_bit(),
                base_value: self.opening_value(),
                waiver_now: self.waiver(),
            };
            return solve(
                &pb,
                Goal {
                    normal: false,
                    out: false,
                    no_discard: false,
                    kept_free: true,
                    min: Some(self.minimum(side)),
                    nothing_ok: false,
                    black_threes: false,
                },
            );
        }
        // The set of one search, kept by the thread between searches (no
        // allocation once it has grown); a search within a search, should
        // one happen, gets its own.
        SEEN.with(|cell| match cell.try_borrow_mut() {
            Ok(mut seen) => {
                seen.clear();
                self.stage_one(out_only, &mut seen)
            }
            Err(_) => self.stage_one(out_only, &mut Seen::default()),
        })
    }

    /// The state with each meld of the mover's side that is not legal as a
    /// whole given the fewest naturals of its rank from the hand that make
    /// it so (I-25); `None` if the hand holds too few.
    fn unfinished_fixed(&self) -> Option<ClassicState> {
        let mut g = self.clone();
        let p = g.mover as usize;
        let side = g.side();
        for k in 0..11 {
            let kind = Kind::from_index(k);
            let m = g.tables[side].melds[k];
            if m.is_empty() {
                continue;
            }
            let (n, w) = (kind.count_in(m), m.wild_count());
            let have = kind.count_in(g.hands[p]);
            let j = (0..=have).find(|&j| g.meld_whole_ok(&g.rules, k, n + j, w))?;
            let mut hand = g.hands[p];
            let mut dest = m;
            kind.move_cards(j, &mut hand, &mut dest);
            g.hands[p] = hand;
            g.known[p] = g.known[p].min(hand);
            g.tables[side].melds[k] = dest;
        }
        Some(g)
    }

    /// The two-stage case, step by step: lay before the rest until the
    /// minimum is met, take the rest, and ask the one-stage test.
    fn stage_one(&self, out_only: bool, seen: &mut Seen) -> bool {
        let side = self.side();
        if !seen.insert((self.hands[self.mover as usize], self.tables[side].melds)) {
            return false;
        }
        if self.minimum_met() {
            let mut g = self.clone();
            if g.step(ClassicAction::TakeRest).is_ok() && g.solve_turn(out_only, None) {
                return true;
            }
        }
        let mut found = false;
        self.meld_candidates(&mut |a| {
            if found
                || matches!(
                    a,
                    ClassicAction::Lay {
                        key: MeldKey::BlackThrees,
                        ..
                    }
                ) && !out_only
                    && !self.turn.must_go_out
                    && !self.turn.black_three_pickup
            {
                return;
            }
            // Steps that keep every meld legal as a whole reach every
            // final state (a wild waits for its natural, I-25).
            let mut g = self.clone();
            if g.step(a).is_ok() && g.melds_whole_ok() && g.stage_one(out_only, seen) {
                found = true;
            }
        });
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::rules::ClassicRules;
    use rand::{RngExt, SeedableRng};

    /// Calls `f(game, seat, hand)` for the hand of every seat and two
    /// hands drawn from it (each card kept with chance 2/3), before every
    /// action of random two- and four-player hands of seeds `0..seeds`.
    fn random_hands(seeds: u64, f: impl FnMut(&ClassicState, usize, CardSet)) {
        random_hands_of(ClassicRules::default(), seeds, f);
    }

    /// [`random_hands`] under `rules` (their number of players aside).
    fn random_hands_of(
        rules: ClassicRules,
        seeds: u64,
        mut f: impl FnMut(&ClassicState, usize, CardSet),
    ) {
        for players in [2u8, 4] {
            let rules = ClassicRules { players, ..rules };
            for seed in 0..seeds {
                let mut g = ClassicState::new(rules, seed, 0, [0; 6]);
                let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
                let mut legal = Vec::new();
                while g.phase != ClassicPhase::Over {
                    for p in 0..g.players() {
                        let cards: Vec<_> = g.hands[p].iter().collect();
                        let mut hand = g.hands[p];
                        for _ in 0..3 {
                            f(&g, p, hand);
                            hand = CardSet::EMPTY;
                            for &c in &cards {
                                if rng.random_range(0..3) > 0 {
                                    hand.insert(c);
                                }
                            }
                        }
                    }
                    g.legal_actions(&mut legal);
                    let a = legal[rng.random_range(0..legal.len())];
                    g.apply(a).unwrap();
                }
            }
        }
    }

    /// C-10, C-16, C-18: the quick "no" of [`lays_out`] (a lone natural
    /// of a rank without a meld, a lone black three, more pairs of ranks
    /// without a meld than wilds) answers as the
    /// solver does, for the hand of every seat and hands drawn from it,
    /// on the tables of random four-player and two-player hands.
    #[test]
    fn lays_out_quick_no_agrees_with_the_solver() {
        let (mut checked, mut yes, mut quick) = (0, 0, 0);
        random_hands(40, |g, p, hand| {
            let side = g.rules.side_of(p);
            let t = &g.tables[side];
            let min = (!t.has_melds()).then(|| g.minimum(side));
            let want = lays_out_solved(&g.rules, kind_counts(hand), t, min);
            assert_eq!(lays_out(&g.rules, hand, t, min), want, "[{hand}]");
            checked += 1;
            yes += want as u32;
            let k = kind_counts(hand);
            let pairs = (0..11)
                .filter(|&i| k[i] == 2 && t.melds[i].is_empty())
                .count();
            let wilds = (k[Kind::TWO.index()] + k[Kind::JOKER.index()]) as usize;
            quick += ((0..11).any(|i| k[i] == 1 && t.melds[i].is_empty())
                || k[Kind::BLACK_THREE.index()] == 1
                || pairs > wilds) as u32;
        });
        assert!(checked > 10_000, "{checked} hands checked");
        assert!(yes > 20, "{yes} of {checked} lay out");
        assert!(quick > checked / 4, "{quick} of {checked} answered at once");
    }

    /// The quick "no" of [`solve`] where only going out ends the turn
    /// answers as the programme does: the hand of every seat and hands
    /// drawn from it, on the tables of random hands (the side's table as
    /// the anchor, and an empty anchor), with and without a discard,
    /// black threes, the minimum and a normal end.
    #[test]
    fn out_only_quick_no_agrees_with_the_programme() {
        let (mut checked, mut quick) = (0u32, 0u32);
        let empty = SideTable::default();
        random_hands(16, |g, p, hand| {
            let side = g.rules.side_of(p);
            let t = &g.tables[side];
            for anchor in [t, &empty] {
                for bits in 0..32u32 {
                    let pb = Problem {
                        rules: &g.rules,
                        hand: kind_counts(hand),
                        table: t,
                        anchor,
                        new_mask: 0,
                        top_bit: 0,
                        base_value: 0,
                        waiver_now: false,
                    };
                    let goal = Goal {
                        normal: bits & 1 != 0,
                        out: bits & 2 != 0,
                        no_discard: bits & 4 != 0,
                        kept_free: false,
                        min: (bits & 8 != 0).then(|| g.minimum(side)),
                        nothing_ok: false,
                        black_threes: bits & 16 != 0,
                    };
                    let no = out_only_quick_no(&pb, goal);
                    let full = solve_full(&pb, goal);
                    assert!(!(no && full), "[{hand}] goal bits {bits:05b}");
                    assert_eq!(solve(&pb, goal), full);
                    checked += 1;
                    quick += no as u32;
                }
            }
        });
        assert!(checked > 100_000, "{checked} problems checked");
        assert!(quick > checked / 4, "{quick} of {checked} answered at once");
    }

    /// The quick "yes" of [`solve`] answers as the programme does, and so
    /// does [`solve`] with both quick answers: the hand of every seat and
    /// hands drawn from it, on the tables of random hands of every
    /// preset (the side's table as the anchor, and an empty anchor, the
    /// melds new this turn or not), every goal with and without the
    /// minimum (reached by what lies, by what is laid, or not at all),
    /// the waiver and laying nothing.
    #[test]
    fn quick_yes_agrees_with_the_programme() {
        let (mut checked, mut quick) = (0u32, 0u32);
        let empty = SideTable::default();
        for preset in crate::classic::rules::CLASSIC_PRESETS {
            let rules = ClassicRules::preset(preset).unwrap();
            random_hands_of(rules, 4, |g, p, hand| {
                let side = g.rules.side_of(p);
                let t = &g.tables[side];
                for (anchor, new_mask) in [(t, 0), (&empty, 0x7FF)] {
                    for bits in 0..128u32 {
                        for base_value in [0, 30, t.melded_value()] {
                            let pb = Problem {
                                rules: &g.rules,
                                hand: kind_counts(hand),
                                table: t,
                                anchor,
                                new_mask,
                                top_bit: 0,
                                base_value,
                                waiver_now: bits & 64 != 0,
                            };
                            let goal = Goal {
                                normal: bits & 1 != 0,
                                out: bits & 2 != 0,
                                no_discard: bits & 4 != 0,
                                kept_free: bits & 32 != 0,
                                min: (bits & 8 != 0).then(|| g.minimum(side)),
                                nothing_ok: bits & 16 != 0 && bits & 8 != 0,
                                black_threes: bits & 16 != 0,
                            };
                            let yes = quick_yes(&pb, goal);
                            let full = solve_full(&pb, goal);
                            assert!(!yes || full, "{preset} [{hand}] goal bits {bits:07b}");
                            assert_eq!(solve(&pb, goal), full, "{preset} [{hand}] {bits:07b}");
                            checked += 1;
                            quick += yes as u32;
                        }
                    }
                }
            });
        }
        assert!(checked > 500_000, "{checked} problems checked");
        assert!(quick > checked / 5, "{quick} of {checked} answered at once");
    }

    /// I-25: a meld of three naturals or more and no wild is legal as a
    /// whole from any meld at the anchor (what `meld_whole_at` answers
    /// unasked): under every preset, wild limit and C-20's switch.
    #[test]
    fn natural_melds_are_whole() {
        for preset in crate::classic::rules::CLASSIC_PRESETS {
            for wild_limit in [
                WildLimit::TwoNaturals,
                WildLimit::WildsLeNaturals,
                WildLimit::BySize,
            ] {
                for completed_naturals_only in [false, true] {
                    let r = ClassicRules {
                        wild_limit,
                        completed_naturals_only,
                        ..ClassicRules::preset(preset).unwrap()
                    };
                    for n in 3..=16 {
                        assert!(r.meld_ok(n, 0), "{preset} {n}");
                        assert!(new_reachable(&r, n, 0), "{preset} {n}");
                        for n0 in 0..=n {
                            for w0 in 0..=4 {
                                assert!(reachable(&r, n0, w0, n, 0), "{preset} {n0} {w0} {n}");
                            }
                        }
                    }
                }
            }
        }
    }
}
