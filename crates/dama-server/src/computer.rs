//! The computer opponent runs on its own threads, never on the async runtime's.
//!
//! A [`Computer`] chooses a move for a game (blocking, as long as it likes, stopping early when
//! asked). The [`ComputerPool`] owns a few worker threads; a room submits a job with a callback
//! and goes on serving its players; the callback posts the move back to the room, which checks
//! that the game has not changed meanwhile before playing it.

use dama_core::{AnyMove, Game};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// What the computer is asked.
#[derive(Clone, Debug)]
pub struct ComputerRequest {
    /// The game so far (the position to move from is its current one; the history is there for
    /// repetition rules).
    pub game: Game,
    /// Strength, `1..=Computer::levels()`.
    pub level: u8,
    /// The computer's remaining time, if the game has a clock, milliseconds.
    pub clock_ms: Option<u64>,
    /// Its increment per move, milliseconds.
    pub increment_ms: u64,
}

/// Something that chooses moves.
pub trait Computer: Send + Sync + 'static {
    /// Name shown to players.
    fn name(&self) -> String;
    /// Number of levels (1 is the weakest).
    fn levels(&self) -> u8;
    /// A legal move of the request's current position, or `None` if there is none or `stop`
    /// was raised before one was found. Blocks for as long as the search takes.
    fn choose(&self, request: &ComputerRequest, stop: &AtomicBool) -> Option<AnyMove>;
    /// Whether the computer accepts the draw its opponent offers in the request's game (the
    /// offer is pending there; the computer plays the other colour). `stop` raised means the
    /// answer is no longer wanted. Blocks for as long as the thinking takes.
    fn accepts_draw(&self, request: &ComputerRequest, stop: &AtomicBool) -> bool;
}

/// What a job computes, and where its answer goes.
enum Work {
    Move(Box<dyn FnOnce(Option<AnyMove>) + Send>),
    Draw(Box<dyn FnOnce(bool) + Send>),
}

struct Job {
    request: ComputerRequest,
    stop: Arc<AtomicBool>,
    work: Work,
}

impl Job {
    /// Runs the job on the calling (worker) thread and hands over its answer. A panicking
    /// search must not take the worker (and every later game's computer) down with it: it
    /// counts as no move, or a declined draw.
    fn run(self, computer: &dyn Computer) {
        let stopped = || self.stop.load(Ordering::Relaxed);
        match self.work {
            Work::Move(done) => {
                let found = if stopped() {
                    None
                } else {
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        computer.choose(&self.request, &self.stop)
                    }))
                    .unwrap_or(None)
                };
                done(found)
            }
            Work::Draw(done) => {
                let accept = !stopped()
                    && std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        computer.accepts_draw(&self.request, &self.stop)
                    }))
                    .unwrap_or(false);
                done(accept && !stopped())
            }
        }
    }

    /// Answers without running (the workers are gone).
    fn abandon(self) {
        match self.work {
            Work::Move(done) => done(None),
            Work::Draw(done) => done(false),
        }
    }
}

/// Worker threads that run [`Computer`] searches.
pub struct ComputerPool {
    computer: Arc<dyn Computer>,
    jobs: Mutex<mpsc::Sender<Job>>,
    threads: usize,
}

impl std::fmt::Debug for ComputerPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComputerPool")
            .field("computer", &self.computer.name())
            .field("threads", &self.threads)
            .finish()
    }
}

/// A submitted search; dropping it does not stop the search, [`JobHandle::stop`] does.
#[derive(Debug)]
pub struct JobHandle {
    stop: Arc<AtomicBool>,
}

impl JobHandle {
    /// Asks the search to stop as soon as it can; its result is then ignored by the room.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl ComputerPool {
    /// Starts `threads` worker threads (at least one).
    pub fn new(computer: Arc<dyn Computer>, threads: usize) -> Self {
        let threads = threads.max(1);
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads {
            let rx = Arc::clone(&rx);
            let computer = Arc::clone(&computer);
            std::thread::Builder::new()
                .name(format!("dama-computer-{i}"))
                .spawn(move || loop {
                    let job = {
                        let guard = rx.lock().unwrap_or_else(|p| p.into_inner());
                        guard.recv()
                    };
                    let Ok(job) = job else { break };
                    job.run(computer.as_ref());
                })
                .expect("cannot start a computer thread");
        }
        ComputerPool {
            computer,
            jobs: Mutex::new(tx),
            threads,
        }
    }

    /// The computer's name.
    pub fn name(&self) -> String {
        self.computer.name()
    }

    /// Its number of levels.
    pub fn levels(&self) -> u8 {
        self.computer.levels()
    }

    /// Queues a search; `done` runs on the worker thread with the result.
    pub fn submit(
        &self,
        request: ComputerRequest,
        done: impl FnOnce(Option<AnyMove>) + Send + 'static,
    ) -> JobHandle {
        self.queue(request, Work::Move(Box::new(done)))
    }

    /// Queues the answer to a draw offer; `done` runs on the worker thread with it (`false`
    /// when the job was stopped).
    pub fn submit_draw(
        &self,
        request: ComputerRequest,
        done: impl FnOnce(bool) + Send + 'static,
    ) -> JobHandle {
        self.queue(request, Work::Draw(Box::new(done)))
    }

    fn queue(&self, request: ComputerRequest, work: Work) -> JobHandle {
        let stop = Arc::new(AtomicBool::new(false));
        let job = Job {
            request,
            stop: Arc::clone(&stop),
            work,
        };
        let sender = self.jobs.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(mpsc::SendError(job)) = sender.send(job) {
            // Workers are gone (only at shutdown): report no answer.
            job.abandon();
        }
        JobHandle { stop }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::Variant;
    use std::time::{Duration, Instant};

    struct Slow;
    impl Computer for Slow {
        fn name(&self) -> String {
            "slow".into()
        }
        fn levels(&self) -> u8 {
            1
        }
        fn choose(&self, request: &ComputerRequest, stop: &AtomicBool) -> Option<AnyMove> {
            let until = Instant::now() + Duration::from_secs(5);
            while Instant::now() < until {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            request.game.legal_moves().into_iter().next()
        }
        fn accepts_draw(&self, _: &ComputerRequest, _: &AtomicBool) -> bool {
            panic!("a panicking computer")
        }
    }

    #[test]
    fn a_panicking_computer_declines_and_the_worker_lives_on() {
        let pool = ComputerPool::new(Arc::new(Slow), 1);
        let request = ComputerRequest {
            game: Game::new(Variant::Russian),
            level: 1,
            clock_ms: None,
            increment_ms: 0,
        };
        for _ in 0..2 {
            let (tx, rx) = mpsc::channel();
            pool.submit_draw(request.clone(), move |a| tx.send(a).unwrap());
            assert!(!rx.recv_timeout(Duration::from_secs(3)).unwrap());
        }
    }

    #[test]
    fn stop_ends_a_search_early() {
        let pool = ComputerPool::new(Arc::new(Slow), 1);
        let (tx, rx) = mpsc::channel();
        let started = Instant::now();
        let handle = pool.submit(
            ComputerRequest {
                game: Game::new(Variant::Russian),
                level: 1,
                clock_ms: None,
                increment_ms: 0,
            },
            move |m| tx.send(m).unwrap(),
        );
        handle.stop();
        assert_eq!(rx.recv_timeout(Duration::from_secs(3)).unwrap(), None);
        assert!(started.elapsed() < Duration::from_secs(3));
    }
}
