// three.js's Octree and three-mesh-bvh on a FORMAT.md query file, under Node.js (a benchmark,
// not a test: bench/README.md "WebAssembly against three.js Octree and three-mesh-bvh").
//
//   node bench/web/peers.mjs LEVEL.obj QUERIES --out DIR [--ref OCTREE.results] [--rounds N]
//        [--engines three-octree,three-octree-count,bvh,bvh-sah] [--json FILE]
//
// Writes DIR/<engine>.results (FORMAT.md) for each engine and prints JSON: build time, queries
// per second per kind (median of the timed passes) and, with --ref, each engine's agreement
// with the reference result file and the reasons for the disagreements (peers_core.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { engineNames, parseObj, parseQueries, parseResults, run, resultText, compare } from './peers_core.mjs';
import { takeOption } from './cli_options.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => takeOption(argv, name, fallback);
const outDir = option('--out', null);
const refFile = option('--ref', null);
const rounds = Number(option('--rounds', '5'));
const engines = option('--engines', engineNames.join(',')).split(',');
const jsonFile = option('--json', null);
const [levelFile, queryFile] = argv;
if (!levelFile || !queryFile || !outDir) {
  console.error('usage: node peers.mjs LEVEL.obj QUERIES --out DIR [--ref R] [--rounds N] [--engines a,b] [--json F]');
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });

const level = parseObj(fs.readFileSync(levelFile, 'utf8'));
const queries = parseQueries(fs.readFileSync(queryFile, 'utf8'));
const log = (s) => console.error(`peers: ${s}`);
log(`${path.basename(levelFile)}: ${level.triangles} triangles; ${queries.order.length} queries`);
const r = run(level, queries, { engines, rounds, log });
const summary = {
  level: path.basename(levelFile),
  runtime: `node ${process.version}`,
  rounds,
  ...r.result,
};
const ref = refFile ? parseResults(fs.readFileSync(refFile, 'utf8'), queries) : null;
for (const name of engines) {
  fs.writeFileSync(path.join(outDir, `${name}.results`),
    resultText(queries, r.answers[name], r.built[name].flagsOnly));
  if (ref) summary.engines[name].agreement = compare(level, queries, r, name, ref);
}
const text = JSON.stringify(summary, null, 1);
if (jsonFile) fs.writeFileSync(jsonFile, text);
console.log(text);
