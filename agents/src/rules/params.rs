//! The values in force that the parameters of `rules` ([`RulesParams`],
//! declared with the player) derive: each behaviour's own switch, and
//! `fixes`, `expert` and `plan`, which turn groups of them off at once
//! (the yardsticks `rules:fixes=off`, `rules:expert=off`,
//! `rules:plan=off`). The twin play's values are in `twins`.

use super::RulesParams;

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

    /// Whether the outlook reads if an opponent on two cards or fewer may
    /// make his canasta this turn (for `near` or `thin`).
    pub(super) fn reads_near(&self) -> bool {
        self.near_in_force() > 0.0 || self.thin_on()
    }

    fn thin_on(&self) -> bool {
        self.movable_on() && self.plan_on() && self.thin
    }

    /// Whether the pairs against an opponent on one card are weighed by
    /// the chance the pile comes to them before he goes out (`lone`).
    pub(super) fn lone_on(&self) -> bool {
        self.thin_on() && self.lone
    }

    /// The share of `pair` a pair in hand is worth with a pile of `pile`
    /// cards, `near` when an opponent on two cards or fewer may make his
    /// canasta this turn (`thin`; 1 when off).
    pub(super) fn pair_share(&self, pile: usize, near: bool) -> f64 {
        if self.thin_on() && near {
            (pile as f64 / self.pile.max(1) as f64).min(1.0)
        } else {
            1.0
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
