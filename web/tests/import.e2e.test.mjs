// Pasting a PDN: the game replays move by move, and play goes on from a chosen position.
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

const WORKED = `[Event "Rule book example"]
[GameType "25"]

1.cd4 ba5 2.bc3 cb6 3.gh4 dc5 4.hg3 bc7 5.cb4 a:e5 6.ed4 c:e3 7.d:b8 *`;

test("paste a PDN, step through it, play on from a position", { timeout: 120000 }, async () => {
  server = await startServer();
  browser = await launchBrowser();
  const page = await (await browser.newContext({ locale: "en-GB" })).newPage();
  await page.goto(`${server.url}/import`);
  await page.fill("#import-text", WORKED);
  await page.click("#import-open");
  await page.waitForSelector("#replay-status");
  assert.equal(await page.locator("#move-list button").count(), 13);
  assert.equal(await page.locator("#move-list button").nth(12).textContent(), "d2:b8");
  // The last position: White has crowned on b8.
  assert.equal(await page.locator('.board [data-sq="b8"] .piece.white.king').count(), 1);
  // Step back to the start and forward again.
  await page.click("#nav-first");
  assert.match(await page.textContent("#replay-status"), /move 0 of 13/);
  assert.equal(await page.locator(".board .piece").count(), 24);
  await page.click("#nav-next");
  assert.match(await page.textContent("#replay-status"), /move 1 of 13/);
  await page.locator("#move-list button").nth(9).click();
  assert.match(await page.textContent("#replay-status"), /move 10 of 13/);
  await page.screenshot({ path: join(SHOTS, "replay.png") });
  // A bad text is explained.
  await page.fill("#import-text", "1. c3-c5");
  await page.click("#import-open");
  await page.waitForSelector("#import-error:not(:empty)");
  assert.match(await page.textContent("#import-error"), /could not be read/);
  // Play on from move 10 on this device.
  await page.fill("#import-text", WORKED);
  await page.click("#import-open");
  await page.locator("#move-list button").nth(9).click();
  await page.click("#play-on-local");
  await page.waitForURL(/\/g\//);
  await page.waitForSelector("#status");
  assert.equal(await page.textContent("#status"), "White to move.");
  await page.click('.board [data-sq="e3"]');
  await page.click('.board [data-sq="d4"]');
  await waitForMoves(page, 1);
});
