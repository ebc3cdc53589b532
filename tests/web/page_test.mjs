// The page's tests (scripts/web.sh --test, CI's web step): build-web/site served on 127.0.0.1 and
// driven in headless Chromium (Debian's chromium, WebGL2 through SwiftShader) by puppeteer-core.
//
//   node tests/web/page_test.mjs SITE_DIR [--out DIR] [--native PATH_TO_octree_demo]
//
// Checks, each against something the page cannot fake:
//   1. loads and draws: the screenshot (OUT/page.png) is not blank, the panel's dark column is on
//      the left and the level (not just the clear colour) fills the lower view;
//   2. a real key press (W held through Chromium's input pipeline) moves the character: the feet
//      in the stats hook move forward by more than 1 m; T's wireframe (edges drawn as lines,
//      WebGL2 has no polygon mode) leaves the lower view mostly one colour; Z crouches; F12's
//      screenshot is handed to the browser as a download and is not blank; the loop of draws
//      (a browser without WEBGL_multi_draw) draws the same pixels as multi-draw;
//   3. levels through the real file input: an OBJ written here (its triangle count known) loads;
//      a truncated GLB and a .fbx fail with the loader's message shown on the page, and the OBJ
//      stays (same path, same triangle count);
//   4. ?script= runs assets/walk.script as --script does; its trace equals, byte for byte, the
//      native demo's (--headless --script ... --trace) on the same level (skipped, and said so,
//      without a native build).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const site = path.resolve(argv[0] ?? path.join(root, 'build-web/site'));
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const out = path.resolve(option('--out', path.join(root, 'build-web/test-output')));
const nativeDemo = option('--native', path.join(root, 'build/octree_demo'));
fs.mkdirSync(out, { recursive: true });

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures += 1;
}

// --- a static server: the site, plus tests/web's fixtures under /test/ ---------------------------
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const url = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  const file = url.startsWith('/test/walk.script')
    ? path.join(root, 'assets/walk.script')
    : path.join(site, url.endsWith('/') ? url + 'index.html' : url);
  if (!file.startsWith(site) && !file.endsWith('walk.script')) {
    res.writeHead(403);
    res.end();
    return;
  }
  fs.readFile(file, (err, data) => {
    if (err) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' });
    res.end(data);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
    '--ignore-gpu-blocklist', '--window-size=1280,720'],
});

async function openPage(query = '') {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 720 });
  const log = [];
  page.on('console', (m) => log.push(m.text()));
  page.on('pageerror', (e) => log.push('page error: ' + e.message));
  await page.goto(base + query);
  try {
    await page.waitForFunction('window.ofps && (window.ofps.started || window.ofps.ended !== null)',
      { timeout: 120000 });
  } catch (e) {
    console.log(log.join('\n'));
    throw new Error('the demo did not start within 120 s');
  }
  return { page, log };
}

const stats = (page) => page.evaluate(() => window.ofps.stats());
async function waitFrames(page, n) {
  const start = (await stats(page)).run.frames;
  await page.waitForFunction((f) => window.ofps.stats().run.frames >= f, { timeout: 60000 },
    start + n);
}

// Pixel figures of a PNG, decoded by the browser itself (a 2-D canvas of the screenshot).
async function pixelFigures(page, pngPath) {
  const dataUrl = 'data:image/png;base64,' + fs.readFileSync(pngPath).toString('base64');
  return page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const px = (x0, y0, x1, y1) => {
      const d = g.getImageData(x0, y0, x1 - x0, y1 - y0).data;
      const counts = new Map();
      let dark = 0, sum = 0;
      for (let i = 0; i < d.length; i += 4) {
        const key = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
        counts.set(key, (counts.get(key) ?? 0) + 1);
        const lum = (d[i] + d[i + 1] + d[i + 2]) / 3;
        if (lum < 60) dark += 1;
        sum += lum;
      }
      const n = d.length / 4;
      return { colors: counts.size, topShare: Math.max(...counts.values()) / n, darkShare: dark / n,
        meanLum: sum / n, pixel: Array.from(g.getImageData(x0, y0, 1, 1).data.slice(0, 3)) };
    };
    return { width: img.width, height: img.height, all: px(0, 0, img.width, img.height),
      panel: px(20, 300, 330, 700), sky: px(700, 120, 1100, 200), floor: px(700, 560, 1250, 700) };
  }, dataUrl);
}

try {
  // 1. Loads and draws.
  const { page, log } = await openPage();
  const keysAtStart = await page.$eval('#keys', (e) => getComputedStyle(e).display !== 'none');
  check(keysAtStart, 'the one-line key help shows when the demo starts');
  await waitFrames(page, 5);
  const s0 = await stats(page);
  check(s0.level.triangles === 1060, `the bundled arena loaded (${s0.level.triangles} triangles)`);
  check(s0.run.gl_errors === 0, `no GL errors (${s0.run.gl_errors})`);
  console.log(`     level drawn with ${await page.evaluate(() => window.ofps.multiDraw())
    ? 'WEBGL_multi_draw' : 'a loop of draws'}`);
  const shot = path.join(out, 'page.png');
  await page.screenshot({ path: shot });
  const fig = await pixelFigures(page, shot);
  console.log(`     ${shot}: ${fig.width}x${fig.height}, ${fig.all.colors} colours, ` +
    `most common ${(100 * fig.all.topShare).toFixed(1)}%`);
  check(fig.all.colors > 500 && fig.all.topShare < 0.5, 'the screenshot is not blank');
  check(fig.panel.darkShare > 0.6 && fig.panel.colors > 20,
    `the panel's dark column with text on the left (${(100 * fig.panel.darkShare).toFixed(0)}% dark)`);
  // The sky is the clear colour, one flat colour; the floor below it is the level's checker grid.
  const skyKey = fig.sky.pixel;
  check(fig.sky.topShare > 0.9, 'the sky above the level is the clear colour');
  check(fig.floor.colors > 20 && Math.abs(fig.floor.meanLum - skyKey.reduce((a, b) => a + b) / 3) > 10,
    `the level's floor fills the lower view (${fig.floor.colors} colours)`);

  // Multi-draw and the loop of draws a browser without WEBGL_multi_draw gets: the same pixels in
  // the 3-D view (the panel's live numbers differ between frames, so only the view is compared).
  const viewPixels = async (file) => {
    await page.screenshot({ path: file, clip: { x: 360, y: 110, width: 620, height: 490 } });
    return fs.readFileSync(file);
  };
  const multiOn = await page.evaluate(() => Module._ofps_use_multi_draw(1));
  await waitFrames(page, 3);
  const withMulti = await viewPixels(path.join(out, 'view_multi_draw.png'));
  const callsMulti = (await stats(page)).culling.draw_calls;
  await page.evaluate(() => Module._ofps_use_multi_draw(0));
  await waitFrames(page, 3);
  const withLoop = await viewPixels(path.join(out, 'view_draw_loop.png'));
  const callsLoop = (await stats(page)).culling.draw_calls;
  await page.evaluate(() => Module._ofps_use_multi_draw(1));
  check((multiOn === 0 || callsMulti === 1) && callsLoop > 1 && withMulti.equals(withLoop),
    `the loop of draws draws what multi-draw draws (${callsLoop} draws vs ${callsMulti}; ` +
    `multi-draw ${multiOn ? 'present' : 'absent'})`);

  // 2. A real key press moves the character.
  await page.click('canvas');  // focus; the click also captures the mouse (pointer lock)
  const keysAfterClick = await page.$eval('#keys', (e) => getComputedStyle(e).display === 'none');
  check(keysAfterClick, 'the key help went away at the first click (it covers the panel\'s foot)');
  await waitFrames(page, 2);
  const before = (await stats(page)).controller;
  await page.keyboard.down('w');
  await waitFrames(page, 10);
  await new Promise((r) => setTimeout(r, 700));
  await page.keyboard.up('w');
  await waitFrames(page, 2);
  const after = (await stats(page)).controller;
  const moved = Math.hypot(after.feet[0] - before.feet[0], after.feet[2] - before.feet[2]);
  check(moved > 1.0, `W moved the character ${moved.toFixed(2)} m ` +
    `(${before.steps} -> ${after.steps} steps)`);
  // F12's screenshot becomes a download (the page takes it out of its file system).
  await page.keyboard.press('F12');
  await page.waitForFunction(() => window.ofps.screenshots.length > 0, { timeout: 30000 })
    .catch(() => {});
  const shots = await page.evaluate(() => window.ofps.screenshots);
  const f12 = path.join(out, 'f12.png');
  fs.writeFileSync(f12, Buffer.from(await page.evaluate(() =>
    Array.from(window.ofps.lastScreenshot ?? []))));
  const f12fig = shots.length === 1 ? await pixelFigures(page, f12) : null;
  check(shots.length === 1 && f12fig !== null && f12fig.all.colors > 500 && f12fig.all.topShare < 0.5,
    `F12's screenshot downloaded, not blank (${shots}, ${f12fig?.all.colors} colours)`);

  // Z crouches in the page (with Ctrl held, W would close the tab).
  await page.keyboard.down('z');
  await waitFrames(page, 5);
  const crouched = (await stats(page)).controller.crouched;
  await page.keyboard.up('z');
  await waitFrames(page, 30);
  check(crouched === true && (await stats(page)).controller.crouched === false,
    'Z crouches while held, and the character stands up after');
  const keysHidden = await page.$eval('#keys', (e) => getComputedStyle(e).display === 'none');
  check(keysHidden, 'the key help stays away');

  // WebGL2 has no polygon mode: T draws the level's edges as lines, so the floor's two big
  // triangles turn into a few lines over the clear colour.
  const filledShot = path.join(out, 'page_filled.png');
  await page.screenshot({ path: filledShot });
  const filled = await pixelFigures(page, filledShot);
  await page.keyboard.press('t');
  await waitFrames(page, 3);
  const wireShot = path.join(out, 'page_wireframe.png');
  await page.screenshot({ path: wireShot });
  const wire = await pixelFigures(page, wireShot);
  check(wire.floor.topShare > filled.floor.topShare + 0.25 && (await stats(page)).run.gl_errors === 0,
    `T (wireframe) draws edges: the lower view is ${(100 * wire.floor.topShare).toFixed(0)}% one ` +
    `colour (filled, same place: ${(100 * filled.floor.topShare).toFixed(0)}%)`);
  await page.keyboard.press('t');

  // 3. Levels through the file input.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ofps-web-'));
  // A 20 m floor (2 triangles) and a 2 m box on it (12): 14 triangles, Y-up metres.
  const v = [[-10, 0, -10], [10, 0, -10], [10, 0, 10], [-10, 0, 10]];
  for (const y of [0, 2]) for (const [x, z] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) v.push([x, y, z]);
  const faces = [[1, 3, 2], [1, 4, 3], [5, 6, 7], [5, 7, 8], [9, 11, 10], [9, 12, 11],
    [5, 9, 10], [5, 10, 6], [6, 10, 11], [6, 11, 7], [7, 11, 12], [7, 12, 8], [8, 12, 9], [8, 9, 5]];
  const obj = path.join(tmp, 'floor_box.obj');
  fs.writeFileSync(obj, v.map((p) => `v ${p.join(' ')}`).join('\n') + '\n' +
    faces.map((f) => `f ${f.join(' ')}`).join('\n') + '\n');
  // A .gltf with its buffer in a separate .bin, picked together: a 40 m floor (2 triangles) and
  // a node named "spawn" at (3, 0, 4) (level_conventions.md's spawn rule).
  const bin = Buffer.alloc(4 * 12 + 6 * 2);
  [[-20, 0, -20], [20, 0, -20], [20, 0, 20], [-20, 0, 20]].forEach((p, i) =>
    p.forEach((c, k) => bin.writeFloatLE(c, 12 * i + 4 * k)));
  [0, 2, 1, 0, 3, 2].forEach((ix, i) => bin.writeUInt16LE(ix, 48 + 2 * i));
  const gltf = path.join(tmp, 'floor.gltf');
  fs.writeFileSync(path.join(tmp, 'floor.bin'), bin);
  fs.writeFileSync(gltf, JSON.stringify({
    asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0, 1] }],
    nodes: [{ name: 'floor', mesh: 0 }, { name: 'spawn', translation: [3, 0, 4] }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
    buffers: [{ uri: 'floor.bin', byteLength: bin.length }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 48 },
      { buffer: 0, byteOffset: 48, byteLength: 12 }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 4, type: 'VEC3', min: [-20, 0, -20], max: [20, 0, 20] },
      { bufferView: 1, componentType: 5123, count: 6, type: 'SCALAR' }],
  }));
  const badGlb = path.join(tmp, 'broken.glb');
  fs.writeFileSync(badGlb, fs.readFileSync(path.join(root, 'assets/arena.glb')).subarray(0, 200));
  const fbx = path.join(tmp, 'level.fbx');
  fs.writeFileSync(fbx, 'Kaydara FBX Binary  \0');
  // The same floor and box as an ASCII STL in Z-up metres (STL has no frame): the page converts
  // it with Assimp (assimpjs) and the loader guesses the frame.
  const zUp = (p) => [p[0], -p[2], p[1]];
  const facet = (f) => '  facet normal 0 0 0\n    outer loop\n' +
    f.map((i) => `      vertex ${zUp(v[i - 1]).join(' ')}\n`).join('') + '    endloop\n  endfacet\n';
  const stl = path.join(tmp, 'floor_box.stl');
  fs.writeFileSync(stl, 'solid floor_box\n' + faces.map(facet).join('') + 'endsolid floor_box\n');

  async function pick(...files) {
    const input = await page.$('#file');
    await page.evaluate(() => { window.ofpsPicked = null; });
    // The page's own change handler runs the load; wait for what it shows.
    await page.evaluate(() => {
      const orig = window.ofps.loadLevelFiles;
      window.ofps.loadLevelFiles = async (...args) => {
        window.ofpsPicked = await orig(...args);
        window.ofps.loadLevelFiles = orig;
        return window.ofpsPicked;
      };
    });
    await input.uploadFile(...files);
    await page.waitForFunction(() => window.ofpsPicked !== null, { timeout: 60000 });
    return page.evaluate(() => ({ result: window.ofpsPicked,
      message: document.getElementById('message').textContent,
      shown: getComputedStyle(document.getElementById('message')).display !== 'none' }));
  }
  const good = await pick(obj);
  const s1 = await stats(page);
  check(good.result.ok && s1.level.triangles === 14 && s1.level.path.endsWith('floor_box.obj'),
    `an OBJ picked in the file input loads (${s1.level.triangles} triangles, ${s1.level.path})`);
  const withBin = await pick(gltf, path.join(tmp, 'floor.bin'));
  const sg = await stats(page);
  const feet = sg.controller.feet;
  check(withBin.result.ok && sg.level.triangles === 2 && sg.level.path.endsWith('floor.gltf') &&
    Math.abs(feet[0] - 3) < 0.05 && Math.abs(feet[2] - 4) < 0.05,
  `a .gltf picked with its .bin loads (${sg.level.triangles} triangles), the character at its ` +
    `spawn node (feet ${feet.map((c) => c.toFixed(2)).join(', ')})`);
  const good2 = await pick(obj);
  check(good2.result.ok, 'the OBJ again');
  const broken = await pick(badGlb);
  const s2 = await stats(page);
  check(!broken.result.ok && broken.shown && broken.message.includes('broken.glb'),
    `a truncated GLB shows its error: "${broken.message.split('\n')[0]}"`);
  check(s2.level.path === s1.level.path && s2.level.triangles === 14,
    'the level before it stays after the broken file');
  const other = await pick(fbx);
  const s3 = await stats(page);
  check(s3.level.load_error.includes('level.fbx') && s3.level.load_error.includes('import_error'),
    'the Assimp failure is the demo\'s failed load too (the Level section, the toast, stats)');
  check(!other.result.ok && other.message.includes('level.fbx') && other.message.includes('Assimp') &&
    other.message.includes('glTF') && other.message.includes('OBJ') && s3.level.path === s1.level.path,
  `a broken .fbx shows Assimp's error and names what the page reads, the level stays: ` +
    `"${other.message.split('\n')[0]}"`);
  const converted = await pick(stl);
  const s4 = await stats(page);
  const up = s4.level.frame ? s4.level.frame.up : '?';
  check(converted.result.ok && s4.level.path.endsWith('floor_box.stl') && s4.level.triangles === 14 && up === 'z' &&
    s4.level.warnings.some((w) => w.includes('converted to glTF by Assimp')),
  `an STL is converted by Assimp in the page and loads (${s4.level.triangles} triangles, up ${up})`);
  await page.screenshot({ path: path.join(out, 'page_error.png') });
  await page.close();
  if (log.some((l) => l.startsWith('page error'))) {
    console.log(log.filter((l) => l.startsWith('page error')).join('\n'));
  }
  check(!log.some((l) => l.startsWith('page error')), 'no JavaScript errors on the page');

  // 4. A script in the URL: its trace equals the native one.
  if (fs.existsSync(nativeDemo)) {
    const { page: sp, log: slog } = await openPage('?script=test/walk.script');
    await sp.waitForFunction('window.ofps.ended !== null', { timeout: 300000 });
    const webTrace = await sp.evaluate(() => window.ofps.trace);
    const status = await sp.evaluate(() => window.ofps.ended);
    fs.writeFileSync(path.join(out, 'walk_web.csv'), webTrace ?? '');
    const nativeTrace = path.join(out, 'walk_native.csv');
    // The same level file name as the page's (/assets/arena.glb), run from a copy.
    const levelCopy = path.join(tmp, 'assets');
    fs.mkdirSync(levelCopy, { recursive: true });
    fs.copyFileSync(path.join(root, 'assets/arena.glb'), path.join(levelCopy, 'arena.glb'));
    execFileSync(nativeDemo, ['--headless', '--no-settings', '--script',
      path.join(root, 'assets/walk.script'), '--trace', nativeTrace, path.join(levelCopy, 'arena.glb')],
    { stdio: 'ignore' });
    const expected = fs.readFileSync(nativeTrace, 'utf8');
    const lines = expected.split('\n').length;
    check(status === 0 && webTrace === expected,
      `?script= walk.script: the page's trace equals the native one (${lines} lines; ` +
      `${path.join(out, 'walk_web.csv')})`);
    if (webTrace !== expected && webTrace) {
      const a = webTrace.split('\n'), b = expected.split('\n');
      const i = a.findIndex((l, k) => l !== b[k]);
      console.log(`     first difference, line ${i + 1}:\n     page:   ${a[i]}\n     native: ${b[i]}`);
    }
    if (status !== 0) console.log(slog.join('\n'));
    await sp.close();

    // 5. A script picked with the Run script button: kept in sessionStorage, the page reloads
    // with ?script=picked and runs it; its trace equals the native one too.
    const shortScript = path.join(tmp, 'short.script');
    fs.writeFileSync(shortScript, 'spawn -2 0 14 180\nat 0 hold forward\nat 0.5 tap jump\nend 1.5\n');
    const { page: pp, log: plog } = await openPage();
    const reloaded = pp.waitForNavigation({ timeout: 120000 });
    await (await pp.$('#script-file')).uploadFile(shortScript);
    await reloaded;
    await pp.waitForFunction('window.ofps && window.ofps.ended !== null', { timeout: 300000 });
    const pickedTrace = await pp.evaluate(() => window.ofps.trace);
    const pickedStatus = await pp.evaluate(() => window.ofps.ended);
    const pickedUrl = pp.url();
    const shortNative = path.join(out, 'short_native.csv');
    execFileSync(nativeDemo, ['--headless', '--no-settings', '--script', shortScript, '--trace',
      shortNative, path.join(levelCopy, 'arena.glb')], { stdio: 'ignore' });
    const shortExpected = fs.readFileSync(shortNative, 'utf8');
    check(pickedStatus === 0 && pickedUrl.includes('script=picked') && pickedTrace === shortExpected,
      `a script picked with Run script… reloads the page (${pickedUrl.split('/').pop()}) and its ` +
      `trace equals the native one (${shortExpected.split('\n').length} lines)`);
    if (pickedStatus !== 0) console.log(plog.join('\n'));
    await pp.close();

    // 6. A picked script with an error: the page says what is wrong (naming the picked file) and
    // offers the buttons again, instead of a loading bar that never ends.
    const badScript = path.join(tmp, 'typo.script');
    fs.writeFileSync(badScript, 'spawn 0 0 0\nat 0 hold forwrd\nend 1\n');
    const { page: bp } = await openPage();
    const reloadedBad = bp.waitForNavigation({ timeout: 120000 });
    await (await bp.$('#script-file')).uploadFile(badScript);
    await reloadedBad;
    await bp.waitForFunction('window.ofps && window.ofps.ended !== null', { timeout: 120000 });
    const bad = await bp.evaluate(() => ({
      ended: window.ofps.ended, started: window.ofps.started,
      message: document.getElementById('message').textContent,
      loading: getComputedStyle(document.getElementById('loading')).display,
      buttons: getComputedStyle(document.getElementById('bar-top')).display,
    }));
    check(bad.ended === 2 && !bad.started && bad.message.includes('typo.script:2') &&
      bad.message.includes('forwrd') && bad.loading === 'none' && bad.buttons !== 'none',
    `a picked script with an error shows it, naming the file, and the buttons: ` +
      `"${bad.message.split('\n')[0]}"`);
    await bp.close();
  } else {
    console.log(`skip ?script= trace check: no native demo at ${nativeDemo} (scripts/build.sh)`);
  }
} finally {
  await browser.close();
  server.close();
}
console.log(failures === 0 ? 'page_test: all passed' : `page_test: ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
