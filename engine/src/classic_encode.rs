//! The classic family's encoding ([`Encode`] for [`ClassicState`]), laid
//! out in docs/ENCODING.md. Cards are counted by classic kind (suits
//! matter only for the colour of threes): 15 numbers a set, the kinds of
//! [`Kind`] in index order and the red three last, each count / 8. Sides
//! are relative as seats are: side slot 0 is the viewer's side.

use crate::card::Card;
use crate::card_set::CardSet;
use crate::classic::{
    kind_counts, ClassicPhase, ClassicState, ClassicView, Kind, MeldKey, CLASSIC_MAX_PACK,
    CLASSIC_MAX_PLAYERS,
};
use crate::encode::{layout, one_hot, scaled, total, Encode, Field, Writer};

/// Numbers per card set: the 14 kinds and the red three.
const KINDS: usize = 15;
/// Numbers per side in the `tables` field.
pub const SIDE_FEATURES: usize = 42;
const P: usize = CLASSIC_MAX_PLAYERS;

const CLASSIC_FIELDS: [Field; 21] = layout([
    ("players", 5, 0.0, 1.0),
    ("phase", 4, 0.0, 1.0),
    ("current", P, 0.0, 1.0),
    ("partnerships", 1, 0.0, 1.0),
    ("jokers_rule", 1, 0.0, 1.0),
    ("hand", KINDS, 0.0, 1.0),
    ("hand_sizes", P, 0.0, 1.0),
    ("known", P * KINDS, 0.0, 1.0),
    ("pile", KINDS, 0.0, 1.0),
    ("pile_size", 1, 0.0, 1.0),
    ("pile_top", KINDS, 0.0, 1.0),
    ("pile_frozen", 1, 0.0, 1.0),
    ("stock_size", 1, 0.0, 1.0),
    ("turn", 5, 0.0, 1.0),
    ("pickup_key", 13, 0.0, 1.0),
    ("melded_before", P, 0.0, 1.0),
    ("turns", 1, 0.0, 1.0),
    ("totals", P, -2.0, 2.0),
    ("minimum", P, 0.0, 1.0),
    ("tables", P * SIDE_FEATURES, 0.0, 1.0),
    ("canastas", P, 0.0, 1.0),
]);

/// Length of the classic encoding.
pub const CLASSIC_OBS_LEN: usize = total(&CLASSIC_FIELDS);

/// The 15 kind counts of `set` / 8 into `out`.
fn kinds(out: &mut [f32], set: CardSet) {
    let a = kind_counts(set);
    for (x, &c) in out.iter_mut().zip(a.iter()) {
        *x = c as f32 / 8.0;
    }
    out[14] = set.red_three_count() as f32 / 8.0;
}

/// The slot of a card in a 15-kind set.
fn kind_slot(c: Card) -> usize {
    Kind::of(c).map_or(14, |k| k.index())
}

/// naturals, 2s, jokers of a meld, each / 8, into `out[..3]`.
fn meld(out: &mut [f32], m: CardSet) {
    out[0] = (m.len() - m.wild_count()) as f32 / 8.0;
    out[1] = Kind::TWO.count_in(m) as f32 / 8.0;
    out[2] = m.jokers() as f32 / 8.0;
}

impl Encode for ClassicState {
    const OBS_LEN: usize = CLASSIC_OBS_LEN;
    const FIELDS: &'static [Field] = &CLASSIC_FIELDS;

    fn encode(v: &ClassicView<'_>, out: &mut [f32]) {
        encode_classic(v, out, false)
    }

    fn encode_zeroed(v: &ClassicView<'_>, out: &mut [f32]) {
        encode_classic(v, out, true)
    }
}

/// [`Encode::encode`] of a classic view, into an `out` already `zeroed`
/// or not.
fn encode_classic(v: &ClassicView<'_>, out: &mut [f32], zeroed: bool) {
    let r = v.rules();
    let n = r.players as usize;
    let sides = r.sides();
    let seat = v.seat();
    let slot = |p: usize| (p + n - seat) % n;
    let side_slot = |s: usize| (s + sides - r.side_of(seat)) % sides;
    let pack = CLASSIC_MAX_PACK as f32;
    let mut w = Writer::new(out, &CLASSIC_FIELDS, zeroed);
    one_hot(w.field("players"), n.checked_sub(2));
    let phase = match v.phase() {
        ClassicPhase::Draw => 0,
        ClassicPhase::Answer => 1,
        ClassicPhase::Meld => 2,
        ClassicPhase::Over => 3,
    };
    one_hot(w.field("phase"), Some(phase));
    one_hot(w.field("current"), Some(slot(v.current_player())));
    w.field("partnerships")[0] = r.partnerships() as u8 as f32;
    w.field("jokers_rule")[0] = scaled(r.jokers as f32, 6.0, 0.0, 1.0);
    kinds(w.field("hand"), v.hand());
    let f = w.field("hand_sizes");
    for p in 0..n {
        f[slot(p)] = v.hand_len(p) as f32 / pack;
    }
    let f = w.field("known");
    for p in 0..n {
        let q = slot(p);
        kinds(&mut f[q * KINDS..(q + 1) * KINDS], v.known(p));
    }
    let pile = v.pile();
    let f = w.field("pile");
    for &c in pile {
        f[kind_slot(c)] += 0.125;
    }
    w.field("pile_size")[0] = pile.len() as f32 / pack;
    one_hot(w.field("pile_top"), pile.last().map(|&c| kind_slot(c)));
    w.field("pile_frozen")[0] = v.pile_frozen() as u8 as f32;
    w.field("stock_size")[0] = v.stock_len() as f32 / pack;
    let pickup = v.pickup();
    let f = w.field("turn");
    f[0] = v.drew() as u8 as f32;
    f[1] = (v.answer() == Some(true)) as u8 as f32;
    f[2] = (v.answer() == Some(false)) as u8 as f32;
    f[3] = pickup.is_some() as u8 as f32;
    f[4] = pickup.is_some_and(|p| p.rest_pending) as u8 as f32;
    let key = pickup.map(|p| match p.key {
        MeldKey::Rank(k) => k.index(),
        MeldKey::BlackThrees => 11,
        MeldKey::Wilds => 12,
    });
    one_hot(w.field("pickup_key"), key);
    let f = w.field("melded_before");
    for p in 0..n {
        f[slot(p)] = v.melded_before(p) as u8 as f32;
    }
    w.field("turns")[0] = scaled(v.turns() as f32, r.turn_cap as f32, 0.0, 1.0);
    let f = w.field("totals");
    for s in 0..sides {
        f[side_slot(s)] = scaled(v.total(s) as f32, 5_000.0, -2.0, 2.0);
    }
    let f = w.field("minimum");
    for s in 0..sides {
        f[side_slot(s)] = scaled(v.minimum(s) as f32, 150.0, 0.0, 1.0);
    }
    let f = w.field("tables");
    for s in 0..sides {
        let t = v.table(s);
        let f = &mut f[side_slot(s) * SIDE_FEATURES..][..SIDE_FEATURES];
        for (k, m) in t.melds.iter().enumerate() {
            meld(&mut f[3 * k..], *m);
        }
        meld(&mut f[33..], t.black_threes);
        for (i, m) in t.wild_canastas.iter().enumerate() {
            f[36 + 2 * i] = Kind::TWO.count_in(*m) as f32 / 8.0;
            f[37 + 2 * i] = m.jokers() as f32 / 8.0;
        }
        f[40] = t.red_threes.len() as f32 / 8.0;
        f[41] = t.melds.iter().any(|m| !m.is_empty()) as u8 as f32;
    }
    let f = w.field("canastas");
    for s in 0..sides {
        f[side_slot(s)] = scaled(v.table(s).canastas() as f32, 8.0, 0.0, 1.0);
    }
    w.done();
}
