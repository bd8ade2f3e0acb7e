// Shared helpers of the browser tests: build and start `dama serve`, launch Debian's Chromium.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SHOTS = join(ROOT, "web", "test-results");
mkdirSync(SHOTS, { recursive: true });

let built = null;
/** Builds the `dama` binary once (debug profile, as `cargo test` does) and returns its path. */
export function damaBinary() {
  if (process.env.DAMA_BIN) return process.env.DAMA_BIN;
  if (!built) {
    execFileSync("cargo", ["build", "--quiet", "-p", "dama-cli", "--bin", "dama"], { cwd: ROOT, stdio: "inherit" });
    built = join(ROOT, "target", "debug", "dama");
  }
  return built;
}

/** A fresh data directory. */
export function tempDataDir() {
  return mkdtempSync(join(tmpdir(), "dama-e2e-"));
}

/**
 * Starts `dama serve` and waits for the line with its address.
 * @param {{port?: number, dataDir?: string}} [opts]
 */
export function startServer(opts = {}) {
  const args = ["serve", "--port", String(opts.port ?? 0)];
  if (opts.dataDir) args.push("--data-dir", opts.dataDir);
  else args.push("--memory");
  const proc = spawn(damaBinary(), args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dama serve did not start: ${output}`)), 30000);
    proc.stdout.on("data", (d) => {
      output += d;
      const m = /open (http:\/\/127\.0\.0\.1:(\d+))\//.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], port: Number(m[2]), proc, output: () => output });
      }
    });
    proc.stderr.on("data", (d) => { output += d; });
    proc.on("exit", (code) => reject(new Error(`dama serve exited (${code}): ${output}`)));
  });
}

/** Stops a server process and waits for it to be gone. */
export function stopServer(server, signal = "SIGTERM") {
  return new Promise((resolve) => {
    if (server.proc.exitCode !== null || server.proc.signalCode !== null) return resolve();
    server.proc.once("exit", () => resolve());
    server.proc.kill(signal);
  });
}

/** Debian's Chromium, headless, with the flags this machine needs (no background traffic). */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
}

/** Clicks squares one after another on a page's board. */
export async function clickSquares(page, ...squares) {
  for (const s of squares) await page.click(`.board [data-sq="${s}"]`);
}

/** Waits until the page's move list has `n` moves. */
export async function waitForMoves(page, n) {
  await page.waitForFunction((count) => document.querySelectorAll("#move-list button").length === count, n, { timeout: 20000 });
}
