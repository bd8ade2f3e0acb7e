//! What a search may spend: depth, nodes, time per move, or a game clock.

use crate::search::Params;
use std::time::Duration;

/// The limits of one search. Several may be combined; the search stops at the first one reached.
/// With none set (the default) it searches until [`crate::Engine::stop`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Nodes to search (approximate with several threads).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub move_time: Option<Duration>,
    /// The clock of the side to move: its remaining time, increment and moves to the next time
    /// control.
    pub clock: Option<Clock>,
    /// Search until stopped, whatever the other limits say about time.
    pub infinite: bool,
    /// Think on the opponent's time: the clock starts only at [`crate::Engine::ponderhit`].
    pub ponder: bool,
}

/// A game clock as the side to move sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves to make before the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search for a fixed time.
    pub fn move_time(time: Duration) -> Self {
        Limits {
            move_time: Some(time),
            ..Limits::default()
        }
    }

    /// Play on a clock.
    pub fn clock(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> Self {
        Limits {
            clock: Some(Clock {
                remaining,
                increment,
                moves_to_go,
            }),
            ..Limits::default()
        }
    }

    /// Whether the search has no limit but [`crate::Engine::stop`].
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.move_time.is_none()
                && self.clock.is_none())
    }

    /// The time budget: the time after which no new iteration starts, and a hard limit (stop
    /// at once). `None` when time does not limit the search. The first is the share
    /// `params.move_time_stop` (per cent) of a fixed move time, and `params.time_stop` of a
    /// clock's target for the move; with both, the earlier.
    ///
    /// On a clock without a move count (sudden death) the budget spreads the remaining time over the moves a
    /// game is still expected to last, `params.time_moves` (the count for the opening) down
    /// to `params.time_moves_end` as `simplified` (0 at the start, 1 without men: the share of the men that
    /// have left the board) grows, since a simplified game is nearer its end and its
    /// positions are the ones where a deeper search tells.
    pub(crate) fn budget(&self, simplified: f64, params: &Params) -> Option<(Duration, Duration)> {
        let (moves, moves_end) = (params.time_moves, params.time_moves_end);
        if self.infinite {
            return None;
        }
        let mut budget: Option<(Duration, Duration)> = None;
        if let Some(t) = self.move_time {
            // A fixed move time is a hard limit; leave a little for sending the move.
            let t = t
                .saturating_sub(Duration::from_millis(5))
                .max(Duration::from_millis(1));
            budget = Some((t * params.move_time_stop / 100, t));
        }
        if let Some(c) = self.clock {
            // Keep a reserve for the transmission of moves so that the flag never falls.
            let reserve = Duration::from_millis(50).min(c.remaining / 10);
            let usable = c.remaining.saturating_sub(reserve);
            let expected = {
                let t = simplified.clamp(0.0, 1.0);
                (f64::from(moves) + (f64::from(moves_end) - f64::from(moves)) * t).round() as u32
            };
            let moves = c.moves_to_go.map_or(expected, |m| m).clamp(1, 50);
            let soft = usable / moves + c.increment * 3 / 4;
            let hard = (soft * 4).min(usable / 3).max(soft.min(usable));
            let start_by = soft.min(hard) * params.time_stop / 100;
            budget = Some(match budget {
                Some((s, h)) => (s.min(start_by), h.min(hard)),
                None => (start_by, hard),
            });
        }
        budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::PARAMS;

    /// The built-in parameters, the expected moves going from 30 to `end` as the men leave.
    fn moves(end: u32) -> Params {
        Params {
            time_moves_end: end,
            ..PARAMS
        }
    }

    #[test]
    fn budgets() {
        assert_eq!(Limits::depth(5).budget(0.0, &moves(30)), None);
        assert!(Limits::default().is_unbounded());
        assert!(!Limits::depth(3).is_unbounded());
        // A fixed move time: no iteration starts after 60% of it, or after all of it.
        let limits = Limits::move_time(Duration::from_secs(1));
        let (start_by, hard) = limits.budget(0.5, &moves(12)).unwrap();
        assert_eq!(start_by, hard * 60 / 100);
        assert!(hard <= Duration::from_secs(1));
        let whole = Params {
            move_time_stop: 100,
            ..PARAMS
        };
        assert_eq!(limits.budget(0.5, &whole), Some((hard, hard)));
        let (soft, hard) = Limits::clock(Duration::from_secs(60), Duration::ZERO, None)
            .budget(0.0, &moves(12))
            .unwrap();
        assert!(soft >= Duration::from_secs(1) && soft <= Duration::from_secs(3));
        assert!(hard >= soft && hard <= Duration::from_secs(20));
        // Almost no time left: still a positive budget below the remaining time.
        let (soft, hard) = Limits::clock(Duration::from_millis(30), Duration::ZERO, Some(1))
            .budget(0.0, &moves(12))
            .unwrap();
        assert!(soft <= hard && hard < Duration::from_millis(30));
    }

    #[test]
    fn a_simplified_game_gets_more_of_the_clock() {
        let clock = Limits::clock(Duration::from_secs(30), Duration::ZERO, None);
        let budget = |simplified| clock.budget(simplified, &moves(12)).unwrap();
        let (start, half, end) = (budget(0.0), budget(0.5), budget(1.0));
        // 30 expected moves at the start, 21 half-way, 12 without men.
        assert!(
            start.0 < half.0 && half.0 < end.0,
            "{start:?} {half:?} {end:?}"
        );
        let close = |a: Duration, b: Duration| a.abs_diff(b) < Duration::from_millis(5);
        assert!(close(start.0 * 30, end.0 * 12), "{start:?} {end:?}");
        assert!(close(half.0 * 21, start.0 * 30), "{half:?} {start:?}");
        // The same counts at both ends: the old even spread.
        assert_eq!(clock.budget(0.0, &moves(30)), clock.budget(1.0, &moves(30)));
        // A move count of the clock is kept whatever the phase.
        let control = Limits::clock(Duration::from_secs(30), Duration::ZERO, Some(20));
        assert_eq!(
            control.budget(0.0, &moves(12)),
            control.budget(1.0, &moves(12))
        );
    }
}
