//! The `dama` command.

mod computer;
mod moves;
mod perft;
mod position_arg;
mod serve;

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
    /// Start the web application (play in the browser).
    Serve(serve::Args),
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
            // clap's message is several lines; the first one names the problem.
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("bad arguments");
            eprintln!("dama: {}", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Serve(args) => serve::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError(message)) => {
            eprintln!("dama: {message}");
            ExitCode::FAILURE
        }
    }
}
