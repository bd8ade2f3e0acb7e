//! # dama-server
//!
//! The dama web application: an HTTP and WebSocket server (axum on tokio) where people play
//! draughts against the computer, with a friend by link, on one device, or from the lobby;
//! watch games live; replay finished ones; download and paste PDN.
//!
//! - [`router`] builds the whole application over an [`AppState`], so tests can drive it
//!   without a socket; [`serve`] binds it to an address.
//! - One task owns each live game ([`room`]); moves are checked by `dama-core`, stored
//!   ([`store`]) and only then broadcast.
//! - The browser UI lives in `web/app` and is embedded in the binary ([`assets`]).

pub mod app;
pub mod assets;
pub mod computer;
pub mod engine;
pub mod explain;
pub mod http;
pub mod ids;
pub mod notation_io;
pub mod protocol;
pub mod room;
pub mod state;
pub mod store;
pub mod view;
pub mod ws;

pub use app::AppState;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// The whole application.
pub fn router(app: AppState) -> Router {
    Router::new()
        .route("/api/info", get(http::info))
        .route("/api/games", post(http::create_game))
        .route("/api/games/{id}", get(http::get_game))
        .route("/api/games/{id}/join", post(http::join_game))
        .route("/api/games/{id}/pdn", get(http::get_pdn))
        .route("/api/lobby", get(http::lobby))
        .route("/api/import", post(http::import))
        .route("/ws/{id}", get(ws::upgrade))
        .fallback(assets::serve)
        .layer(DefaultBodyLimit::max(http::MAX_IMPORT_BYTES + 4096))
        .with_state(app)
}

/// Where and how to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on (port 0: any free port).
    pub addr: SocketAddr,
    /// Directory for the database; `None` keeps games in memory only.
    pub data_dir: Option<PathBuf>,
}

/// The database file inside a data directory.
pub fn database_path(data_dir: &std::path::Path) -> PathBuf {
    data_dir.join("dama.sqlite3")
}

/// Opens the store a configuration asks for.
///
/// # Errors
/// The directory cannot be created or the database cannot be opened.
pub fn open_store(config: &Config) -> Result<Arc<dyn store::Store>, String> {
    match &config.data_dir {
        None => Ok(Arc::new(store::MemoryStore::new())),
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let path = database_path(dir);
            let store = store::SqliteStore::open(&path)
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
            Ok(Arc::new(store))
        }
    }
}

/// A bound server, ready to run.
#[derive(Debug)]
pub struct Bound {
    listener: tokio::net::TcpListener,
    app: AppState,
}

impl Bound {
    /// The address it listens on.
    ///
    /// # Errors
    /// The socket's address cannot be read.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` completes.
    ///
    /// # Errors
    /// An I/O error from the listener.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        axum::serve(self.listener, router(self.app))
            .with_graceful_shutdown(shutdown)
            .await
    }
}

/// Binds the address.
///
/// # Errors
/// The address is in use or not allowed.
pub async fn bind(addr: SocketAddr, app: AppState) -> std::io::Result<Bound> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    Ok(Bound { listener, app })
}

/// Waits for Ctrl+C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}

/// Runs the server on a new runtime until Ctrl+C or SIGTERM. `ready` is called with the bound
/// address once the server accepts connections.
///
/// # Errors
/// A message for the user: the store cannot be opened or the address cannot be bound.
pub fn run_blocking(
    config: Config,
    computer: Option<Arc<dyn computer::Computer>>,
    computer_threads: usize,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    let store = open_store(&config)?;
    let pool = computer.map(|c| Arc::new(computer::ComputerPool::new(c, computer_threads)));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async move {
        let app = AppState::new(store, pool);
        let bound = bind(config.addr, app).await.map_err(|e| {
            if e.kind() == std::io::ErrorKind::AddrInUse {
                format!(
                    "{} is in use; choose another port with --port (0 picks a free one)",
                    config.addr
                )
            } else {
                format!("cannot listen on {}: {e}", config.addr)
            }
        })?;
        let addr = bound
            .local_addr()
            .map_err(|e| format!("cannot read the bound address: {e}"))?;
        ready(addr);
        bound
            .run(shutdown_signal())
            .await
            .map_err(|e| format!("server error: {e}"))
    })
}
