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
//!   ([`can_go_out_with`]) it melds down and goes out if that wins the hand
//!   on the visible count (its table with its hand melded and 100 for going
//!   out, against the opponent's table less his hand as sampled), or if the
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
//!   are laid rather than held as pairs (off by default). While no player
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

use crate::agent_params;
use crate::eval::{
    best_opening, card_points, is_meld, opening_settled, pickup_opens, rank_counts, table_value,
    without_heart_aces,
};
use crate::expert::{opponent_reads, pile_black_threes, threat_with_moves};
use crate::spec::{range, switch, Params};
use crate::{Agent, MoveBuf, Moves, TurnFinisher};
use kanaszta_engine::{
    can_go_out_with, never_goes_out, Action, Card, CardSet, GameState, Group, Phase, Rank, Rules,
    SeatView, Table,
};
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
        /// never go out (I-32, [`never_goes_out`]); 0 turns the dead-lock fix
        /// off, with the steps of a locked hand that must be taken back.
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
        /// The least threat (0..1) counted while an opponent is on two
        /// cards or fewer: his next draw may make his canasta and his way
        /// out (D-13.1), so meldable cards are laid rather than kept as
        /// pairs (their worth falls as the threat rises) and the hand's
        /// points weigh more; 0 leaves the threat as read.
        close: f64 = 0.0, range(0.0, 1.0), "0..1", "least threat counted while an opponent is on two cards or fewer: melds rather than holds (0, the default: the threat as read)";
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
    pub fn parse(value: &str) -> Result<Twins, String> {
        match value {
            "plan" => Ok(Twins::Plan),
            "on" => Ok(Twins::On),
            "off" => Ok(Twins::Off),
            _ => Err(format!("expected one of {}", Twins::ACCEPTS)),
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

impl RulesParams {
    /// The dead-lock charge in force (0: the fix is off).
    fn dead_charge(&self) -> f64 {
        if self.fixes {
            self.dead
        } else {
            0.0
        }
    }

    fn plan_out_on(&self) -> bool {
        self.fixes && self.plan_out
    }

    fn hearts_on(&self) -> bool {
        self.fixes && self.hearts
    }

    fn dead_out_on(&self) -> bool {
        self.fixes && self.dead_out
    }

    fn expert_on(&self) -> bool {
        self.fixes && self.expert
    }

    fn movable_on(&self) -> bool {
        self.expert_on() && self.movable
    }

    fn piles_on(&self) -> bool {
        self.expert_on() && self.piles
    }

    fn track_on(&self) -> bool {
        self.expert_on() && self.track
    }

    fn plan_on(&self) -> bool {
        self.expert_on() && self.plan
    }

    /// `planned` with the turn planner on, `before` (the play before it,
    /// the yardstick `plan=off`) without.
    fn with_plan<T>(&self, planned: T, before: T) -> T {
        if self.plan_on() {
            planned
        } else {
            before
        }
    }

    /// The `hold` in force: with the planner, `plan_hold` more.
    fn hold_in_force(&self) -> i32 {
        self.with_plan(self.hold + self.plan_hold, self.hold)
    }

    /// The `chase` in force: with the planner, `plan_chase` more.
    fn chase_in_force(&self) -> f64 {
        self.with_plan((self.chase + self.plan_chase).max(0.0), self.chase)
    }

    /// Whether the twin play is in force (`twins`): by default with the
    /// planner.
    fn twins_on(&self) -> bool {
        match self.twins {
            Twins::Plan => self.plan_on(),
            Twins::On => self.expert_on(),
            Twins::Off => false,
        }
    }

    /// `on` with the twin play in force (`twins`), `off` without.
    fn with_twins<T>(&self, on: T, off: T) -> T {
        if self.twins_on() {
            on
        } else {
            off
        }
    }

    /// The worth of keeping the twin card while melding: 0 without the
    /// twin play.
    fn keep_in_force(&self) -> f64 {
        self.with_twins(self.plan_keep, 0.0)
    }

    /// A twin's worth in the discard: with the twin play, `plan_twin` more.
    fn twin_in_force(&self) -> f64 {
        self.with_twins(100.0 + self.plan_twin, 100.0)
    }

    /// The weight of the twin handed over: 0 without the twin play.
    fn guard_in_force(&self) -> f64 {
        self.with_twins(self.plan_guard, 0.0)
    }

    fn through_on(&self) -> bool {
        self.plan_on() && self.through
    }

    fn resume_on(&self) -> bool {
        self.plan_on() && self.resume
    }

    /// The threat floor while an opponent is on two cards or fewer
    /// (`close`; 0 when off).
    fn close_in_force(&self) -> f64 {
        if self.plan_on() {
            self.close
        } else {
            0.0
        }
    }

    /// The worth of having opened in force with a pile of `pile` cards,
    /// `standoff` when no player has opened: `open`, and with the turn
    /// planner on in a stand-off over a pile of `wildfreeze` cards or more
    /// `opened` more.
    fn open_in_force(&self, pile: usize, standoff: bool) -> f64 {
        if self.plan_on() && standoff && pile >= self.wildfreeze as usize {
            self.open + self.opened
        } else {
            self.open
        }
    }

    /// Whether a pile holding `wilds` wilds may still be frozen by one
    /// more, `standoff` when no player has opened (`wildcap`, in a
    /// stand-off only; no limit with the turn planner off).
    fn wild_freeze_allowed(&self, wilds: usize, standoff: bool) -> bool {
        !self.plan_on() || !standoff || self.wildcap == 0 || wilds < self.wildcap as usize
    }

    fn weigh_on(&self) -> bool {
        self.plan_on() && self.weigh
    }
}

/// The rule-based player (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct RulesAgent {
    params: RulesParams,
    finisher: TurnFinisher,
    /// Recent answers of [`best_opening`], which depends on the pool alone.
    openings: OpeningCache,
    /// Scratch of [`RulesAgent::meld_choice_unlisted`]: the moves, the
    /// steps weighed, and each candidate's weighed step.
    moves: MoveBuf,
    weighed: Vec<Weighed>,
    /// Scratch of [`RulesAgent::way_out`]: the steps and their keys at
    /// each depth of the search.
    plan_steps: Vec<MoveBuf>,
    plan_keys: Vec<Vec<Option<SuitFree>>>,
    /// The states [`RulesAgent::way_out`] has searched in its pass, with
    /// the steps they had left.
    plan_seen: PlanSeen,
    members: Vec<(usize, usize)>,
    order: Vec<usize>,
    run: Vec<(usize, usize)>,
    /// The turn planner ([`plan`]): its plan and scratch.
    planner: plan::Planner,
}

mod plan;

/// A meld step weighed by [`RulesAgent::choose_unlisted`], standing for
/// every candidate with its [`SuitFree`] key (one, with wilds pending):
/// they are worth the same, and the one of them that counts is the first
/// listed.
#[derive(Clone, Copy, Debug)]
struct Weighed {
    key: Option<SuitFree>,
    /// The gain it is considered with (the bonus gain where it settles the
    /// way out at once).
    value: f64,
    /// The gain with the going-out bonus, still to be settled.
    with: Option<f64>,
    /// Dropped by the opening rule (D-8.2), like every step of its key.
    dropped: bool,
    /// Its first member, and its first listed member once looked for.
    first: usize,
    listed: Option<Option<usize>>,
}

/// A meld step with the suits of its cards left out, which is all the meld
/// policy's measures of a position read (points, canastas, rank counts,
/// going out, openings); the ♥A, which they do tell apart (D-9.4), and the
/// kind of a wild are kept. Two steps with the same one leave positions
/// worth the same to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SuitFree {
    step: u8,
    group: u8,
    cards: u64,
    more: u32,
    /// Copies of the twin card (D-7) the step takes from the hand.
    twin: u8,
}

impl SuitFree {
    /// `None` for an action that is not a meld step. `twin` is the card
    /// whose discard would be a twin, where keeping it is worth something
    /// ([`RulesAgent::twin_card`]): a step that melds it is told apart.
    fn of(a: &Action, twin: Option<Card>) -> Option<SuitFree> {
        // A card's rank, or 0xFF for a joker, and whether it is the ♥A.
        let kind = |c: Card| match c.rank() {
            _ if c.is_joker() => 0xFF,
            Some(r) => r as u64 | ((c == Card::HEART_ACE) as u64) << 8,
            None => 0xFE,
        };
        // Rank counts, jokers and heart aces of a set.
        let set = |c: CardSet| {
            let (_, _, jokers) = c.raw();
            (
                rank_counts(c),
                jokers as u32 | c.count(Card::HEART_ACE) << 8,
            )
        };
        let (step, group, cards, more) = match *a {
            Action::Lay { cards } => {
                let (c, m) = set(cards);
                (0, 0, c, m)
            }
            Action::Extend { group, card } => (1, group, kind(card), 0),
            Action::TakeWild { group, wild } => (2, group, kind(wild), 0),
            Action::Swap {
                group,
                natural,
                wild,
            } => (3, group, kind(natural), kind(wild) as u32),
            Action::Convert { group, naturals } => {
                let (c, m) = set(naturals);
                (4, group, c, m)
            }
            Action::LayHeartAce => (5, 0, 0, 0),
            _ => return None,
        };
        let twin = twin.map_or(0, |t| match *a {
            Action::Lay { cards } => cards.count(t),
            Action::Extend { card, .. } => (card == t) as u32,
            Action::Swap { natural, .. } => (natural == t) as u32,
            Action::Convert { naturals, .. } => naturals.count(t),
            _ => 0,
        }) as u8;
        Some(SuitFree {
            step,
            group,
            cards,
            more,
            twin,
        })
    }
}

/// Whether `hand` can go out onto `groups`: a count settles many hands
/// that cannot, the engine's going-out test (which keeps its last answers,
/// by counts where no card is singled out) the rest.
fn can_go_out_now(hand: CardSet, groups: &[Group], rules: &Rules) -> bool {
    !surely_stuck_with(hand, groups, rules) && can_go_out_with(hand, groups, rules)
}

/// A direct-mapped memo of [`best_opening`] by pool: the meld policy asks
/// it of the same hands step after step and world after world. The answer
/// reads only the pool's rank counts and wilds, so it is kept by them and
/// serves the same counts in other suits.
#[derive(Clone, Debug, Default)]
struct OpeningCache {
    slots: Vec<Option<((u64, u8), i32)>>,
}

impl OpeningCache {
    const SLOTS: usize = 1024;

    fn best_opening(&mut self, pool: CardSet) -> i32 {
        if self.slots.is_empty() {
            self.slots = vec![None; Self::SLOTS];
        }
        let (_, _, j) = pool.raw();
        let key = (rank_counts(pool), j);
        let h = (key.0 ^ (j as u64) << 58).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let i = (h >> 54) as usize % Self::SLOTS;
        match self.slots[i] {
            Some((k, v)) if k == key => v,
            _ => {
                let v = best_opening(pool);
                self.slots[i] = Some((key, v));
                v
            }
        }
    }
}

impl RulesAgent {
    /// A rules agent with these parameters.
    pub fn new(params: RulesParams) -> RulesAgent {
        RulesAgent {
            params,
            finisher: TurnFinisher::default(),
            openings: OpeningCache::default(),
            moves: MoveBuf::default(),
            weighed: Vec::new(),
            plan_steps: Vec::new(),
            plan_keys: Vec::new(),
            plan_seen: PlanSeen::default(),
            members: Vec::new(),
            order: Vec::new(),
            run: Vec::new(),
            planner: plan::Planner::default(),
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
                if let Some(a) = self.finisher.next_with(view, &mut |a| c.lists(a), rng) {
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
        let o = Outlook::with(view, self.params.movable_on());
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
            Others::Sample(view, sample),
        );
        if let Some(a) = choice {
            if !matches!(a, Action::Discard(_)) {
                return a;
            }
        }
        if let Some(d) = self.discard_among(view, cands, &mut |a| c.is_listed(a)) {
            return d;
        }
        if let Some(a) = self.finisher.next_with(view, &mut |a| c.lists(a), rng) {
            return a;
        }
        let listing = c.all();
        listing
            .iter()
            .copied()
            .find(|a| *a != Action::Reset)
            .unwrap_or(listing[0])
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
                Action::TakePile if !pickup_plannable(view, rng) => Action::Draw,
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

/// What the position around one seat looks like to it: who the opponent is
/// and how close he is to going out.
#[derive(Clone, Copy, Debug)]
struct Outlook {
    me: usize,
    opp: usize,
    /// 0..1: how likely the opponent is to go out soon (cards left in hand
    /// then count against us).
    threat: f64,
    /// Whether an opponent is on two cards or fewer (`close`).
    close: bool,
}

impl Outlook {
    /// The outlook of the plain play.
    #[cfg(test)]
    fn of(view: &SeatView) -> Outlook {
        Outlook::with(view, false)
    }

    /// The outlook, with the wilds each opponent can move into one group
    /// counted (`movable`, [`threat_with_moves`]) or not.
    fn with(view: &SeatView, movable: bool) -> Outlook {
        let me = view.seat();
        let n = view.players();
        // The player after us takes our discard (D-2.1).
        let opp = (me + 1) % n;
        let mut threat: f64 = 0.0;
        for p in (0..n).filter(|p| *p != me) {
            let t = if movable {
                threat_with_moves(view.table(p), view.hand_size(p), view.known(p).wild_count())
            } else {
                threat_of(view.table(p), view.hand_size(p))
            };
            threat = threat.max(t);
        }
        // An opponent on two cards or fewer is close (`close`), unless
        // none of them can ever go out (I-32): one card each, and no group
        // any card outside the tables brings to a canasta.
        let others = || (0..n).filter(move |p| *p != me);
        let close = others().any(|p| view.hand_size(p) <= 2) && {
            let mut on = view.pending_wilds();
            for p in 0..n {
                on = on.checked_add(view.table(p).cards()).unwrap_or(on);
            }
            let out = CardSet::FULL_PACK.checked_sub(on).unwrap_or(CardSet::EMPTY);
            !others()
                .all(|p| view.hand_size(p) == 1 && never_goes_out(view.table(p), out, view.rules()))
        };
        Outlook {
            me,
            opp,
            threat,
            close,
        }
    }
}

/// Whether a way through the penalized pickup (D-6.2) from its start is
/// found by the engine's completion search within a generous budget. The
/// pickup and the search read only the mover's part and the pile, so the
/// unshuffled world (the same number drawn) answers as a sampled one.
fn pickup_plannable(view: &SeatView, rng: &mut Pcg64Mcg) -> bool {
    let mut s = view.own_world(rng);
    s.apply(Action::TakePile).is_ok() && s.completion(200_000).is_some()
}

/// How close a player with this table and hand size is to going out.
fn threat_of(table: &Table, hand: usize) -> f64 {
    if table.has_canasta() {
        (1.1 - hand as f64 / 12.0).clamp(0.25, 1.0)
    } else {
        let best = table.groups().iter().map(|g| g.len()).max().unwrap_or(0);
        let near = if best >= 6 {
            0.25
        } else if best >= 5 {
            0.15
        } else {
            0.08
        };
        near + if hand <= 4 { 0.1 } else { 0.0 }
    }
}

/// The least share of the hand's points counted against it, however far
/// the opponent is from going out.
const BASE_RISK: f64 = 0.1;

/// The share of the hand's points counted against it.
fn risk(o: &Outlook) -> f64 {
    BASE_RISK + (1.0 - BASE_RISK) * o.threat
}

/// Canasta promise of a group that is not yet one (D-10): a six-card group
/// is one card from a canasta.
fn group_promise(len: u32) -> f64 {
    match len {
        4 => 15.0,
        5 => 45.0,
        6 => 110.0,
        _ => 0.0,
    }
}

impl RulesAgent {
    /// What seat `o.me`'s position in `s` is worth to it: table points now
    /// (D-14), canastas to come, pairs and wilds in hand, minus the hand at
    /// the risk of being caught with it.
    fn worth(&self, s: &GameState, o: &Outlook) -> f64 {
        let me = o.me;
        if s.is_terminal() {
            let sc = s.scores();
            let best_other = (0..s.players())
                .filter(|p| *p != me)
                .map(|p| sc[p].total)
                .max()
                .unwrap_or(0);
            return (sc[me].total - best_other) as f64 + 10_000.0;
        }
        let table = s.table(me);
        let hand = s.hand(me);
        let mut v = table_value(table, s.rules()) as f64;
        // The ranks that have a group on the table, one bit a rank.
        let mut grouped = 0u32;
        for g in table.groups() {
            if let Some(r) = g.rank() {
                grouped |= 1 << r as u32;
            }
            if g.is_canasta() {
                // A black canasta with room to turn red or gold.
                if g.is_black_canasta() {
                    if let Some(r) = g.rank() {
                        v += 8.0 * hand.rank_count(r) as f64;
                    }
                }
                continue;
            }
            // The planner's extra weight (`plan_chase`) is for groups close
            // to a canasta (D-10: seven cards): a group of four or fewer
            // with a wild in it is three away, and the wild would be worth
            // more kept in hand.
            let chase = if g.len() < 5 && g.wilds() > 0 {
                self.params.chase
            } else {
                self.params.chase_in_force()
            };
            let mut p = chase * group_promise(g.len());
            if g.wilds() == 0 && !g.is_wild_only() {
                // Clean groups may still be red or gold.
                p *= 1.25;
            }
            v += p;
        }
        // Pairs and wilds in hand pay off in later turns, which a close
        // opponent may not leave us; one on two cards or fewer is counted
        // at least `close` near.
        let threat = if o.close {
            o.threat.max(self.params.close_in_force())
        } else {
            o.threat
        };
        let later = 1.0 - threat;
        let pair = later * self.params.pair;
        let counts = rank_counts(hand);
        for r in Rank::NATURALS {
            let n = (counts >> (4 * r as u32)) & 0xF;
            if n >= 2 && grouped & (1 << r as u32) == 0 {
                v += pair;
            }
        }
        // A wild's worth grows with its points, so a joker is not spent on a
        // small group just because it scores 50 there.
        let wilds = hand.wilds();
        v += later * (self.params.wild * wilds.len() as f64 + 0.5 * card_points(wilds) as f64);
        v -= (BASE_RISK + (1.0 - BASE_RISK) * threat) * card_points(hand) as f64;
        if let Some(t) = self.twin_card(s, me) {
            if hand.contains(t) {
                v += self.params.keep_in_force();
            }
        }
        if !table.opened {
            // The opening (D-8) is laid over several steps; each one towards
            // the minimum earns its share of what opening brings: the
            // opening itself, and a ♥A in hand that may then be laid (500).
            let min = s.opening_minimum(me).max(1);
            let part = table.opening_value().min(min) as f64 / min as f64;
            let hearts = if s.rules().heart_aces() {
                hand.count(Card::HEART_ACE) as f64
            } else {
                0.0
            };
            let standoff = (0..s.players()).all(|p| !s.table(p).opened);
            v += part * (self.params.open_in_force(s.pile().len(), standoff) + 400.0 * hearts);
        }
        v - self.lock_charge(s, me)
    }

    /// The card whose discard would be a twin for `me`, melding in `s`
    /// ([`GameState::twin_card`]), when keeping it is worth something
    /// (`plan_keep`).
    fn twin_card(&self, s: &GameState, me: usize) -> Option<Card> {
        if self.params.keep_in_force() == 0.0
            || s.phase() != Phase::Meld
            || s.current_player() != me
        {
            return None;
        }
        s.twin_card()
    }

    /// The dead-lock charge (`dead`) when the seat, melding in `s`, would
    /// keep one card after its discard that could never go out whatever
    /// comes (I-32, [`never_goes_out`]): it could never meld again, take
    /// the pile or go out, and the opponent would have all the time he
    /// wants. A lock that some card outside the tables can still open (a
    /// six-card group, a wild that can still move to help) is not charged.
    fn lock_charge(&self, s: &GameState, me: usize) -> f64 {
        let dead = self.params.dead_charge();
        if dead == 0.0
            || s.phase() != Phase::Meld
            || s.current_player() != me
            || s.hand(me).len() != 2
            || !s.pending_wilds().is_empty()
            || s.pickup().is_some_and(|p| !p.rest_taken)
        {
            return 0.0;
        }
        if never_goes_out(s.table(me), outside(s), s.rules()) {
            dead
        } else {
            0.0
        }
    }

    /// Whether the step `a`, which led to `t`, leaves the mover, with
    /// nothing pending, no discard to end the turn with: no card at all
    /// (going out takes a discard, D-13.1), or one card, no canasta and no
    /// way out (D-13.2). The turn could then end only by taking steps back
    /// (D-11.5). Skipped under the dead-lock fix; under the planned way
    /// out the last card is never laid either, and under the heart fix the
    /// lone ♥A is not.
    fn futile(&self, a: &Action, t: &GameState, me: usize) -> bool {
        let dead = self.params.dead_charge() > 0.0;
        t.pending_wilds().is_empty()
            && t.pickup().is_none_or(|p| p.rest_taken)
            && match t.hand(me).len() {
                0 => dead || self.params.plan_out_on(),
                1 => {
                    (dead || (self.params.hearts_on() && matches!(a, Action::LayHeartAce)))
                        && !t.table(me).has_canasta()
                        && !can_go_out_now(t.hand(me), t.table(me).groups(), t.rules())
                }
                _ => false,
            }
    }

    /// Whether the step `a` from `s`, which led to `t`, keeps the opening
    /// minimum in reach (D-8.2): before the opening, a step that leaves it
    /// short must leave a hand that can still make it up, without the ♥A
    /// (laid apart for 500, D-9.4), so laying the ♥A first, which may
    /// break the group it needs, never does. Under the heart fix the
    /// groups laid this turn count as well (cards can still join them);
    /// without it only new groups from the hand do.
    fn opening_kept(&mut self, s: &GameState, t: &GameState, a: &Action, me: usize) -> bool {
        if s.table(me).opened {
            return true;
        }
        let ov = t.table(me).opening_value();
        let min = s.opening_minimum(me);
        if ov >= min {
            return true;
        }
        if matches!(a, Action::LayHeartAce) {
            return false;
        }
        let hearts = s.rules().heart_aces();
        let h = t.hand(me);
        let left = if hearts { without_heart_aces(h) } else { h };
        if opening_in_reach(left, min - ov, &mut self.openings) {
            return true;
        }
        if !self.params.hearts_on() {
            return false;
        }
        // Every group on the table was laid this turn (it has not opened):
        // the best opening of its cards and the hand's together.
        let mut pool = left;
        for g in t.table(me).groups() {
            pool = pool.checked_add(g.cards()).unwrap_or(pool);
        }
        if hearts {
            pool = without_heart_aces(pool);
        }
        opening_in_reach(pool, min, &mut self.openings)
    }

    /// Whether, in `s`, the opening was begun and falls short (D-8.2), so
    /// that no discard is possible until it is made up or taken back: the
    /// heart fix then plays its best step even at a loss, rather than the
    /// engine's shortest way, which may bury the ♥A in a group of aces.
    fn must_open(&self, s: &GameState, me: usize) -> bool {
        let t = s.table(me);
        self.params.hearts_on()
            && !t.opened
            && !t.groups().is_empty()
            && s.pickup().is_none()
            && t.opening_value() < s.opening_minimum(me)
    }

    fn draw(&mut self, view: &SeatView, legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
        let o = Outlook::with(view, self.params.movable_on());
        let opened = view.table(o.me).opened;
        // Not opened, the pickup must open from the hand and the top card
        // before the rest is taken (D-6.2.1); otherwise the turn would have
        // to go out (I-26), which a careful player does not count on.
        if legal.contains(&Action::TakePile) && (opened || pickup_opens(view)) {
            // A big pile is taken whatever it holds, unless it is weighed
            // by its contents (`piles`): one holding black threes, each 100
            // points against the hand until thrown, one a turn (D-6.3), is
            // weighed by simulation like a small one.
            // Nor, weighing the pickup through (`through`), one holding a
            // black three while an opponent is on two cards or fewer: the
            // three may never be thrown before he goes out.
            let close = self.params.through_on()
                && pile_black_threes(view) > 0
                && (0..view.players()).any(|p| p != o.me && view.hand_size(p) <= 2);
            if opened
                && view.pile().len() as u32 >= self.params.pile
                && (!self.params.piles_on() || pile_black_threes(view) <= 1)
                && !close
            {
                return Action::TakePile;
            }
            let base = view.determinize(rng);
            let mut take = self.simulate_turn(&base, Action::TakePile, &o);
            if close {
                // One black three a turn is thrown (D-6.3); the others
                // stay in hand, each 100 points against it when he goes
                // out, not the share of them the worth counts.
                let kept = pile_black_threes(view).saturating_sub(1) as f64;
                take = take.map(|t| t - kept * 100.0 * (1.0 - risk(&o)));
            }
            let other = view.determinize(rng);
            let draw = match (
                self.simulate_turn(&base, Action::Draw, &o),
                self.simulate_turn(&other, Action::Draw, &o),
            ) {
                (Some(a), Some(b)) => Some(0.5 * (a + b)),
                (a, b) => a.or(b),
            };
            if let (Some(t), Some(d)) = (take, draw) {
                // The pile left lying is the opponent's to take (D-6.2).
                let d = d - self.params.deny * pile_worth_to(view, o.opp);
                if t > d {
                    return Action::TakePile;
                }
            }
        }
        if legal.contains(&Action::FreePickup) && view.pile_top().is_some_and(|c| wanted(view, c)) {
            return Action::FreePickup;
        }
        if legal.contains(&Action::Draw) {
            Action::Draw
        } else {
            legal[0]
        }
    }

    /// Plays `first` and the rest of the turn on a copy of `base` with this
    /// agent's meld policy; the position's worth before the discard.
    fn simulate_turn(&mut self, base: &GameState, first: Action, o: &Outlook) -> Option<f64> {
        let mut s = base.clone();
        s.apply(first).ok()?;
        let mut result = None;
        let mut planned: Option<Option<f64>> = None;
        for _ in 0..40 {
            if s.phase() != Phase::Meld || s.current_player() != o.me {
                result = Some(self.worth(&s, o));
                break;
            }
            // The rest of the pile, once it may be taken, is the meld
            // policy's first answer: tried by itself (the very check the
            // listing makes of it), it spares the listing.
            if s.pickup().is_some_and(|p| !p.rest_taken) {
                let mut t = s.clone();
                if t.apply(Action::TakeRest).is_ok() {
                    s = t;
                    continue;
                }
            }
            if planned.is_none() && self.params.weigh_on() {
                // The turn planner's best plan from the first position the
                // hill climb starts from: the melds the draw or the pickup
                // make possible, some of which the hill climb misses.
                planned = Some(self.plan_weigh(&s, o));
            }
            let choice = self.meld_choice_unlisted(&s, o, Others::Here);
            // A pickup the meld policy cannot carry on is finished the
            // engine's way, as in play, until the rest is in hand
            // (`through`): its cards count, black threes and all.
            if self.params.through_on()
                && s.pickup().is_some_and(|p| !p.rest_taken)
                && !matches!(choice, Some(a) if is_meld(&a))
            {
                match s.completion(PICKUP_BUDGET) {
                    Some(path) => {
                        for a in path {
                            if s.apply(a).is_err() || s.pickup().is_none_or(|p| p.rest_taken) {
                                break;
                            }
                        }
                        if s.pickup().is_none_or(|p| p.rest_taken) {
                            continue;
                        }
                    }
                    None => return None,
                }
            }
            let a = match choice {
                Some(a) => a,
                None => {
                    result = Some(self.worth(&s, o));
                    break;
                }
            };
            if let Action::Discard(_) = a {
                result = Some(self.worth(&s, o));
                break;
            }
            // `a` is listed for `s` (the choice checked it).
            if s.apply_listed(a).is_err() {
                break;
            }
        }
        match (result, planned.flatten()) {
            (Some(r), Some(p)) => Some(r.max(p)),
            (r, _) => r,
        }
    }

    /// The meld policy's choice in `s` from its candidates, each checked
    /// only if it could be the answer ([`RulesAgent::choose_unlisted`]).
    fn meld_choice_unlisted(
        &mut self,
        s: &GameState,
        o: &Outlook,
        others: Others,
    ) -> Option<Action> {
        let mut buf = std::mem::take(&mut self.moves);
        let mut m = s.moves(&mut buf);
        let cands = m.actions();
        let choice = self.choose_unlisted(s, cands, &mut |a| m.is_listed(a), o, others);
        self.moves = buf;
        choice
    }

    /// Whether the mover may meld at all: wilds pending, a pickup under
    /// way, opened or something laid already, or an opening (I-11) in
    /// reach of the hand, the ♥A apart (D-9.4).
    fn may_meld(&mut self, s: &GameState, me: usize) -> bool {
        let table = s.table(me);
        if !s.pending_wilds().is_empty()
            || s.pickup().is_some_and(|p| !p.rest_taken)
            || table.opened
            || !table.groups().is_empty()
        {
            return true;
        }
        let hand = s.hand(me);
        let pool = if s.rules().heart_aces() {
            without_heart_aces(hand)
        } else {
            hand
        };
        opening_in_reach(pool, s.opening_minimum(me), &mut self.openings)
    }

    /// The meld policy's choice in `s` (the mover is `o.me`): a meld step,
    /// a `Discard`, or `None` when it does not meld. `cands` are the
    /// actions to choose from, in the listing's order, and `listed` tells
    /// whether the listing (of `s`, or of a state whose mover's part is the
    /// same) holds one. Every candidate meld step is weighed, one of each
    /// [`SuitFree`] key, the best listed step winning (ties to the
    /// earlier); `listed` is asked only of the steps that could be the
    /// answer, best first, so that most candidates go unchecked (I-9).
    fn choose_unlisted(
        &mut self,
        s: &GameState,
        cands: &[Action],
        listed: &mut dyn FnMut(Action) -> bool,
        o: &Outlook,
        others: Others,
    ) -> Option<Action> {
        if cands.contains(&Action::TakeRest) && listed(Action::TakeRest) {
            return Some(Action::TakeRest);
        }
        let me = o.me;
        if let Some(a) = self.plan_step(s, me) {
            if cands.contains(&a) && listed(a) {
                return Some(a);
            }
        }
        if !self.may_meld(s, me) {
            return None;
        }
        let table = s.table(me);
        let hand = s.hand(me);
        let pending = !s.pending_wilds().is_empty();
        let in_pickup = s.pickup().is_some_and(|p| !p.rest_taken);
        let pickup_top = s.pickup().filter(|p| !p.rest_taken).map(|p| p.top);
        // The ♥A is laid separately (500, D-9.4), never in a group of aces.
        let hearts = s.rules().heart_aces();
        // Going out (D-13): when every card but one can be melded. Asked
        // only once a step could earn the bonus, unless the way out is
        // planned.
        let mut out_mode = self.out_mode_start(table);
        let base = self.worth(s, o);
        let twin = self.twin_card(s, me);
        let mut weighed = std::mem::take(&mut self.weighed);
        weighed.clear();
        let mut members = std::mem::take(&mut self.members);
        members.clear();
        for (idx, a) in cands.iter().enumerate() {
            if !is_meld(a)
                || (!pending && matches!(a, Action::TakeWild { .. }))
                || (hearts && puts_heart_ace_in_group(a) && pickup_top != Some(Card::HEART_ACE))
            {
                continue;
            }
            // A step that moves the same cards from the hand as an earlier
            // one but for their suits is worth as much; it is weighed once,
            // for all of them. (With wilds pending, a wild of one suit may
            // come from the hand and one of another from the pending.)
            let key = if pending { None } else { SuitFree::of(a, twin) };
            if key.is_some() {
                if let Some(wi) = weighed.iter().position(|w| w.key == key) {
                    members.push((wi, idx));
                    continue;
                }
            }
            let mut t = s.clone();
            if t.apply_listed(*a).is_err() {
                continue;
            }
            members.push((weighed.len(), idx));
            let mut w = Weighed {
                key,
                value: 0.0,
                with: None,
                dropped: false,
                first: idx,
                listed: None,
            };
            if !self.opening_kept(s, &t, a, me) || self.futile(a, &t, me) {
                w.dropped = true;
                weighed.push(w);
                continue;
            }
            let gain = self.worth(&t, o) - base;
            w.value = gain;
            // Melding down towards going out: fewer cards, while the way
            // out stays open; the going-out test waits until the bonus
            // could decide the step.
            if t.pending_wilds().is_empty()
                && *out_mode.get_or_insert_with(|| self.wants_out(s, o, &others))
            {
                let h = t.hand(me);
                let with = gain + (1000.0 + 50.0 * (hand.len() as f64 - h.len() as f64));
                if with > gain {
                    w.with = Some(with);
                } else if can_go_out_with(h, t.table(me).groups(), t.rules()) {
                    w.value = with;
                }
            }
            weighed.push(w);
        }
        // The first listed member of weighed step `wi`, looked for once.
        let mut first_listed = |wi: usize, weighed: &mut [Weighed]| -> Option<usize> {
            if let Some(l) = weighed[wi].listed {
                return l;
            }
            let l = members
                .iter()
                .filter(|&&(w, _)| w == wi)
                .map(|&(_, idx)| idx)
                .find(|&idx| listed(cands[idx]));
            weighed[wi].listed = Some(l);
            l
        };
        // The best listed step, ties to the earlier: down the values, the
        // first listed member of each step of the best value seen.
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend((0..weighed.len()).filter(|&i| !weighed[i].dropped));
        order.sort_by(|&x, &y| {
            weighed[y]
                .value
                .partial_cmp(&weighed[x].value)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(weighed[x].first.cmp(&weighed[y].first))
        });
        let mut best: Option<(f64, usize, Action)> = None;
        for &wi in &order {
            let v = weighed[wi].value;
            if best.is_some_and(|(g, _, _)| v < g) {
                break;
            }
            if let Some(idx) = first_listed(wi, &mut weighed) {
                consider(&mut best, (v, idx, cands[idx]));
            }
        }
        // The bonus gains, dearest first, each run of equal gains in the
        // order of their listed steps: as the listed form settles them
        // (each listed step weighed in turn, `meld_choice_reference`).
        order.retain(|&wi| weighed[wi].with.is_some());
        order.sort_by(|&x, &y| {
            weighed[y]
                .with
                .partial_cmp(&weighed[x].with)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let mut run = std::mem::take(&mut self.run);
        let mut i = 0;
        'outs: while i < order.len() {
            let with = weighed[order[i]].with.unwrap_or(f64::NEG_INFINITY);
            if best.is_some_and(|(g, _, _)| with < g) {
                break;
            }
            run.clear();
            while i < order.len() && weighed[order[i]].with == Some(with) {
                if let Some(idx) = first_listed(order[i], &mut weighed) {
                    run.push((idx, order[i]));
                }
                i += 1;
            }
            run.sort_unstable();
            for &(idx, _) in &run {
                if best.is_some_and(|(g, j, _)| with < g || (with == g && idx > j)) {
                    break 'outs;
                }
                let a = cands[idx];
                let mut t = s.clone();
                if t.apply_listed(a).is_ok()
                    && can_go_out_now(t.hand(me), t.table(me).groups(), t.rules())
                {
                    best = Some((with, idx, a));
                }
            }
        }
        self.weighed = weighed;
        self.members = members;
        self.order = order;
        self.run = run;
        if let Some(a) = self.planned(s, o, &others, &mut out_mode, best.map(|b| b.2)) {
            if listed(a) {
                return Some(a);
            }
        }
        if out_mode != Some(true) {
            if let Some(a) = self.plan_turn(s, o, &others, best.map(|b| (b.0, b.2))) {
                if cands.contains(&a) && listed(a) {
                    return Some(a);
                }
                self.planner_drop();
            }
        }
        match best {
            Some((g, _, a)) if g > 0.0 || pending || in_pickup => Some(a),
            _ => cands
                .iter()
                .copied()
                .find(|&a| matches!(a, Action::Discard(_)) && listed(a))
                .or_else(|| best.filter(|_| self.must_open(s, me)).map(|(_, _, a)| a)),
        }
    }

    /// Whether the meld policy's steps earn the going-out bonus, as known
    /// before any step is weighed: `None` until it is asked
    /// ([`RulesAgent::wants_out`]). Without a canasta (D-13.1) the answer
    /// is no, unless the way out is planned (`plan_out`): the hand may
    /// then make the canasta it goes out with.
    fn out_mode_start(&self, table: &Table) -> Option<bool> {
        if table.has_canasta() || self.params.plan_out_on() {
            None
        } else {
            Some(false)
        }
    }

    /// Whether the step `a` from `s` (if any) leaves the mover's way out
    /// open, with nothing pending.
    fn keeps_way_out(&self, s: &GameState, me: usize, a: Option<Action>) -> bool {
        a.is_some_and(|a| {
            let mut t = s.clone();
            t.apply_listed(a).is_ok()
                && t.pending_wilds().is_empty()
                && can_go_out_now(t.hand(me), t.table(me).groups(), t.rules())
        })
    }

    /// Under `plan_out`, when it can go out and wants to
    /// ([`RulesAgent::wants_out`], kept in `out_mode`) but the meld
    /// policy's choice `best` does not keep the way out, the first step of
    /// its planned way out ([`RulesAgent::way_out`]). The policy's steps
    /// that earn the going-out bonus find the way out nearly always; what
    /// they miss is a way that needs wilds moved (D-11.2), which the
    /// policy never moves on its own.
    fn planned(
        &mut self,
        s: &GameState,
        o: &Outlook,
        others: &Others,
        out_mode: &mut Option<bool>,
        best: Option<Action>,
    ) -> Option<Action> {
        let (hand, table) = (s.hand(o.me), s.table(o.me));
        // One card with a canasta goes out by its discard, which the meld
        // policy then makes; a big hand's way out is rarely found within
        // the search's budget, so it is not looked for.
        if !self.params.plan_out_on()
            || hand.len() > PLAN_HAND
            || (hand.len() == 1 && table.has_canasta() && s.pending_wilds().is_empty())
            || !*out_mode.get_or_insert_with(|| self.wants_out(s, o, others))
            || self.keeps_way_out(s, o.me, best)
        {
            return None;
        }
        self.way_out(s, o.me)
    }

    /// The first step of the best way out of `s` for the mover `me`
    /// (D-13.1: down to one card with a canasta, then that card
    /// discarded) among the shortest a search of [`PLAN_BUDGET`] states
    /// finds, by the hand score it ends with (D-14); `None` if it finds
    /// none. Every meld step is tried, wilds moved too (D-11.2): the hill
    /// climb of the meld policy never moves one on its own, and a step it
    /// likes may leave a way out that only moving wilds reaches.
    fn way_out(&mut self, s: &GameState, me: usize) -> Option<Action> {
        let mut budget = PLAN_BUDGET;
        for depth in 0..=PLAN_DEPTH {
            let mut best = None;
            self.plan_seen.clear();
            self.plan_from(s, me, depth, None, &mut budget, &mut best, 0);
            if let Some((_, a)) = best {
                return Some(a);
            }
            if budget == 0 {
                break;
            }
        }
        None
    }

    /// One pass of [`RulesAgent::way_out`]'s deepening: the ways out of
    /// `s` in exactly `depth` meld steps, the best into `best` with the
    /// first step (`first`, or the discard itself). `level` picks the
    /// scratch lists.
    #[allow(clippy::too_many_arguments)]
    fn plan_from(
        &mut self,
        s: &GameState,
        me: usize,
        depth: u32,
        first: Option<Action>,
        budget: &mut u32,
        best: &mut Option<(i32, Action)>,
        level: usize,
    ) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let hand = s.hand(me);
        let twin = self.twin_card(s, me);
        let settled = s.pending_wilds().is_empty() && s.pickup().is_none_or(|p| p.rest_taken);
        if settled && !can_go_out_now(hand, s.table(me).groups(), s.rules()) {
            return;
        }
        // A state met again with no more steps left leads nowhere new
        // (steps in another order, wilds placed another way).
        let key = plan_key(s, me);
        match self.plan_seen.get(&key) {
            Some(&d) if d >= depth => return,
            _ => {
                self.plan_seen.insert(key, depth);
            }
        }
        if depth == 0 {
            if let (true, 1, Some(c)) = (settled, hand.len(), hand.iter().next()) {
                let mut t = s.clone();
                if t.apply(Action::Discard(c)).is_ok() && t.is_terminal() {
                    let v = t.score_of(me).total;
                    if best.is_none_or(|(b, _)| v > b) {
                        *best = Some((v, first.unwrap_or(Action::Discard(c))));
                    }
                }
            }
            return;
        }
        if self.plan_steps.len() <= level {
            self.plan_steps.resize_with(level + 1, MoveBuf::default);
            self.plan_keys.resize_with(level + 1, Vec::new);
        }
        let mut buf = std::mem::take(&mut self.plan_steps[level]);
        let mut keys = std::mem::take(&mut self.plan_keys[level]);
        let steps = s.moves(&mut buf).actions();
        keys.clear();
        let pending = !s.pending_wilds().is_empty();
        for a in steps.iter().filter(|a| is_meld(a)) {
            // A wild pending is placed before another is taken: every way
            // out but a rare few (two wilds taken for one new group) has
            // its steps in such an order, and the search stays small.
            if pending && matches!(a, Action::TakeWild { .. }) {
                continue;
            }
            // Steps alike but for their suits lead alike (as in the meld
            // policy), with nothing pending.
            let key = if pending { None } else { SuitFree::of(a, twin) };
            if key.is_some() {
                if keys.contains(&key) {
                    continue;
                }
                keys.push(key);
            }
            let mut t = s.clone();
            if t.apply_listed(*a).is_err() {
                continue;
            }
            self.plan_from(
                &t,
                me,
                depth - 1,
                first.or(Some(*a)),
                budget,
                best,
                level + 1,
            );
            if *budget == 0 {
                break;
            }
        }
        self.plan_steps[level] = buf;
        self.plan_keys[level] = keys;
    }

    /// Whether going out now is what it wants, when it can.
    fn wants_out(&mut self, s: &GameState, o: &Outlook, others: &Others) -> bool {
        let me = o.me;
        let plan = self.params.plan_out_on();
        // With a wild pending the hand and groups alone do not tell; the
        // steps that place it are each tested for the way out.
        if (!plan || s.pending_wilds().is_empty())
            && !can_go_out_now(s.hand(me), s.table(me).groups(), s.rules())
        {
            return false;
        }
        // Nobody else can ever go out (I-32): the hand ends only when it
        // goes out, so the count does not matter, only whether waiting can
        // still build something (a canasta of 300 or more).
        if self.params.dead_out_on() && others_hopeless(s, me) {
            return !canasta_to_build(s, me) || s.turns() >= DEAD_OUT_TURNS;
        }
        // The visible count if it goes out now: its hand melded, 100 for
        // going out (D-14); the others' hands (as sampled) count minus.
        let mut mine = table_value(s.table(me), s.rules()) + s.hand(me).points() + 100;
        if plan {
            // The wilds pending go back onto its table, and going out
            // without a canasta makes one (black, most often: 300).
            mine += s.pending_wilds().points();
            if !s.table(me).has_canasta() {
                mine += 300;
            }
        }
        if o.threat >= 0.5 {
            return true;
        }
        let theirs = |hand: &dyn Fn(usize) -> i32| {
            (0..s.players())
                .filter(|p| *p != me)
                .map(|p| table_value(s.table(p), s.rules()) - hand(p))
                .max()
                .unwrap_or(0)
        };
        let hold = -self.params.hold_in_force();
        let stakes = self.params.stakes;
        let margin = |theirs: i32| {
            if stakes {
                stakes_margin(s, me, o.opp, mine, theirs)
            } else {
                mine - theirs
            }
        };
        match others {
            Others::Here => margin(theirs(&|p| s.hand(p).points())) >= hold,
            Others::Sample(view, rng) => {
                // A sampled hand holds its known cards and unseen ones worth
                // 5 to 100 each (red threes never stay in a hand, D-4):
                // where those bounds decide, no sample is needed.
                let unknown = |p: usize| (view.hand_size(p) - view.known(p).len() as usize) as i32;
                let least = theirs(&|p| card_points(view.known(p)) + 100 * unknown(p));
                let most = theirs(&|p| card_points(view.known(p)) + 5 * unknown(p));
                if margin(most) >= hold {
                    return true;
                }
                if margin(least) < hold {
                    return false;
                }
                let sampled = view.determinize(&mut rng.clone());
                margin(theirs(&|p| sampled.hand(p).points())) >= hold
            }
        }
    }

    /// The discard that costs least (see the module documentation).
    fn discard(&self, view: &SeatView, legal: &[Action]) -> Option<Action> {
        self.discard_among(view, legal, &mut |_| true)
    }

    /// [`RulesAgent::discard`] among the discards of `cands` that
    /// `listed` passes (checked only where one would be the best so far).
    fn discard_among(
        &self,
        view: &SeatView,
        cands: &[Action],
        listed: &mut dyn FnMut(Action) -> bool,
    ) -> Option<Action> {
        let o = Outlook::with(view, self.params.movable_on());
        let hand = view.hand();
        // What every candidate's cost reads of the position, made once.
        let unseen = view.unseen();
        let opp_grouped = grouped_ranks(view.table(o.opp));
        let mut pile_worth = 0.0;
        for x in view.pile() {
            pile_worth += card_worth_to(opp_grouped, *x);
        }
        let (discarded, declined) = if self.params.track_on() {
            opponent_reads(view, o.opp, TRACK_ROUNDS)
        } else {
            (0, 0)
        };
        let mut seen = Seen {
            unseen,
            pile_worth,
            opp_grouped,
            discarded,
            declined,
            danger: [None; 13],
        };
        let mut best: Option<(f64, Action)> = None;
        for a in cands {
            let Action::Discard(c) = *a else { continue };
            let cost = self.discard_cost(view, &o, &mut seen, hand, c);
            if best.is_none_or(|(b, _)| cost < b) && listed(*a) {
                best = Some((cost, *a));
            }
        }
        best.map(|(_, a)| a)
    }

    fn discard_cost(
        &self,
        view: &SeatView,
        o: &Outlook,
        seen: &mut Seen,
        hand: CardSet,
        c: Card,
    ) -> f64 {
        let p = &self.params;
        let pile = view.pile().len() as f64;
        let mut cost = own_use(view, o, seen.unseen, hand, c, p);
        // D-7: identical to the opponent's fresh discard: a twin.
        if view.twin_card() == Some(c) {
            cost -= p.twin_in_force();
        }
        let guard = p.guard_in_force();
        if guard > 0.0 {
            cost += guard * 100.0 * twin_chance(view, o.opp, seen.unseen, c);
        }
        if c.is_black_three() {
            // Held as a safe discard while the pile is small, thrown to
            // freeze it once it is worth taking (D-6.3).
            if pile + 1.0 >= p.freeze as f64 {
                cost -= 60.0;
            }
            return cost;
        }
        if c.is_wild() {
            // Past `wildcap` wilds in the pile, freezing it once more only
            // delays its loss by a turn (D-6.3): no wild is thrown while a
            // natural can be.
            let wilds = view.pile().iter().filter(|x| x.is_wild()).count();
            let standoff = (0..view.players()).all(|q| !view.table(q).opened);
            if !p.wild_freeze_allowed(wilds, standoff) {
                return cost + WILD_CAP_CHARGE;
            }
            if pile + 1.0 >= p.wildfreeze as f64 {
                cost -= 3.0 * pile;
            }
            return cost;
        }
        // The danger reads only the card's rank: once a rank.
        let d = match c.rank().map(|r| (r as usize, seen.danger[r as usize])) {
            Some((_, Some(d))) => d,
            Some((r, None)) => {
                let d = danger(view, o, seen, c);
                seen.danger[r] = Some(d);
                d
            }
            None => danger(view, o, seen, c),
        };
        cost + p.caution * d
    }
}

/// Where the meld policy finds the other seats' hands: in the state it
/// plays on, or in the sample of the view that the generator, as it was
/// before that state was made, gives ([`SeatView::determinize`]).
enum Others<'a> {
    Here,
    Sample(&'a SeatView<'a>, Pcg64Mcg),
}

/// What the discard costs read of the position, the same for every card:
/// the cards not seen ([`SeatView::unseen`]), the pile's worth to the
/// opponent ([`card_worth_to`] summed in pile order), the ranks of his
/// groups ([`grouped_ranks`]) and the danger of each rank found so far.
struct Seen {
    unseen: CardSet,
    pile_worth: f64,
    opp_grouped: u32,
    /// The ranks the opponent discarded and the tops he declined lately,
    /// one bit a rank ([`opponent_reads`]; none without `track`).
    discarded: u32,
    declined: u32,
    danger: [Option<f64>; 13],
}

/// Rounds of the pile read for the opponent's discards and declined tops
/// (`track`): older ones say little of the hand he holds now.
const TRACK_ROUNDS: usize = 2;

/// What is left of the chance that the opponent takes the pile with a
/// rank whose top he declined lately (he held no pair of it, nor one and a
/// wild, D-6.2: only the cards drawn since can give him one), and with a
/// rank he discarded lately (a pair is rarely broken).
const DECLINED_SHARE: f64 = 0.5;
const DISCARDED_SHARE: f64 = 0.8;

/// How much the seat loses by giving up `c`: its use for the hand.
fn own_use(
    view: &SeatView,
    o: &Outlook,
    unseen: CardSet,
    hand: CardSet,
    c: Card,
    p: &RulesParams,
) -> f64 {
    let risk = risk(o);
    if c.is_black_three() {
        // Thrown at once when the opponent may go out soon (−100 in hand).
        return 20.0 - 140.0 * o.threat;
    }
    if c.is_wild() {
        return 150.0 + p.wild + c.points() as f64 * (1.0 - risk);
    }
    // A hand left with one card and no canasta can never lay the ♥A
    // apart: laying it would leave nothing to discard (D-13.2). Under the
    // heart fix it is then an ace like any other.
    let lone = p.hearts_on() && hand.len() == 2 && !view.table(o.me).has_canasta();
    if c.is_heart_ace() && view.rules().heart_aces() && !lone {
        return 1_000.0;
    }
    let Some(r) = c.rank() else { return 0.0 };
    let table = view.table(o.me);
    let n = hand.rank_count(r) as f64;
    let mut v = 0.0;
    if let Some(gi) = table.group_of_rank(r) {
        let g = table.groups()[gi];
        // It extends a group (a gold canasta needs the eighth natural).
        v += if g.len() >= 8 { -10.0 } else { 60.0 };
    }
    if n >= 2.0 {
        v += 40.0 + p.pair + 15.0 * (n - 2.0);
    }
    // Live copies: a rank whose other copies are all in sight is dead.
    let live = unseen.rank_count(r) as f64;
    v += 2.0 * live.min(4.0);
    // Loose cards in hand cost their points if the opponent goes out.
    v - risk * c.points() as f64
}

/// The chance that `opp` holds a card identical to `c`, which he would
/// throw onto it for a twin (D-7; never on a joker, D-7.2): sure if he
/// picked one up and holds it still ([`SeatView::known`]), else each
/// unseen copy is in his hand as often as his unknown cards are among the
/// unseen.
fn twin_chance(view: &SeatView, opp: usize, unseen: CardSet, c: Card) -> f64 {
    if c.is_joker() {
        return 0.0;
    }
    if view.known(opp).contains(c) {
        return 1.0;
    }
    let copies = unseen.count(c);
    if copies == 0 {
        return 0.0;
    }
    let unknown = view
        .hand_size(opp)
        .saturating_sub(view.known(opp).len() as usize) as f64;
    let share = (unknown / unseen.len().max(1) as f64).min(1.0);
    1.0 - (1.0 - share).powi(copies as i32)
}

/// The danger of discarding the natural `c`: the chance the opponent can
/// take the pile with it on top (D-6.2: two naturals of the rank, or one and
/// a wild, in his hand) times what the pile is worth to him, plus a charge
/// for feeding his groups.
fn danger(view: &SeatView, o: &Outlook, seen: &Seen, c: Card) -> f64 {
    let Some(r) = c.rank() else { return 0.0 };
    let opp = o.opp;
    let known = view.known(opp);
    let unseen = seen.unseen;
    let total = unseen.len().max(1) as f64;
    let unknown = view.hand_size(opp).saturating_sub(known.len() as usize);
    let pr = unseen.rank_count(r) as f64 / total;
    let pw = unseen.wild_count() as f64 / total;
    let kr = known.rank_count(r).min(2) as usize;
    let kw = known.wild_count().min(1) as usize;
    let mut p_take = take_probability(kr, kw, unknown, pr, pw);
    // What the pile as it lies tells (`track`): a top declined, a card
    // discarded. His known cards are as sure as ever.
    let bit = 1u32 << r as u32;
    if kr < 2 && kr + kw < 2 {
        if seen.declined & bit != 0 {
            p_take *= DECLINED_SHARE;
        } else if seen.discarded & bit != 0 {
            p_take *= DISCARDED_SHARE;
        }
    }
    let pile_worth = seen.pile_worth + card_worth_to(seen.opp_grouped, c);
    let mut d = p_take * (40.0 + pile_worth).max(0.0);
    if let Some(gi) = view.table(opp).group_of_rank(r) {
        let g = view.table(opp).groups()[gi];
        // One card from a canasta (300), or from a red or gold one.
        d += match g.len() {
            6 => 70.0,
            7 => 50.0,
            5 => 25.0,
            8.. => 0.0,
            _ => 10.0,
        };
    }
    d
}

/// The ranks that have a group on `table`, one bit a rank.
fn grouped_ranks(table: &Table) -> u32 {
    let mut grouped = 0;
    for g in table.groups() {
        if let Some(r) = g.rank() {
            grouped |= 1 << r as u32;
        }
    }
    grouped
}

/// The margin of a hand that ends `mine` to `theirs` (raw, D-14) as the
/// match sees it (`stakes`): each score taxed by its player's running
/// total (D-15), and a hand that ends the match counted as won or lost
/// whatever its margin (D-16.2: the first total above the target, the
/// higher one where both pass it). Out of a match the totals are nought
/// and the margin is the raw one.
fn stakes_margin(s: &GameState, me: usize, opp: usize, mine: i32, theirs: i32) -> i32 {
    const DECIDED: i32 = 100_000;
    let r = s.rules();
    let totals = s.totals();
    let (tm, to) = (totals[me], totals[opp]);
    let (am, ao) = (
        tm + kanaszta_engine::tax(mine, tm, r),
        to + kanaszta_engine::tax(theirs, to, r),
    );
    if (am > r.target || ao > r.target) && am != ao {
        return if am > ao { DECIDED } else { -DECIDED };
    }
    (am - tm) - (ao - to)
}

/// What the pile as it lies is worth to seat `opp`, card by card
/// ([`card_worth_to`]), were he to take it (D-6.2).
fn pile_worth_to(view: &SeatView, opp: usize) -> f64 {
    let grouped = grouped_ranks(view.table(opp));
    view.pile()
        .iter()
        .map(|c| card_worth_to(grouped, *c))
        .sum::<f64>()
        .max(0.0)
}

/// A rough worth of one pile card to the player with groups of the ranks
/// `grouped` ([`grouped_ranks`]).
fn card_worth_to(grouped: u32, c: Card) -> f64 {
    if c.is_black_three() {
        return -40.0;
    }
    if c.is_wild() {
        return 40.0 + c.points() as f64;
    }
    let mut v = 8.0 + c.points() as f64;
    if c.rank().is_some_and(|r| grouped & (1 << r as u32) != 0) {
        v += 15.0;
    }
    v
}

/// Probability that a hand holding `kr` known naturals of the rank (0–2)
/// and `kw` known wilds (0–1), plus `unknown` cards each a natural of the
/// rank with probability `pr` and a wild with `pw`, holds two naturals or a
/// natural and a wild.
fn take_probability(kr: usize, kw: usize, unknown: usize, pr: f64, pw: f64) -> f64 {
    // States: naturals 0..=2 × wilds 0..=1.
    let mut p = [[0.0f64; 2]; 3];
    p[kr][kw] = 1.0;
    let po = (1.0 - pr - pw).max(0.0);
    for _ in 0..unknown {
        let mut q = [[0.0f64; 2]; 3];
        for n in 0..3 {
            for w in 0..2 {
                let x = p[n][w];
                if x == 0.0 {
                    continue;
                }
                q[n][w] += x * po;
                q[(n + 1).min(2)][w] += x * pr;
                q[n][1] += x * pw;
            }
        }
        p = q;
    }
    p[2][0] + p[2][1] + p[1][1]
}

/// The cards outside every table of `s` (the stock, the pile, every hand;
/// wilds taken out of a group and not yet placed are on the mover's
/// table), as the dead lock (I-32) reads them.
fn outside(s: &GameState) -> CardSet {
    let mut on = s.pending_wilds();
    for p in 0..s.players() {
        on = on.checked_add(s.table(p).cards()).unwrap_or(on);
    }
    CardSet::FULL_PACK.checked_sub(on).unwrap_or(CardSet::EMPTY)
}

/// Whether every player but `me` holds one card that could never go out
/// (I-32, [`never_goes_out`]): nobody but `me` can end the hand by
/// going out.
fn others_hopeless(s: &GameState, me: usize) -> bool {
    let out = outside(s);
    (0..s.players())
        .filter(|&p| p != me)
        .all(|p| s.hand(p).len() == 1 && never_goes_out(s.table(p), out, s.rules()))
}

/// Whether waiting can still build a canasta (D-10) for `me`: a group of
/// its table that is not one yet could reach seven cards with the cards
/// outside the tables (its hand included), within the wild limits (D-9.1:
/// at least four naturals among seven, at most three wilds).
fn canasta_to_build(s: &GameState, me: usize) -> bool {
    let out = outside(s);
    let wilds = out.wild_count();
    s.table(me).groups().iter().any(|g| {
        if g.is_canasta() {
            return false;
        }
        match g.rank() {
            None => g.len() + wilds >= 7,
            Some(r) => {
                let naturals = out.rank_count(r);
                g.naturals() + naturals >= 4
                    && g.len() + naturals + wilds.min(3u32.saturating_sub(g.wilds())) >= 7
            }
        }
    })
}

/// Turns after which it goes out when it can, though no opponent can ever
/// go out and a canasta could still be built: longer hands build little
/// more, and the turn cap (I-5) must not end one before it goes out.
const DEAD_OUT_TURNS: u32 = 100;

/// States the planned way out searches at most ([`RulesAgent::way_out`]).
const PLAN_BUDGET: u32 = 2000;

/// What a wild discard costs more once the pile holds `wildcap` wilds.
const WILD_CAP_CHARGE: f64 = 1000.0;

/// States the engine's search may try to finish a simulated pickup
/// (`through`).
const PICKUP_BUDGET: u32 = 20_000;

/// Cards in hand beyond which the way out is not planned
/// ([`RulesAgent::planned`]): with more, a search of [`PLAN_BUDGET`]
/// states finds it in few of the cases where the meld policy misses it.
const PLAN_HAND: u32 = 7;

/// Meld steps the planned way out looks ahead at most.
const PLAN_DEPTH: u32 = 12;

/// Whether a card is worth the free pickup (D-6.1).
fn wanted(view: &SeatView, card: Card) -> bool {
    if card.is_wild() || (card.is_heart_ace() && view.rules().heart_aces()) {
        return true;
    }
    let me = view.seat();
    card.rank().is_some_and(|r| {
        card.is_natural()
            && !card.is_black_three()
            && (view.hand().rank_count(r) >= 1 || view.table(me).group_of_rank(r).is_some())
    })
}

/// A sure "no" of [`can_go_out_with`] by counting, where it needs no
/// search: going out melds every card but the one discarded (D-13.1), and a
/// three is never melded (D-9.3) nor is a lone natural without a group of
/// its rank (a new group needs two naturals, D-9.1), so the hand has at
/// most one such card. The ♥A is left out: laid separately (D-9.4), it
/// needs no group. `false` means only that the count does not decide.
fn surely_stuck_with(hand: CardSet, groups: &[Group], rules: &Rules) -> bool {
    let mut stuck = hand.black_three_count() + hand.red_three_count();
    let mut grouped = 0u32;
    for g in groups {
        if let Some(r) = g.rank() {
            grouped |= 1 << r as u32;
        }
    }
    let counts = rank_counts(hand);
    for r in Rank::NATURALS {
        if r == Rank::Ace && rules.heart_aces() {
            continue;
        }
        if (counts >> (4 * r as u32)) & 0xF == 1 && grouped & (1 << r as u32) == 0 {
            stuck += 1;
        }
    }
    stuck >= 2
}

/// What tells apart the states of the mover `me`'s meld phase for the
/// planned way out: his hand, the wilds pending, his ♥As and his groups
/// with their flags (in any order: the order of laying does not matter).
fn plan_key(s: &GameState, me: usize) -> u64 {
    // SplitMix64's finalizer: every bit of the input reaches every bit of
    // the output, so that the groups' sum does not cancel.
    fn mix(h: u64, x: u64) -> u64 {
        let mut z = (h ^ x).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn set(h: u64, c: CardSet) -> u64 {
        let (lo, hi, jokers) = c.raw();
        mix(mix(mix(h, lo), hi), jokers as u64)
    }
    let t = s.table(me);
    let mut key = set(
        set(mix(0, t.heart_aces as u64), s.hand(me)),
        s.pending_wilds(),
    );
    for g in t.groups() {
        key = key.wrapping_add(set(mix(1, g.flags() as u64), g.cards()));
    }
    key
}

/// Passes on [`plan_key`]'s keys, mixed already, to the memo's table.
#[derive(Clone, Copy, Debug, Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | *b as u64;
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// The memo of [`RulesAgent::way_out`]: a state's key, the steps it had
/// left when searched.
type PlanSeen = std::collections::HashMap<u64, u32, std::hash::BuildHasherDefault<KeyHasher>>;

/// Keeps `c` as the best meld step if its gain is higher, or equal and it
/// comes earlier: the first of the best in listing order.
fn consider(best: &mut Option<(f64, usize, Action)>, c: (f64, usize, Action)) {
    if best.is_none_or(|(g, j, _)| c.0 > g || (c.0 == g && c.1 < j)) {
        *best = Some(c);
    }
}

/// Whether an opening worth `need` (D-8.2) can be laid from `pool`, keeping
/// a card to discard. Cheap bounds settle most cases
/// ([`opening_settled`]); the exact search ([`best_opening`]) runs only
/// between them.
fn opening_in_reach(pool: CardSet, need: i32, memo: &mut OpeningCache) -> bool {
    if need <= 0 {
        return true;
    }
    opening_settled(pool, need).unwrap_or_else(|| memo.best_opening(pool) >= need)
}

/// Whether an action puts a ♥A into a group, where it is worth 20 instead
/// of the 500 of a separately laid one (D-9.4, D-12.3).
fn puts_heart_ace_in_group(a: &Action) -> bool {
    match a {
        Action::Lay { cards } => cards.contains(Card::HEART_ACE),
        Action::Extend { card, .. } => *card == Card::HEART_ACE,
        Action::Swap { natural, .. } => *natural == Card::HEART_ACE,
        Action::Convert { naturals, .. } => naturals.contains(Card::HEART_ACE),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kanaszta_engine::Suit;
    use rand::{RngExt, SeedableRng};

    /// Trying the meld steps on a simulation's world, and taking the rest
    /// of the pile there before the listing, give the actions, states and
    /// generator states that acting on the view gives, decision by
    /// decision through whole hands.
    #[test]
    fn act_in_a_world_is_act() {
        let mut buf = Vec::new();
        let (mut melds, mut rests) = (0, 0);
        for version in ["decorated-2003-02", "decorated-2003-01"] {
            let rules = Rules::preset(version).unwrap();
            for seed in 0..20 {
                let mut g = GameState::new(rules, seed);
                let mut by_view: Vec<RulesAgent> = (0..g.players())
                    .map(|_| RulesAgent::new(RulesParams::default()))
                    .collect();
                let mut by_world = by_view.clone();
                let mut r1 = Pcg64Mcg::seed_from_u64(seed);
                let mut r2 = r1.clone();
                let mut steps = 0;
                while g.phase() != Phase::Over && steps < 3000 {
                    let p = g.current_player();
                    g.legal_actions(&mut buf);
                    let view = g.view(p);
                    let a = by_view[p].act(&view, &mut g.moves(&mut MoveBuf::new()), &mut r1);
                    let mut w = g.clone();
                    let b = if by_world[p].take_rest_in(p, &mut w) {
                        let mut t = g.clone();
                        t.apply(a).unwrap();
                        assert!(t == w, "seed {seed}, step {steps}");
                        rests += 1;
                        Action::TakeRest
                    } else {
                        by_world[p].act_in(&view, &g, &mut g.moves(&mut MoveBuf::new()), &mut r2)
                    };
                    assert_eq!(a, b, "seed {seed}, step {steps}");
                    assert!(r1 == r2, "seed {seed}, step {steps}");
                    melds += (g.phase() == Phase::Meld) as u32;
                    g.apply(a).unwrap();
                    steps += 1;
                }
            }
        }
        assert!(melds > 200 && rests > 10, "{melds} {rests}");
    }

    /// The opening memo, kept by counts, answers as [`best_opening`] on
    /// random pools and on the same pools in other suits.
    #[test]
    fn opening_memo_is_best_opening() {
        let mut memo = OpeningCache::default();
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        for _ in 0..20_000 {
            let mut pool = CardSet::EMPTY;
            let mut other = CardSet::EMPTY;
            let shift = rng.random_range(0..4);
            for _ in 0..rng.random_range(1..16) {
                if rng.random_range(0..14) == 0 {
                    pool.insert(Card::JOKER);
                    other.insert(Card::JOKER);
                    continue;
                }
                let r = Rank::ALL[rng.random_range(0..13)];
                let s = rng.random_range(0..4);
                if pool.insert(Card::new(r, Suit::ALL[s])) {
                    other.insert(Card::new(r, Suit::ALL[(s + shift) % 4]));
                }
            }
            assert_eq!(memo.best_opening(pool), best_opening(pool), "{pool}");
            assert_eq!(memo.best_opening(other), best_opening(other), "{other}");
        }
    }

    impl RulesAgent {
        /// The meld choice over the listing as it was written before the
        /// choice from candidates: each listed step weighed in order, one per
        /// suit-free key. The reference the candidate form is checked against.
        fn meld_choice_reference(
            &mut self,
            s: &GameState,
            legal: &[Action],
            o: &Outlook,
            others: Others,
        ) -> Option<Action> {
            if legal.contains(&Action::TakeRest) {
                return Some(Action::TakeRest);
            }
            let me = o.me;
            if let Some(a) = self.plan_step(s, me) {
                if legal.contains(&a) {
                    return Some(a);
                }
            }
            if !self.may_meld(s, me) {
                return None;
            }
            let table = s.table(me);
            let hand = s.hand(me);
            let pending = !s.pending_wilds().is_empty();
            let in_pickup = s.pickup().is_some_and(|p| !p.rest_taken);
            let pickup_top = s.pickup().filter(|p| !p.rest_taken).map(|p| p.top);
            // The ♥A is laid separately (500, D-9.4), never in a group of aces.
            let hearts = s.rules().heart_aces();
            // Going out (D-13): when every card but one can be melded. Asked
            // only once a step could earn the bonus.
            let mut out_mode = self.out_mode_start(table);
            let base = self.worth(s, o);
            let twin = self.twin_card(s, me);
            // Best first, ties to the earlier step: (gain, order, step).
            let mut best: Option<(f64, usize, Action)> = None;
            let mut outs: Vec<(f64, usize, Action)> = Vec::new();
            outs.clear();
            let mut tried: Vec<Option<SuitFree>> = Vec::new();
            tried.clear();
            for (i, a) in legal.iter().filter(|a| is_meld(a)).enumerate() {
                if !pending && matches!(a, Action::TakeWild { .. }) {
                    continue;
                }
                if hearts && puts_heart_ace_in_group(a) && pickup_top != Some(Card::HEART_ACE) {
                    continue;
                }
                // A step that moves the same cards from the hand as an earlier
                // one but for their suits gains exactly as much, and a tie goes
                // to the earlier one. (With wilds pending, a wild of one suit
                // may come from the hand and one of another from the pending.)
                let key = if pending { None } else { SuitFree::of(a, twin) };
                if key.is_some() && tried.contains(&key) {
                    continue;
                }
                // `legal` is the listing of `s` or of the view it was sampled from.
                let mut t = s.clone();
                if t.apply_listed(*a).is_err() {
                    continue;
                }
                tried.push(key);
                if !self.opening_kept(s, &t, a, me) || self.futile(a, &t, me) {
                    continue;
                }
                let gain = self.worth(&t, o) - base;
                if t.pending_wilds().is_empty()
                    && *out_mode.get_or_insert_with(|| self.wants_out(s, o, &others))
                {
                    // Melding down towards going out: fewer cards, while the
                    // way out stays open. The going-out test is the costly
                    // part, so it waits until the bonus could decide the step.
                    let h = t.hand(me);
                    let with = gain + (1000.0 + 50.0 * (hand.len() as f64 - h.len() as f64));
                    if with > gain {
                        outs.push((with, i, *a));
                    } else if can_go_out_with(h, t.table(me).groups(), t.rules()) {
                        consider(&mut best, (with, i, *a));
                        continue;
                    }
                }
                consider(&mut best, (gain, i, *a));
            }
            // Each step's gain is its bonus gain when it keeps the way out, else
            // the plain gain already counted. Dearest bonus first: once one
            // cannot beat the best, no later one can.
            outs.sort_by(|x, y| {
                y.0.partial_cmp(&x.0)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(x.1.cmp(&y.1))
            });
            for &(with, i, a) in &outs {
                if best.is_some_and(|(g, j, _)| with < g || (with == g && i > j)) {
                    break;
                }
                let mut t = s.clone();
                if t.apply_listed(a).is_ok()
                    && can_go_out_now(t.hand(me), t.table(me).groups(), t.rules())
                {
                    best = Some((with, i, a));
                }
            }
            if let Some(a) = self.planned(s, o, &others, &mut out_mode, best.map(|b| b.2)) {
                if legal.contains(&a) {
                    return Some(a);
                }
            }
            if out_mode != Some(true) {
                if let Some(a) = self.plan_turn(s, o, &others, best.map(|b| (b.0, b.2))) {
                    if legal.contains(&a) {
                        return Some(a);
                    }
                    self.planner_drop();
                }
            }
            match best {
                Some((g, _, a)) if g > 0.0 || pending || in_pickup => Some(a),
                _ => legal
                    .iter()
                    .copied()
                    .find(|a| matches!(a, Action::Discard(_)))
                    .or_else(|| best.filter(|_| self.must_open(s, me)).map(|(_, _, a)| a)),
            }
        }
    }

    /// At every meld-phase decision of hands between rules agents (default
    /// rules, the 2003-01 rules, and a patience of 2 so that the
    /// finisher's turns come often), the decision from the lazy moves is
    /// the one from the listing, and the agent's finisher and the seat's
    /// generator are left alike.
    #[test]
    fn lazy_decision_is_the_listed_one() {
        let impatient = RulesParams {
            patience: 2,
            ..RulesParams::default()
        };
        let settings = [
            (Rules::default(), 0..30),
            (Rules::preset("decorated-2003-01").unwrap(), 30..40),
            (Rules::default(), 40..60),
        ];
        let compared = crate::eval::lazy_against_listed(
            &settings,
            |k| match k {
                2 => RulesAgent::new(impatient.clone()),
                _ => RulesAgent::new(RulesParams::default()),
            },
            |a, b| a.finisher == b.finisher,
        );
        assert!(compared > 3000, "{compared} decisions compared");
    }

    /// The meld choice made without the listing is the one made with it,
    /// at every meld phase of random play under both rule versions, with
    /// the others' hands read in the state and sampled from the view.
    #[test]
    fn unlisted_meld_choice_is_the_listed_one() {
        let mut agent = RulesAgent::new(RulesParams::default());
        let mut buf = Vec::new();
        let (mut melds, mut ends) = (0, 0);
        for version in ["decorated-2003-02", "decorated-2003-01"] {
            let rules = Rules::preset(version).unwrap();
            for seed in 0..60 {
                let mut g = GameState::new(rules, seed);
                let mut rng = Pcg64Mcg::seed_from_u64(seed);
                while g.phase() != Phase::Over {
                    g.legal_actions(&mut buf);
                    if g.phase() == Phase::Meld {
                        let me = g.current_player();
                        let view = g.view(me);
                        let o = Outlook::of(&view);
                        let here = agent.meld_choice_reference(&g, &buf, &o, Others::Here);
                        assert_eq!(
                            agent.meld_choice_unlisted(&g, &o, Others::Here),
                            here,
                            "seed {seed}, turn {}",
                            g.turns()
                        );
                        let sample = Pcg64Mcg::seed_from_u64(!seed);
                        let sampled = agent.meld_choice_reference(
                            &g,
                            &buf,
                            &o,
                            Others::Sample(&view, sample.clone()),
                        );
                        assert_eq!(
                            agent.meld_choice_unlisted(&g, &o, Others::Sample(&view, sample)),
                            sampled,
                            "seed {seed}, turn {}",
                            g.turns()
                        );
                        match here {
                            Some(Action::Discard(_)) | None => ends += 1,
                            Some(_) => melds += 1,
                        }
                    }
                    let a = crate::eval::meld_biased_pick(&buf, &mut rng);
                    g.apply_listed(a).unwrap();
                }
            }
        }
        assert!(
            melds > 1000 && ends > 1000,
            "{melds} meld steps, {ends} ends"
        );
    }

    /// Meld steps that differ only in their cards' suits leave positions
    /// that every measure of the meld policy reads alike when no wild is
    /// pending, on the meld phases of random play under both rule versions:
    /// every candidate step the step's own rules take, listed or not (the
    /// unlisted choice weighs one of them for all).
    #[test]
    fn suit_free_steps_are_worth_the_same() {
        let agent = RulesAgent::new(RulesParams::default());
        let mut memo = OpeningCache::default();
        let mut pairs = 0;
        crate::eval::play_meld_biased_hands(0..100, |&rules, g, _| {
            if g.phase() == Phase::Meld && g.pending_wilds().is_empty() {
                let me = g.current_player();
                let o = Outlook::of(&g.view(me));
                let twin = agent.twin_card(g, me);
                let mut buf = MoveBuf::new();
                let cands = g.moves(&mut buf).actions();
                let steps: Vec<Action> = cands.iter().copied().filter(is_meld).collect();
                for (i, a) in steps.iter().enumerate() {
                    for b in &steps[i + 1..] {
                        if SuitFree::of(a, twin) != SuitFree::of(b, twin) {
                            continue;
                        }
                        let (mut ta, mut tb) = (g.clone(), g.clone());
                        let (oka, okb) = (ta.apply_listed(*a).is_ok(), tb.apply_listed(*b).is_ok());
                        assert_eq!(oka, okb, "{a} / {b}");
                        if !oka {
                            continue;
                        }
                        let (ha, hb) = (ta.hand(me), tb.hand(me));
                        let (ga, gb) = (ta.table(me).groups(), tb.table(me).groups());
                        assert_eq!(
                            agent.worth(&ta, &o).to_bits(),
                            agent.worth(&tb, &o).to_bits(),
                            "{a} / {b}"
                        );
                        assert_eq!(
                            can_go_out_with(ha, ga, &rules),
                            can_go_out_with(hb, gb, &rules),
                            "{a} / {b}"
                        );
                        assert_eq!(ha.len(), hb.len());
                        assert_eq!(ta.pending_wilds().len(), tb.pending_wilds().len());
                        assert_eq!(ta.table(me).opening_value(), tb.table(me).opening_value());
                        let need = g.opening_minimum(me) - ta.table(me).opening_value();
                        let (pa, pb) = (without_heart_aces(ha), without_heart_aces(hb));
                        assert_eq!(
                            opening_in_reach(pa, need, &mut memo),
                            opening_in_reach(pb, need, &mut memo)
                        );
                        pairs += 1;
                    }
                }
            }
        });
        assert!(pairs > 1000, "{pairs}");
    }

    /// The counting "no" never contradicts the solver, on the tables of
    /// random play under both rule versions with the real hands and with
    /// random ones, and it settles a good part of the hands that cannot go
    /// out; asked again through the engine's memo, kept by counts, the
    /// test answers as before, the hands with their suits turned included.
    #[test]
    fn surely_stuck_agrees_with_the_solver() {
        // The same hand with the suits of its naturals and 2s turned (the
        // heart ace and the threes, which the solver tells apart, kept).
        let turned = |h: CardSet| {
            let mut t = CardSet::EMPTY;
            for c in h.iter() {
                t.insert(match (c.rank(), c.suit()) {
                    (Some(r), Some(s)) if r != Rank::Three && c != Card::HEART_ACE => {
                        let s = Suit::ALL[(s as usize + 1) % 4];
                        let d = Card::new(r, s);
                        if d == Card::HEART_ACE {
                            Card::new(r, Suit::ALL[(s as usize + 1) % 4])
                        } else {
                            d
                        }
                    }
                    _ => c,
                });
            }
            t
        };
        let (mut stuck, mut cannot, mut can) = (0, 0, 0);
        crate::eval::play_meld_biased_hands(0..30, |&rules, g, rng| {
            for p in 0..g.players() {
                let groups = g.table(p).groups();
                let mut hands = vec![g.hand(p)];
                for _ in 0..4 {
                    let n = rng.random_range(1..12);
                    hands.push(crate::eval::random_cards(rng, n));
                }
                for h in hands {
                    let out = can_go_out_with(h, groups, &rules);
                    let sure = surely_stuck_with(h, groups, &rules);
                    assert!(!(sure && out), "{h} onto {groups:?}");
                    assert_eq!(can_go_out_now(h, groups, &rules), out, "{h}");
                    let t = turned(h);
                    assert_eq!(can_go_out_with(t, groups, &rules), out, "{t}");
                    assert_eq!(can_go_out_now(t, groups, &rules), out, "{t}");
                    stuck += sure as u32;
                    cannot += !out as u32;
                    can += out as u32;
                }
            }
        });
        assert!(can > 100, "{can}");
        assert!(stuck > cannot / 2, "{stuck} of {cannot}");
    }

    #[test]
    fn take_probability_is_a_probability() {
        assert_eq!(take_probability(2, 0, 0, 0.1, 0.1), 1.0);
        assert_eq!(take_probability(0, 0, 0, 0.1, 0.1), 0.0);
        let p = take_probability(0, 0, 10, 0.05, 0.1);
        assert!(p > 0.0 && p < 1.0, "{p}");
        assert!(take_probability(1, 0, 10, 0.05, 0.1) > p);
    }

    /// `stakes`: each hand score is taxed by its player's running total
    /// before the hand (D-15, the example of D-15.3), and a hand that
    /// takes a total above the target ends the match (D-16.2), whatever
    /// its margin. Out of a match (totals nought) the margin is the raw one.
    #[test]
    fn stakes_margin_reads_the_tax_and_the_target_d15_d16() {
        let r = Rules::default();
        let hand = |totals: &[i32]| GameState::new_hand(r, 7, 0, totals);
        // No match under way: the raw margin.
        assert_eq!(stakes_margin(&hand(&[0, 0]), 0, 1, 900, 400), 500);
        // D-15.3: 9,725 before the hand, 2,375 → 240 (9,965, not above
        // the target); the opponent below 5,000 keeps his 500 untaxed.
        assert_eq!(stakes_margin(&hand(&[9725, 4000]), 0, 1, 2375, 500), -260);
        // D-15.1: halved above 5,000 (545 → 275), quartered above 7,000.
        assert_eq!(stakes_margin(&hand(&[5000, 7000]), 0, 1, 545, 400), 175);
        // D-16.2: 9,900 + 110 passes 10,000 and wins the match, however
        // much the opponent scores below it.
        let won = stakes_margin(&hand(&[9900, 3000]), 0, 1, 1100, 3000);
        assert!(won > 10_000, "{won}");
        // ... and the opponent passing it first loses it.
        let lost = stakes_margin(&hand(&[6000, 9950]), 0, 1, 3000, 600);
        assert!(lost < -10_000, "{lost}");
        // Both past it: the higher total wins (D-16.2).
        let both = stakes_margin(&hand(&[9990, 9950]), 0, 1, 200, 700);
        assert!(both < -10_000, "{both}");
    }

    /// `deny`: the pile left lying is worth its cards to the opponent who
    /// may take it next (D-6.2), a black three in it a loss (D-6.3).
    #[test]
    fn pile_worth_to_counts_the_pile_cards_d6_2() {
        let mut g = GameState::new(Rules::default(), 3);
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut moves = MoveBuf::new();
        let mut a = RulesAgent::default();
        // Play into the hand until the pile holds a few cards.
        while !g.is_terminal() && g.view(0).pile().len() < 4 {
            let p = g.current_player();
            let act = a.act(&g.view(p), &mut g.moves(&mut moves), &mut rng);
            g.apply(act).unwrap();
        }
        let v = g.view(0);
        let grouped = grouped_ranks(v.table(1));
        let sum: f64 = v.pile().iter().map(|c| card_worth_to(grouped, *c)).sum();
        assert_eq!(pile_worth_to(&v, 1), sum.max(0.0));
        assert!(pile_worth_to(&v, 1) >= 0.0);
    }

    /// With the turn planner on, it goes out from further behind (D-13)
    /// and weighs groups close to a canasta more (D-10); `plan=off` keeps
    /// the `hold` and `chase` of the play before it.
    #[test]
    fn plan_hold_and_chase_apply_with_the_planner_only() {
        let mut p = RulesParams::default();
        assert_eq!(p.hold_in_force(), p.hold + p.plan_hold);
        assert_eq!(p.chase_in_force(), p.chase + p.plan_chase);
        p.set("plan", "off").unwrap();
        assert_eq!((p.hold_in_force(), p.chase_in_force()), (p.hold, p.chase));
        let mut q = RulesParams::default();
        q.set("plan_hold", "0").unwrap();
        q.set("plan_chase", "0").unwrap();
        assert_eq!((q.hold_in_force(), q.chase_in_force()), (q.hold, q.chase));
    }
}
