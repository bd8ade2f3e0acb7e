//! A store in memory, for tests and for `dama serve --memory`.

use super::{GameSummary, Store, StoreError, StoredEvent, StoredGame};
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Debug)]
struct Entry {
    game: StoredGame,
    result: Option<String>,
    events: Vec<StoredEvent>,
}

/// Games kept in memory only: gone when the process ends.
#[derive(Debug, Default)]
pub struct MemoryStore {
    games: Mutex<HashMap<String, Entry>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Store for MemoryStore {
    fn create_game(&self, game: &StoredGame, events: &[StoredEvent]) -> Result<(), StoreError> {
        let mut games = self.lock();
        if games.contains_key(&game.id) {
            return Err(StoreError::Conflict {
                game: game.id.clone(),
                seq: 0,
            });
        }
        for (i, e) in events.iter().enumerate() {
            if e.seq != i as u64 + 1 {
                return Err(StoreError::Conflict {
                    game: game.id.clone(),
                    seq: e.seq,
                });
            }
        }
        games.insert(
            game.id.clone(),
            Entry {
                game: game.clone(),
                result: None,
                events: events.to_vec(),
            },
        );
        Ok(())
    }

    fn load_game(&self, id: &str) -> Result<Option<(StoredGame, Vec<StoredEvent>)>, StoreError> {
        Ok(self
            .lock()
            .get(id)
            .map(|e| (e.game.clone(), e.events.clone())))
    }

    fn append_event(
        &self,
        id: &str,
        event: &StoredEvent,
        status: Option<(&str, Option<&str>)>,
    ) -> Result<(), StoreError> {
        let mut games = self.lock();
        let entry = games
            .get_mut(id)
            .ok_or_else(|| StoreError::NotFound(id.to_owned()))?;
        if event.seq != entry.events.len() as u64 + 1 {
            return Err(StoreError::Conflict {
                game: id.to_owned(),
                seq: event.seq,
            });
        }
        if let Some((status, result)) = status {
            entry.game.status = status.to_owned();
            if let Some(r) = result {
                entry.result = Some(r.to_owned());
            }
        }
        entry.events.push(event.clone());
        Ok(())
    }

    fn list_games(
        &self,
        status: &str,
        since_ms: i64,
        limit: usize,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let games = self.lock();
        let mut list: Vec<GameSummary> = games
            .values()
            .filter(|e| e.game.status == status && e.game.created_ms >= since_ms)
            .map(|e| GameSummary {
                game: e.game.clone(),
                result: e.result.clone(),
            })
            .collect();
        list.sort_by(|a, b| {
            b.game
                .created_ms
                .cmp(&a.game.created_ms)
                .then_with(|| a.game.id.cmp(&b.game.id))
        });
        list.truncate(limit);
        Ok(list)
    }
}
