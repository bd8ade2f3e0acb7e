//! The application state shared by every request: the store, the live rooms and the computer.

use crate::computer::ComputerPool;
use crate::room::{self, Command};
use crate::store::Store;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Shared state; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<dyn Store>,
    rooms: Mutex<HashMap<String, mpsc::Sender<Command>>>,
    computer: Option<Arc<ComputerPool>>,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("rooms", &self.live_rooms())
            .field("computer", &self.inner.computer)
            .finish()
    }
}

impl AppState {
    /// State over a store, with or without a computer opponent.
    pub fn new(store: Arc<dyn Store>, computer: Option<Arc<ComputerPool>>) -> Self {
        AppState {
            inner: Arc::new(Inner {
                store,
                rooms: Mutex::new(HashMap::new()),
                computer,
            }),
        }
    }

    /// The store.
    pub fn store(&self) -> Arc<dyn Store> {
        Arc::clone(&self.inner.store)
    }

    /// The computer, if one is configured.
    pub fn computer(&self) -> Option<&Arc<ComputerPool>> {
        self.inner.computer.as_ref()
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::Sender<Command>>> {
        self.inner.rooms.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Number of rooms in memory.
    pub fn live_rooms(&self) -> usize {
        self.rooms().len()
    }

    /// The command queue of a game's room, starting the room if it is not running. A room for
    /// an id that does not exist answers `not_found` and stops.
    pub fn room(&self, id: &str) -> mpsc::Sender<Command> {
        let mut rooms = self.rooms();
        if let Some(tx) = rooms.get(id) {
            if !tx.is_closed() {
                return tx.clone();
            }
        }
        let (tx, rx) = mpsc::channel(256);
        rooms.insert(id.to_owned(), tx.clone());
        tokio::spawn(room::run(self.clone(), id.to_owned(), tx.downgrade(), rx));
        tx
    }

    /// Removes a room from the map (a room that failed to load).
    pub(crate) fn forget_room(&self, id: &str, _reason: Option<&str>) {
        self.rooms().remove(id);
    }

    /// Removes an idle room if nobody holds its queue and nothing is queued. Returns whether
    /// it was removed; the room must then stop. Done under the map's lock so that no request
    /// can reach a room that is about to stop.
    pub(crate) fn retire_room(&self, id: &str, rx: &mpsc::Receiver<Command>) -> bool {
        let mut rooms = self.rooms();
        let Some(tx) = rooms.get(id) else {
            return true;
        };
        // The map's own sender is the only strong one: nobody else can send.
        if tx.strong_count() == 1 && rx.is_empty() {
            rooms.remove(id);
            true
        } else {
            false
        }
    }
}
