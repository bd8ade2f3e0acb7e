// The page follows the browser's language (Hindi here), the switch changes it on every page,
// and a game on one device shows its texts in the chosen language.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, stopServer, launchBrowser, clickSquares, waitForMoves, SHOTS, ROOT } from "./helpers.mjs";

const messages = (lang) => JSON.parse(readFileSync(join(ROOT, "web", "app", "i18n", `${lang}.json`), "utf8"));
const hi = messages("hi");
const ru = messages("ru");
const en = messages("en");

let server;
let browser;
after(async () => {
  await browser?.close();
  if (server) await stopServer(server);
});

test("Hindi from the browser's language, then Russian and English from the switch", { timeout: 120000 }, async () => {
  server = await startServer();
  browser = await launchBrowser();
  const page = await (await browser.newContext({ locale: "hi-IN", viewport: { width: 1000, height: 900 } })).newPage();
  await page.goto(`${server.url}/`);
  await page.waitForSelector("h1");
  assert.equal(await page.textContent("h1"), hi["home.title"]);
  assert.equal(await page.getAttribute("html", "lang"), "hi");
  assert.equal(await page.textContent('nav a[href="/lobby"]'), hi["nav.lobby"]);
  assert.equal(await page.textContent("#start-local"), hi["mode.local_start"]);
  // The variant's rules summary is in Hindi too.
  assert.equal(await page.textContent("#rules-summary p"), hi["variant.russian.rules"]);
  await page.selectOption("#variant-select", "international");
  assert.equal(await page.textContent("#rules-summary p"), hi["variant.international.rules"]);
  await page.screenshot({ path: join(SHOTS, "home-hindi.png"), fullPage: true });

  // A game on one device: status and explanations in Hindi.
  await page.selectOption("#variant-select", "russian");
  await page.click("#start-local");
  await page.waitForURL(/\/g\//);
  await page.waitForSelector("#status");
  assert.equal(await page.textContent("#status"), hi["status.to_move"].replace("{color}", hi["color.white"]));
  // The first move by keyboard: arrows walk the dark squares (a1, b2, c3), Enter chooses.
  await page.focus('.board [data-sq="a1"]');
  for (const key of ["ArrowUp", "ArrowUp", "Enter", "ArrowUp", "Enter"]) await page.keyboard.press(key);
  await waitForMoves(page, 1);
  assert.equal(await page.locator("#move-list button").first().textContent(), "c3-d4");
  await clickSquares(page, "f6", "e5");
  await waitForMoves(page, 2);
  await clickSquares(page, "a3");
  assert.equal(await page.textContent("#message"), hi["msg.must_capture_one"].replace("{square}", "d4"));
  await page.screenshot({ path: join(SHOTS, "game-hindi.png") });

  // The switch: Russian on the same page, remembered on the next page.
  await page.selectOption("#lang-select", "ru");
  await page.waitForFunction((t) => document.querySelector("#status")?.textContent === t,
    ru["status.to_move"].replace("{color}", ru["color.white"]));
  assert.equal(await page.getAttribute("html", "lang"), "ru");
  assert.equal(await page.textContent('nav a[href="/lobby"]'), ru["nav.lobby"]);
  await page.click('nav a[href="/lobby"]');
  await page.waitForSelector("h1");
  assert.equal(await page.textContent("h1"), ru["lobby.title"]);
  await page.reload();
  await page.waitForSelector("h1");
  assert.equal(await page.textContent("h1"), ru["lobby.title"]);
  await page.selectOption("#lang-select", "en");
  await page.waitForFunction((t) => document.querySelector("h1")?.textContent === t, en["lobby.title"]);
});
