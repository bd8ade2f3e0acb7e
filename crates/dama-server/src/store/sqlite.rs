//! The SQLite store: one database file in the data directory.
//!
//! The database runs in WAL mode with `synchronous = NORMAL`: a committed event is in the
//! write-ahead log before the call returns, so killing the server (even with SIGKILL) loses
//! nothing that was acknowledged; only a power cut can lose the last few commits.

use super::{GameSummary, Store, StoreError, StoredEvent, StoredGame};
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::Mutex;

/// The schema migrations, in order; `PRAGMA user_version` records how many have run.
const MIGRATIONS: &[&str] = &[include_str!("../../migrations/0001_init.sql")];

/// Games in an SQLite database.
#[derive(Debug)]
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

fn db(e: rusqlite::Error) -> StoreError {
    StoreError::Database(e.to_string())
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// # Errors
    /// A database error (unreadable file, newer schema than this program knows, …).
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let conn = Connection::open(path).map_err(db)?;
        Self::setup(conn)
    }

    /// A private in-memory SQLite database (for tests).
    ///
    /// # Errors
    /// A database error.
    pub fn open_in_memory() -> Result<Self, StoreError> {
        Self::setup(Connection::open_in_memory().map_err(db)?)
    }

    fn setup(conn: Connection) -> Result<Self, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(db)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(db)?;
        conn.pragma_update(None, "foreign_keys", "ON").map_err(db)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(db)?;
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(db)?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError::Database(format!(
                "the database has schema version {version}, newer than this program's {known}"
            )));
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = conn.unchecked_transaction().map_err(db)?;
            tx.execute_batch(sql).map_err(db)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)
                .map_err(db)?;
            tx.commit().map_err(db)?;
        }
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction half-done (rusqlite rolls
        // back on drop), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn insert_event(conn: &Connection, id: &str, event: &StoredEvent) -> Result<(), StoreError> {
    let res = conn.execute(
        "INSERT INTO events (game_id, seq, at_ms, body) VALUES (?1, ?2, ?3, ?4)",
        params![id, event.seq as i64, event.at_ms, event.body],
    );
    match res {
        Ok(_) => Ok(()),
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            Err(StoreError::Conflict {
                game: id.to_owned(),
                seq: event.seq,
            })
        }
        Err(e) => Err(db(e)),
    }
}

fn game_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredGame> {
    Ok(StoredGame {
        id: r.get(0)?,
        created_ms: r.get(1)?,
        variant: r.get(2)?,
        start_fen: r.get(3)?,
        settings: r.get(4)?,
        status: r.get(5)?,
    })
}

impl Store for SqliteStore {
    fn create_game(&self, game: &StoredGame, events: &[StoredEvent]) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(db)?;
        let res = tx.execute(
            "INSERT INTO games (id, created_ms, variant, start_fen, settings, status, updated_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?2)",
            params![
                game.id,
                game.created_ms,
                game.variant,
                game.start_fen,
                game.settings,
                game.status
            ],
        );
        match res {
            Ok(_) => {}
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                return Err(StoreError::Conflict {
                    game: game.id.clone(),
                    seq: 0,
                })
            }
            Err(e) => return Err(db(e)),
        }
        for event in events {
            insert_event(&tx, &game.id, event)?;
        }
        tx.commit().map_err(db)
    }

    fn load_game(&self, id: &str) -> Result<Option<(StoredGame, Vec<StoredEvent>)>, StoreError> {
        let conn = self.conn();
        let game = conn
            .query_row(
                "SELECT id, created_ms, variant, start_fen, settings, status FROM games
                 WHERE id = ?1",
                [id],
                game_from_row,
            )
            .optional()
            .map_err(db)?;
        let Some(game) = game else {
            return Ok(None);
        };
        let mut stmt = conn
            .prepare_cached("SELECT seq, at_ms, body FROM events WHERE game_id = ?1 ORDER BY seq")
            .map_err(db)?;
        let events = stmt
            .query_map([id], |r| {
                Ok(StoredEvent {
                    seq: r.get::<_, i64>(0)? as u64,
                    at_ms: r.get(1)?,
                    body: r.get(2)?,
                })
            })
            .map_err(db)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db)?;
        Ok(Some((game, events)))
    }

    fn append_event(
        &self,
        id: &str,
        event: &StoredEvent,
        status: Option<(&str, Option<&str>)>,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(db)?;
        let last: Option<i64> = tx
            .query_row(
                "SELECT MAX(seq) FROM events WHERE game_id = ?1",
                [id],
                |r| r.get(0),
            )
            .map_err(db)?;
        let expected = last.unwrap_or(0) as u64 + 1;
        if event.seq != expected {
            return Err(StoreError::Conflict {
                game: id.to_owned(),
                seq: event.seq,
            });
        }
        let changed = match status {
            Some((status, result)) => tx.execute(
                "UPDATE games SET status = ?2, result = COALESCE(?3, result), updated_ms = ?4
                 WHERE id = ?1",
                params![id, status, result, event.at_ms],
            ),
            None => tx.execute(
                "UPDATE games SET updated_ms = ?2 WHERE id = ?1",
                params![id, event.at_ms],
            ),
        }
        .map_err(db)?;
        if changed == 0 {
            return Err(StoreError::NotFound(id.to_owned()));
        }
        insert_event(&tx, id, event)?;
        tx.commit().map_err(db)
    }

    fn list_games(
        &self,
        status: &str,
        since_ms: i64,
        limit: usize,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(
                "SELECT id, created_ms, variant, start_fen, settings, status, result FROM games
                 WHERE status = ?1 AND created_ms >= ?2 ORDER BY created_ms DESC LIMIT ?3",
            )
            .map_err(db)?;
        let rows = stmt
            .query_map(params![status, since_ms, limit as i64], |r| {
                Ok(GameSummary {
                    game: game_from_row(r)?,
                    result: r.get(6)?,
                })
            })
            .map_err(db)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(db)?;
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, status: &str, created_ms: i64) -> StoredGame {
        StoredGame {
            id: id.into(),
            created_ms,
            variant: "russian".into(),
            start_fen: "W:W:B".into(),
            settings: "{}".into(),
            status: status.into(),
        }
    }

    fn event(seq: u64) -> StoredEvent {
        StoredEvent {
            seq,
            at_ms: 1000 + seq as i64,
            body: format!("{{\"n\":{seq}}}"),
        }
    }

    #[test]
    fn events_append_in_order_and_reload() {
        let store = SqliteStore::open_in_memory().unwrap();
        store
            .create_game(&game("g1", "waiting", 5), &[event(1)])
            .unwrap();
        store.append_event("g1", &event(2), None).unwrap();
        // A gap or a repeat is refused and changes nothing.
        assert!(matches!(
            store.append_event("g1", &event(2), None),
            Err(StoreError::Conflict { seq: 2, .. })
        ));
        assert!(matches!(
            store.append_event("g1", &event(4), None),
            Err(StoreError::Conflict { seq: 4, .. })
        ));
        store
            .append_event("g1", &event(3), Some(("finished", Some("1-0"))))
            .unwrap();
        let (g, events) = store.load_game("g1").unwrap().unwrap();
        assert_eq!(g.status, "finished");
        assert_eq!(events, vec![event(1), event(2), event(3)]);
        assert!(store.load_game("nope").unwrap().is_none());
        assert!(matches!(
            store.append_event("nope", &event(1), None),
            Err(StoreError::NotFound(_))
        ));
        let finished = store.list_games("finished", 0, 10).unwrap();
        assert_eq!(finished.len(), 1);
        assert_eq!(finished[0].result.as_deref(), Some("1-0"));
    }

    #[test]
    fn duplicate_game_id_is_a_conflict() {
        let store = SqliteStore::open_in_memory().unwrap();
        store.create_game(&game("g1", "waiting", 5), &[]).unwrap();
        assert!(matches!(
            store.create_game(&game("g1", "waiting", 6), &[]),
            Err(StoreError::Conflict { .. })
        ));
    }

    #[test]
    fn list_is_newest_first_and_bounded() {
        let store = SqliteStore::open_in_memory().unwrap();
        for i in 0..5 {
            store
                .create_game(&game(&format!("g{i}"), "waiting", i), &[])
                .unwrap();
        }
        let list = store.list_games("waiting", 2, 2).unwrap();
        let ids: Vec<_> = list.iter().map(|s| s.game.id.as_str()).collect();
        assert_eq!(ids, ["g4", "g3"]);
    }

    #[test]
    fn reopening_a_file_keeps_the_games() {
        let dir = std::env::temp_dir().join(format!(
            "dama-store-test-{}-{}",
            std::process::id(),
            crate::ids::random_token()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.sqlite3");
        {
            let store = SqliteStore::open(&path).unwrap();
            store
                .create_game(&game("g1", "active", 1), &[event(1)])
                .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        let (_, events) = store.load_game("g1").unwrap().unwrap();
        assert_eq!(events.len(), 1);
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
