//! The search: iterative deepening, principal-variation alpha-beta with a shared transposition
//! table, and lazy SMP threads.
//!
//! Everything here is generic over the rule set `R`, so the move generator, the evaluation and
//! the search are compiled together for each family of rules, with no run-time variant checks
//! in the hot path.
//!
//! Captures are compulsory in draughts, so a position where the side to move can capture is
//! never "quiet": at the horizon the search goes on through every capture (the quiescence
//! search) and only stands pat when the side to move has no capture.

use crate::endgame::{self, Outcome};
use crate::eval::{self, Evaluator, Tables};
use crate::limits::Limits;
use crate::network;
use crate::pattern::{self, Incremental, Layout};
use crate::score::{self, INFINITE, WIN, WIN_BOUND};
use crate::tt::{Bound, Entry, Table};
use dama_core::bitboard::Bitboard;
use dama_core::game::{DrawRules, EndgameLimit};
use dama_core::position::Bb;
use dama_core::rules::{Goal, Rules};
use dama_core::{Color, Move, Position, Variant};
use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Deepest ply the search reaches (iterations stop well before).
pub(crate) const MAX_PLY: usize = 128;
/// Deepest iteration.
pub(crate) const MAX_DEPTH: u32 = 100;

/// Search parameters that tuning may change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Params {
    /// Aspiration window half-width, in centi-men.
    pub aspiration: i32,
    /// Minimum depth for late-move reductions.
    pub lmr_depth: i32,
    /// Moves searched at full depth before reductions start, at PV nodes...
    pub lmr_moves: usize,
    /// ...and at the other nodes.
    pub lmr_moves_cut: usize,
    /// Late-move reduction: `ln(depth) · ln(move number) / lmr_divisor` plies.
    pub lmr_divisor: f64,
    /// Shallow-search pruning at non-PV nodes from this depth on (0: off).
    pub probcut_depth: i32,
    /// Its margin above beta, per ply of depth, in centi-men.
    pub probcut_margin: i32,
    /// Its depth, in per cent of the node's depth.
    pub probcut_percent: i32,
    /// Whether it also prunes positions with kings on the board (endings, where the
    /// evaluation predicts deep results worst and proofs of wins matter most). `None`: the
    /// variant's default ([`Params::for_search`]).
    pub probcut_kings: Option<bool>,
    /// Whether it also prunes in giveaway games played with a network. Off by default: its
    /// margin, a few centi-men a ply, is nothing on the wide scores of a giveaway network, and
    /// the Antidraughts network lost three forced wins of its suite to it (BENCHMARKS.md,
    /// "Network evaluations for German, 80-square and Antidraughts").
    pub probcut_giveaway_network: bool,
    /// Lower the history of the quiet moves tried before a cut-off.
    pub history_malus: bool,
    /// Quiet moves searched at the horizon: 0 none, 1 crowning moves, 2 also moves that give
    /// the opponent a capture (at the first level).
    pub qs_moves: i32,
    /// Lazy evaluation at the horizon ([`pattern::evaluate_within`]): the pattern windows are
    /// skipped when the score without them lies this many centi-men or more beyond the
    /// search window (0: never), and never nearer than the model's reach
    /// ([`pattern::Model::window_reach`]), so the stand-pat decision is always the exact
    /// one. Only the returned value is then inexact, by up to the reach; far from the window
    /// that changes nothing, nearer it changes later cut-offs: with the bare reach of the
    /// Russian model (23) the trees shrank and games were lost at equal nodes (BENCHMARKS.md,
    /// "Lazy evaluation").
    pub lazy_margin: i32,
    /// The endgame database ([`endgame`]) is used by searches from roots with at most this many
    /// pieces (0: never). Fixed by the root, so that whether a search uses it never depends on
    /// how far a build in the background has got.
    pub endgame_root: u32,
    /// On a sudden-death clock, the moves a game is expected to last from the start...
    pub time_moves: u32,
    /// ...and from a position without men ([`crate::Limits`]'s budget goes from one to the
    /// other as the men leave the board).
    pub time_moves_end: u32,
    /// No new iteration starts after this share of the time for the move, in per cent: on a
    /// clock (of its target for the move)...
    pub time_stop: u32,
    /// ...and with a fixed time a move.
    pub move_time_stop: u32,
    /// When time stops an iteration: its best move replaces the last iteration's if it beat
    /// the move that led (`false`: only if its score is also above the last iteration's).
    pub partial_best: bool,
}

pub(crate) const PARAMS: Params = Params {
    aspiration: 30,
    lmr_depth: 3,
    lmr_moves: 3,
    lmr_moves_cut: 3,
    lmr_divisor: 2.0,
    probcut_depth: 4,
    probcut_margin: 5,
    probcut_percent: 40,
    probcut_kings: None,
    probcut_giveaway_network: false,
    history_malus: false,
    qs_moves: 0,
    lazy_margin: 80,
    endgame_root: 12,
    time_moves: 30,
    time_moves_end: 30,
    time_stop: 60,
    move_time_stop: 60,
    partial_best: false,
};

impl Params {
    /// The parameters with the overrides of `text`, a comma-separated list of `name=value`
    /// (for tuning experiments: the `DAMA_SEARCH` environment variable). Unknown names and bad
    /// values are errors.
    pub fn with_overrides(mut self, text: &str) -> Result<Params, String> {
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("{item:?} is not name=value"))?;
            let int = || {
                value
                    .parse::<i32>()
                    .map_err(|_| format!("bad value in {item:?}"))
            };
            match name {
                "aspiration" => self.aspiration = int()?.clamp(1, 1000),
                "lmr_depth" => self.lmr_depth = int()?.clamp(1, 100),
                "lmr_moves" => self.lmr_moves = int()?.clamp(1, 100) as usize,
                "lmr_moves_cut" => self.lmr_moves_cut = int()?.clamp(1, 100) as usize,
                "lmr_divisor" => {
                    self.lmr_divisor = value
                        .parse::<f64>()
                        .ok()
                        .filter(|v| *v >= 0.25 && *v <= 100.0)
                        .ok_or_else(|| format!("bad value in {item:?}"))?
                }
                "probcut_depth" => self.probcut_depth = int()?.clamp(0, 100),
                "probcut_margin" => self.probcut_margin = int()?.clamp(0, 1000),
                "probcut_percent" => self.probcut_percent = int()?.clamp(1, 90),
                "probcut_kings" => self.probcut_kings = Some(int()? != 0),
                "probcut_giveaway_network" => self.probcut_giveaway_network = int()? != 0,
                "history_malus" => self.history_malus = int()? != 0,
                "qs_moves" => self.qs_moves = int()?.clamp(0, 2),
                "lazy_margin" => self.lazy_margin = int()?.clamp(0, 10_000),
                "endgame_root" => self.endgame_root = int()?.clamp(0, 1_000) as u32,
                "time_moves" => self.time_moves = int()?.clamp(1, 50) as u32,
                "time_moves_end" => self.time_moves_end = int()?.clamp(1, 50) as u32,
                "time_stop" => self.time_stop = int()?.clamp(1, 100) as u32,
                "move_time_stop" => self.move_time_stop = int()?.clamp(1, 100) as u32,
                "partial_best" => self.partial_best = int()? != 0,
                _ => return Err(format!("unknown search parameter {name:?}")),
            }
        }
        Ok(self)
    }

    /// The parameters of one search, of `variant` (`giveaway_network`: a giveaway game played
    /// with a network): where no override set them, the defaults that depend on what is
    /// searched. Shallow-search pruning with kings on the board is on in English alone: there
    /// it won games at every node count measured and cost no problem of the English suite,
    /// while in International it cost problems and gained nothing at 40,000 nodes
    /// (BENCHMARKS.md, "Shallow-search pruning with kings in English"). No shallow-search
    /// pruning at all in giveaway games on a network, unless `probcut_giveaway_network` asks
    /// for it (see that parameter).
    pub fn for_search(mut self, variant: Variant, giveaway_network: bool) -> Params {
        self.probcut_kings
            .get_or_insert(variant == Variant::English);
        if giveaway_network && !self.probcut_giveaway_network {
            self.probcut_depth = 0;
        }
        self
    }

    /// The parameters of searches: the built-in ones, with the overrides of the `DAMA_SEARCH`
    /// environment variable if it is set (read once; a bad value is reported on standard error
    /// and ignored).
    pub fn current() -> Params {
        static CURRENT: std::sync::OnceLock<Params> = std::sync::OnceLock::new();
        *CURRENT.get_or_init(|| match std::env::var("DAMA_SEARCH") {
            Ok(text) => PARAMS.with_overrides(&text).unwrap_or_else(|e| {
                eprintln!("DAMA_SEARCH ignored: {e}");
                PARAMS
            }),
            Err(_) => PARAMS,
        })
    }
}

/// Stop and ponder signals shared between the engine and its search threads.
#[derive(Debug)]
pub(crate) struct Control {
    pub stop: AtomicBool,
    pub pondering: AtomicBool,
    /// When the clock started (reset at ponder hit).
    pub start: Mutex<Instant>,
}

impl Control {
    pub fn new() -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            start: Mutex::new(Instant::now()),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
    }
}

/// The move-count draw rules the search applies, in plies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DrawConfig {
    pub no_capture: Option<u32>,
    pub kings_only: Option<u32>,
    pub no_capture_or_crowning: Option<u32>,
    pub endgame: fn(&dama_core::Material) -> Option<EndgameLimit>,
}

/// No endgame rule involves more pieces than this, so bigger positions skip the check.
const ENDGAME_RULE_PIECES: u32 = 7;

impl DrawConfig {
    /// The search's view of a game's draw rules.
    pub fn of(rules: &DrawRules) -> DrawConfig {
        DrawConfig {
            no_capture: rules.no_capture,
            kings_only: rules.kings_only,
            no_capture_or_crowning: rules.no_capture_or_crowning,
            endgame: rules.endgame,
        }
    }

    /// The fewest plies an endgame rule allows in any position of an endgame database of up
    /// to `pieces` pieces: a result the database gives in more plies than this might be
    /// overtaken by a rule that comes into force on the way (`u32::MAX` where no such rule
    /// exists).
    pub fn endgame_floor(&self, pieces: u32) -> u32 {
        endgame::signatures(pieces)
            .flat_map(|counts| {
                [[false, false], [true, false], [false, true], [true, true]].map(|flags| {
                    dama_core::Material {
                        counts,
                        long_diagonal_king: flags,
                    }
                })
            })
            .filter_map(|material| (self.endgame)(&material))
            .map(|e| e.plies)
            .min()
            .unwrap_or(u32::MAX)
    }

    /// The endgame rule in force in `pos`, if any.
    #[inline]
    pub fn endgame_of<R: Rules>(&self, pos: &Position<R>) -> Option<EndgameLimit> {
        if pos.occupied().count() > ENDGAME_RULE_PIECES {
            return None;
        }
        (self.endgame)(&dama_core::Material::of(pos))
    }
}

/// Counters that the draw rules read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counters {
    /// Plies since the last capture.
    pub no_capture: u32,
    /// Plies since the last capture or man move (the positions in between can repeat).
    pub kings_only: u32,
    /// Plies since the last capture or crowning.
    pub no_capture_or_crowning: u32,
    /// The plies the endgame rule in force allows; 0 when none is in force. (Kept as plain
    /// numbers rather than an `Option<EndgameLimit>`: the search writes these counters at
    /// every node, and an option built aside was copied in whole, reading back in one wide
    /// load what had just been stored in narrow pieces, which stalls the processor.)
    pub endgame_allowed: u32,
    /// What identifies the endgame rule in force ([`EndgameLimit::key`]).
    pub endgame_key: u64,
    /// Plies since the endgame rule in force came into force.
    pub endgame_plies: u32,
}

impl Counters {
    /// The counters at a position where the endgame rule `endgame` is in force, with no
    /// plies before it.
    pub fn at(endgame: Option<EndgameLimit>) -> Counters {
        let (endgame_allowed, endgame_key) = Counters::rule(endgame);
        Counters {
            endgame_allowed,
            endgame_key,
            ..Counters::default()
        }
    }

    /// The plies `endgame` allows (0 for none) and its key.
    #[inline(always)]
    fn rule(endgame: Option<EndgameLimit>) -> (u32, u64) {
        match endgame {
            Some(e) => {
                debug_assert!(e.plies > 0, "an endgame rule allows some plies");
                (e.plies, e.key)
            }
            None => (0, 0),
        }
    }

    /// Writes into `next` the counters after a ply (a capture if `capture`, by a man if
    /// `man_moved`, crowning a man if `crowned`) to a position where the endgame rule
    /// `endgame` is in force. Field by field, straight into the searcher's array.
    #[inline(always)]
    pub fn after(
        &self,
        capture: bool,
        man_moved: bool,
        crowned: bool,
        endgame: Option<EndgameLimit>,
        next: &mut Counters,
    ) {
        next.no_capture = if capture { 0 } else { self.no_capture + 1 };
        next.kings_only = if capture || man_moved {
            0
        } else {
            self.kings_only + 1
        };
        next.no_capture_or_crowning = if capture || crowned {
            0
        } else {
            self.no_capture_or_crowning + 1
        };
        let (allowed, key) = Counters::rule(endgame);
        let same_endgame = allowed > 0 && self.endgame_allowed > 0 && key == self.endgame_key;
        next.endgame_plies = if same_endgame {
            self.endgame_plies + 1
        } else {
            0
        };
        next.endgame_allowed = allowed;
        next.endgame_key = key;
    }

    /// Whether the endgame rule in force has run out.
    #[inline(always)]
    pub fn endgame_over(&self) -> bool {
        self.endgame_allowed > 0 && self.endgame_plies >= self.endgame_allowed
    }
}

/// What a search works from: the root, the hashes of the earlier positions that can still
/// repeat (oldest first) and the draw counters at the root.
#[derive(Clone, Debug)]
pub(crate) struct RootState {
    pub history: Vec<u64>,
    pub counters: Counters,
}

/// Everything the threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a Table,
    pub control: &'a Control,
    pub nodes: Vec<AtomicU64>,
    pub limits: Limits,
    /// When no new iteration starts, and when the search stops ([`Limits`]'s budget).
    pub budget: Option<(Duration, Duration)>,
    pub draw: DrawConfig,
    pub eval: Evaluator,
    pub params: Params,
    /// Lazy SMP: the depth of the main thread's current iteration (helpers work beyond it)...
    pub main_depth: AtomicU32,
    /// ...the deepest iteration a helper has completed...
    pub helper_depth: AtomicU32,
    /// ...and that iteration (an `Iteration<Bb<R>>`), which the main thread adopts instead of
    /// finishing the same depth itself.
    pub helper_best: Mutex<Option<Box<dyn Any + Send>>>,
    /// The endgame database of the rule set, if this search uses one...
    pub endgame: Option<Arc<endgame::Table>>,
    /// ...and [`DrawConfig::endgame_floor`].
    pub endgame_floor: u32,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// The helpers' deepest completed iteration, if it is at least `depth` deep.
    fn helper_iteration<B: Bitboard>(&self, depth: u32) -> Option<Iteration<B>> {
        if self.helper_depth.load(Ordering::Acquire) < depth {
            return None;
        }
        let slot = self.helper_best.lock().unwrap_or_else(|p| p.into_inner());
        let it = slot.as_ref()?.downcast_ref::<Iteration<B>>()?;
        (it.depth >= depth).then(|| it.clone())
    }

    /// Publishes a helper's completed iteration if it is the deepest so far.
    fn publish<B: Bitboard>(&self, it: &Iteration<B>) {
        if it.depth <= self.helper_depth.load(Ordering::Acquire) {
            return;
        }
        let mut slot = self.helper_best.lock().unwrap_or_else(|p| p.into_inner());
        if it.depth > self.helper_depth.load(Ordering::Acquire) {
            *slot = Some(Box::new(it.clone()));
            self.helper_depth.store(it.depth, Ordering::Release);
        }
    }
}

/// A completed iteration, as the main thread reports it.
#[derive(Clone)]
pub(crate) struct Iteration<B> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub pv: Vec<Move<B>>,
    pub nodes: u64,
    pub time: Duration,
}

struct RootMove<B> {
    mv: Move<B>,
    score: i32,
}

/// One thread's search state.
pub(crate) struct Searcher<'a, R: Rules> {
    shared: &'a Shared<'a>,
    id: usize,
    tables: Tables<Bb<R>>,
    layout: Layout<Bb<R>>,
    /// How far beyond the search window the score without the pattern windows must lie for
    /// the lazy evaluation to take it: [`Params::lazy_margin`], or the model's reach if that
    /// is wider; `None`: always in full.
    lazy_margin: Option<i32>,
    /// The window configurations along the current line, for the pattern evaluation (`None`
    /// with the linear one, or a layout too large to follow move by move).
    incremental: Option<Incremental<Bb<R>>>,
    /// The network's accumulators along the current line (with a network evaluation).
    stack: Option<network::Stack<Bb<R>>>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// The main thread stopped its iteration because a helper completed that depth.
    overtaken: bool,
    lists: Vec<Vec<Move<Bb<R>>>>,
    order: Vec<Vec<i32>>,
    killers: Vec<[Move<Bb<R>>; 2]>,
    /// The quiet moves searched at each ply (indices in its list), for the history malus.
    tried: Vec<Vec<u16>>,
    history: Vec<i32>,
    pv: Vec<Vec<Move<Bb<R>>>>,
    /// Hashes of the positions: the game history before the root, then one per ply.
    hashes: Vec<u64>,
    base: usize,
    counters: Vec<Counters>,
    root_depth: i32,
    /// Late-move reductions by depth and move number.
    lmr: Box<[[i32; 64]; 64]>,
}

/// Index of a quiet move in the history table.
#[inline(always)]
/// The weight of a cut-off at `depth` in the history (which lies within ±4096): at most the
/// scale itself, so that each update moves a history part of the way towards ±4096 and never
/// past it. The square of the depth unbounded, from depth 65 on (long endings), made a history
/// swing ever wider until it overflowed.
fn history_bonus(depth: i32) -> i32 {
    (depth * depth).min(4096)
}

fn history_index<B: Bitboard>(side: usize, m: &Move<B>) -> usize {
    (side << 14) | ((m.from().0 as usize & 127) << 7) | (m.to().0 as usize & 127)
}

impl<'a, R: Rules> Searcher<'a, R> {
    pub fn new(shared: &'a Shared<'a>, id: usize, root: &RootState) -> Self {
        let mut hashes = root.history.clone();
        let base = hashes.len();
        hashes.resize(base + MAX_PLY + 1, 0);
        // The windows the model was fitted with (its table count was checked when the
        // evaluator was chosen); the linear evaluation does not read them.
        let layout = match &shared.eval {
            Evaluator::Pattern(p) => p.model.layout::<R>().ok(),
            Evaluator::Linear(_) | Evaluator::Network(_) => None,
        }
        .unwrap_or_else(Layout::<Bb<R>>::new::<R>);
        Searcher {
            shared,
            id,
            tables: Tables::<Bb<R>>::new::<R>(),
            incremental: match &shared.eval {
                Evaluator::Pattern(_) => Incremental::new(&layout, MAX_PLY + 1),
                Evaluator::Linear(_) | Evaluator::Network(_) => None,
            },
            stack: match &shared.eval {
                Evaluator::Network(n) => {
                    Some(network::Stack::new::<R, R::G>(&n.network, MAX_PLY + 1))
                }
                _ => None,
            },
            layout,
            lazy_margin: match (&shared.eval, shared.params.lazy_margin) {
                (Evaluator::Pattern(p), margin) if margin > 0 => Some(margin.max(p.reach)),
                _ => None,
            },
            nodes: 0,
            seldepth: 0,
            stopped: false,
            overtaken: false,
            lists: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            order: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            killers: vec![[Move::default(); 2]; MAX_PLY + 1],
            tried: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            history: vec![0; 2 << 14],
            pv: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(16)).collect(),
            hashes,
            base,
            counters: {
                let mut c = vec![Counters::default(); MAX_PLY + 1];
                c[0] = root.counters;
                c
            },
            root_depth: 0,
            lmr: {
                let mut t = Box::new([[0; 64]; 64]);
                for (d, row) in t.iter_mut().enumerate().skip(1) {
                    for (n, r) in row.iter_mut().enumerate().skip(1) {
                        *r = (0.5 + (d as f64).ln() * (n as f64).ln() / shared.params.lmr_divisor)
                            as i32;
                    }
                }
                t
            },
        }
    }

    /// Nodes searched by this thread.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The static evaluation of `pos`, the position at `ply`; with a window `(alpha, beta)`,
    /// lazily: without the pattern windows when the rest of the evaluation already puts the
    /// score outside it ([`pattern::evaluate_within`]).
    #[inline]
    fn evaluate(&mut self, pos: &Position<R>, ply: usize, window: Option<(i32, i32)>) -> i32 {
        let within = window
            .zip(self.lazy_margin)
            .map(|((a, b), margin)| (a, b, margin));
        match (&self.shared.eval, &mut self.incremental) {
            (Evaluator::Linear(w), _) => eval::evaluate(pos, &self.tables, w),
            (Evaluator::Network(n), _) => {
                let stack = self.stack.as_mut().expect("a network's accumulators");
                let score = network::evaluate_at(pos, &self.tables, n, stack, ply);
                debug_assert_eq!(score, network::evaluate(pos, &self.tables, &n.network));
                score
            }
            (Evaluator::Pattern(p), Some(inc)) => {
                let score = pattern::evaluate_at(pos, &self.tables, p, within, inc, ply);
                // Every line of the search sets each ply it enters: a test build checks
                // that the configurations followed are this position's.
                debug_assert_eq!(
                    score,
                    pattern::evaluate_within(pos, &self.tables, &self.layout, p, within)
                );
                score
            }
            (Evaluator::Pattern(p), None) => {
                pattern::evaluate_within(pos, &self.tables, &self.layout, p, within)
            }
        }
    }

    /// Makes `pos` the position at ply 0.
    fn set_root(&mut self, pos: &Position<R>) {
        self.hashes[self.base] = pos.hash();
        if let Some(inc) = &mut self.incremental {
            inc.set(0, pos.men(Color::White), pos.men(Color::Black));
        }
        if let Some(stack) = &mut self.stack {
            stack.set(0, network::pieces(pos));
        }
    }

    /// Records `child`, reached by `m` from `pos` at `ply`, for the repetition and draw-rule
    /// checks one ply deeper and for the evaluation's window configurations there.
    #[inline(always)]
    fn enter(&mut self, pos: &Position<R>, m: &Move<Bb<R>>, child: &Position<R>, ply: usize) {
        self.hashes[self.base + ply + 1] = child.hash();
        if let Some(inc) = &mut self.incremental {
            inc.set(ply + 1, child.men(Color::White), child.men(Color::Black));
        }
        if let Some(stack) = &mut self.stack {
            stack.set(ply + 1, network::pieces(child));
        }
        let man_moved = !pos.kings().has(m.from().index());
        let endgame = self.shared.draw.endgame_of(child);
        let (line, next) = self.counters.split_at_mut(ply + 1);
        line[ply].after(
            m.is_capture(),
            man_moved,
            m.promotes(),
            endgame,
            &mut next[0],
        );
    }

    /// Called every 1024 nodes: publishes the node count and checks the limits.
    fn check_stop(&mut self) {
        let shared = self.shared;
        shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if shared.control.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.id != 0 {
            return;
        }
        if let Some(limit) = shared.limits.nodes {
            let total = if shared.nodes.len() == 1 {
                self.nodes
            } else {
                shared.total_nodes()
            };
            if total >= limit {
                self.stop_all();
                return;
            }
        }
        if let Some((_, hard)) = shared.budget {
            if !shared.control.pondering.load(Ordering::Relaxed) && shared.control.elapsed() >= hard
            {
                self.stop_all();
                return;
            }
        }
        if shared.nodes.len() > 1
            && shared.helper_depth.load(Ordering::Relaxed) >= self.root_depth as u32
        {
            // A helper has finished this iteration: take its result rather than finish it.
            self.stopped = true;
            self.overtaken = true;
        }
    }

    fn stop_all(&mut self) {
        self.stopped = true;
        self.shared.control.stop.store(true, Ordering::Relaxed);
    }

    /// The score of a position where the side to move has no move (or no piece), `ply` plies
    /// from the root.
    #[inline(always)]
    fn terminal(ply: usize) -> i32 {
        match R::GOAL {
            Goal::Normal => -(WIN - ply as i32),
            Goal::Giveaway => WIN - ply as i32,
        }
    }

    /// The score of the position at `ply` from the endgame database, if it has one that the
    /// move-count draw rules cannot overtake: a win or loss is taken only if it ends before any
    /// rule in force (or one that could come into force on the way) would draw the game.
    #[inline]
    fn database(&self, db: &endgame::Table, pos: &Position<R>, ply: usize) -> Option<i32> {
        let (d, sign) = match db.probe(pos)? {
            Outcome::Draw => return Some(0),
            Outcome::Win(d) => (d, 1),
            Outcome::Loss(d) => (d, -1),
        };
        let c = &self.counters[ply];
        let draw = &self.shared.draw;
        let room = |limit: Option<u32>, n: u32| limit.map_or(u32::MAX, |l| l.saturating_sub(n));
        let mut budget = self
            .shared
            .endgame_floor
            .min(room(draw.no_capture, c.no_capture))
            .min(room(draw.kings_only, c.kings_only))
            .min(room(draw.no_capture_or_crowning, c.no_capture_or_crowning));
        if c.endgame_allowed > 0 {
            budget = budget.min(c.endgame_allowed.saturating_sub(c.endgame_plies));
        }
        (d < budget).then(|| sign * (WIN - (ply as u32 + d) as i32))
    }

    /// Whether the position at `ply` is drawn by repetition or a move-count rule.
    #[inline]
    fn is_draw(&self, pos: &Position<R>, ply: usize) -> bool {
        let c = self.counters[ply];
        let draw = &self.shared.draw;
        let reached = |limit: Option<u32>, n: u32| limit.is_some_and(|l| n >= l);
        if reached(draw.kings_only, c.kings_only)
            || reached(draw.no_capture, c.no_capture)
            || reached(draw.no_capture_or_crowning, c.no_capture_or_crowning)
            || c.endgame_over()
        {
            return true;
        }
        let _ = pos;
        // Repetition: only positions since the last irreversible move can recur, and only
        // with the same side to move.
        let cur = self.base + ply;
        let h = self.hashes[cur];
        let reach = (c.kings_only as usize).min(cur);
        let mut back = 4;
        while back <= reach {
            if self.hashes[cur - back] == h {
                return true;
            }
            back += 2;
        }
        false
    }

    /// Orders the moves at `ply`: fills `order[ply]` with a score per move.
    fn score_moves(
        &mut self,
        ply: usize,
        side: usize,
        captures: bool,
        tt_move: Option<usize>,
        kings: Bb<R>,
    ) {
        let list = &self.lists[ply];
        let order = &mut self.order[ply];
        order.clear();
        if captures {
            for m in list.iter() {
                order.push(
                    (m.captured().count() as i32) * 16
                        + ((m.captured() & kings).count() as i32) * 4
                        + if m.promotes() { 8 } else { 0 },
                );
            }
        } else {
            let killers = self.killers[ply];
            for m in list.iter() {
                let s = if *m == killers[0] {
                    1 << 28
                } else if *m == killers[1] {
                    (1 << 28) - 1
                } else {
                    self.history[history_index(side, m)] + if m.promotes() { 1 << 20 } else { 0 }
                };
                order.push(s);
            }
        }
        if let Some(i) = tt_move {
            order[i] = 1 << 30;
        }
    }

    /// The best-ordered remaining move (the first of equals); a move tried is marked with
    /// `i32::MIN`.
    #[inline(always)]
    fn peek_move(order: &[i32]) -> Option<usize> {
        // Without branches: each move's score and index in one key, the score above and the
        // index below, turned so that the larger key is the earlier of equal scores. The
        // keys of tried moves (and the start value) hold the score `i32::MIN`.
        const LOW: u32 = 16;
        const MASK: i64 = (1 << LOW) - 1;
        debug_assert!(order.len() < MASK as usize);
        let best = order
            .iter()
            .enumerate()
            .map(|(i, &s)| (s as i64) << LOW | (MASK - i as i64))
            .fold((i32::MIN as i64) << LOW, i64::max);
        ((best >> LOW) as i32 != i32::MIN).then(|| (MASK - (best & MASK)) as usize)
    }

    fn update_pv(&mut self, ply: usize, m: Move<Bb<R>>) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Alpha-beta search of `pos` at `ply` plies from the root, `depth` plies deep.
    pub(crate) fn search(
        &mut self,
        pos: &Position<R>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.search_node(pos, depth, alpha, beta, ply, pv_node, true)
    }

    /// [`Self::search`], with shallow-search pruning allowed or not (it is not inside its own
    /// verification search).
    #[allow(clippy::too_many_arguments)]
    fn search_node(
        &mut self,
        pos: &Position<R>,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        prune: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_stop();
        }
        if self.stopped {
            return 0;
        }
        self.pv[ply].clear();
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if ply > 0 {
            if self.is_draw(pos, ply) {
                return 0;
            }
            // Mate-distance pruning: no result here can beat a quicker win already found.
            alpha = alpha.max(-(WIN - ply as i32));
            beta = beta.min(WIN - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if let Some(score) = self
                .shared
                .endgame
                .as_ref()
                .and_then(|db| self.database(db, pos, ply))
            {
                return score;
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply, None);
        }

        // Transposition table (not in the capture-only search below the horizon), read
        // before the moves are generated: a cut-off needs none.
        let key = pos.hash();
        let entry = if depth > 0 {
            self.shared.tt.probe(key)
        } else {
            None
        };
        if let Some(e) = entry.filter(|e| !pv_node && e.depth >= depth) {
            let s = score::from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }

        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let captures = pos.captures(&mut list);
        if !captures {
            if depth <= 0 {
                // Quiet position at the horizon: stand pat, unless the side cannot move.
                self.lists[ply] = list;
                if pos.count_quiet_moves() == 0 {
                    return Self::terminal(ply);
                }
                let stand = self.evaluate(pos, ply, Some((alpha, beta)));
                if stand >= beta || self.shared.params.qs_moves == 0 {
                    return stand;
                }
                return self.quiet_horizon(pos, stand, alpha, beta, depth, ply, prune);
            }
            pos.quiet_moves(&mut list);
            if list.is_empty() {
                self.lists[ply] = list;
                return Self::terminal(ply);
            }
        }
        let tt_move = entry.and_then(|e| e.best).and_then(|(i, to)| {
            let i = i as usize;
            (i < list.len() && list[i].to().0 == to).then_some(i)
        });

        let side = pos.side_to_move().index();
        self.lists[ply] = list;

        // Shallow-search pruning: at a node off the principal variation, a much shallower
        // search that beats beta by a margin is taken as proof enough of a cut-off. It runs at
        // the same ply before this node orders its moves (it regenerates the same list). Not
        // with kings on the board by default: in endings a shallow score foretells the deep one
        // worst, and cut-offs on estimates there cost the proofs of won endings.
        let p = &self.shared.params;
        if prune
            && !pv_node
            && p.probcut_depth > 0
            && depth >= p.probcut_depth
            && beta.abs() < WIN_BOUND
            && (p.probcut_kings == Some(true) || pos.kings().is_empty())
            && ply > 0
        {
            let margin = p.probcut_margin * depth;
            let bound = beta + margin;
            let shallow = (depth * p.probcut_percent / 100).max(1);
            let s = self.search_node(pos, shallow, bound - 1, bound, ply, false, false);
            if self.stopped {
                return 0;
            }
            if s >= bound {
                return s - margin;
            }
        }

        self.score_moves(ply, side, captures, tt_move, pos.kings());
        let count = self.lists[ply].len();
        // A forced move costs no depth (bounded so that long forced lines end).
        let extension = i32::from(count == 1 && depth > 0 && (ply as i32) < 2 * self.root_depth);

        let alpha_orig = alpha;
        let mut best = -INFINITE;
        let mut best_index = None;
        let mut searched = 0;
        self.tried[ply].clear();
        // The move after this one, when it was looked up for its prefetch (the order does not
        // change while the moves are tried).
        let mut ahead = None;
        while let Some(i) = ahead.take().or_else(|| Self::peek_move(&self.order[ply])) {
            self.order[ply][i] = i32::MIN;
            let m = self.lists[ply][i];
            let child = pos.play_unchecked(&m);
            self.shared.tt.prefetch(child.hash());
            // Also fetch the bucket of the move that comes next, while this move's subtree is
            // searched: each child probes the table first thing, too soon for the prefetch
            // just above to arrive. Only where the children probe the table (below depth 2
            // they are at the horizon).
            if depth >= 2 {
                ahead = Self::peek_move(&self.order[ply]);
                if let Some(j) = ahead {
                    let next = pos.play_unchecked(&self.lists[ply][j]);
                    self.shared.tt.prefetch(next.hash());
                }
            }
            self.enter(pos, &m, &child, ply);
            let new_depth = depth - 1 + extension;
            let score = if searched == 0 {
                -self.search_node(&child, new_depth, -beta, -alpha, ply + 1, pv_node, prune)
            } else {
                let quiet = !captures;
                let params = &self.shared.params;
                let reduction = if quiet
                    && depth >= params.lmr_depth
                    && searched
                        >= if pv_node {
                            params.lmr_moves
                        } else {
                            params.lmr_moves_cut
                        }
                    && !m.promotes()
                    && self.killers[ply][0] != m
                    && self.killers[ply][1] != m
                {
                    let r =
                        self.lmr[(depth as usize).min(63)][searched.min(63)] - i32::from(pv_node);
                    r.clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut s = -self.search_node(
                    &child,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    prune,
                );
                if s > alpha && reduction > 0 {
                    s = -self.search_node(
                        &child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        prune,
                    );
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.search_node(&child, new_depth, -beta, -alpha, ply + 1, true, prune);
                }
                s
            };
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_index = Some(i);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !captures {
                            let k = &mut self.killers[ply];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
                            }
                            let bonus = history_bonus(depth);
                            let h = &mut self.history[history_index(side, &m)];
                            *h += bonus - *h * bonus / 4096;
                            if self.shared.params.history_malus {
                                // The quiet moves tried before this one did not cut.
                                for j in 0..self.tried[ply].len() {
                                    let q = self.lists[ply][self.tried[ply][j] as usize];
                                    let h = &mut self.history[history_index(side, &q)];
                                    *h -= bonus + *h * bonus / 4096;
                                }
                            }
                        }
                        break;
                    }
                }
            }
            if !captures {
                self.tried[ply].push(i as u16);
            }
        }

        if depth > 0 {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_orig {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let best_move = best_index.map(|i| (i as u8, self.lists[ply][i].to().0));
            self.shared.tt.store(
                key,
                Entry {
                    score: score::to_tt(best, ply),
                    depth,
                    bound,
                    best: best_move,
                },
            );
        }
        best
    }

    /// At a quiet position of the horizon that stands pat below beta: tries the quiet moves
    /// that crown, and (at the first level of the horizon, with `qs_moves` 2) those that give
    /// the opponent a capture, which is how most combinations start. Returns the best of them
    /// and the static score.
    #[allow(clippy::too_many_arguments)]
    fn quiet_horizon(
        &mut self,
        pos: &Position<R>,
        stand: i32,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        prune: bool,
    ) -> i32 {
        let mut best = stand;
        alpha = alpha.max(stand);
        let sacrifices = self.shared.params.qs_moves >= 2 && depth == 0;
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        pos.quiet_moves(&mut list);
        for m in list.iter() {
            let child = pos.play_unchecked(m);
            if !m.promotes() {
                if !sacrifices {
                    continue;
                }
                let scratch = &mut self.lists[ply + 1];
                scratch.clear();
                if !child.captures(scratch) {
                    continue;
                }
            }
            self.enter(pos, m, &child, ply);
            let s = -self.search_node(&child, depth - 1, -beta, -alpha, ply + 1, false, prune);
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        best
    }

    /// Searches the root moves to `depth` within (`alpha`, `beta`); moves the best one to the
    /// front. Returns the best score.
    fn search_root(
        &mut self,
        root: &Position<R>,
        moves: &mut [RootMove<Bb<R>>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        self.pv[0].clear();
        let mut best = -INFINITE;
        for i in 0..moves.len() {
            let m = moves[i].mv;
            let child = root.play_unchecked(&m);
            self.enter(root, &m, &child, 0);
            let score = if i == 0 {
                -self.search(&child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let mut s = -self.search(&child, depth - 1, -alpha - 1, -alpha, 1, false);
                if s > alpha && s < beta {
                    s = -self.search(&child, depth - 1, -beta, -alpha, 1, true);
                }
                s
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                moves[i].score = score;
                self.update_pv(0, m);
                // Keep the order of the others; the new best goes first.
                moves[..=i].rotate_right(1);
                if score >= beta {
                    break;
                }
            } else {
                moves[i].score = -INFINITE;
            }
        }
        best
    }

    /// One iteration at `depth`: a search of the root in a window around `prev` (the last
    /// iteration's score), widened until the score falls inside it or the search stops.
    fn aspiration(
        &mut self,
        root: &Position<R>,
        moves: &mut [RootMove<Bb<R>>],
        depth: u32,
        prev: Option<i32>,
    ) -> i32 {
        let mut delta = self.shared.params.aspiration;
        let (mut alpha, mut beta) = match prev {
            Some(s) if depth >= 5 && s.abs() < WIN_BOUND => (s - delta, s + delta),
            _ => (-INFINITE, INFINITE),
        };
        loop {
            let s = self.search_root(root, moves, depth as i32, alpha, beta);
            if self.stopped {
                return s;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INFINITE);
            } else if s >= beta {
                beta = (s + delta).min(INFINITE);
            } else {
                return s;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Iterative deepening from `root`. The main thread (id 0) reports each completed iteration
    /// to `report` and decides when to stop; helper threads search until told to stop.
    pub(crate) fn iterate(
        &mut self,
        root: &Position<R>,
        report: &mut dyn FnMut(&Iteration<Bb<R>>),
    ) -> Option<Iteration<Bb<R>>> {
        let mut list = Vec::new();
        root.legal_moves(&mut list);
        if list.is_empty() {
            return None;
        }
        let main = self.id == 0;
        // Order the root moves once by a shallow look (captures first by size).
        let mut moves: Vec<RootMove<Bb<R>>> = list
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITE,
            })
            .collect();
        moves.sort_by_key(|r| std::cmp::Reverse(r.mv.captured().count()));
        self.set_root(root);
        let max_depth = self
            .shared
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        let mut best: Option<Iteration<Bb<R>>> = None;
        let mut depth = 1 + (self.id as u32 & 1);
        while depth <= max_depth {
            self.root_depth = depth as i32;
            self.seldepth = 0;
            if main {
                self.shared.main_depth.store(depth, Ordering::Relaxed);
            } else {
                // Helpers stay ahead of the main thread, so that what they complete is new.
                let ahead = self.shared.main_depth.load(Ordering::Relaxed) + 1;
                if depth < ahead {
                    depth = ahead;
                    if depth > max_depth {
                        break;
                    }
                    self.root_depth = depth as i32;
                }
            }
            let mut overtaken = if main {
                self.shared.helper_iteration::<Bb<R>>(depth)
            } else {
                None
            };
            let mut score = 0;
            if overtaken.is_none() {
                score = self.aspiration(root, &mut moves, depth, best.as_ref().map(|b| b.score));
                if self.overtaken {
                    // Stopped because a helper completed this depth; helpers publish before
                    // they go deeper, so its iteration is there.
                    self.overtaken = false;
                    overtaken = self.shared.helper_iteration::<Bb<R>>(depth);
                    self.stopped = overtaken.is_none();
                }
            }
            if let Some(it) = &overtaken {
                // A helper completed this depth (or a deeper one): its result is this
                // thread's, and the next iteration starts beyond it, its best move first.
                if let Some(i) = moves.iter().position(|r| Some(&r.mv) == it.pv.first()) {
                    moves[..=i].rotate_right(1);
                    moves[0].score = it.score;
                }
                depth = it.depth;
                self.root_depth = depth as i32;
                self.pv[0].clone_from(&it.pv);
                score = it.score;
            }
            if self.stopped && best.is_none() {
                // Even an unfinished first iteration must give a move: the best so far.
                best = Some(Iteration {
                    depth,
                    seldepth: self.seldepth as u32,
                    score: moves[0].score.max(-WIN),
                    pv: vec![moves[0].mv],
                    nodes: self.nodes,
                    time: self.shared.control.elapsed(),
                });
                break;
            }
            if self.stopped {
                // A move of the unfinished iteration that beat the previous best with a full
                // score is better information than the last iteration's move.
                if main {
                    if let Some(b) = &mut best {
                        let first = &moves[0];
                        if first.score > -INFINITE
                            && first.mv != b.pv[0]
                            && (first.score > b.score || self.shared.params.partial_best)
                            && !self.pv[0].is_empty()
                        {
                            b.pv = self.pv[0].clone();
                            b.score = first.score;
                        }
                    }
                }
                break;
            }
            let it = Iteration {
                depth,
                seldepth: match overtaken {
                    Some(ref it) => it.seldepth.max(self.seldepth as u32),
                    None => self.seldepth as u32,
                },
                score,
                pv: if self.pv[0].is_empty() {
                    vec![moves[0].mv]
                } else {
                    self.pv[0].clone()
                },
                nodes: if main {
                    self.shared.nodes[0].store(self.nodes, Ordering::Relaxed);
                    self.shared.total_nodes()
                } else {
                    self.nodes
                },
                time: self.shared.control.elapsed(),
            };
            if main {
                report(&it);
            }
            if !main {
                self.shared.publish(&it);
                best = Some(it);
                depth += 1;
                continue;
            }
            best = Some(it);
            // Decide whether to start another iteration.
            let pondering = self.shared.control.pondering.load(Ordering::Relaxed);
            if !pondering {
                if let Some((start_by, _)) = self.shared.budget {
                    if moves.len() == 1 || self.shared.control.elapsed() >= start_by {
                        break;
                    }
                }
                if score.abs() >= WIN_BOUND
                    && (WIN - score.abs()) < depth as i32
                    && self.shared.limits.depth.is_none()
                    && !self.shared.limits.infinite
                {
                    break;
                }
            }
            depth += 1;
        }
        if main {
            // A helper may have completed a deeper iteration than this thread when time ran out.
            let deeper = best
                .as_ref()
                .and_then(|b| self.shared.helper_iteration::<Bb<R>>(b.depth + 1));
            if let Some(mut it) = deeper {
                it.nodes = self.shared.total_nodes();
                it.time = self.shared.control.elapsed();
                report(&it);
                best = Some(it);
            }
        }
        best
    }

    /// Scores every root move with a full-window search of `depth` plies (for the levels,
    /// which choose among them). Returns the moves and their scores in generation order.
    pub(crate) fn score_root_moves(
        &mut self,
        root: &Position<R>,
        depth: u32,
    ) -> Vec<(Move<Bb<R>>, i32)> {
        let mut list = Vec::new();
        root.legal_moves(&mut list);
        self.set_root(root);
        let mut out = Vec::with_capacity(list.len());
        for m in list {
            self.root_depth = depth as i32;
            let child = root.play_unchecked(&m);
            self.enter(root, &m, &child, 0);
            let s = -self.search(&child, depth as i32 - 1, -INFINITE, INFINITE, 1, true);
            if self.stopped {
                break;
            }
            out.push((m, s));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_move_is_the_first_of_the_best() {
        type S<'a> = Searcher<'a, dama_core::rules::Russian>;
        assert_eq!(S::peek_move(&[]), None);
        assert_eq!(S::peek_move(&[i32::MIN, i32::MIN]), None);
        assert_eq!(S::peek_move(&[3, -5, 7, 7, i32::MIN]), Some(2));
        assert_eq!(S::peek_move(&[i32::MIN, -1 << 29, -1 << 29]), Some(1));
        assert_eq!(S::peek_move(&[1 << 30, i32::MAX, 0]), Some(1));
        // A long list: the index field holds every position.
        let mut order = vec![0; 300];
        order[299] = 1;
        assert_eq!(S::peek_move(&order), Some(299));
        order[299] = i32::MIN;
        assert_eq!(S::peek_move(&order), Some(0));
    }

    #[test]
    fn histories_stay_within_their_scale() {
        for depth in [1, 10, 64, 65, 91, 127] {
            let bonus = history_bonus(depth);
            let (mut up, mut down) = (0i32, 0i32);
            for _ in 0..1000 {
                up += bonus - up * bonus / 4096;
                down -= bonus + down * bonus / 4096;
                assert!((-4096..=4096).contains(&up), "depth {depth}: {up}");
                assert!((-4096..=4096).contains(&down), "depth {depth}: {down}");
            }
        }
    }

    #[test]
    fn overrides_change_only_what_they_name() {
        let p = PARAMS
            .with_overrides("probcut_depth=0, probcut_kings=1,lmr_divisor=1.5")
            .unwrap();
        assert_eq!(p.probcut_depth, 0);
        assert_eq!(p.probcut_kings, Some(true));
        assert_eq!(p.lmr_divisor, 1.5);
        assert_eq!(
            Params {
                probcut_depth: PARAMS.probcut_depth,
                probcut_kings: PARAMS.probcut_kings,
                lmr_divisor: PARAMS.lmr_divisor,
                ..p
            },
            PARAMS
        );
        assert_eq!(PARAMS.with_overrides("").unwrap(), PARAMS);
        // Values out of range are clamped; unknown names and bad values are errors.
        assert_eq!(PARAMS.with_overrides("qs_moves=9").unwrap().qs_moves, 2);
        assert!(
            PARAMS
                .with_overrides("probcut_giveaway_network=1")
                .unwrap()
                .probcut_giveaway_network
        );
        let p = PARAMS
            .with_overrides("move_time_stop=500,time_stop=0,partial_best=1")
            .unwrap();
        assert_eq!((p.move_time_stop, p.time_stop), (100, 1));
        assert!(p.partial_best);
        assert!(PARAMS.with_overrides("no_such=1").is_err());
        assert!(PARAMS.with_overrides("lmr_depth=x").is_err());
        assert!(PARAMS.with_overrides("lmr_divisor=0").is_err());
        assert!(PARAMS.with_overrides("probcut_depth").is_err());
        // The defaults of a search fill only what no override set.
        assert_eq!(
            PARAMS.for_search(Variant::English, false).probcut_kings,
            Some(true)
        );
        assert_eq!(
            PARAMS.for_search(Variant::Russian, false).probcut_kings,
            Some(false)
        );
        let off = PARAMS.with_overrides("probcut_kings=0").unwrap();
        assert_eq!(
            off.for_search(Variant::English, false).probcut_kings,
            Some(false)
        );
        let giveaway = PARAMS.for_search(Variant::Antidraughts, true);
        assert_eq!(giveaway.probcut_depth, 0);
        let kept = PARAMS.with_overrides("probcut_giveaway_network=1").unwrap();
        assert_eq!(
            kept.for_search(Variant::Antidraughts, true).probcut_depth,
            PARAMS.probcut_depth
        );
    }

    /// The endgame database's results are trusted only within the shortest endgame rule that
    /// a position of its size can bring.
    #[test]
    fn endgame_floors_follow_the_variants_rules() {
        use dama_core::game::GameOptions;
        use dama_core::Variant;
        let floor =
            |variant, options| DrawConfig::of(&DrawRules::of(variant, options)).endgame_floor(4);
        let plain = GameOptions::default();
        assert_eq!(floor(Variant::English, plain), u32::MAX);
        // Three kings against one: 15 moves.
        assert_eq!(floor(Variant::Russian, plain), 30);
        // The federation's rules: two pieces against a king, 5 moves.
        let official = GameOptions {
            russian_official_draws: true,
            ..plain
        };
        assert_eq!(floor(Variant::Russian, official), 10);
        // FMJD: a king and a piece against a king, 5 moves.
        assert_eq!(floor(Variant::Brazilian, plain), 10);
        // With five pieces: still three (or four) kings against one in Russian; in English
        // no rule at all.
        let five = |variant| DrawConfig::of(&DrawRules::of(variant, plain)).endgame_floor(5);
        assert_eq!(five(Variant::Russian), 30);
        assert_eq!(five(Variant::English), u32::MAX);
    }
}
