// A whole game against the computer, played through the page until the game ends by the
// rules, with a take-back and a declined draw offer on the way.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, stopServer, launchBrowser, waitForMoves, SHOTS } from "./helpers.mjs";

let server;
let browser;
after(async () => {
  await browser?.close();
  if (server) await stopServer(server);
});

/** Number of moves in the page's move list. */
const moveCount = (page) => page.locator("#move-list button").count();

/**
 * Makes one move through the board, as a person would: choose a piece that has somewhere to
 * go, then follow the marked squares hop by hop until the move is sent.
 */
async function playOneMove(page, colour) {
  const before = await moveCount(page);
  const must = await page.$$eval(".board .piece.must", (els) => els.map((e) => e.parentElement.dataset.sq));
  const mine = must.length
    ? must
    : await page.$$eval(`.board .piece.${colour}`, (els) => els.map((e) => e.parentElement.dataset.sq));
  for (const sq of mine) {
    await page.click(`.board [data-sq="${sq}"]`);
    if ((await page.locator(".board .sq .dot").count()) === 0) continue;
    for (let hop = 0; hop < 20; hop++) {
      const dot = await page.$eval(".board .sq .dot", (d) => d.parentElement.dataset.sq).catch(() => null);
      if (!dot) break;
      await page.click(`.board [data-sq="${dot}"]`);
      if ((await moveCount(page)) > before) return;
      if (!(await page.$(".board .sq.selected"))) break;
    }
    await page.waitForFunction((n) => document.querySelectorAll("#move-list button").length > n, before, { timeout: 10000 });
    return;
  }
  throw new Error("no piece could move");
}

test("a whole game against the computer", { timeout: 600000 }, async (t) => {
  server = await startServer();
  const info = await (await fetch(`${server.url}/api/info`)).json();
  if (!info.computer) {
    t.skip("this build has no computer opponent");
    return;
  }
  browser = await launchBrowser();
  const page = await (await browser.newContext({ locale: "en-GB", viewport: { width: 1100, height: 820 } })).newPage();
  await page.goto(`${server.url}/`);
  await page.selectOption("#level-select", "3");
  await page.click('#mode-computer button:has-text("White")');
  await page.click("#start-computer");
  await page.waitForURL(/\/g\//);
  await page.waitForSelector('#status:has-text("Your move")');
  assert.match(await page.textContent("#player-black"), /Computer \(level 3\)/);

  // One move, the computer's answer, then take both back.
  await playOneMove(page, "white");
  await waitForMoves(page, 2);
  await page.click("#takeback");
  await page.waitForFunction(() => document.querySelectorAll("#move-list button").length === 0);
  await page.waitForSelector('#status:has-text("Your move")');

  // Nobody takes a draw in the opening: the computer declines, and says so.
  await page.click("#offer-draw");
  await page.waitForSelector('#message:has-text("declines the draw")');
  await page.waitForSelector("#offer-draw");

  // Then play on to the end.
  for (let ply = 0; ply < 400; ply++) {
    await page.waitForFunction(() => {
      const s = document.querySelector("#status");
      return s && (s.classList.contains("over") || s.textContent === "Your move.");
    }, null, { timeout: 60000 });
    if (await page.$("#status.over")) break;
    await playOneMove(page, "white");
    if (ply === 6) await page.screenshot({ path: join(SHOTS, "computer-midgame.png") });
  }
  const status = await page.textContent("#status");
  assert.match(status, /(White wins|Black wins|Draw) — /, status);
  assert.ok((await moveCount(page)) > 10);
  await page.screenshot({ path: join(SHOTS, "computer-end.png") });
  // A finished game offers a rematch with colours reversed: the computer opens.
  await page.click("#rematch");
  await page.waitForFunction(() => document.querySelectorAll("#move-list button").length === 1, null, { timeout: 30000 });
  assert.match(await page.textContent("#player-white"), /Computer/);
});
