//! The parameters of `rules` ([`RulesParams`]), with the values in force
//! that the switches derive from them: each behaviour's own switch, and
//! `fixes`, `expert` and `plan`, which turn groups of them off at once
//! (the yardsticks `rules:fixes=off`, `rules:expert=off`,
//! `rules:plan=off`). The twin play's values are in [`super::twins`].

use super::{plan, RulesAgent, Twins};
use crate::agent_params;
use crate::spec::{range, switch};

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

impl RulesParams {
    /// The dead-lock charge in force (0: the fix is off).
    pub(super) fn dead_charge(&self) -> f64 {
        if self.fixes {
            self.dead
        } else {
            0.0
        }
    }

    pub(super) fn plan_out_on(&self) -> bool {
        self.fixes && self.plan_out
    }

    pub(super) fn hearts_on(&self) -> bool {
        self.fixes && self.hearts
    }

    pub(super) fn dead_out_on(&self) -> bool {
        self.fixes && self.dead_out
    }

    pub(super) fn expert_on(&self) -> bool {
        self.fixes && self.expert
    }

    pub(super) fn movable_on(&self) -> bool {
        self.expert_on() && self.movable
    }

    pub(super) fn piles_on(&self) -> bool {
        self.expert_on() && self.piles
    }

    pub(super) fn track_on(&self) -> bool {
        self.expert_on() && self.track
    }

    pub(super) fn plan_on(&self) -> bool {
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
    pub(super) fn hold_in_force(&self) -> i32 {
        self.with_plan(self.hold + self.plan_hold, self.hold)
    }

    /// The `chase` in force: with the planner, `plan_chase` more.
    pub(super) fn chase_in_force(&self) -> f64 {
        self.with_plan((self.chase + self.plan_chase).max(0.0), self.chase)
    }

    pub(super) fn through_on(&self) -> bool {
        self.plan_on() && self.through
    }

    pub(super) fn resume_on(&self) -> bool {
        self.plan_on() && self.resume
    }

    /// The threat floor while an opponent is on two cards or fewer
    /// (`close`; 0 when off).
    pub(super) fn close_in_force(&self) -> f64 {
        if self.plan_on() {
            self.close
        } else {
            0.0
        }
    }

    /// The threat floor while an opponent on two cards or fewer may make
    /// his canasta this turn (`near`; 0 when off).
    pub(super) fn near_in_force(&self) -> f64 {
        if self.movable_on() && self.plan_on() {
            self.near
        } else {
            0.0
        }
    }

    /// The worth of having opened in force with a pile of `pile` cards,
    /// `standoff` when no player has opened: `open`, and with the turn
    /// planner on in a stand-off over a pile of `wildfreeze` cards or more
    /// `opened` more.
    pub(super) fn open_in_force(&self, pile: usize, standoff: bool) -> f64 {
        if self.plan_on() && standoff && pile >= self.wildfreeze as usize {
            self.open + self.opened
        } else {
            self.open
        }
    }

    /// Whether a pile holding `wilds` wilds may still be frozen by one
    /// more, `standoff` when no player has opened (`wildcap`, in a
    /// stand-off only; no limit with the turn planner off).
    pub(super) fn wild_freeze_allowed(&self, wilds: usize, standoff: bool) -> bool {
        !self.plan_on() || !standoff || self.wildcap == 0 || wilds < self.wildcap as usize
    }

    pub(super) fn weigh_on(&self) -> bool {
        self.plan_on() && self.weigh
    }
}
