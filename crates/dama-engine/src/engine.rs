//! The engine facade: a position, limits, and a search that reports through events. It knows
//! no protocol; Hub, DXP, the command line and the server are adapters around it.

use crate::book::Book;
use crate::endgame;
use crate::eval::{Evaluator, Weights};
use crate::level::{self, Level};
use crate::limits::Limits;
use crate::network::{self, Network};
use crate::pattern::{self, Model, Prepared};
use crate::score::Score;
use crate::search::{
    Control, Counters, DrawConfig, Iteration, Params, RootState, Searcher, Shared,
};
use crate::tt::Table;
use dama_core::game::{DrawRules, GameOptions};
use dama_core::position::Bb;
use dama_core::rules::Rules;
use dama_core::Bitboard;
use dama_core::{with_rules, AnyMove, AnyPosition, Game, Move, Position, Role, Variant};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The principal variation `pv` from `root`, continued from the endgame database when the
/// search's `score` is a forced result (the search stops where the database knows it).
fn with_database_line<R: Rules>(
    root: &Position<R>,
    pv: &[Move<Bb<R>>],
    score: i32,
    db: Option<&endgame::Table>,
) -> Vec<AnyMove> {
    let mut line: Vec<AnyMove> = pv.iter().map(|m| m.to_any()).collect();
    if let Some(db) = db.filter(|_| Score::from_internal(score).is_decisive()) {
        let end = pv.iter().fold(*root, |p, m| p.play_unchecked(m));
        line.extend(db.line(&end, ENDGAME_LINE).iter().map(|m| m.to_any()));
    }
    line
}

/// The longest continuation taken from the endgame database for a principal variation.
const ENDGAME_LINE: usize = 40;

/// Nodes of each short search that checks a book move ([`Engine::set_book`]).
const BOOK_CHECK_NODES: u64 = 20_000;
/// How far below the short search's best move (centi-men) a book move may score and still
/// be played.
const BOOK_CHECK_MARGIN: i32 = 100;

/// How many pieces before the searches use the endgame database its build starts.
const ENDGAME_AHEAD: u32 = 8;

/// Whether searches at `level` from a root with `pieces` pieces (less `ahead`) use the endgame
/// database: level 10 only, like the built-in models, and few enough pieces
/// ([`Params::endgame_root`]).
fn uses_endgame_database(level: Level, pieces: u32, ahead: u32) -> bool {
    level == Level::MAX && pieces <= Params::current().endgame_root.saturating_add(ahead)
}

/// The number of pieces on the board.
fn pieces(position: &AnyPosition) -> u32 {
    let setup = position.setup();
    (setup.white | setup.black).len() as u32
}

/// Settings of an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads (lazy SMP). At least 1.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Playing level.
    pub level: Level,
    /// Seed of the random choices of the weaker levels; `None` picks one from the clock.
    pub seed: Option<u64>,
    /// The game's optional rules (for the draw rules the search applies).
    pub game_options: GameOptions,
    /// The most pieces of the endgame database level 10 uses on the 8x8 boards
    /// ([`endgame`]; 2 to [`endgame::MAX_PIECES`]).
    pub endgame_pieces: u32,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            hash_mb: 16,
            level: Level::MAX,
            seed: None,
            game_options: GameOptions::default(),
            endgame_pieces: endgame::DEFAULT_PIECES,
        }
    }
}

/// Progress of a search: one per completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nominal depth of the iteration, in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score for the side to move at the root.
    pub score: Score,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, from the root.
    pub pv: Vec<AnyMove>,
    /// How full the transposition table is, per mille.
    pub hashfull: u32,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when the side to move has no legal move.
    pub best_move: Option<AnyMove>,
    /// The expected reply, to ponder on.
    pub ponder_move: Option<AnyMove>,
    /// Score of the best move for the side to move.
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<AnyMove>,
    /// Whether the move came from the opening book ([`Engine::set_book`]) instead of a search
    /// (only the book move's short check was searched).
    pub book: bool,
}

impl SearchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.time)
    }
}

/// What a background search ([`Engine::go`]) sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Progress.
    Info(SearchInfo),
    /// The search ended; always the last event.
    Done(SearchResult),
}

/// Stops or releases a running search from any thread.
#[derive(Clone, Debug)]
pub struct StopHandle(Arc<Control>);

impl StopHandle {
    /// Asks the search to stop as soon as possible; it still reports its best move.
    pub fn stop(&self) {
        self.0.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the expected move: a ponder search goes on as a normal search whose
    /// clock starts now.
    pub fn ponderhit(&self) {
        *self.0.start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.0.pondering.store(false, Ordering::Relaxed);
    }
}

/// A draughts engine for one game at a time.
///
/// ```
/// use dama_core::{AnyPosition, Variant};
/// use dama_engine::{Engine, EngineOptions, Limits};
/// let mut engine = Engine::new(EngineOptions::default());
/// engine.set_position(AnyPosition::start(Variant::Russian), &[]);
/// let result = engine.search(Limits::depth(4), |_| {});
/// assert!(result.best_move.is_some());
/// ```
#[derive(Debug)]
pub struct Engine {
    options: EngineOptions,
    tt: Arc<Table>,
    control: Arc<Control>,
    root: AnyPosition,
    state: RootState,
    weights: Option<Weights>,
    model: Option<Arc<Model>>,
    network: Option<Arc<Network>>,
    book: Option<Arc<Book>>,
    /// The last model searched with, made ready for the search ([`Prepared`]), which takes
    /// about a quarter of a millisecond: too long for every search of a fast game. (A model
    /// behind an `Arc` cannot change, so it stays true.)
    prepared: Option<Arc<Prepared>>,
    rng: u64,
    worker: Option<JoinHandle<()>>,
}

impl Engine {
    /// A new engine at the start position of Russian draughts.
    pub fn new(options: EngineOptions) -> Engine {
        let seed = options.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x1234_5678, |d| d.as_nanos() as u64)
        });
        let options = EngineOptions {
            threads: options.threads.clamp(1, 256),
            hash_mb: options.hash_mb.clamp(1, 1 << 16),
            ..options
        };
        Engine {
            tt: Arc::new(Table::new(options.hash_mb)),
            control: Arc::new(Control::new()),
            root: AnyPosition::start(Variant::Russian),
            state: RootState {
                history: Vec::new(),
                counters: Counters::default(),
            },
            weights: None,
            model: None,
            network: None,
            book: None,
            prepared: None,
            rng: seed | 1,
            options,
            worker: None,
        }
    }

    /// The current options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Sets the playing level for the next searches.
    pub fn set_level(&mut self, level: Level) {
        self.options.level = level;
    }

    /// Sets the number of search threads (1 to 256).
    pub fn set_threads(&mut self, threads: usize) {
        self.options.threads = threads.clamp(1, 256);
    }

    /// Sets the most pieces of the endgame database the next searches use (clamped to 2 to
    /// [`endgame::MAX_PIECES`]).
    pub fn set_endgame_pieces(&mut self, pieces: u32) {
        self.options.endgame_pieces = pieces.clamp(2, endgame::MAX_PIECES);
    }

    /// Resizes the transposition table (its contents are lost). Waits for a running search.
    pub fn set_hash_mb(&mut self, megabytes: usize) {
        self.wait();
        let megabytes = megabytes.clamp(1, 1 << 16);
        if megabytes != self.options.hash_mb {
            self.options.hash_mb = megabytes;
            self.tt = Arc::new(Table::new(megabytes));
        }
    }

    /// Replaces the evaluation weights (for tuning and experiments); `None` restores the
    /// built-in weights of the variant's family.
    pub fn set_weights(&mut self, weights: Option<Weights>) {
        self.weights = weights;
    }

    /// Replaces the pattern model (for tuning and experiments; it then plays at every level,
    /// instead of a built-in network); `None` restores the built-in evaluation of the variant,
    /// which level 10 uses: its network, or its model, if it has one. A model takes precedence
    /// over linear weights; one made for another board is ignored.
    pub fn set_model(&mut self, model: Option<Arc<Model>>) {
        self.model = model;
        self.prepared = None;
    }

    /// Replaces the neural-network evaluation (for tuning and experiments; it then plays at
    /// every level, before a pattern model or linear weights); `None` restores the built-in
    /// evaluation. One made for another board is ignored. Level 10 plays with the variant's
    /// built-in network, if it has one, unless a model or weights are set.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.network = network;
    }

    /// Sets the opening book (`None`: none, the default). While the game follows it, a search
    /// on the clock, a move time or a node budget plays the book's move (see [`Book::choose`])
    /// after two short searches (20,000 nodes each, at full strength whatever the level, on
    /// the search's thread) find it no more than a man below the best move they see; a search
    /// to a fixed depth, an infinite one or a ponder search searches as usual, as does every
    /// search of a position the book does not know. A book of another variant is never
    /// consulted.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The check of the book's move for the current position under `limits`, if the book has
    /// one: made ready here, searched by [`BookCheck::run`] on the search's thread.
    fn book_check(&mut self, limits: &Limits) -> Option<BookCheck> {
        let book = self.book.clone()?;
        if limits.depth.is_some() || limits.infinite || limits.ponder {
            return None;
        }
        let choice = book.choose(&self.root)?;
        let child = self.root.play(&choice.mv).ok()?;
        let limits = Limits::nodes(BOOK_CHECK_NODES);
        // The check is the engine's best judgement at every level (a gentle level's search
        // picks its moves by chance). Its searches stop and time themselves: the engine's own
        // control is the next search's (a stop during a check ends that search at once).
        let position = self.job_at(limits, Level::MAX, Arc::new(Control::new()));
        let mut reply = self.job_at(limits, Level::MAX, Arc::new(Control::new()));
        // The game's older positions matter little to a short check in the opening.
        reply.state = root_state(&child, &[self.root], self.options.game_options);
        reply.root = child;
        Some(BookCheck {
            choice: choice.mv,
            position,
            reply,
        })
    }

    /// `model` made ready for the search, the last search's if it is the same model.
    fn prepare(&mut self, model: Arc<Model>) -> Arc<Prepared> {
        match &self.prepared {
            Some(p) if Arc::ptr_eq(&p.model, &model) => Arc::clone(p),
            _ => {
                let p = Arc::new(Prepared::new(model));
                self.prepared = Some(Arc::clone(&p));
                p
            }
        }
    }

    /// Forgets what earlier searches learnt (call between games). It writes the whole
    /// table, so its memory, mapped on first touch, is in place before a search's clock starts.
    pub fn new_game(&mut self) {
        self.wait();
        self.tt.clear();
    }

    /// The position the next search starts from.
    pub fn position(&self) -> &AnyPosition {
        &self.root
    }

    /// Sets the position to search, with the positions of the game before it (oldest first;
    /// may be empty) so that repetitions and the move-count draw rules are known. Stops and
    /// waits for a running search.
    pub fn set_position(&mut self, position: AnyPosition, history: &[AnyPosition]) {
        self.stop();
        self.wait();
        self.state = root_state(&position, history, self.options.game_options);
        self.root = position;
        // Start building the endgame database in the background a few captures before the
        // searches need it, so that they seldom wait for it.
        if uses_endgame_database(self.options.level, pieces(&position), ENDGAME_AHEAD) {
            let pieces = self.options.endgame_pieces;
            with_rules!(position.variant(), R => endgame::prepare::<R>(pieces));
        }
    }

    /// Waits until the endgame database the searches from the current position use is built,
    /// if they use one (level 10, an 8x8 board, few enough pieces). A search on the clock does
    /// not wait for it by itself (it uses the database once it is ready), so a tool that
    /// analyses one position calls this first.
    pub fn wait_for_endgame_database(&self) {
        if uses_endgame_database(self.options.level, pieces(&self.root), 0) {
            let pieces = self.options.endgame_pieces;
            let _ = endgame::for_variant(self.root.variant(), pieces, &mut |_, _| {});
        }
    }

    /// Sets the position of a game, with its history.
    pub fn set_game(&mut self, game: &Game) {
        let positions = game.positions();
        let (root, history) = positions
            .split_last()
            .map_or((*game.position(), &[][..]), |(r, h)| (*r, h));
        self.options.game_options = game.options();
        self.set_position(root, history);
    }

    /// A handle to stop the running search (or release a ponder search) from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.control))
    }

    /// Asks a running search to stop; it still reports a move.
    pub fn stop(&self) {
        self.stop_handle().stop();
    }

    /// See [`StopHandle::ponderhit`].
    pub fn ponderhit(&self) {
        self.stop_handle().ponderhit();
    }

    /// Whether a background search is running.
    pub fn is_searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// Waits for a background search to end.
    pub fn wait(&mut self) {
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }

    fn next_random(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// The job of the next search: it runs on the engine's own control (stop, ponder, clock),
    /// which starts afresh here.
    fn job(&mut self, limits: Limits) -> Job {
        self.wait();
        self.control.stop.store(false, Ordering::Relaxed);
        self.control
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        *self.control.start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        let control = Arc::clone(&self.control);
        self.job_at(limits, self.options.level, control)
    }

    /// A search of the current position at `level` under `control`.
    fn job_at(&mut self, limits: Limits, level: Level, control: Arc<Control>) -> Job {
        let variant = self.root.variant();
        let rules = DrawRules::of(variant, self.options.game_options);
        let network = match (&self.network, &self.model, &self.weights) {
            (Some(n), _, _) => Some(Arc::clone(n)),
            // Like the built-in model, the built-in network plays at full strength only, and
            // in its place.
            (None, None, None) if level == Level::MAX => Network::builtin(variant),
            _ => None,
        };
        Job {
            root: self.root,
            state: self.state.clone(),
            limits,
            options: EngineOptions {
                level,
                ..self.options
            },
            weights: self
                .weights
                .unwrap_or_else(|| Weights::for_variant(variant)),
            model: match (&self.model, &self.weights) {
                (Some(m), _) => Some(Arc::clone(m)),
                (None, Some(_)) => None,
                // The built-in model plays at full strength only (levels 1-9 keep the linear
                // evaluation their ladder was measured with), where no built-in network does
                // (a network set for another board leaves it in place).
                (None, None)
                    if level == Level::MAX && (network.is_none() || self.network.is_some()) =>
                {
                    Model::builtin(variant)
                }
                (None, None) => None,
            }
            .map(|m| self.prepare(m)),
            network,
            draw: DrawConfig::of(&rules),
            tt: Arc::clone(&self.tt),
            control,
            seed: self.next_random(),
        }
    }

    /// Searches the current position on this thread (helper threads are started and joined
    /// inside) and returns the result. `on_info` is called after each iteration.
    pub fn search(&mut self, limits: Limits, mut on_info: impl FnMut(&SearchInfo)) -> SearchResult {
        let check = self.book_check(&limits);
        let job = self.job(limits);
        job.run_after(check, &mut on_info)
    }

    /// Starts a search in the background. Progress and the result arrive on the returned
    /// channel; the last event is always [`Event::Done`]. Stop it with [`Engine::stop`].
    pub fn go(&mut self, limits: Limits) -> mpsc::Receiver<Event> {
        let (tx, rx) = mpsc::channel();
        let check = self.book_check(&limits);
        let job = self.job(limits);
        let handle = std::thread::Builder::new()
            .name("dama-search".into())
            .spawn(move || {
                let info_tx = tx.clone();
                let result = job.run_after(check, &mut |info| {
                    let _ = info_tx.send(Event::Info(info.clone()));
                });
                let _ = tx.send(Event::Done(result));
            });
        match handle {
            Ok(h) => self.worker = Some(h),
            Err(_) => {
                // No thread could be started: search here instead, so a result still comes.
                let (tx, rx2) = mpsc::channel();
                let result = self.search(limits, |info| {
                    let _ = tx.send(Event::Info(info.clone()));
                });
                let _ = tx.send(Event::Done(result));
                return rx2;
            }
        }
        rx
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// The repeatable history and draw counters of a position reached after `history`.
fn root_state(root: &AnyPosition, history: &[AnyPosition], options: GameOptions) -> RootState {
    let rules = DrawRules::of(root.variant(), options);
    let mut line: Vec<&AnyPosition> = history
        .iter()
        .filter(|p| p.variant() == root.variant())
        .collect();
    line.push(root);
    let mut counters = Counters::at((rules.endgame)(&dama_core::Material::of_any(line[0])));
    let count = |p: &AnyPosition| {
        let s = p.setup();
        (s.white.len() + s.black.len(), s.kings.len())
    };
    for pair in line.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let ((pieces_a, kings_a), (pieces_b, kings_b)) = (count(a), count(b));
        let capture = pieces_b < pieces_a;
        let mover = a.side_to_move();
        let man_moved = a.pieces_of(mover, Role::Man) != b.pieces_of(mover, Role::Man);
        let crowned = !capture && kings_b > kings_a;
        let endgame = (rules.endgame)(&dama_core::Material::of_any(b));
        let before = counters;
        before.after(capture, man_moved, crowned, endgame, &mut counters);
    }
    let keep = (counters.kings_only as usize).min(line.len() - 1);
    let before = &line[line.len() - 1 - keep..line.len() - 1];
    RootState {
        history: before.iter().map(|p| p.hash()).collect(),
        counters,
    }
}

fn nps(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    (nodes as u128 * 1_000_000 / micros) as u64
}

/// One search request, owned by the thread that runs it.
struct Job {
    root: AnyPosition,
    state: RootState,
    limits: Limits,
    options: EngineOptions,
    weights: Weights,
    model: Option<Arc<Prepared>>,
    network: Option<Arc<Network>>,
    draw: DrawConfig,
    tt: Arc<Table>,
    control: Arc<Control>,
    seed: u64,
}

/// A book move and the two short searches that check it ([`Engine::set_book`]): a
/// collection's games may hold blunders, and the book must never make one.
struct BookCheck {
    choice: AnyMove,
    /// The search of the position.
    position: Job,
    /// The search of the position after the book move.
    reply: Job,
}

impl BookCheck {
    /// The book move as a search result, unless the position's search finds it more than
    /// [`BOOK_CHECK_MARGIN`] below its best move. (The search's own best move is taken as is;
    /// another book move is searched once more from the position it leads to.)
    fn run(self) -> Option<SearchResult> {
        let started = Instant::now();
        let best = self.position.run(&mut |_| {});
        let (score, nodes) = if best.best_move == Some(self.choice) {
            (best.score, best.nodes)
        } else {
            let reply = self.reply.run(&mut |_| {});
            (reply.score.flip(), best.nodes + reply.nodes)
        };
        if score.to_internal() < best.score.to_internal().saturating_sub(BOOK_CHECK_MARGIN) {
            return None;
        }
        Some(SearchResult {
            best_move: Some(self.choice),
            ponder_move: None,
            score,
            depth: best.depth,
            seldepth: best.seldepth,
            nodes,
            time: started.elapsed(),
            pv: vec![self.choice],
            book: true,
        })
    }
}

impl Job {
    /// Plays the book's move if `check` passes, else searches.
    fn run_after(
        self,
        check: Option<BookCheck>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        match check.and_then(BookCheck::run) {
            Some(result) => result,
            None => self.run(on_info),
        }
    }

    fn run(self, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        with_rules!(self.root.variant(), R => self.run_rules::<R>(on_info))
    }

    fn run_rules<R: Rules>(self, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let root = self.root.to_position::<R>();
        let params = self.options.level.params();
        let mut limits = self.limits;
        if let Some(d) = params.depth {
            limits.depth = Some(limits.depth.map_or(d, |x| x.min(d)));
        }
        if let Some(n) = params.nodes {
            limits.nodes = Some(limits.nodes.map_or(n, |x| x.min(n)));
        }
        let eval = match (&self.model, &self.network) {
            _ if params.material_only => Evaluator::Linear(self.weights.material_only()),
            (_, Some(n)) if n.check::<R>().is_ok() => {
                Evaluator::Network(Arc::new(network::Prepared::new(Arc::clone(n))))
            }
            (Some(p), _) if p.model.check::<R>().is_ok() => Evaluator::Pattern(Arc::clone(p)),
            _ => Evaluator::Linear(self.weights),
        };
        // A search on the clock does not wait for the endgame database to be built (it takes
        // it if it is ready); one to a depth or a node count does, so that it gives the same
        // result whenever it runs.
        let on_clock = self.limits.move_time.is_some() || self.limits.clock.is_some();
        let endgame = if !uses_endgame_database(self.options.level, root.occupied().count(), 0) {
            None
        } else if on_clock {
            endgame::ready::<R>(self.options.endgame_pieces)
        } else {
            let table = endgame::table::<R>(self.options.endgame_pieces);
            // The time a build took is not the search's.
            *self.control.start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
            table
        };
        // How far the game has simplified: the share of the men that have left the board.
        let simplified =
            1.0 - f64::from(pattern::phase(&root)) / f64::from(pattern::phase_total::<R>().max(1));
        let search_params = Params::current().for_search(
            self.root.variant(),
            R::GOAL == dama_core::rules::Goal::Giveaway && matches!(eval, Evaluator::Network(_)),
        );
        let threads = if params.noise > 0 {
            1
        } else {
            self.options.threads
        };
        let shared = Shared {
            tt: &self.tt,
            control: &self.control,
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            limits,
            budget: limits.budget(simplified, &search_params),
            draw: self.draw,
            eval,
            params: search_params,
            main_depth: AtomicU32::new(0),
            helper_depth: AtomicU32::new(0),
            helper_best: Mutex::new(None),
            // Read only with a database: not worked out for the other searches.
            endgame_floor: endgame
                .as_ref()
                .map_or(u32::MAX, |t| self.draw.endgame_floor(t.pieces())),
            endgame,
        };
        self.tt.new_search();
        let convert = |it: &Iteration<Bb<R>>| SearchInfo {
            depth: it.depth,
            seldepth: it.seldepth,
            score: Score::from_internal(it.score),
            nodes: it.nodes,
            nps: nps(it.nodes, it.time),
            time: it.time,
            pv: with_database_line(&root, &it.pv, it.score, shared.endgame.as_deref()),
            hashfull: self.tt.hashfull(),
        };
        let control = &self.control;
        let wait_for_release = || {
            // An infinite or ponder search reports its move only when told to.
            while (limits.infinite || control.pondering.load(Ordering::Relaxed))
                && !control.stop.load(Ordering::Relaxed)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
        };

        if params.noise > 0 {
            let mut searcher = Searcher::<R>::new(&shared, 0, &self.state);
            let depth = limits.depth.unwrap_or(1).max(1);
            let mut scored = searcher.score_root_moves(&root, depth);
            if scored.is_empty() {
                // Stopped before any move was scored: any legal move rather than none.
                scored.extend(root.legal_move_vec().first().map(|m| (*m, 0)));
            }
            let mut rng = self.seed | 1;
            let scores: Vec<i32> = scored.iter().map(|(_, s)| *s).collect();
            let pick = level::choose(&scores, &params, |n| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                (rng % n as u64) as u32
            });
            wait_for_release();
            let time = control.elapsed();
            let nodes = searcher.nodes();
            return match pick {
                Some(i) => {
                    let (m, s) = scored[i];
                    let info = SearchInfo {
                        depth,
                        seldepth: depth,
                        score: Score::from_internal(s),
                        nodes,
                        nps: nps(nodes, time),
                        time,
                        pv: vec![m.to_any()],
                        hashfull: 0,
                    };
                    on_info(&info);
                    SearchResult {
                        best_move: Some(m.to_any()),
                        ponder_move: None,
                        score: info.score,
                        depth,
                        seldepth: depth,
                        nodes,
                        time,
                        pv: info.pv,
                        book: false,
                    }
                }
                None => self.no_move(&root, nodes, time),
            };
        }

        let state = &self.state;
        let shared_ref = &shared;
        let best = std::thread::scope(|scope| {
            for id in 1..threads {
                scope.spawn(move || {
                    let mut helper = Searcher::<R>::new(shared_ref, id, state);
                    // Helpers search until the main thread stops them.
                    while !control.stop.load(Ordering::Relaxed) {
                        helper.iterate(&root, &mut |_| {});
                        if !control.stop.load(Ordering::Relaxed) {
                            std::thread::sleep(Duration::from_millis(1));
                        }
                    }
                });
            }
            let mut main = Searcher::<R>::new(shared_ref, 0, state);
            let best = main.iterate(&root, &mut |it| on_info(&convert(it)));
            shared_ref.nodes[0].store(main.nodes(), Ordering::Relaxed);
            wait_for_release();
            control.stop.store(true, Ordering::Relaxed);
            best
        });
        let nodes: u64 = shared.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum();
        let time = control.elapsed();
        match best {
            Some(it) => SearchResult {
                best_move: it.pv.first().map(|m| m.to_any()),
                ponder_move: it.pv.get(1).map(|m| m.to_any()),
                score: Score::from_internal(it.score),
                depth: it.depth,
                seldepth: it.seldepth,
                nodes,
                time,
                pv: with_database_line(&root, &it.pv, it.score, shared.endgame.as_deref()),
                book: false,
            },
            None => self.no_move(&root, nodes, time),
        }
    }

    fn no_move<R: Rules>(
        &self,
        root: &dama_core::Position<R>,
        nodes: u64,
        time: Duration,
    ) -> SearchResult {
        let _ = root;
        let score = match R::GOAL {
            dama_core::rules::Goal::Normal => Score::Loss(0),
            dama_core::rules::Goal::Giveaway => Score::Win(0),
        };
        SearchResult {
            best_move: None,
            ponder_move: None,
            score,
            depth: 0,
            seldepth: 0,
            nodes,
            time,
            pv: Vec::new(),
            book: false,
        }
    }
}
