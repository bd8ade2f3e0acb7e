// HTTP calls and the game's WebSocket connection (protocol in crates/dama-server/src/protocol.rs).

/**
 * JSON request; throws an Error with `.code` on an error answer.
 * @param {string} method
 * @param {string} url
 * @param {any} [body]
 */
export async function api(method, url, body) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch { /* not JSON */ }
  if (!res.ok) {
    const err = new Error(data?.message || `HTTP ${res.status}`);
    /** @type {any} */ (err).code = data?.error || "http";
    throw err;
  }
  return data;
}

const TOKENS_KEY = "dama.tokens";

/** Seat tokens of this browser, by game id. @returns {Record<string, string>} */
function tokens() {
  try { return JSON.parse(localStorage.getItem(TOKENS_KEY) || "{}"); } catch { return {}; }
}

/** @param {string} game */
export function tokenFor(game) {
  return tokens()[game] || null;
}

/** @param {string} game @param {string} token */
export function saveToken(game, token) {
  const all = tokens();
  all[game] = token;
  // Keep the newest 200 games.
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - 200))) delete all[k];
  try { localStorage.setItem(TOKENS_KEY, JSON.stringify(all)); } catch { /* private mode */ }
}

/**
 * One game's connection: says hello with the seat token, applies events in version order,
 * asks for a snapshot on a gap, reconnects with back-off, and matches answers to actions.
 */
export class GameConnection {
  /**
   * @param {string} gameId
   * @param {string | null} token
   * @param {{snapshot: (game: any) => void, event: (msg: any) => void, status: (s: "open" | "lost") => void}} handlers
   */
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token;
    this.handlers = handlers;
    this.v = -1;
    this.nextId = 1;
    /** @type {Map<number, {resolve: (v: any) => void}>} */
    this.pending = new Map();
    this.closed = false;
    this.retry = 0;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.pingTimer = 0;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(this.gameId)}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", token: this.token }));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      for (const p of this.pending.values()) p.resolve({ type: "error", code: "connection_lost" });
      this.pending.clear();
      if (this.closed) return;
      this.handlers.status("lost");
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    };
  }

  /** @param {any} msg */
  receive(msg) {
    switch (msg.type) {
      case "snapshot":
        this.v = msg.game.live.v;
        this.handlers.status("open");
        this.handlers.snapshot(msg.game);
        break;
      case "event":
        if (msg.v <= this.v) return;
        if (msg.v !== this.v + 1) {
          // A missed event: get the whole game again.
          this.send({ type: "sync" });
          return;
        }
        this.v = msg.v;
        this.handlers.event(msg);
        break;
      case "ack":
      case "error": {
        const p = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
        if (p) {
          this.pending.delete(msg.id);
          p.resolve(msg);
        } else if (msg.type === "error" && msg.code === "bad_token") {
          // The saved seat is not valid here: watch instead.
          this.token = null;
          this.send({ type: "hello", token: null });
        }
        break;
      }
      default:
        break;
    }
  }

  /** @param {any} msg */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /**
   * Sends an action; resolves with the server's ack or error.
   * @param {any} msg
   * @returns {Promise<any>}
   */
  act(msg) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      if (!this.send({ ...msg, id })) {
        resolve({ type: "error", code: "connection_lost" });
        return;
      }
      this.pending.set(id, { resolve });
    });
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    this.ws?.close();
  }
}
