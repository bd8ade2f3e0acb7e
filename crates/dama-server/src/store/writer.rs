//! The store's writer thread: rooms hand it their events and await the answer; it writes
//! everything that arrived meanwhile in one batch (one transaction for SQLite), so a busy
//! server makes one database commit for many moves and no runtime thread ever blocks on the
//! database.

use super::{Append, Store, StoreError};
use std::sync::mpsc;
use std::sync::Arc;
use tokio::sync::oneshot;

/// Largest batch written at once.
const MAX_BATCH: usize = 512;

type Request = (Append, oneshot::Sender<Result<(), StoreError>>);

/// A handle to the writer thread; cheap to share.
#[derive(Debug)]
pub struct Writer {
    tx: mpsc::Sender<Request>,
}

impl Writer {
    /// Starts the writer thread over a store.
    ///
    /// # Panics
    /// If the thread cannot be started (the operating system is out of threads).
    pub fn new(store: Arc<dyn Store>) -> Self {
        let (tx, rx) = mpsc::channel::<Request>();
        std::thread::Builder::new()
            .name("dama-store-writer".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut batch = vec![first];
                    while batch.len() < MAX_BATCH {
                        match rx.try_recv() {
                            Ok(r) => batch.push(r),
                            Err(_) => break,
                        }
                    }
                    let (appends, replies): (Vec<Append>, Vec<_>) = batch.into_iter().unzip();
                    let results = store.append_batch(&appends);
                    for (reply, result) in replies.into_iter().zip(results) {
                        let _ = reply.send(result);
                    }
                }
            })
            .expect("cannot start the store's writer thread");
        Writer { tx }
    }

    /// Appends an event; resolves once it is stored (or refused).
    ///
    /// # Errors
    /// The store's error, or [`StoreError::Database`] if the writer thread is gone.
    pub async fn append(&self, append: Append) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send((append, reply))
            .map_err(|_| StoreError::Database("the store's writer has stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Database("the store's writer has stopped".into()))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{SqliteStore, StoredEvent, StoredGame};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_appends_are_stored_in_order_per_game() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open_in_memory().unwrap());
        for g in 0..20 {
            store
                .create_game(
                    &StoredGame {
                        id: format!("g{g}"),
                        created_ms: 0,
                        variant: "russian".into(),
                        start_fen: String::new(),
                        settings: "{}".into(),
                        status: "active".into(),
                    },
                    &[],
                )
                .unwrap();
        }
        let writer = Arc::new(Writer::new(store.clone()));
        let mut tasks = Vec::new();
        for g in 0..20 {
            let writer = writer.clone();
            tasks.push(tokio::spawn(async move {
                for seq in 1..=30u64 {
                    writer
                        .append(Append {
                            game: format!("g{g}"),
                            event: StoredEvent {
                                seq,
                                at_ms: 0,
                                body: format!("{seq}"),
                            },
                            status: None,
                        })
                        .await
                        .unwrap();
                }
                // A repeated sequence number is refused; the others stay.
                let err = writer
                    .append(Append {
                        game: format!("g{g}"),
                        event: StoredEvent {
                            seq: 30,
                            at_ms: 0,
                            body: "again".into(),
                        },
                        status: Some(("finished".into(), Some("1-0".into()))),
                    })
                    .await;
                assert!(matches!(err, Err(StoreError::Conflict { .. })));
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        for g in 0..20 {
            let (game, events) = store.load_game(&format!("g{g}")).unwrap().unwrap();
            assert_eq!(game.status, "active", "a refused event changes nothing");
            let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
            assert_eq!(seqs, (1..=30).collect::<Vec<_>>());
        }
    }
}
