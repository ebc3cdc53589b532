// The markdown tables of bench/web/run.sh's passes: queries per second per engine and kind
// (median over the passes, [min-max] beside it, so the machine's load shows), the ratios of
// the WASM octree to each peer and of native to WASM, and each peer's agreement with the
// octree's results.
//
//   node bench/web/report.mjs RUNS_DIR LEVEL...
//
// Each pass's rate is the queries over the median of its timed passes (octree_bench's
// `median_ms`, peers.mjs's `median_ms`), for every engine alike.
import fs from 'node:fs';
import path from 'node:path';

const [runsDir, ...levels] = process.argv.slice(2);
const kinds = ['ray', 'sphere', 'capsule', 'box'];
const passes = fs.readdirSync(runsDir).filter((d) => /^p\d+$/.test(d)).sort();
const read = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : null);

const labels = {
  'octree-native': 'octree, native x86-64 (SSE2/AVX2)',
  'octree-wasm-simd': 'octree, WASM SIMD128 (node)',
  'octree-wasm': 'octree, WASM plain (node)',
  'node:three-octree': 'three.js Octree, its API (node)',
  'node:three-octree-count': 'three.js Octree, counted (node)',
  'node:bvh': 'three-mesh-bvh CENTER (node)',
  'node:bvh-sah': 'three-mesh-bvh SAH (node)',
  'page:octree-wasm-simd': 'octree, WASM SIMD128 (page)',
  'page:three-octree': 'three.js Octree, its API (page)',
  'page:three-octree-count': 'three.js Octree, counted (page)',
  'page:bvh': 'three-mesh-bvh CENTER (page)',
  'page:bvh-sah': 'three-mesh-bvh SAH (page)',
};

// engine -> { build: [per pass], kind: [per pass rate] }, plus agreement of the last pass
function collect(level) {
  const e = {};
  // Values are kept by pass (sparse), so a ratio only pairs numbers from the same pass.
  let pass = 0;
  const add = (name, kind, v) => {
    e[name] ??= { build: [], best: {}, agreement: null };
    (e[name][kind] ??= [])[pass] = v;
  };
  const octree = (name, j) => {
    if (!j) return;
    add(name, 'build', j.build_ms);
    for (const k of kinds) {
      add(name, k, j.kinds[k].count / (j.kinds[k].median_ms / 1000));
      (e[name].best[k] ??= [])[pass] = j.kinds[k].queries_per_second; // its fastest pass
    }
  };
  const peers = (prefix, j) => {
    if (!j) return;
    for (const [n, v] of Object.entries(j.engines)) {
      add(`${prefix}:${n}`, 'build', v.build_ms);
      for (const k of kinds) add(`${prefix}:${n}`, k, v.kinds[k].queries_per_second);
      e[`${prefix}:${n}`].agreement = v.agreement;
      e[`${prefix}:${n}`].flagsOnly = v.flags_only;
    }
  };
  for (const [pi, p] of passes.entries()) {
    pass = pi;
    const dir = path.join(runsDir, p, level);
    for (const n of ['octree-native', 'octree-wasm-simd', 'octree-wasm']) octree(n, read(path.join(dir, `${n}.json`)));
    peers('node', read(path.join(dir, 'peers-node.json')));
    const page = read(path.join(dir, 'page.json'));
    if (page) {
      octree('page:octree-wasm-simd', page.octree);
      peers('page', page.peers);
    }
  }
  return e;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const rate = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : x >= 1e3 ? `${(x / 1e3).toFixed(1)} k` : x.toFixed(0));
const present = (xs) => xs.filter((x) => x !== undefined && x !== null);
const spread = (ys, f, xs = present(ys)) => (xs.length > 1 ? `${f(median(xs))} [${f(Math.min(...xs))}–${f(Math.max(...xs))}]` : f(xs[0]));
const ratio = (x) => `${x.toFixed(x >= 10 ? 0 : x >= 1 ? 1 : 2)}×`;

let md = `${passes.length} passes; each cell: median over the passes [min–max]\n`;
for (const level of levels) {
  const e = collect(level);
  const names = Object.keys(labels).filter((n) => e[n]);
  md += `\n### ${level}\n\n| engine | build ms | ray/s | sphere/s | capsule/s | box/s |\n|---|---:|---:|---:|---:|---:|\n`;
  for (const n of names) {
    const builds = present(e[n].build);
    md += `| ${labels[n]} | ${builds.length ? spread(builds, (x) => x.toFixed(x < 10 ? 1 : 0)) : 'same tree'} |`;
    for (const k of kinds) md += ` ${spread(e[n][k], rate)} |`;
    md += '\n';
  }
  // Ratios per pass (same pass, same load), then their median and range.
  const ratios = (num, den, field = (x, k) => x[k]) => kinds.map((k) => {
    const a = field(e[num], k);
    const b = field(e[den], k);
    return spread(a.map((x, i) => (b[i] === undefined ? undefined : x / b[i])), ratio);
  });
  md += `\n| ${level}: ratio | ray | sphere | capsule | box |\n|---|---:|---:|---:|---:|\n`;
  for (const [num, den] of [['octree-native', 'octree-wasm-simd'], ['octree-native', 'octree-wasm'],
    ['octree-wasm-simd', 'octree-wasm']]) {
    if (!e[num] || !e[den]) continue;
    md += `| ${labels[num]} ÷ ${labels[den]} | ${ratios(num, den).join(' | ')} |\n`;
    // octree_bench's fastest timed pass: less sensitive to load than the median on a shared VM
    md += `| same, fastest pass of each process | ${ratios(num, den, (x, k) => x.best[k]).join(' | ')} |\n`;
  }
  for (const where of ['node', 'page']) {
    const ours = where === 'node' ? 'octree-wasm-simd' : 'page:octree-wasm-simd';
    if (!e[ours]) continue;
    for (const n of names.filter((x) => x.startsWith(`${where}:`) && x !== ours)) {
      md += `| ${labels[ours]} ÷ ${labels[n]} | ${ratios(ours, n).join(' | ')} |\n`;
    }
  }
  md += `\n| ${level}: agreement with the octree's results | ray | sphere | capsule | box |\n|---|---|---|---|---|\n`;
  for (const n of names.filter((x) => e[x].agreement)) {
    const cells = kinds.map((k) => {
      const a = e[n].agreement[k];
      const why = Object.entries(a.reasons).map(([r, c]) => `${c} ${r}`).join(', ');
      return `${(100 * a.agreement).toFixed(2)} %${a.flags_only ? ' (hit flag)' : ''}${why ? ` (${why})` : ''}`;
    });
    md += `| ${labels[n]} | ${cells.join(' | ')} |\n`;
  }
}
console.log(md);
