// The game page: board, players and clocks, moves, actions; live play, watching and replay.
import { t } from "../i18n.js";
import { h, banner, formatClock, navigate } from "../dom.js";
import { GameConnection, tokenFor, saveToken } from "../net.js";
import { BoardView } from "../board.js";
import { parseFen, countPieces } from "../fen.js";
import { MoveInput, messageForIllegal } from "../moveinput.js";
import { moveList, navButtons, jumped } from "../movelist.js";
import { play as playSound } from "../sound.js";

const AUTO_TURN_KEY = "dama.autoturn";
const COORDS_KEY = "dama.coords";

/**
 * @param {HTMLElement} main
 * @param {any} _info
 * @param {string} id
 */
export function gamePage(main, _info, id) {
  const token = tokenFor(id);
  /** @type {any} */ let game = null;
  /** @type {any[]} */ let plies = [];
  /** @type {any} */ let live = null;
  /** @type {string | null} */ let role = null;
  /** The ply shown, or null for the live position. @type {number | null} */
  let view = null;
  let userFlip = false;
  let autoTurn = localStorage.getItem(AUTO_TURN_KEY) !== "off";
  let showCoords = localStorage.getItem(COORDS_KEY) !== "off";
  /** @type {{key: string, params?: any, info?: boolean} | null} */
  let message = null;
  let clockAt = performance.now();
  const input = new MoveInput();
  /** @type {BoardView | null} */ let board = null;
  /** @type {Map<string, {x: number, y: number}>} */ let coords = new Map();
  /** @type {Map<string, string>} */ let byXY = new Map();
  let startCount = { white: 0, black: 0 };
  let sending = false;

  const layout = h("div", { class: "game" });
  const boardBox = h("div", { class: "board-wrap" });
  const side = h("div", { class: "side" });
  layout.append(boardBox, side);
  main.append(h("p", { class: "muted", id: "loading" }, t("game.loading")));

  const conn = new GameConnection(id, token, {
    snapshot(g) {
      const first = !game || game.variant.key !== g.variant.key || game.id !== g.id;
      game = g;
      plies = g.plies;
      live = g.live;
      role = g.role;
      clockAt = performance.now();
      input.reset();
      if (first) setup();
      if (view !== null && view >= plies.length) view = null;
      render();
    },
    event(msg) {
      const before = live;
      live = msg.live;
      clockAt = performance.now();
      const e = msg.event;
      if (e.kind === "moved") {
        plies.push(e.ply);
        input.reset();
        if (message && !message.info) message = null;
        playSound(e.ply.captured.length ? "capture" : "move");
      } else if (e.kind === "took_back") {
        plies.splice(plies.length - e.plies, e.plies);
        input.reset();
        if (view !== null && view >= plies.length) view = null;
      } else if (e.kind === "draw_declined" && role && role !== "both" && e.by !== myColour()) {
        say({ key: "offer.draw_declined" }, true);
      } else if (e.kind === "rematch" && role && token) {
        // The same seat token holds the other colour in the rematch.
        saveToken(e.game, token);
        setTimeout(() => navigate(`/g/${e.game}`), 600);
      }
      if (before?.status !== "finished" && live.status === "finished") playSound("end");
      render();
    },
    status(s) {
      banner(s === "lost" ? t("game.reconnecting") : null, s === "lost");
    },
  });

  function setup() {
    main.textContent = "";
    main.append(layout);
    boardBox.textContent = "";
    coords = new Map(game.variant.squares.map((/** @type {any} */ s) => [s.name, { x: s.x, y: s.y }]));
    byXY = new Map(game.variant.squares.map((/** @type {any} */ s) => [`${s.x},${s.y}`, s.name]));
    startCount = countPieces(parseFen(game.start_fen));
    board = new BoardView(boardBox, game.variant, {
      onSquare: (name) => clickSquare(name),
      onDragStart: (name) => {
        const ctx = context();
        if (ctx.blocked || input.selected === name) return !ctx.blocked;
        if (ctx.pieces.get(name)?.color !== ctx.turn) return false;
        const r = input.click(ctx, name);
        if (r.kind !== "select") {
          if (r.kind === "explain") say(r.message);
          render();
          return false;
        }
        render();
        return true;
      },
    });
    board.setCoords(showCoords);
  }

  /** Which colour this browser plays now (for a shared device: the side to move). */
  function myColour() {
    if (role === "white" || role === "black") return role;
    if (role === "both") return live.turn;
    return null;
  }

  /** The position shown. */
  function shownFen() {
    if (view === null) return live.fen;
    return view < 0 ? game.start_fen : plies[view].fen;
  }

  function blockedReason() {
    if (view !== null) return "msg.viewing_history";
    if (live.status === "finished") return "msg.game_over";
    if (live.status === "waiting") return "msg.waiting_opponent";
    if (!role) return "msg.spectator";
    const mine = role === "both" || role === live.turn;
    const computer = live.seats[live.turn === "white" ? 0 : 1]?.computer;
    if (!mine || computer) return computer ? "msg.computer_thinking" : "msg.not_your_turn";
    if (sending) return "msg.sending";
    return null;
  }

  function context() {
    const pos = parseFen(shownFen());
    return {
      legal: view === null ? live.legal : [],
      pieces: pos.pieces,
      turn: pos.turn,
      coords,
      blocked: blockedReason(),
    };
  }

  /** @param {{key: string, params?: any}} m @param {boolean} [info] */
  function say(m, info = false) {
    message = { ...m, info };
    if (!info) playSound("illegal");
  }

  /** @param {string} name */
  async function clickSquare(name) {
    const ctx = context();
    const r = input.click(ctx, name);
    if (r.kind === "explain") say(r.message);
    else if (r.kind !== "move") message = null;
    if (r.kind === "move") await sendMove(r.path);
    render();
  }

  /** @param {string[]} path */
  async function sendMove(path) {
    sending = true;
    message = null;
    render();
    const answer = await conn.act({ type: "move", v: conn.v, path });
    sending = false;
    if (answer.type === "error") {
      if (answer.code === "illegal") say(messageForIllegal(answer.illegal));
      else if (answer.code === "stale") {
        say({ key: "msg.stale" }, true);
        conn.send({ type: "sync" });
      } else say({ key: `error.${answer.code}` });
    }
    render();
  }

  /** @param {string} type */
  async function action(type) {
    const answer = await conn.act({ type });
    if (answer.type === "error") say({ key: `error.${answer.code}` });
    render();
  }

  function flipped() {
    let base = role === "black";
    if (role === "both" && autoTurn) base = live.turn === "black";
    return base !== userFlip;
  }

  function playerName(/** @type {string} */ colour) {
    const seat = live.seats[colour === "white" ? 0 : 1];
    if (!seat) return t("player.waiting");
    if (seat.computer) return t("player.computer", { level: seat.level ?? 1 });
    return seat.name || t(`color.${colour}`);
  }

  function clockFor(/** @type {string} */ colour) {
    const c = live.clock;
    if (!c) return null;
    let ms = colour === "white" ? c.white_ms : c.black_ms;
    const running = c.running === colour && live.status === "active";
    if (running) ms -= performance.now() - clockAt;
    const el = h("span", { class: `clock${running ? " running" : ""}${ms < 20000 ? " low" : ""}`, dataset: { clock: colour } }, formatClock(ms));
    return el;
  }

  function playerBox(/** @type {string} */ colour, /** @type {any} */ pos) {
    const now = countPieces(pos);
    const lost = colour === "white" ? startCount.black - now.black : startCount.white - now.white;
    const you = role === colour ? ` (${t("player.you")})` : "";
    return h("div", {
      class: `player${live.status === "active" && live.turn === colour ? " to-move" : ""}`,
      id: `player-${colour}`,
    },
    h("span", { class: `swatch ${colour}`, "aria-hidden": "true" }),
    h("span", { class: "name" }, playerName(colour) + you),
    h("span", { class: "taken-count", title: t("game.captured") }, lost > 0 ? `✕${lost}` : ""),
    clockFor(colour));
  }

  function statusText() {
    if (live.status === "waiting") return t("status.waiting");
    if (live.status === "finished") {
      const o = live.outcome;
      const head = o.winner ? t("end.wins", { color: t(`color.${o.winner}`) }) : t("end.draw");
      // The side the reason is about: the loser, or in giveaway games the winner who ran out
      // of pieces or moves.
      const other = o.winner === "white" ? "black" : "white";
      const about = game.variant.giveaway && (o.reason === "no_pieces" || o.reason === "no_moves") ? o.winner : other;
      return `${head} — ${t(`reason.${o.reason}`, { color: t(`color.${about}`) })}`;
    }
    if (live.thinking) return t("status.computer_thinking");
    if (role === "both" || !role) return t("status.to_move", { color: t(`color.${live.turn}`) });
    return role === live.turn ? t("status.your_move") : t("status.opponent_move");
  }

  function offers() {
    const mine = myColour();
    const box = [];
    if (live.draw_offer && role && role !== "both") {
      if (live.draw_offer !== mine) {
        box.push(h("div", { class: "offer", id: "draw-offer" }, t("offer.draw_received"),
          h("button", { class: "primary", id: "accept-draw", onclick: () => action("accept_draw") }, t("action.accept")),
          h("button", { id: "decline-draw", onclick: () => action("decline_draw") }, t("action.decline"))));
      } else {
        box.push(h("div", { class: "offer" }, t("offer.draw_sent")));
      }
    }
    if (live.rematch_offer && role && !live.rematch) {
      if (live.rematch_offer !== role) {
        box.push(h("div", { class: "offer", id: "rematch-offer" }, t("offer.rematch_received"),
          h("button", { class: "primary", id: "accept-rematch", onclick: () => action("rematch") }, t("action.accept"))));
      } else {
        box.push(h("div", { class: "offer" }, t("offer.rematch_sent")));
      }
    }
    if (live.rematch) {
      box.push(h("div", { class: "offer" }, h("a", { href: `/g/${live.rematch}`, "data-link": true, id: "rematch-link" }, t("game.go_rematch"))));
    }
    return box;
  }

  function actions() {
    const active = live.status === "active";
    const over = live.status === "finished";
    const mode = game.mode;
    const list = [];
    if (role && !over) {
      list.push(h("button", {
        class: "danger", id: "resign", disabled: live.status === "waiting",
        onclick: () => { if (confirm(t("action.resign_confirm"))) action("resign"); },
      }, t("action.resign")));
    }
    if (role && active && !(live.draw_offer && live.draw_offer === myColour())) {
      list.push(h("button", { id: "offer-draw", onclick: () => action("offer_draw") }, t(mode === "local" ? "action.agree_draw" : "action.offer_draw")));
    }
    if (role && (mode === "computer" || mode === "local") && plies.length > 0 && !live.rematch) {
      list.push(h("button", { id: "takeback", onclick: () => { view = null; action("takeback"); } }, t("action.takeback")));
    }
    if (role && over && !live.rematch && live.rematch_offer !== role) {
      list.push(h("button", { class: "primary", id: "rematch", onclick: () => action("rematch") }, t("action.rematch")));
    }
    list.push(h("button", { id: "flip", onclick: () => { userFlip = !userFlip; render(); } }, t("action.flip")));
    list.push(h("button", {
      id: "coords", "aria-pressed": String(showCoords),
      onclick: () => {
        showCoords = !showCoords;
        localStorage.setItem(COORDS_KEY, showCoords ? "on" : "off");
        board?.setCoords(showCoords);
        render();
      },
    }, t(showCoords ? "action.hide_coords" : "action.show_coords")));
    if (role === "both") {
      list.push(h("label", { class: "row" },
        h("input", {
          type: "checkbox", id: "auto-turn", checked: autoTurn,
          onchange: (/** @type {Event} */ e) => {
            autoTurn = /** @type {HTMLInputElement} */ (e.target).checked;
            localStorage.setItem(AUTO_TURN_KEY, autoTurn ? "on" : "off");
            render();
          },
        }), t("action.auto_turn")));
    }
    list.push(h("a", { href: `/api/games/${id}/pdn`, download: `dama-${id}.pdn`, id: "download-pdn" }, t("action.download_pdn")));
    return h("div", { class: "actions" }, list);
  }

  function shareBox() {
    const boxes = [];
    let invite = null;
    try { invite = localStorage.getItem(`dama.invite.${id}`); } catch { /* private mode */ }
    if (invite && live.status === "waiting" && game.mode === "friend") {
      boxes.push(copyField(t("share.invite"), `${location.origin}${invite}`, "invite-link"));
    }
    boxes.push(copyField(t("share.watch"), `${location.origin}/g/${id}`, "watch-link"));
    return boxes;
  }

  function copyField(/** @type {string} */ label, /** @type {string} */ url, /** @type {string} */ fieldId) {
    const field = /** @type {HTMLInputElement} */ (h("input", { id: fieldId, readonly: true, value: url, onfocus: () => field.select() }));
    return h("div", { class: "stack" }, h("label", { for: fieldId, class: "muted" }, label),
      h("div", { class: "share" }, field, h("button", {
        type: "button",
        onclick: async (/** @type {Event} */ e) => {
          const b = /** @type {HTMLButtonElement} */ (e.target);
          try { await navigator.clipboard.writeText(url); b.textContent = t("share.copied"); } catch { field.select(); }
        },
      }, t("share.copy"))));
  }

  function typeBox() {
    const field = /** @type {HTMLInputElement} */ (h("input", {
      id: "type-move", autocomplete: "off", spellcheck: "false",
      placeholder: t("game.type_placeholder"), "aria-label": t("game.type_move"),
    }));
    const submit = async () => {
      const ctx = context();
      if (ctx.blocked) { say({ key: ctx.blocked }); render(); return; }
      const path = MoveInput.parseTyped(ctx, field.value);
      if (!path) { say({ key: "msg.typed_unknown" }); render(); return; }
      field.value = "";
      input.reset();
      await sendMove(path);
    };
    field.addEventListener("keydown", (e) => { if (e.key === "Enter") submit(); });
    return h("div", { class: "type-move" }, field, h("button", { type: "button", onclick: submit }, t("game.play_typed")));
  }

  function render() {
    if (!game || !board) return;
    const ctx = context();
    const pos = parseFen(shownFen());
    board.setFlipped(flipped());
    const shownIndex = view === null ? plies.length - 1 : view;
    const lastPly = shownIndex >= 0 ? plies[shownIndex] : null;
    const { hops, ends } = input.targets(ctx);
    const myTurn = !ctx.blocked;
    board.render({
      pieces: pos.pieces,
      selected: input.selected,
      hops,
      ends,
      path: input.partial,
      last: lastPly ? lastPly.path : [],
      must: myTurn && live.must_capture ? input.movable(ctx) : new Set(),
      taken: input.partial.length > 1
        ? jumped(input.partial, coords, byXY, pos.pieces, pos.turn)
        : new Set(),
    });
    const top = flipped() ? "white" : "black";
    const bottom = top === "white" ? "black" : "white";
    side.replaceChildren(...[
      playerBox(top, pos),
      h("div", { class: `status${live.status === "finished" ? " over" : ""}`, id: "status", role: "status" }, statusText()),
      h("div", { class: `message${message?.info ? " info" : ""}`, id: "message", role: "alert" },
        message ? t(message.key, message.params) : ""),
      ...offers(),
      playerBox(bottom, pos),
      h("div", { class: "muted" }, `${t(`variant.${game.variant.key}.name`)}${game.time_control ? ` · ${t("time.minutes_increment", { minutes: Math.round(game.time_control.initial_s / 60), increment: game.time_control.increment_s })}` : ""}`),
      navButtons(shownIndex, plies.length - 1, (i) => {
        view = i >= plies.length - 1 ? null : Math.max(-1, i);
        input.reset();
        render();
      }),
      moveList(plies, game.variant.first, shownIndex, (i) => {
        view = i >= plies.length - 1 ? null : i;
        input.reset();
        render();
      }),
      role && live.status !== "finished" ? typeBox() : null,
      actions(),
      ...shareBox(),
    ].filter((x) => x !== null));
  }

  const ticker = setInterval(() => {
    if (!live?.clock || live.status !== "active" || !live.clock.running) return;
    for (const colour of ["white", "black"]) {
      const el = side.querySelector(`[data-clock="${colour}"]`);
      const fresh = clockFor(colour);
      if (el && fresh) el.replaceWith(fresh);
    }
  }, 250);

  return {
    destroy() {
      clearInterval(ticker);
      conn.close();
    },
    relabel() {
      render();
    },
  };
}
