//! `dama serve`: the web application.

use crate::CliError;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

/// Options of `dama serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Address to listen on (0.0.0.0 to let other devices on the network in).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Port (0 picks a free one).
    #[arg(long, short, default_value_t = 8080)]
    port: u16,
    /// Directory for the games database [default: $DAMA_DATA_DIR, else
    /// $XDG_DATA_HOME/dama, else ~/.local/share/dama, else ./dama-data].
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Keep games in memory only (lost when the server stops).
    #[arg(long, conflicts_with = "data_dir")]
    memory: bool,
    /// Threads for the computer opponent's searches [default: number of cores].
    #[arg(long)]
    computer_threads: Option<usize>,
    /// An opening book for the computer at level 10, `VARIANT=PDN` (repeatable, one per
    /// variant): games whose first moves it plays while a game follows them (see `dama book`).
    #[arg(long, value_name = "VARIANT=PDN")]
    book: Vec<String>,
    #[command(flatten)]
    book_options: crate::book::BookOptions,
    /// The computer's endgame database [folder default: `endgame` in the data directory].
    #[command(flatten)]
    endgame: crate::endgame::EndgameOptions,
}

fn default_data_dir() -> PathBuf {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = env("DAMA_DATA_DIR") {
        return d;
    }
    if let Some(d) = env("XDG_DATA_HOME") {
        return d.join("dama");
    }
    if let Some(h) = env("HOME") {
        return h.join(".local/share/dama");
    }
    PathBuf::from("dama-data")
}

pub fn run(args: Args) -> Result<(), CliError> {
    let data_dir = if args.memory {
        None
    } else {
        let dir = args.data_dir.unwrap_or_else(default_data_dir);
        Some(std::path::absolute(&dir).unwrap_or(dir))
    };
    let config = dama_server::Config {
        addr: SocketAddr::new(args.host, args.port),
        data_dir: data_dir.clone(),
    };
    let threads = args
        .computer_threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let books = crate::book::load_books(&args.book, &args.book_options)?;
    let mut endgame = args.endgame.clone();
    if endgame.endgame_dir.is_none() {
        endgame.endgame_dir = data_dir.as_ref().map(|d| d.join("endgame"));
    }
    let endgame_pieces = endgame.apply();
    let computer = crate::computer::opponent(books, endgame_pieces);
    let has_computer = computer.is_some();
    dama_server::run_blocking(config, computer, threads, |addr| {
        let host = if addr.ip().is_unspecified() {
            "127.0.0.1".to_owned()
        } else {
            addr.ip().to_string()
        };
        println!("dama web app: open http://{host}:{}/", addr.port());
        match &data_dir {
            Some(dir) => println!(
                "data directory: {} (games in {})",
                dir.display(),
                dama_server::database_path(dir).display()
            ),
            None => println!("data directory: none (games are kept in memory only)"),
        }
        if !has_computer {
            println!("computer opponent: not available in this build");
        } else if let Some(dir) = &endgame.endgame_dir {
            println!(
                "endgame databases: up to {endgame_pieces} pieces, kept in {}",
                dir.display()
            );
        }
        println!("press Ctrl+C to stop");
        let _ = std::io::stdout().flush();
    })
    .map_err(CliError)
}
