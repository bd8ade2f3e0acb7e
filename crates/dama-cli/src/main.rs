//! The `dama` command.

mod analyse;
mod annotate;
mod bench;
mod book;
mod computer;
mod dxp;
mod endgame;
mod fen;
mod hub;
mod match_stats;
mod matches;
mod moves;
mod pdn;
mod perft;
mod position_arg;
mod serve;
mod shots;
mod tune;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// dama: draughts for everyone — rules, engine, notation and a web application.
#[derive(Debug, Parser)]
#[command(name = "dama", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree (move generator test and benchmark).
    Perft(perft::Args),
    /// List the legal moves of a position.
    Moves(moves::Args),
    /// Search a position and print the progress and the best line.
    Analyse(analyse::Args),
    /// Search every position of PDN games and write them back with the engine's scores, the
    /// mistakes (?) and blunders (??) marked and the better moves named.
    Annotate(annotate::Args),
    /// Build an opening book from PDN games and show its moves in a position.
    Book(book::Args),
    /// Search fixed positions to fixed depths; prints total nodes (the search's signature) and speed.
    Bench(bench::Args),
    /// Build a variant's endgame database (up to 4 pieces) and look positions up in it.
    Endgame(endgame::Args),
    /// Speak the Hub protocol (version 2) as an engine on standard input and output.
    Hub(hub::Args),
    /// Play over DXP (TCP, port 27531) as follower (listening) or initiator (--connect).
    Dxp(dxp::Args),
    /// Play engine against engine (levels, Hub or DXP engines) and report score, Elo and LOS.
    Match(Box<matches::Args>),
    /// Check or convert PDN game files.
    Pdn(pdn::Args),
    /// Print the canonical FEN of a position and a diagram.
    Fen(fen::Args),
    /// Find the shots in games: positions where the side to move forces a gain of material.
    Shots(shots::Args),
    /// Start the web application (play in the browser).
    Serve(serve::Args),
    /// Fit the evaluation weights to self-play games (logistic regression).
    Tune(tune::Args),
}

/// An error for the user: printed as one line, exit status 1.
#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || matches!(
                    e.kind(),
                    ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                )
            {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // clap's message spans several lines (problem, details, usage, hint): keep the
            // problem and its details on one line.
            let text = e.to_string();
            let summary: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .filter(|l| !l.is_empty())
                .collect();
            let summary = summary.join(" ");
            eprintln!("dama: {}", summary.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    if matches!(
        cli.command,
        Command::Perft(_)
            | Command::Moves(_)
            | Command::Analyse(_)
            | Command::Annotate(_)
            | Command::Bench(_)
            | Command::Hub(_)
            | Command::Pdn(_)
            | Command::Fen(_)
            | Command::Shots(_)
            | Command::Endgame(_)
    ) {
        quit_on_closed_output();
    }
    let result = match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::Annotate(args) => annotate::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Endgame(args) => endgame::run(args),
        Command::Hub(args) => hub::run(args),
        Command::Dxp(args) => dxp::run(args),
        Command::Match(args) => matches::run(*args),
        Command::Pdn(args) => pdn::run(args),
        Command::Fen(args) => fen::run(args),
        Command::Shots(args) => shots::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Book(args) => book::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError(message)) => {
            eprintln!("dama: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Commands that only write to standard output end quietly when the reader goes away (as in
/// `dama analyse … | head`), as other command-line tools do, instead of failing on the next
/// line printed. Not for commands that talk to sockets or engine subprocesses, which handle a
/// closed pipe as an error.
fn quit_on_closed_output() {
    #[cfg(unix)]
    // SAFETY: restoring the default action of one signal, before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
