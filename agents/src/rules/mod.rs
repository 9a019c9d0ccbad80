//! `rules`: a human-like player built from the game's own logic.
//!
//! Where `greedy` maximizes the points on its table right now, `rules` plays
//! the way a careful player does: it values what its hand may still become,
//! reads what the opponent can do with the pile, and times the end of the
//! hand. Every decision is one of the points below; the numbers that matter
//! are parameters ([`RulesParams`]).
//!
//! - **Cut** (D-3.1): keeps wilds, red threes (laid out and replaced at
//!   once, +100, D-4) and the ♥A (500 when laid separately, D-9.4). The hand
//!   is dealt after the choice, so a kept natural would only replace a random
//!   card and tell the opponent what it holds; a black three is never kept.
//! - **Free pickup** (D-6.1): takes the card when it is a wild, a ♥A, or
//!   matches a rank of its hand or table.
//! - **Taking the pile** (D-6.2): it plays the pickup turn out on a
//!   determinization (its own cards are known exactly, so its own melds are
//!   simulated exactly) and compares what its position is worth afterwards
//!   with what drawing and melding gives: what the pile's cards meld into,
//!   which groups it completes or brings close to a canasta, which pairs it
//!   makes, against its black threes and loose cards in hand at the risk of
//!   the opponent going out. Once opened, a pile of `pile` cards or more is
//!   taken whenever the engine allows; before, only a pile whose top card
//!   opens with the hand (D-6.2.1), never one that would oblige it to go out
//!   (I-26).
//!   Before taking it, it walks the turn through the pickup by listed
//!   steps to a discard (`walk`; each listed step keeps the turn
//!   completable, I-9), so the way through is known to exist.
//! - **Melding**: a hill climb over the legal meld actions on a
//!   determinization, scored by the table's points (D-14) plus what the
//!   position promises: groups close to a canasta (`chase`; a six-card group
//!   is one card from 300–400, D-10), natural groups kept clean for a red or
//!   gold canasta, pairs kept in hand for taking the pile (`pair`: in this
//!   variant only a pair *in hand* takes it), wilds kept for completing
//!   canastas rather than spent on small groups (`wild`; a joker's 50 points
//!   on the table do not buy it), minus the cards in hand weighted by the
//!   risk that the opponent goes out first (his canasta and hand size). The
//!   pairs and wilds are worth less the closer the opponent is to going out.
//!   Swaps that turn a black canasta red or gold (D-11.4, I-13) come out of
//!   the same score. The ♥A is laid separately (500, D-9.4), never into a
//!   group of aces, and before the opening only steps that keep the minimum
//!   in reach are played (D-8.2), so the ♥A never spoils the group the
//!   opening needs; the groups laid this turn count towards that reach, and
//!   an opening begun and still short is finished by its best step, never
//!   by the engine's shortest way, which may bury the ♥A (`hearts`).
//! - **Dead locks** (I-32, `dead`): a position whose one card, after the
//!   discard, could never go out whatever comes
//!   ([`kanaszta_engine::never_goes_out`]: no card outside the tables
//!   completes a canasta, whatever the wilds do) is charged `dead` points:
//!   it could never meld again nor take the pile, and the opponent would
//!   have all the time he wants. A live lock (a six-card group that a card
//!   still outside completes, a wild that can still move to help) is not
//!   charged: fishing is a fair gamble. Nor does it lay what it would have
//!   to take back: a step that leaves no card to discard, or one card, no
//!   canasta and no way out.
//! - **Going out** (D-13): when its hand can be melded down to one card
//!   ([`can_go_out_with`](kanaszta_engine::can_go_out_with)) it melds down
//!   and goes out if that wins the hand on the visible count (its table
//!   with its hand melded and 100 for going out, against the opponent's
//!   table less his hand as sampled), or if the
//!   opponent threatens to go out first; further behind than `hold` it plays
//!   on to build canastas. Going out from hand or clearing the table (D-14.1,
//!   D-14.2) is not chased for itself: it comes when a pickup opening melds
//!   everything. Its way out is planned (`plan_out`): also without a canasta
//!   yet, when the hand makes the canasta it goes out with (counted as a
//!   black one, 300), and where its steps do not find the way out, which
//!   then needs wilds moved (D-11.2), a search finds the shortest ways and
//!   takes the one that scores most (for a hand of up to seven cards). It
//!   never lays its last card, which would leave nothing to discard.
//! - **A dead-locked opponent** (I-32, `dead_out`): when no other player
//!   can ever go out (one card, [`kanaszta_engine::never_goes_out`]), the
//!   hand ends only when it goes out, so the count does not matter: it
//!   builds on while a group could still become a canasta with the cards
//!   outside the tables, for at most 100 turns, and goes out otherwise.
//! - **Discarding**: the card whose loss costs least, where the cost is its
//!   use to its own hand plus the danger of feeding the opponent (`caution`):
//!   the chance that the opponent's hand holds a pair of the rank (or one and
//!   a wild) from the cards it picked up ([`SeatView::known`]) and the cards
//!   not yet seen, times what the pile is worth to him, and a charge for
//!   ranks he has melded (they extend his groups towards canastas). A card
//!   identical to the opponent's fresh discard is a twin (D-7, +100). Black
//!   threes and wilds freeze the pile for one turn (D-6.3): a black three is
//!   held as a safe discard and thrown when the pile reaches `freeze` cards
//!   or the opponent is close to going out; a wild is thrown to freeze only
//!   when nothing else is safe and the pile holds `wildfreeze` cards, and,
//!   while no player has opened, fewer than `wildcap` wilds (each freezes
//!   it for one turn only).
//!   The ♥A is kept (it is worth 500 once laid apart), except in a hand
//!   left with one card and no canasta, which could never lay it: laying
//!   it would leave nothing to discard (D-13.2), so it is an ace like any
//!   other there (`hearts`).
//! - **Long turns**: after `patience` meld actions in one turn, or when no
//!   discard is legal yet (an opening that fell short, I-26), it follows the
//!   engine's shortest way to end the turn ([`TurnFinisher`]).
//!
//! - **Expert reading** (`movable`, `piles`, `track`): the threat of an
//!   opponent counts the wilds he can move into one group this turn
//!   (D-11.2, D-11.3): a canasta so within reach is as good as one on his
//!   table; a pile of `pile` cards or more holding two black threes or
//!   more is weighed by simulation like a small one (each is 100 points
//!   in hand until thrown, one a turn, D-6.3); and the pile as it lies
//!   tells which ranks the opponent discarded lately and which tops he
//!   declined with his table opened (he held no two of the rank, nor one
//!   and a wild, D-6.2), which makes those ranks safer to feed him.
//!
//! - **Turn planner** (`plan`, [`plan`]): after the draw or the pickup,
//!   with the table opened, a beam search over sequences of meld steps
//!   (`plan_depth` steps, `plan_beam` positions kept a depth), wilds
//!   taken out of groups and placed elsewhere included (D-11.2, D-11.3),
//!   scored by the same worth plus a bonus where it can then go out and
//!   wants to. A plan worth more than the hill climb's step by
//!   `plan_margin`, or one that begins with it, is played step by step
//!   while the turn follows it. `plan=off` is the play before it, and
//!   `expert=off` and `fixes=off` turn it off with the rest. With the
//!   planner on it goes out from `plan_hold` points further behind and
//!   weighs groups close to a canasta `plan_chase` more (D-10, D-13): the
//!   planner finds the steps, and a readier way out pays.
//! - **Twins** (`plan_keep`, `plan_twin`, `plan_guard`; by default with
//!   the planner on, with `twins=on` without it too, with `twins=off`
//!   never): a card identical to the opponent's fresh discard is worth
//!   `plan_keep` more in hand while it melds, so it is kept for the twin
//!   at the discard (D-7, 100) rather than laid for its points, and the
//!   draw, which keeps the twin, is weighed against the pickup, which
//!   takes the pile's top and with it the twin. In the discard a twin
//!   counts `plan_twin` more than its 100: it is lost after this turn,
//!   while a black three held (D-6.3) can still be thrown on the next.
//!   Nor does it hand the opponent a twin: a discard costs `plan_guard`
//!   times 100 times the chance that he holds the identical card (sure if
//!   he picked it up, else as often as his unknown cards are among the
//!   unseen).
//! - **Baselines without giveaways** (on by default, off under
//!   `plan=off`, `expert=off` and `fixes=off`): a pickup is weighed through to its
//!   rest (`through`): where the meld policy leaves the top card to the
//!   engine's way (a wild to move, D-11.2), the simulation follows that way
//!   until the pile's cards, black threes and all, are in hand (D-6.2,
//!   D-6.3); while an opponent is on two cards or fewer a big pile
//!   holding a black three is weighed so too, and each three that cannot
//!   be thrown this turn counts its full 100. Once a pickup the engine's way
//!   finished has its rest taken, the meld policy melds again (`resume`)
//!   rather than discard at once. An opponent on two cards or fewer who
//!   can still go out counts as at least `close` near, so meldable cards
//!   are laid rather than held as pairs (off by default); so, by `near`
//!   (off by default), one whose hand's cards, melded this turn, may make
//!   his canasta with wilds moved (D-11.2, D-13.1). Against such an
//!   opponent a pair in hand is worth as much as the pile it may take
//!   next turn is big (`thin`, on): over a pile of a few cards, triplets
//!   are laid rather than held for it. Against one on one card, the
//!   pairs are worth it only as far as the pile comes to them before he
//!   goes out (`lone`, on): his discard is of a pair's rank as often as
//!   the unseen cards hold it, and he goes out when either of his two
//!   cards makes his canasta, so triplets are laid over a big pile too.
//!   While no player
//!   has opened and the pile holds `wildfreeze` cards or more, having
//!   opened is worth `opened` more (D-8: only an opened player takes the
//!   pile with a pair), so a hand that can open does; and then no wild is
//!   thrown to freeze a pile that already holds `wildcap` wilds (each
//!   freezes it for one turn only, D-6.3).
//! - **The pile by what it yields** (`weigh`, `deny`, off by default):
//!   the pickup and the draw are each weighed by the turn planner's best
//!   plan after them, besides the hill climb's turn (the melds the pile's
//!   cards make possible, D-6.2), and the pile left lying counts against
//!   the draw by its worth to the opponent, who may take it next (`deny`).
//! - **The match** (`stakes`, off by default): in match play it goes out
//!   when that wins the match, not when that loses it (the opponent not
//!   close to going out), and weighs the
//!   count of going out taxed by each player's running total (D-15,
//!   D-16.2).
//!
//! **The switches and the yardstick.** `dead`, `plan_out`, `hearts` and
//! `dead_out` switch the behaviours marked with them above; each one off
//! (`dead=0`, the others `off`) leaves the rest of the play as it is, so
//! each one's gain can be measured alone. `expert=off` turns the expert reading off (the
//! yardstick of the play before it). `fixes=off` turns all four off at
//! once, and the expert reading with them: `rules:fixes=off` is the fixed yardstick that versions of `rules`
//! are measured against, kept move for move by the test
//! `fixes_off_plays_as_rules_did_before_the_fixes`.
//!
//! **The parts.** This module holds the player, its parameters, its turn
//! and the cut (D-3.1); `params` the values in force the parameters
//! derive; `worth` the evaluation and the risk; `meld` the meld policy's
//! hill climb; `plan` the turn planner; `out` going out and the planned
//! way out; `pickup` the draw and the pile; `discard` the discard;
//! `twins` the twin play; `tests` the unit tests. The parts import one
//! another in one direction only: this module from none of them.

mod discard;
mod meld;
mod out;
mod params;
mod pickup;
mod plan;
#[cfg(test)]
mod tests;
mod twins;
mod worth;

use crate::agent_params;
use crate::spec::{range, switch, Params};
use crate::{Agent, MoveBuf, Moves, TurnFinisher};
use kanaszta_engine::{Action, GameState, Phase, SeatView};
use rand::Rng;
use rand_pcg::Pcg64Mcg;

agent_params! {
    /// Parameters of [`RulesAgent`].
    pub struct RulesParams for RulesAgent {
        name: "rules",
        summary: "a careful human's strategy: values pairs, wilds and canastas to come, takes the pile when it pays, discards safely, freezes, twins, times going out",
        /// Once opened, a pile of this many cards or more is taken whenever the
        /// engine allows; smaller piles are weighed by simulation.
        pile: u32 = 8, range(1, 112), "1..112", "pile size it always takes once opened, when the engine allows (smaller piles are weighed by simulation)";
        /// Pile size from which a black three is thrown to freeze it (D-6.3).
        freeze: u32 = 6, range(1, 112), "1..112", "pile size from which it throws a black three to freeze the pile";
        /// Pile size from which a wild may be thrown to freeze it when no safe
        /// discard exists.
        wildfreeze: u32 = 12, range(1, 112), "1..112", "pile size from which it may throw a wild to freeze the pile when no discard is safe";
        /// Weight of the danger of feeding the opponent in discards.
        caution: f64 = 1.0, range(0.0, 10.0), "0..10", "weight of the danger of feeding the opponent when discarding";
        /// Worth of a wild kept in hand for completing canastas.
        wild: f64 = 60.0, range(0.0, 500.0), "0..500", "worth of a wild kept in hand for completing canastas";
        /// Worth of a pair kept in hand (it can take the pile).
        pair: f64 = 40.0, range(0.0, 500.0), "0..500", "worth of a pair kept in hand (it can take the pile)";
        /// How far behind on the visible count it still goes out when it can;
        /// further behind, with the opponent not close, it plays on.
        hold: i32 = 0, range(-1000, 1000), "-1000..1000", "how far behind on the visible count it still goes out when it can (further behind it plays on for canastas)";
        /// Weight of the promise of groups close to a canasta.
        chase: f64 = 1.0, range(0.0, 10.0), "0..10", "weight of the promise of groups one to three cards from a canasta";
        /// Worth of having opened (D-8), spread over the steps of the opening.
        open: f64 = 0.0, range(0.0, 1000.0), "0..1000", "worth of having opened, spread over the steps of the opening meld";
        /// Meld actions in one turn before it ends the turn by the shortest way.
        patience: u32 = 60, range(1, 10_000), "1..10000", "meld actions in a turn before it ends the turn by the shortest way";
        /// Charge for a position whose one card, after the discard, could
        /// never go out (I-32,
        /// [`never_goes_out`](kanaszta_engine::never_goes_out)); 0 turns
        /// the dead-lock fix off, with the steps of a locked hand that must
        /// be taken back.
        dead: f64 = 800.0, range(0.0, 5000.0), "0..5000", "charge for melding down to one card that could never go out (I-32); 0: no charge, and a locked hand may lay what it must take back";
        /// Plans the way out whenever the hand can go out (D-13.1): also on
        /// the turn that makes its first canasta, and by moving wilds
        /// (D-11.2) where only that lets it out.
        plan_out: bool = true, switch, "on|off", "plans going out whenever the hand can: on the turn of its first canasta too, and by moving wilds where only that lets it out";
        /// Keeps the ♥A for laying apart (D-9.4) where it can: an opening that
        /// can be made without it is made without it, and a hand left with
        /// one card and no canasta, which can never lay it, does not keep it.
        hearts: bool = true, switch, "on|off", "completes an opening without burying the ♥A, and does not keep a ♥A it can never lay (one card left, no canasta)";
        /// When no opponent can ever go out (I-32), goes out whatever the
        /// count unless waiting can still build a canasta.
        dead_out: bool = true, switch, "on|off", "goes out when no opponent can ever go out (I-32) whatever the count, unless a canasta can still be built (for at most 100 turns)";
        /// Off turns `dead`, `plan_out`, `hearts` and `dead_out` off at once,
        /// whatever their own values, and the expert play with them: the
        /// yardstick `rules:fixes=off`.
        fixes: bool = true, switch, "on|off", "off: dead, plan_out, hearts and dead_out all off whatever their values, and the expert play (the yardstick rules:fixes=off)";
        /// Counts the wilds an opponent can move into one group (D-11.2,
        /// D-11.3) when judging how close he is to a canasta and to going
        /// out.
        movable: bool = true, switch, "on|off", "counts the wilds an opponent can move into one group (D-11.2) when judging how close he is to going out";
        /// Values a pile by its contents (black threes, wilds, the pairs it
        /// gives) rather than taking every big pile.
        piles: bool = true, switch, "on|off", "weighs a big pile by its contents (black threes, wilds, pairs) instead of taking every pile of `pile` cards";
        /// Reads the opponent's discards and the piles he declined (the pile
        /// as it lies) when judging what is safe to feed him.
        track: bool = true, switch, "on|off", "reads the opponent's discards and declined piles (the pile as it lies) when judging what is safe to discard";
        /// Off turns `movable`, `piles` and `track` off at once, whatever
        /// their own values: the yardstick `rules:expert=off`, the play
        /// before them.
        expert: bool = true, switch, "on|off", "off: movable, piles and track all off whatever their values (the yardstick rules:expert=off)";
        /// Plans its meld steps over the whole turn (the turn planner,
        /// [`plan`]); off under `expert=off` and `fixes=off` too.
        plan: bool = true, switch, "on|off", "plans its meld steps over the turn: a beam search over lays, extensions and wilds moved between groups (D-11.2), scored by the meld policy's worth";
        /// Meld steps the turn planner looks ahead.
        plan_depth: u32 = 4, range(1, plan::MAX_PLAN as u32), "1..8", "meld steps the turn planner looks ahead";
        /// Positions the turn planner keeps at each depth.
        plan_beam: u32 = 3, range(1, 64), "1..64", "positions the turn planner keeps at each depth";
        /// How much more than the hill climb's step a plan must be worth to
        /// be played instead.
        plan_margin: f64 = 0.0, range(0.0, 1000.0), "0..1000", "how much more than the one-step choice a plan must be worth to be played instead";
        /// Added to `hold` with the turn planner on: the planner finds the
        /// steps that go out, and going out readier pays (D-13).
        plan_hold: i32 = 600, range(-1000, 1000), "-1000..1000", "added to hold with the turn planner on: how much further behind it still goes out";
        /// Added to `chase` with the turn planner on: it finds the steps
        /// that bring groups close to a canasta (D-10).
        plan_chase: f64 = 0.5, range(-10.0, 10.0), "-10..10", "added to chase with the turn planner on: more weight on groups close to a canasta";
        /// Weighs the pile by the turn the planner plays after taking it,
        /// against the turn after the draw (the melds the pickup makes
        /// possible, D-6.2), instead of the hill climb's turn alone.
        weigh: bool = false, switch, "on|off", "weighs the pile by the turn planner's melds after the pickup against those after the draw (D-6.2)";
        /// Weight of what the pile left lying is worth to the opponent,
        /// counted against drawing (he may take it next, D-6.2).
        deny: f64 = 0.0, range(0.0, 10.0), "0..10", "weight of the pile's worth to the opponent, counted against leaving it to him by drawing";
        /// Reads the match (the running totals, the tax, the target) when
        /// deciding to go out: a hand that wins the match is ended, and
        /// the count is taxed as each total will be (D-15, D-16.2).
        stakes: bool = false, switch, "on|off", "in match play, goes out when that wins the match and weighs the count taxed by each running total (D-15, D-16.2)";
        /// With the twin play on (`twins`): worth of keeping in hand, while
        /// melding, the card identical to the opponent's fresh discard, for
        /// the twin it makes at the discard (D-7, 100).
        plan_keep: f64 = 100.0, range(0.0, 1000.0), "0..1000", "with the twin play on (twins): worth of keeping, while melding, the card identical to the opponent's fresh discard for a twin (D-7)";
        /// With the twin play on (`twins`): added to the twin's 100 when choosing
        /// the discard (D-7).
        plan_twin: f64 = 100.0, range(0.0, 1000.0), "0..1000", "with the twin play on (twins): added to a twin's 100 when choosing the discard (D-7)";
        /// With the twin play on (`twins`): weight of the twin the discard may
        /// hand the opponent (D-7: he holds the identical card), 100 times
        /// the chance that he holds it.
        plan_guard: f64 = 1.0, range(0.0, 10.0), "0..10", "with the twin play on (twins): weight of the twin a discard may hand the opponent, who may hold the identical card (D-7)";
        /// Weighs a pickup through to its rest: where the meld policy
        /// leaves the pile's top card to the engine's way (a wild to move,
        /// D-11.2), the simulation follows that way until the rest of the
        /// pile is in hand, black threes and all (D-6.2, D-6.3), instead of
        /// valuing the turn with the pile still lying; and while an
        /// opponent is on two cards or fewer a big pile holding a black
        /// three is weighed so, never taken unseen, and the black threes
        /// that cannot be thrown this turn count 100 each.
        through: bool = true, switch, "on|off", "weighs a pickup with the pile's rest in hand (black threes and all, D-6.2) where the meld policy leaves the top card to the engine's way; weighs a big pile holding a black three while an opponent is on two cards or fewer, each three it cannot throw at once at 100";
        /// Melds again once a pickup that the engine's way had to finish
        /// has its rest taken (D-6.2): the rest of the turn is the meld
        /// policy's, not the shortest way to the discard.
        resume: bool = true, switch, "on|off", "melds again once a pickup finished by the engine's way has its rest taken, instead of discarding at once";
        /// Checks a penalized pickup (D-6.2) by walking the turn through
        /// it by listed steps (each keeps the turn completable, I-9)
        /// before taking the pile, rather than by the engine's completion
        /// search within 20,000 states, whose "no" under a high opening
        /// minimum (120) costs the whole budget twice and is wrong where
        /// the way through is long.
        walk: bool = true, switch, "on|off", "checks the way through a penalized pickup (D-6.2) by walking it with listed steps (I-9); off: by a completion search of 20,000 states";
        /// The least threat (0..1) counted while an opponent is on two
        /// cards or fewer: his next draw may make his canasta and his way
        /// out (D-13.1), so meldable cards are laid rather than kept as
        /// pairs (their worth falls as the threat rises) and the hand's
        /// points weigh more; 0 leaves the threat as read.
        close: f64 = 0.0, range(0.0, 1.0), "0..1", "least threat counted while an opponent is on two cards or fewer: melds rather than holds (0, the default: the threat as read)";
        /// The least threat (0..1) counted in a position's worth while an
        /// opponent on two cards or fewer may make his canasta this turn
        /// with his hand's cards (naturals of his groups' ranks or wilds,
        /// wilds moved between his groups, D-11.2): the canasta he goes
        /// out with (D-13.1), so cards that meld are laid rather than kept
        /// as pairs, and the hand's points weigh more; 0 (the default)
        /// leaves the threat as read.
        near: f64 = 0.0, range(0.0, 1.0), "0..1", "least threat counted while an opponent on two cards or fewer may make his canasta this turn (wilds moved, D-11.2): melds rather than holds (0, the default: off)";
        /// While an opponent on two cards or fewer may make his canasta
        /// this turn (as `near` reads him: D-9.1, D-11.2, D-13.1), a pair
        /// in hand is worth its `pair` only as far as the pile it may take
        /// next turn is big: the pile's cards with the two discards to come,
        /// over `pile`, at most once (D-6.2: a pair takes the pile, and a
        /// small one does not pay for the cards held when he goes out,
        /// D-14). So triplets are laid rather than kept for a pile of a few
        /// cards; `thin=off` is the play before it.
        thin: bool = true, switch, "on|off", "while an opponent on two cards or fewer may make his canasta this turn, a pair in hand is worth pair times the pile it may take (its cards and the two discards to come) over `pile`: triplets are laid rather than kept for a small pile";
        /// With `thin`: against an opponent on one card, the pairs in
        /// hand are worth it only as far as the pile comes to one of them
        /// before he goes out: each round he goes out when one of his two
        /// cards (the one he holds, the one he draws) makes his canasta
        /// (D-13.1), and else throws a card of a pair's rank (D-6.2) as
        /// often as the unseen cards hold them. So triplets are laid
        /// rather than held for a pile he is unlikely to feed in time;
        /// `lone=off` is the play before it.
        lone: bool = true, switch, "on|off", "with thin, against an opponent on one card: pairs in hand are worth it only as far as the pile comes to them (his discard of their ranks) before he goes out (either of his two cards making his canasta)";
        /// Added to `open` with the turn planner on while no player has
        /// opened and the pile holds `wildfreeze` cards or more: what
        /// having opened (D-8) is worth then (only an opened player takes
        /// a pile with a pair, D-6.2), so that a hand that can open does,
        /// rather than both players holding their cards and throwing
        /// wilds to freeze.
        opened: f64 = 50.0, range(0.0, 1000.0), "0..1000", "added to open while no player has opened and the pile holds wildfreeze cards or more: worth of having opened (D-8), so a hand that can open does";
        /// While no player has opened, the wilds a pile may hold before no
        /// more are thrown to freeze it (D-6.3: each freezes it for one
        /// turn only); 0: no limit.
        wildcap: u32 = 2, range(0, 112), "0..112", "while no player has opened: wilds the pile may hold before it throws no more to freeze it (D-6.3, one turn each); 0: no limit";
        /// When the twin play (`plan_keep`, `plan_twin`, `plan_guard`) is
        /// in force: with the planner (the default), also without it, or
        /// never.
        twins: Twins = Twins::Plan, Twins::parse, Twins::ACCEPTS, "when the twin play (plan_keep, plan_twin, plan_guard; D-7) is in force: plan, with the turn planner; on, also without it (rules:plan=off,twins=on); off, never";
    }
}

/// When `rules` plays for twins (D-7): the `twins` parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Twins {
    /// With the turn planner on (the default).
    #[default]
    Plan,
    /// With the expert play on, planner or not.
    On,
    /// Never: a twin counts its 100 in the discard and nothing more.
    Off,
}

impl Twins {
    /// The accepted values.
    pub const ACCEPTS: &'static str = "plan|on|off";

    /// Parses a `twins` value.
    pub fn parse(value: &str) -> Result<Twins, crate::ParamValueError> {
        match value {
            "plan" => Ok(Twins::Plan),
            "on" => Ok(Twins::On),
            "off" => Ok(Twins::Off),
            _ => Err(crate::ParamValueError::OneOf(Twins::ACCEPTS)),
        }
    }
}

impl crate::ParamText for Twins {
    fn text(&self) -> String {
        match self {
            Twins::Plan => "plan",
            Twins::On => "on",
            Twins::Off => "off",
        }
        .to_string()
    }
}

/// The rule-based player (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct RulesAgent {
    params: RulesParams,
    finisher: TurnFinisher,
    /// Recent answers of [`best_opening`], which depends on the pool alone.
    openings: meld::OpeningCache,
    /// Scratch of [`RulesAgent::meld_choice_unlisted`]: the moves, the
    /// steps weighed, and each candidate's weighed step.
    moves: MoveBuf,
    weighed: Vec<meld::Weighed>,
    /// Scratch of [`RulesAgent::way_out`]: the steps and their keys at
    /// each depth of the search.
    plan_steps: Vec<MoveBuf>,
    plan_keys: Vec<Vec<Option<meld::SuitFree>>>,
    /// The states [`RulesAgent::way_out`] has searched in its pass, with
    /// the steps they had left.
    plan_seen: out::PlanSeen,
    members: Vec<(usize, usize)>,
    order: Vec<usize>,
    run: Vec<(usize, usize)>,
    /// The turn planner ([`plan`]): its plan and scratch.
    planner: plan::Planner,
    /// The turn (its count and mover) whose pickup is being walked
    /// through ([`RulesAgent::finish_step`]): the finisher's usual search
    /// found no way there.
    walking: Option<(u32, usize)>,
}

impl RulesAgent {
    /// A rules agent with these parameters.
    pub fn new(params: RulesParams) -> RulesAgent {
        RulesAgent {
            params,
            finisher: TurnFinisher::default(),
            openings: meld::OpeningCache::default(),
            moves: MoveBuf::default(),
            weighed: Vec::new(),
            plan_steps: Vec::new(),
            plan_keys: Vec::new(),
            plan_seen: out::PlanSeen::default(),
            members: Vec::new(),
            order: Vec::new(),
            run: Vec::new(),
            planner: plan::Planner::default(),
            walking: None,
        }
    }

    /// A rules policy for a search's simulated worlds: its finisher
    /// searches within [`crate::ROLLOUT_FINISHER_BUDGETS`] and counts its
    /// deep searches by decision ([`RulesAgent::new_world`],
    /// [`RulesAgent::new_decision`]). It plays as [`RulesAgent::new`]
    /// wherever the usual finisher budget ends the turn.
    pub fn for_rollouts(params: RulesParams) -> RulesAgent {
        RulesAgent {
            finisher: TurnFinisher::for_rollouts(),
            ..RulesAgent::new(params)
        }
    }

    /// [`Agent::restart`] for the next simulated world of the same search
    /// decision ([`TurnFinisher::new_world`]).
    pub fn new_world(&mut self) {
        self.finisher.new_world();
        self.walking = None;
        self.planner_drop();
    }

    /// A new search decision ([`TurnFinisher::new_decision`]).
    pub fn new_decision(&mut self) {
        self.finisher.new_decision();
    }
}

impl Agent for RulesAgent {
    fn name(&self) -> String {
        RulesParams::NAME.into()
    }

    fn restart(&mut self) {
        self.finisher.reset();
        self.walking = None;
        self.planner_drop();
    }

    fn act(&mut self, view: &SeatView, moves: &mut Moves, rng: &mut Pcg64Mcg) -> Action {
        self.decide(view, None, moves, rng)
    }
}

impl RulesAgent {
    /// [`Agent::act`] in a simulation that holds `world`, a full state
    /// whose mover is the seat of `view` with the view's hand, table and
    /// turn: the meld steps are tried on it instead of on a world made
    /// from the view, with the same result and the same draws from `rng`.
    /// Nothing of `world` the view does not show is read.
    pub(crate) fn act_in(
        &mut self,
        view: &SeatView,
        world: &GameState,
        moves: &mut Moves,
        rng: &mut Pcg64Mcg,
    ) -> Action {
        debug_assert_eq!(world.current_player(), view.seat());
        self.decide(view, Some(world), moves, rng)
    }

    /// [`RulesAgent::decide`] in the meld phase: the listing is checked
    /// only where the answer depends on it.
    fn decide_meld(
        &mut self,
        view: &SeatView,
        world: Option<&GameState>,
        c: &mut Moves,
        rng: &mut Pcg64Mcg,
    ) -> Action {
        if let Some(a) = c.only_listed() {
            return a;
        }
        let steps = self.finisher.step(view);
        // A pickup the engine's way finished (its top card needed a wild
        // moved, D-11.2) is the meld policy's again once its rest is in
        // hand (`resume`): the pile's cards are melded, not held.
        if self.finisher.finishing
            && steps <= self.params.patience
            && self.params.resume_on()
            && view.pickup().is_some_and(|p| p.rest_taken)
            && view.pending_wilds().is_empty()
        {
            self.finisher.release();
        }
        if self.finisher.finishing || steps > self.params.patience {
            for _ in 0..2 {
                if let Some(a) = self.finish_step(view, c, rng) {
                    return a;
                }
            }
            if steps > 2 * self.params.patience {
                if let Some(a) = view
                    .own_world(rng)
                    .completion(200_000)
                    .and_then(|path| path.first().copied())
                    .filter(|a| c.lists(*a))
                {
                    return a;
                }
            }
            if c.lists(Action::Reset) {
                return Action::Reset;
            }
        }
        // The meld policy: the rest of the pile first, then its choice,
        // then the cheapest discard, then the engine's way to end the turn
        // (a discard not yet legal: an opening short of the minimum, a
        // pickup to complete, I-26).
        if c.lists(Action::TakeRest) {
            return Action::TakeRest;
        }
        let o = worth::Outlook::with(
            view,
            self.params.movable_on(),
            self.params.reads_near(),
            self.params.lone_on(),
        );
        // After its own meld steps only its own hand, table and turn are
        // read, so the unshuffled world serves (it draws the same number as
        // a sampled one). The sampled world, whose other hands going out is
        // weighed against, is made only when that question comes up.
        // A simulation's own world serves as well; the number is drawn all
        // the same, so that later samples stay as they were.
        let sample = rng.clone();
        let own;
        let s = match world {
            Some(w) => {
                rng.next_u64();
                w
            }
            None => {
                own = view.own_world(rng);
                &own
            }
        };
        let cands = c.actions();
        let choice = self.choose_unlisted(
            s,
            cands,
            &mut |a| c.is_listed(a),
            &o,
            meld::Others::Sample(view, sample),
        );
        if let Some(a) = choice {
            if !matches!(a, Action::Discard(_)) {
                return a;
            }
        }
        if let Some(d) = self.discard_among(view, cands, &mut |a| c.is_listed(a)) {
            return d;
        }
        if let Some(a) = self.finish_step(view, c, rng) {
            return a;
        }
        let listing = c.all();
        listing
            .iter()
            .copied()
            .find(|a| *a != Action::Reset)
            .unwrap_or(listing[0])
    }

    /// The finisher's next step. During a pickup before its rest is
    /// taken, with `walk`, the finisher searches with its usual budget
    /// only, and where that finds no way the walk's next step
    /// ([`crate::walk_step`]) is played instead of a deeper search, and
    /// so on, unsearched, until the rest is taken: the walk found the way
    /// through when the pile was taken, and every listed step keeps one
    /// (I-9).
    fn finish_step(
        &mut self,
        view: &SeatView,
        c: &mut Moves,
        rng: &mut Pcg64Mcg,
    ) -> Option<Action> {
        match view.pickup().filter(|p| !p.rest_taken) {
            Some(pk) if self.params.walk => {
                let turn = (view.turns(), view.seat());
                if self.walking != Some(turn) {
                    let a = self
                        .finisher
                        .next_shallow_with(view, &mut |a| c.lists(a), rng);
                    if a.is_some() {
                        return a;
                    }
                    self.walking = Some(turn);
                }
                self.finisher.finishing = true;
                crate::walk_step(c, Some(pk.top))
            }
            _ => self.finisher.next_with(view, &mut |a| c.lists(a), rng),
        }
    }

    /// In a simulation, at a pickup whose rest is not yet taken, before
    /// the actions are listed: takes the rest of the pile in `world` when
    /// that is what [`RulesAgent::act_in`] would do, and says whether it
    /// did. The meld policy takes the rest first whenever it may (and the
    /// listing then holds the reset too, as the top card is laid), unless
    /// the turn is being finished by plan; the rest is tried with `apply`,
    /// whose check is the one the listing makes of it, so the listing,
    /// where every step of a pickup is checked by a bounded search, is
    /// spared. The decision is counted as `act_in` counts it.
    /// `p` is the mover.
    pub(crate) fn take_rest_in(&mut self, p: usize, world: &mut GameState) -> bool {
        let (steps, finishing) = self.finisher.peek(&world.view(p));
        if finishing
            || steps > self.params.patience
            || world.phase() != Phase::Meld
            || world.pickup().is_none_or(|p| p.rest_taken)
            || world.apply(Action::TakeRest).is_err()
        {
            return false;
        }
        // Taking the rest changes neither the turn nor the mover.
        self.finisher.step(&world.view(p));
        true
    }

    fn decide(
        &mut self,
        view: &SeatView,
        world: Option<&GameState>,
        moves: &mut Moves,
        rng: &mut Pcg64Mcg,
    ) -> Action {
        if view.phase() == Phase::Meld {
            return self.decide_meld(view, world, moves, rng);
        }
        let legal = moves.all();
        if legal.len() == 1 {
            return legal[0];
        }
        let steps = self.finisher.step(view);
        if self.finisher.finishing || steps > self.params.patience {
            // A stale plan is dropped and searched again from here, so the
            // finisher and the meld policy never undo each other's steps.
            for _ in 0..2 {
                if let Some(a) = self.finisher.next(view, legal, rng) {
                    return a;
                }
            }
            // A way out the finisher's budget does not reach (a pickup
            // that must go out with a big pile, I-26): search deeper, on
            // the unshuffled world (the search reads the mover's part only).
            if steps > 2 * self.params.patience {
                if let Some(a) = view
                    .own_world(rng)
                    .completion(200_000)
                    .and_then(|path| path.first().copied())
                    .filter(|a| legal.contains(a))
                {
                    return a;
                }
            }
            // No plan from here: start the meld phase over and plan from
            // its start (I-25); failing that, a random step breaks any
            // cycle of the meld policy and the finisher.
            if legal.contains(&Action::Reset) {
                return Action::Reset;
            }
        }
        match view.phase() {
            Phase::Cut => Action::KeepCut {
                mask: keep_mask(view),
            },
            Phase::FirstDiscard => self.discard(view, legal).unwrap_or(legal[0]),
            Phase::Draw => match self.draw(view, legal, rng) {
                // Take the pile only when the engine's completion search
                // finds the way through the pickup from its start, so the
                // turn can be finished whatever the meld policy does.
                Action::TakePile if !self.pickup_plannable(view, rng) => Action::Draw,
                a => a,
            },
            Phase::Meld | Phase::Over => legal[0],
        }
    }
}

/// The cut cards worth keeping (D-3.1): wilds, red threes (laid out and
/// replaced, +100, D-4) and the ♥A (D-9.4). The hand is dealt after the
/// choice (D-3.2), so a natural is no better than the random card it
/// replaces, and it would be known to everybody; a black three is worse.
pub fn keep_mask(view: &SeatView) -> u8 {
    let mut mask = 0;
    for (i, c) in view.cut_cards().iter().enumerate() {
        let useful =
            c.is_wild() || c.is_red_three() || (c.is_heart_ace() && view.rules().heart_aces());
        if useful {
            mask |= 1 << i;
        }
    }
    mask
}
