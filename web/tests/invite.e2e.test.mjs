// Two browser contexts play a game joined by an invite link; a third watches. Midway the server
// is killed with SIGKILL and started again on the same port and data directory: both players'
// pages reconnect by themselves and the game goes on with no move lost.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  startServer, stopServer, launchBrowser, tempDataDir, clickSquares, waitForMoves, SHOTS,
} from "./helpers.mjs";

let server;
let browser;
after(async () => {
  await browser?.close();
  if (server) await stopServer(server);
});

test("a friend game by invite link, with a spectator and a server killed midway", { timeout: 180000 }, async () => {
  const dataDir = tempDataDir();
  server = await startServer({ dataDir });
  browser = await launchBrowser();
  const alice = await (await browser.newContext({ locale: "en-GB", viewport: { width: 1100, height: 800 } })).newPage();
  const bob = await (await browser.newContext({ locale: "en-GB", viewport: { width: 390, height: 844 } })).newPage();

  // Alice creates the game: two clicks (her colour, then the button).
  await alice.goto(`${server.url}/`);
  await alice.click('#mode-friend button:has-text("White")');
  await alice.click("#start-friend");
  await alice.waitForURL(/\/g\/[a-z0-9]+$/);
  const invite = await alice.inputValue("#invite-link");
  assert.match(invite, /\/join\/[a-z0-9]+\/[a-z0-9]+$/);
  await alice.waitForSelector('#status:has-text("Waiting for the other player")');

  // Bob opens the link on a phone-sized screen and gets Black.
  await bob.goto(invite);
  await bob.waitForURL(/\/g\/[a-z0-9]+$/);
  const gameUrl = bob.url();
  await bob.waitForSelector('#player-black .name:has-text("(you)")');
  await alice.waitForSelector('#status:has-text("Your move")');
  // Bob cannot move before his turn, nor White's pieces, and is told why.
  await clickSquares(bob, "c3");
  assert.equal(await bob.textContent("#message"), "Wait: it is your opponent's move.");

  // Legal destinations are highlighted when a piece is chosen.
  await clickSquares(alice, "c3");
  assert.equal(await alice.locator(".board .sq .dot").count(), 2);
  await clickSquares(alice, "d4");
  await waitForMoves(bob, 1);
  await clickSquares(bob, "d4");
  assert.equal(await bob.textContent("#message"), "That is your opponent's piece.");
  await clickSquares(bob, "f6", "e5");
  await waitForMoves(alice, 2);

  // Alice must capture: trying another piece is explained in plain words.
  await alice.waitForSelector(".piece.must");
  await clickSquares(alice, "a3");
  const msg = await alice.textContent("#message");
  assert.equal(msg, "You must capture: the piece on d4 can jump.");
  await clickSquares(alice, "d4", "f6");
  await waitForMoves(bob, 3);
  assert.equal(await bob.locator("#move-list button").nth(2).textContent(), "d4:f6");

  // A spectator with the public link sees the game and cannot move.
  const watcher = await (await browser.newContext()).newPage();
  await watcher.goto(gameUrl);
  await waitForMoves(watcher, 3);
  await clickSquares(watcher, "g7");
  assert.equal(await watcher.textContent("#message"), "You are watching this game.");

  // Bob takes back with g7:e5 by dragging the piece.
  const from = await bob.locator('.board [data-sq="g7"]').boundingBox();
  const to = await bob.locator('.board [data-sq="e5"]').boundingBox();
  await bob.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await bob.mouse.down();
  await bob.mouse.move(from.x + 10, from.y + 10, { steps: 3 });
  await bob.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 5 });
  await bob.mouse.up();
  await waitForMoves(alice, 4);
  await alice.screenshot({ path: join(SHOTS, "invite-white.png") });
  await bob.screenshot({ path: join(SHOTS, "invite-black-phone.png") });

  // SIGKILL the server mid-game and start it again on the same port and data directory.
  const port = server.port;
  await stopServer(server, "SIGKILL");
  await alice.waitForSelector("#banner:not([hidden])");
  server = await startServer({ port, dataDir });
  await alice.waitForSelector("#banner", { state: "hidden", timeout: 20000 });
  await bob.waitForSelector("#banner", { state: "hidden", timeout: 20000 });
  await waitForMoves(alice, 4);
  await waitForMoves(bob, 4);
  // The game goes on.
  await clickSquares(alice, "g3", "h4");
  await waitForMoves(bob, 5);
  await waitForMoves(watcher, 5);

  // A draw offer, declined, then offered again and accepted.
  await bob.click("#offer-draw");
  await alice.waitForSelector("#draw-offer");
  await alice.click("#decline-draw");
  await bob.waitForSelector("#draw-offer", { state: "detached" });
  await alice.click("#offer-draw");
  await bob.click("#accept-draw");
  await alice.waitForSelector('#status:has-text("Draw")');
  assert.match(await watcher.textContent("#status"), /Draw — the players agreed to a draw/);
  // The finished game offers its PDN and a rematch.
  const pdn = await alice.evaluate(async () => (await fetch(document.querySelector("#download-pdn").href)).text());
  assert.match(pdn, /\[Result "1\/2-1\/2"\]/);
  assert.match(pdn, /1\. ?c3-d4 f6-e5 2\. ?d4:f6 g7:e5 3\. ?g3-h4/);
  await alice.click("#rematch");
  await bob.click("#accept-rematch");
  await alice.waitForURL((u) => u.href !== gameUrl && /\/g\//.test(u.href));
  await bob.waitForURL((u) => u.href !== gameUrl && /\/g\//.test(u.href));
  await bob.waitForSelector('#status:has-text("Your move")');
  await bob.screenshot({ path: join(SHOTS, "rematch-bob-white.png") });
});
