// The same benchmark in a page: the octree's WebAssembly tool (a browser build of octree_bench,
// bench/web/run.sh --page) and the JavaScript peers (peers_core.mjs) in headless Chromium
// (Debian's chromium through puppeteer-core), on one FORMAT.md query file.
//
//   node bench/web/page.mjs LEVEL.obj QUERIES --wasm BUILD_DIR --out DIR [--ref R]
//        [--rounds N] [--json FILE]
//
// Prints JSON: `octree` (octree_bench's own JSON, written inside the page) and `peers`
// (peers_core.mjs's summary, with agreement against --ref), plus `octree_results_identical`
// (the page's octree result file against --ref, byte for byte).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { takeOption } from './cli_options.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => takeOption(argv, name, fallback);
const wasmDir = path.resolve(option('--wasm', 'build-wasm-page'));
const outDir = option('--out', null);
const refFile = option('--ref', null);
const rounds = Number(option('--rounds', '5'));
const jsonFile = option('--json', null);
const [levelFile, queryFile] = argv;
if (!levelFile || !queryFile || !outDir) {
  console.error('usage: node page.mjs LEVEL.obj QUERIES --wasm DIR --out DIR [--ref R] [--rounds N] [--json F]');
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });

// The page resolves the bare imports of peers_core.mjs, three and three-mesh-bvh through an
// import map onto bench/web/node_modules, served as they are (no bundler).
const nm = '/node_modules/';
const importMap = {
  imports: {
    three: `${nm}three/build/three.module.js`,
    'three/examples/jsm/': `${nm}three/examples/jsm/`,
    'three/addons/': `${nm}three/examples/jsm/`,
    'three/webgpu': `${nm}three/build/three.webgpu.js`,
    'three/tsl': `${nm}three/build/three.tsl.js`,
    'three-mesh-bvh': `${nm}three-mesh-bvh/src/index.js`,
  },
};
const files = {
  '/': { type: 'text/html', body: `<!doctype html><meta charset="utf-8"><title>octree-fps web bench</title>
<script type="importmap">${JSON.stringify(importMap)}</script><script src="/wasm/octree_bench.js"></script><p>bench</p>` },
  '/data/level.obj': { file: path.resolve(levelFile) },
  '/data/queries': { file: path.resolve(queryFile) },
  '/data/ref': refFile ? { file: path.resolve(refFile) } : null,
};
const types = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const url = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  let file = null;
  let type = 'application/octet-stream';
  if (files[url]?.body) {
    res.writeHead(200, { 'Content-Type': files[url].type });
    res.end(files[url].body);
    return;
  } else if (files[url]?.file) {
    file = files[url].file;
  } else if (url.startsWith('/wasm/')) {
    file = path.join(wasmDir, path.basename(url));
  } else if (url.startsWith(nm) || url === '/peers_core.mjs') {
    file = path.join(here, path.normalize(url));
    if (!file.startsWith(here)) file = null;
  }
  if (file) type = types[path.extname(file)] ?? type;
  if (!file || !fs.existsSync(file)) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, { 'Content-Type': type });
  fs.createReadStream(file).pipe(res);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox'],
  protocolTimeout: 3600_000, // a pass on a large level takes minutes
});
let exitCode = 0;
try {
  const page = await browser.newPage();
  page.on('console', (m) => console.error(`page: ${m.text()}`));
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await page.goto(base, { waitUntil: 'load' });
  const out = await page.evaluate(async (rounds) => {
    const text = async (u) => (await fetch(u)).text();
    const [levelText, queryText, refText] = await Promise.all(
      [text('/data/level.obj'), text('/data/queries'), text('/data/ref')]);
    // 1. the octree: octree_bench's main() on the page's in-memory file system.
    const m = await globalThis.OctreeBench({ locateFile: (f) => `/wasm/${f}`, print: () => {},
      printErr: (s) => console.log(s) });
    m.FS.writeFile('/level.obj', levelText);
    m.FS.writeFile('/q.queries', queryText);
    const rc = m.callMain(['/level.obj', '/q.queries', '/q.results', '--rounds', String(rounds),
      '--build-rounds', '1', '--json', '/q.json', '--quiet']);
    const octree = JSON.parse(m.FS.readFile('/q.json', { encoding: 'utf8' }));
    const octreeResults = m.FS.readFile('/q.results', { encoding: 'utf8' });
    // 2. the peers, the same module as under Node.js.
    const core = await import('/peers_core.mjs');
    const level = core.parseObj(levelText);
    const queries = core.parseQueries(queryText);
    const r = core.run(level, queries, { rounds, log: (s) => console.log(s) });
    const peers = { runtime: navigator.userAgent, rounds, ...r.result };
    if (refText && !refText.startsWith('<')) {
      const ref = core.parseResults(refText, queries);
      for (const name of Object.keys(r.built)) peers.engines[name].agreement = core.compare(level, queries, r, name, ref);
    }
    return { rc, octree, octreeResults, peers, octreeResultsIdentical: refText === octreeResults };
  }, rounds);
  fs.writeFileSync(path.join(outDir, 'octree-wasm-simd.results'), out.octreeResults);
  const summary = { runtime: out.peers.runtime, octree_rc: out.rc,
    octree_results_identical: refFile ? out.octreeResultsIdentical : null, octree: out.octree, peers: out.peers };
  const textOut = JSON.stringify(summary, null, 1);
  if (jsonFile) fs.writeFileSync(jsonFile, textOut);
  console.log(textOut);
} catch (e) {
  console.error(`page.mjs: ${e.stack ?? e}`);
  exitCode = 1;
} finally {
  await browser.close();
  server.close();
}
process.exit(exitCode);
