//! # dama-protocol
//!
//! Thin adapters between the [`dama_engine::Engine`] and the outside world:
//!
//! - [`hub`]: the Hub protocol, version 2 (text lines on standard input and output, used by
//!   Scan and the Hub GUI), as the engine ([`hub::serve`]) and as the driver of an external
//!   engine ([`hub::HubClient`]).
//! - [`dxp`]: the DamExchange Protocol (DXP) over TCP, as follower (listening, default port
//!   27531) and as initiator.
//!
//! Every input is untrusted: lines and messages have size limits, malformed ones get a typed
//! error (and, where the protocol allows, an error answer), never a panic.

pub mod dxp;
pub mod hub;
pub mod squares;

pub use squares::{find_move, MoveText};
