// A measurement, not a test (README "In the browser"): the frame's CPU work (run.cpu_frame_ms:
// the fixed steps, the camera, the frustum and occlusion cull; not the GL calls) of the page in
// headless Chromium on a level, standing at its spawn point, beside the native demo's under
// xvfb-run on the same level and frames.
//
//   node tests/web/frame_cpu.mjs SITE_DIR LEVEL.obj [--up z --scale 0.0254] [--frames N]
//        [--native build/octree_demo]
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import puppeteer from 'puppeteer-core';

const argv = process.argv.slice(2);
const [site, level] = [path.resolve(argv[0]), path.resolve(argv[1])];
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const up = option('--up', null);
const scale = option('--scale', null);
const frames = Number(option('--frames', '300'));
const native = option('--native', 'build/octree_demo');

const server = http.createServer((req, res) => {
  const url = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  const file = path.join(site, url.endsWith('/') ? url + 'index.html' : url);
  fs.readFile(file, (err, data) => {
    res.writeHead(err ? 404 : 200, { 'Content-Type': file.endsWith('.wasm') ? 'application/wasm'
      : file.endsWith('.js') ? 'text/javascript' : 'text/html' });
    res.end(err ? undefined : data);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
    '--window-size=960,540'] });
const page = await browser.newPage();
await page.setViewport({ width: 960, height: 540 });
await page.goto(`http://127.0.0.1:${server.address().port}/`);
await page.waitForFunction('window.ofps && window.ofps.started', { timeout: 120000 });
const name = path.basename(level);
if (up || scale) {
  // The loader reads LEVEL.import.json beside the level, as natively.
  const settings = JSON.stringify({ level: '/levels/' + name, ...(up && { up }),
    ...(scale && { scale: Number(scale) }) });
  await page.evaluate((n, t) => {
    Module.FS.mkdirTree('/levels');
    Module.FS.writeFile('/levels/' + n + '.import.json', t);
  }, name, settings);
}
const bytes = fs.readFileSync(level).toString('base64');
const result = await page.evaluate(async (n, b64) => {
  const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return window.ofps.loadLevelBytes(n, bin);
}, name, bytes);
if (!result.ok) throw new Error(result.error);
const startFrame = (await page.evaluate(() => window.ofps.stats().run.frames)) + 5;
const samples = [];
while (samples.length < frames) {
  const s = await page.evaluate(() => window.ofps.stats().run);
  if (s.frames >= startFrame + samples.length) samples.push(s.cpu_frame_ms);
  await new Promise((r) => setTimeout(r, 5));
}
const web = samples.reduce((a, b) => a + b) / samples.length;
const triangles = await page.evaluate(() => window.ofps.stats().level.triangles);
await browser.close();
server.close();

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ofps-frame-'));
const copy = path.join(tmp, name);
fs.copyFileSync(level, copy);
const statsFile = path.join(tmp, 'stats.json');
execFileSync('xvfb-run', ['-a', '-s', '-screen 0 1280x720x24', native, copy, '--no-settings',
  '--frames', String(frames), '--no-vsync', '--width', '960', '--height', '540',
  '--stats-json', statsFile, ...(up ? ['--up', up] : []), ...(scale ? ['--scale', scale] : [])],
{ stdio: 'ignore' });
const nat = JSON.parse(fs.readFileSync(statsFile, 'utf8')).run.mean_cpu_frame_ms;
console.log(`${name} (${triangles} triangles): CPU frame work, page ${web.toFixed(3)} ms, ` +
  `native ${nat.toFixed(3)} ms, ratio ${(web / nat).toFixed(2)}x (${frames} frames)`);
