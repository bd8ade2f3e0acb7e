//! DXP, the DamExchange Protocol: two programs play a game over TCP (default port 27531).
//! The initiator connects and proposes a game (`R`, GAMEREQ); the follower accepts (`A`); the
//! two then exchange moves (`M`) until one ends the game (`E`), which the other confirms.
//! Messages are ASCII text ended by a NUL byte. Squares are numbers; colours are `W` (white)
//! and `Z` (black, "zwart"); a board is one character per square: `e`, `w`, `z`, `W`, `Z`.
//!
//! DXP was made for International draughts; dama uses it unchanged for the other variants
//! (the board string then has as many characters as the board has squares).

use crate::squares::{board_string, find_move, parse_board, MoveText};
use dama_core::{AnyMove, AnyPosition, Color, Game, Variant};
use dama_engine::{Engine, Limits};
use std::fmt;
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The standard DXP port.
pub const DEFAULT_PORT: u16 = 27531;
/// Longest message accepted.
pub const MAX_MESSAGE: usize = 1024;

/// A DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `C`: free text.
    Chat(String),
    /// `R`: the initiator proposes a game.
    GameRequest {
        /// Initiator's name.
        name: String,
        /// The colour the follower plays.
        follower_color: Color,
        /// Thinking time per player, in minutes.
        minutes: u32,
        /// Moves in that time (0: the whole game).
        moves: u32,
        /// A start position (side to move and board string), or `None` for the usual start.
        position: Option<(Color, String)>,
    },
    /// `A`: the follower answers a request; code 0 accepts.
    GameAccept {
        /// Follower's name.
        name: String,
        /// 0 accepted; 1 colour refused; 2 time refused; 3 position refused; 9 other.
        code: u8,
    },
    /// `M`: a move.
    Move {
        /// Time used for the move, in seconds.
        seconds: u32,
        /// The move.
        text: MoveText,
    },
    /// `E`: the end of the game.
    GameEnd {
        /// 0 unknown, 1 the sender loses, 2 draw, 3 the sender wins.
        reason: u8,
        /// 0 another game is welcome; 1 no more games.
        stop: u8,
    },
    /// `B`: take moves back to this move number with this side to move.
    BackRequest {
        /// Move number.
        move_number: u32,
        /// Side to move then.
        color: Color,
    },
    /// `K`: answer to a take-back request; 0 accepts.
    BackAccept {
        /// 0 accepted; 1 not supported; 2 refused.
        code: u8,
    },
}

/// A malformed message or a failed session.
#[derive(Debug)]
pub enum DxpError {
    /// The connection failed or closed.
    Io(io::Error),
    /// A message could not be read.
    Malformed(String),
    /// A peer's move or position is not legal.
    Illegal(String),
    /// The peer refused the game.
    Refused(u8),
}

impl fmt::Display for DxpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DxpError::Io(e) => write!(f, "connection: {e}"),
            DxpError::Malformed(m) => write!(f, "malformed message: {m}"),
            DxpError::Illegal(m) => write!(f, "illegal: {m}"),
            DxpError::Refused(c) => write!(f, "the peer refused the game (code {c})"),
        }
    }
}

impl std::error::Error for DxpError {}

impl From<io::Error> for DxpError {
    fn from(e: io::Error) -> Self {
        DxpError::Io(e)
    }
}

fn color_char(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

fn parse_color(c: u8) -> Result<Color, DxpError> {
    match c {
        b'W' | b'w' => Ok(Color::White),
        b'Z' | b'z' | b'B' | b'b' => Ok(Color::Black),
        _ => Err(DxpError::Malformed(format!("colour {:?}", c as char))),
    }
}

fn digits(bytes: &[u8], what: &str) -> Result<u32, DxpError> {
    let text = std::str::from_utf8(bytes).map_err(|_| DxpError::Malformed(what.into()))?;
    text.trim()
        .parse()
        .map_err(|_| DxpError::Malformed(format!("{what} {text:?}")))
}

fn field<'a>(msg: &'a [u8], start: usize, len: usize, what: &str) -> Result<&'a [u8], DxpError> {
    msg.get(start..start + len)
        .ok_or_else(|| DxpError::Malformed(format!("{what} missing")))
}

impl Message {
    /// Reads a message (without its NUL).
    ///
    /// # Errors
    /// [`DxpError::Malformed`] if it is not a DXP message.
    pub fn parse(text: &str) -> Result<Message, DxpError> {
        let msg = text.as_bytes();
        if msg.len() > MAX_MESSAGE || !text.is_ascii() {
            return Err(DxpError::Malformed("too long or not ASCII".into()));
        }
        let Some(&kind) = msg.first() else {
            return Err(DxpError::Malformed("empty".into()));
        };
        let name = |b: &[u8]| String::from_utf8_lossy(b).trim().to_owned();
        match kind {
            b'C' => Ok(Message::Chat(text[1..].to_owned())),
            b'R' => {
                let initiator = name(field(msg, 3, 32, "name")?);
                let follower_color = parse_color(field(msg, 35, 1, "colour")?[0])?;
                let minutes = digits(field(msg, 36, 3, "time")?, "time")?;
                let moves = digits(field(msg, 39, 3, "moves")?, "moves")?;
                let position = match field(msg, 42, 1, "position flag")?[0] {
                    b'A' => None,
                    b'B' => {
                        let side = parse_color(field(msg, 43, 1, "side")?[0])?;
                        let board = String::from_utf8_lossy(&msg[44..]).into_owned();
                        Some((side, board))
                    }
                    other => {
                        return Err(DxpError::Malformed(format!(
                            "position flag {:?}",
                            other as char
                        )))
                    }
                };
                Ok(Message::GameRequest {
                    name: initiator,
                    follower_color,
                    minutes,
                    moves,
                    position,
                })
            }
            b'A' => Ok(Message::GameAccept {
                name: name(field(msg, 1, 32, "name")?),
                code: digits(field(msg, 33, 1, "code")?, "code")? as u8,
            }),
            b'M' => {
                let seconds = digits(field(msg, 1, 4, "time")?, "time")?;
                let from = digits(field(msg, 5, 2, "from")?, "from")?;
                let to = digits(field(msg, 7, 2, "to")?, "to")?;
                let n = digits(field(msg, 9, 2, "count")?, "count")? as usize;
                let captured = (0..n)
                    .map(|i| digits(field(msg, 11 + 2 * i, 2, "captured")?, "captured"))
                    .collect::<Result<Vec<u32>, _>>()?;
                Ok(Message::Move {
                    seconds,
                    text: MoveText { from, to, captured },
                })
            }
            b'E' => Ok(Message::GameEnd {
                reason: digits(field(msg, 1, 1, "reason")?, "reason")? as u8,
                stop: digits(field(msg, 2, 1, "stop")?, "stop")? as u8,
            }),
            b'B' => Ok(Message::BackRequest {
                move_number: digits(field(msg, 1, 3, "move")?, "move")?,
                color: parse_color(field(msg, 4, 1, "colour")?[0])?,
            }),
            b'K' => Ok(Message::BackAccept {
                code: digits(field(msg, 1, 1, "code")?, "code")? as u8,
            }),
            other => Err(DxpError::Malformed(format!("type {:?}", other as char))),
        }
    }

    /// The message text (without its NUL).
    pub fn encode(&self) -> String {
        let name32 = |n: &str| format!("{:<32.32}", n.replace(|c: char| !c.is_ascii(), "?"));
        match self {
            Message::Chat(t) => format!("C{}", t.replace('\0', " ")),
            Message::GameRequest {
                name,
                follower_color,
                minutes,
                moves,
                position,
            } => {
                let mut s = format!(
                    "R01{}{}{:03}{:03}",
                    name32(name),
                    color_char(*follower_color),
                    minutes % 1000,
                    moves % 1000
                );
                match position {
                    None => s.push('A'),
                    Some((side, board)) => {
                        s.push('B');
                        s.push(color_char(*side));
                        s.push_str(board);
                    }
                }
                s
            }
            Message::GameAccept { name, code } => format!("A{}{}", name32(name), code % 10),
            Message::Move { seconds, text } => {
                let mut s = format!(
                    "M{:04}{:02}{:02}{:02}",
                    seconds % 10_000,
                    text.from % 100,
                    text.to % 100,
                    text.captured.len() % 100
                );
                for c in &text.captured {
                    s.push_str(&format!("{:02}", c % 100));
                }
                s
            }
            Message::GameEnd { reason, stop } => format!("E{}{}", reason % 10, stop % 10),
            Message::BackRequest { move_number, color } => {
                format!("B{:03}{}", move_number % 1000, color_char(*color))
            }
            Message::BackAccept { code } => format!("K{}", code % 10),
        }
    }
}

/// A DXP connection: reads and writes NUL-terminated messages.
#[derive(Debug)]
pub struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
    /// Messages sent (`>`) and received (`<`), for logs.
    pub log: Vec<String>,
}

impl Connection {
    /// Wraps a connected stream.
    pub fn new(stream: TcpStream) -> Connection {
        let _ = stream.set_nodelay(true);
        Connection {
            stream,
            buffer: Vec::new(),
            log: Vec::new(),
        }
    }

    /// Sends a message.
    ///
    /// # Errors
    /// [`DxpError::Io`].
    pub fn send(&mut self, m: &Message) -> Result<(), DxpError> {
        let text = m.encode();
        self.log.push(format!("> {text}"));
        self.stream.write_all(text.as_bytes())?;
        self.stream.write_all(&[0])?;
        self.stream.flush()?;
        Ok(())
    }

    /// Receives the next message, waiting at most `timeout` (`None`: for ever).
    ///
    /// # Errors
    /// [`DxpError::Io`] (closed connection, timeout) or [`DxpError::Malformed`].
    pub fn receive(&mut self, timeout: Option<Duration>) -> Result<Message, DxpError> {
        self.stream.set_read_timeout(timeout)?;
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == 0) {
                let raw: Vec<u8> = self.buffer.drain(..=end).collect();
                let text = String::from_utf8_lossy(&raw[..end]).trim().to_owned();
                self.log.push(format!("< {text}"));
                if text.is_empty() {
                    continue;
                }
                return Message::parse(&text);
            }
            if self.buffer.len() > MAX_MESSAGE {
                return Err(DxpError::Malformed("message without an end".into()));
            }
            let mut chunk = [0u8; 512];
            let n = self.stream.read(&mut chunk)?;
            if n == 0 {
                return Err(DxpError::Io(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the peer closed the connection",
                )));
            }
            self.buffer.extend_from_slice(&chunk[..n]);
        }
    }
}

/// The result of one DXP game, from our side.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Our colour.
    pub color: Color,
    /// The start position.
    pub start: AnyPosition,
    /// The moves played.
    pub moves: Vec<AnyMove>,
    /// The winner, `None` for a draw or an unknown result.
    pub winner: Option<Color>,
    /// How it ended, in words.
    pub reason: String,
}

/// How an engine plays over DXP.
#[derive(Debug)]
pub struct Player<'a> {
    /// The engine.
    pub engine: &'a mut Engine,
    /// The variant (DXP itself knows only International draughts).
    pub variant: Variant,
    /// Name sent to the peer.
    pub name: String,
    /// Limits of each search when the game has no clock (time 0).
    pub fixed: Limits,
    /// Longest wait for the peer's move.
    pub peer_timeout: Option<Duration>,
}

impl Player<'_> {
    /// Plays one game after the set-up: moves until the game ends, then exchanges GAMEEND.
    fn play(
        &mut self,
        conn: &mut Connection,
        start: AnyPosition,
        color: Color,
        minutes: u32,
        moves_per_control: u32,
    ) -> Result<GameRecord, DxpError> {
        let mut game = Game::from_position(start);
        let mut remaining = Duration::from_secs(minutes as u64 * 60);
        self.engine.new_game();
        loop {
            if let Some(outcome) = game.outcome() {
                let reason = match outcome.winner {
                    None => 2,
                    Some(w) if w == color => 3,
                    Some(_) => 1,
                };
                conn.send(&Message::GameEnd { reason, stop: 0 })?;
                // The peer confirms with its own GAMEEND (ignore anything else meanwhile).
                for _ in 0..16 {
                    match conn.receive(Some(Duration::from_secs(10))) {
                        Ok(Message::GameEnd { .. }) | Err(_) => break,
                        Ok(_) => {}
                    }
                }
                return Ok(record(&game, color, outcome.winner, outcome.to_string()));
            }
            let pos = *game.position();
            if pos.side_to_move() == color {
                let limits = if minutes == 0 {
                    self.fixed
                } else {
                    let played = game.moves().len() as u32 / 2;
                    let to_go = (moves_per_control > 0).then(|| {
                        moves_per_control
                            .saturating_sub(played % moves_per_control)
                            .max(1)
                    });
                    Limits::clock(remaining, Duration::ZERO, to_go)
                };
                self.engine.set_game(&game);
                let started = Instant::now();
                let result = self.engine.search(limits, |_| {});
                let spent = started.elapsed();
                remaining = remaining.saturating_sub(spent);
                let Some(m) = result.best_move else {
                    return Err(DxpError::Illegal(
                        "no move in a game that is not over".into(),
                    ));
                };
                conn.send(&Message::Move {
                    seconds: spent.as_secs() as u32,
                    text: MoveText::of(self.variant, &m),
                })?;
                game.play(&m)
                    .map_err(|e| DxpError::Illegal(e.to_string()))?;
                continue;
            }
            match conn.receive(self.peer_timeout)? {
                Message::Move { text, .. } => {
                    let m = find_move(&pos, &text).map_err(|e| DxpError::Illegal(e.to_string()))?;
                    game.play(&m)
                        .map_err(|e| DxpError::Illegal(e.to_string()))?;
                }
                Message::GameEnd { reason, .. } => {
                    conn.send(&Message::GameEnd {
                        reason: match reason {
                            1 => 3,
                            3 => 1,
                            r => r,
                        },
                        stop: 0,
                    })?;
                    let winner = match reason {
                        1 => Some(color),
                        3 => Some(!color),
                        _ => None,
                    };
                    let why = format!("the peer ended the game (reason {reason})");
                    return Ok(record(&game, color, winner, why));
                }
                Message::BackRequest {
                    move_number,
                    color: to_move,
                } => {
                    let first = start.side_to_move();
                    let target = (move_number.saturating_sub(1) as usize) * 2
                        + usize::from(to_move != first);
                    if target <= game.moves().len() {
                        while game.moves().len() > target {
                            if game.undo().is_err() {
                                break;
                            }
                        }
                        conn.send(&Message::BackAccept { code: 0 })?;
                    } else {
                        conn.send(&Message::BackAccept { code: 2 })?;
                    }
                }
                Message::Chat(_) | Message::BackAccept { .. } => {}
                other => {
                    return Err(DxpError::Malformed(format!(
                        "unexpected during a game: {}",
                        other.encode()
                    )))
                }
            }
        }
    }
}

fn record(game: &Game, color: Color, winner: Option<Color>, reason: String) -> GameRecord {
    GameRecord {
        color,
        start: *game.start_position(),
        moves: game.moves().to_vec(),
        winner,
        reason,
    }
}

/// Serves as the follower on an accepted connection: answers game requests and plays the
/// games until the peer closes the connection or says it wants no more games.
///
/// # Errors
/// A [`DxpError`] if the connection fails or the peer breaks the protocol.
pub fn follow(
    conn: &mut Connection,
    player: &mut Player<'_>,
    mut on_game: impl FnMut(&GameRecord),
) -> Result<(), DxpError> {
    loop {
        let msg = match conn.receive(None) {
            Ok(m) => m,
            Err(DxpError::Io(e)) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e),
        };
        match msg {
            Message::GameRequest {
                follower_color,
                minutes,
                moves,
                position,
                ..
            } => {
                let start = match position {
                    None => Ok(AnyPosition::start(player.variant)),
                    Some((side, board)) => parse_board(player.variant, side, &board, 'z', 'Z'),
                };
                let Ok(start) = start else {
                    conn.send(&Message::GameAccept {
                        name: player.name.clone(),
                        code: 3,
                    })?;
                    continue;
                };
                conn.send(&Message::GameAccept {
                    name: player.name.clone(),
                    code: 0,
                })?;
                let record = player.play(conn, start, follower_color, minutes, moves)?;
                on_game(&record);
            }
            Message::GameEnd { stop, .. } => {
                conn.send(&Message::GameEnd { reason: 0, stop })?;
                if stop == 1 {
                    return Ok(());
                }
            }
            Message::BackRequest { .. } => conn.send(&Message::BackAccept { code: 1 })?,
            _ => {}
        }
    }
}

/// Plays one game as the initiator on a connected stream: proposes it (our colour, time in
/// minutes, moves per time control, start position) and plays it.
///
/// # Errors
/// [`DxpError::Refused`] if the follower declines, or any connection or protocol error.
pub fn initiate(
    conn: &mut Connection,
    player: &mut Player<'_>,
    color: Color,
    minutes: u32,
    moves: u32,
    start: Option<AnyPosition>,
) -> Result<GameRecord, DxpError> {
    let position = start.map(|p| (p.side_to_move(), board_string(&p, 'z', 'Z')));
    conn.send(&Message::GameRequest {
        name: player.name.clone(),
        follower_color: !color,
        minutes,
        moves,
        position,
    })?;
    loop {
        match conn.receive(Some(Duration::from_secs(30)))? {
            Message::GameAccept { code: 0, .. } => break,
            Message::GameAccept { code, .. } => return Err(DxpError::Refused(code)),
            Message::Chat(_) => {}
            other => {
                return Err(DxpError::Malformed(format!(
                    "expected a game answer, got {}",
                    other.encode()
                )))
            }
        }
    }
    let start = start.unwrap_or_else(|| AnyPosition::start(player.variant));
    player.play(conn, start, color, minutes, moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_engine::EngineOptions;
    use std::net::TcpListener;

    #[test]
    fn messages_round_trip() {
        let board = "z".repeat(20) + &"e".repeat(10) + &"w".repeat(20);
        let all = [
            Message::Chat("hello".into()),
            Message::GameRequest {
                name: "Tornado".into(),
                follower_color: Color::White,
                minutes: 60,
                moves: 65,
                position: None,
            },
            Message::GameRequest {
                name: "x".into(),
                follower_color: Color::Black,
                minutes: 5,
                moves: 0,
                position: Some((Color::Black, board)),
            },
            Message::GameAccept {
                name: "dama".into(),
                code: 0,
            },
            Message::Move {
                seconds: 12,
                text: MoveText {
                    from: 5,
                    to: 25,
                    captured: vec![4, 22],
                },
            },
            Message::GameEnd { reason: 2, stop: 1 },
            Message::BackRequest {
                move_number: 5,
                color: Color::Black,
            },
            Message::BackAccept { code: 0 },
        ];
        for m in all {
            assert_eq!(Message::parse(&m.encode()).unwrap(), m);
        }
        // The example from the protocol description.
        let m = Message::parse("M001205250422122320").unwrap();
        assert_eq!(
            m,
            Message::Move {
                seconds: 12,
                text: MoveText {
                    from: 5,
                    to: 25,
                    captured: vec![22, 12, 23, 20][..4].to_vec()
                }
            }
        );
        assert_eq!(
            Message::parse("R01Tornado voor Windows 4.0        W060065A").unwrap(),
            Message::GameRequest {
                name: "Tornado voor Windows 4.0".into(),
                follower_color: Color::White,
                minutes: 60,
                moves: 65,
                position: None,
            }
        );
    }

    #[test]
    fn malformed_messages_are_errors() {
        for bad in [
            "",
            "X",
            "R01",
            "M00",
            "M0012052504",
            "Aname",
            "E",
            "B5",
            "Mabcdefghij",
            "Ré",
        ] {
            assert!(Message::parse(bad).is_err(), "{bad:?}");
        }
        assert!(Message::parse(&"C".repeat(MAX_MESSAGE + 1)).is_err());
    }

    #[test]
    fn two_engines_play_a_game_over_tcp() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut conn = Connection::new(stream);
            let mut engine = Engine::new(EngineOptions {
                seed: Some(2),
                ..EngineOptions::default()
            });
            let mut player = Player {
                engine: &mut engine,
                variant: Variant::International,
                name: "follower".into(),
                fixed: Limits::nodes(2_000),
                peer_timeout: Some(Duration::from_secs(30)),
            };
            let mut games = Vec::new();
            follow(&mut conn, &mut player, |g| games.push(g.clone())).unwrap();
            games
        });
        let mut conn = Connection::new(TcpStream::connect(addr).unwrap());
        let mut engine = Engine::new(EngineOptions {
            seed: Some(1),
            ..EngineOptions::default()
        });
        let mut player = Player {
            engine: &mut engine,
            variant: Variant::International,
            name: "initiator".into(),
            fixed: Limits::nodes(2_000),
            peer_timeout: Some(Duration::from_secs(30)),
        };
        let ours = initiate(&mut conn, &mut player, Color::White, 0, 0, None).unwrap();
        conn.send(&Message::GameEnd { reason: 0, stop: 1 }).unwrap();
        let _ = conn.receive(Some(Duration::from_secs(5)));
        drop(conn);
        let theirs = server.join().unwrap();
        assert_eq!(theirs.len(), 1);
        assert_eq!(theirs[0].moves, ours.moves);
        assert!(ours.moves.len() > 10);
        // Both sides agree on the result.
        assert_eq!(
            theirs[0].winner, ours.winner,
            "{} / {}",
            ours.reason, theirs[0].reason
        );
    }
}
