// The JavaScript peers of the octree (bench/README.md "WebAssembly against three.js Octree and
// three-mesh-bvh"): three.js's Octree and three-mesh-bvh's MeshBVH answering the queries of a
// FORMAT.md query file (../shared/bench/FORMAT.md) on a level. No file system here: the same
// module runs under Node.js (peers.mjs) and in a page (page.mjs), which hand it the files' text.
//
// What each engine answers (the work differs between them; bench/README.md says how):
//   three-octree        three.js's own calls: rayIntersect (nearest hit; front faces only, no
//                       tmax: the hit is dropped afterwards when beyond tmax), sphereIntersect,
//                       capsuleIntersect, boxIntersect (one push-out vector each, not a count:
//                       only their hit flag can be compared).
//   three-octree-count  three.js's broad phase (getSphereTriangles, getCapsuleTriangles,
//                       getBoxTriangles) and its own triangle tests (triangleSphereIntersect,
//                       triangleCapsuleIntersect, triangleBoxIntersect), counted: FORMAT.md's
//                       "n triangles overlap" with three.js's tests. Rays as three-octree.
//   bvh, bvh-sah        three-mesh-bvh's MeshBVH (split strategy CENTER, its default, and SAH):
//                       raycastFirst with DoubleSide and [0, tmax]; shapecast counting the
//                       triangles its own tests accept (ExtendedTriangle.intersectsSphere,
//                       ExtendedTriangle.closestPointToSegment <= r for capsules,
//                       OrientedBox.intersectsTriangle for boxes).
import * as THREE from 'three';
import { Octree } from 'three/examples/jsm/math/Octree.js';
import { Capsule } from 'three/examples/jsm/math/Capsule.js';
import { MeshBVH, OrientedBox, CENTER, SAH } from 'three-mesh-bvh';

export const kinds = ['ray', 'sphere', 'capsule', 'box'];
export const engineNames = ['three-octree', 'three-octree-count', 'bvh', 'bvh-sah'];

// --- input ----------------------------------------------------------------------------------

// FORMAT.md's level: `v x y z` and `f a b c` (a/b/c forms allowed; 1-based; negative indices
// count from the end as in OBJ). Vertices are stored as float32, as the octree stores them, so
// every engine sees the same triangles bit for bit.
export function parseObj(text) {
  const verts = [];
  const tris = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('v ')) {
      const p = line.trim().split(/\s+/);
      verts.push(+p[1], +p[2], +p[3]);
    } else if (line.startsWith('f ')) {
      const p = line.trim().split(/\s+/).slice(1);
      const idx = p.map((s) => {
        const i = parseInt(s, 10);
        return i < 0 ? verts.length / 3 + i : i - 1;
      });
      for (let k = 1; k + 1 < idx.length; k++) tris.push(idx[0], idx[k], idx[k + 1]);
    }
  }
  // One float32 copy of each triangle's corners: three-mesh-bvh reorders its index buffer, so
  // unshared corners let a reordered triangle name its original index (corner / 3).
  const n = tris.length / 3;
  const pos = new Float32Array(n * 9);
  for (let t = 0; t < n; t++) {
    for (let c = 0; c < 3; c++) {
      const v = tris[3 * t + c];
      pos[9 * t + 3 * c] = verts[3 * v];
      pos[9 * t + 3 * c + 1] = verts[3 * v + 1];
      pos[9 * t + 3 * c + 2] = verts[3 * v + 2];
    }
  }
  let lo = [Infinity, Infinity, Infinity];
  let hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < pos.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      lo[a] = Math.min(lo[a], pos[i + a]);
      hi[a] = Math.max(hi[a], pos[i + a]);
    }
  }
  const diagonal = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  return { triangles: n, pos, diagonal };
}

// FORMAT.md's queries, grouped by kind and kept in file order (the result file's order).
export function parseQueries(text) {
  const order = []; // [kind, index within kind]
  const byKind = { ray: [], sphere: [], capsule: [], box: [] };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const p = line.split(/\s+/);
    const kind = p[0];
    if (!(kind in byKind)) throw new Error(`unknown query kind '${kind}'`);
    const v = p.slice(1).map(Number);
    if (kind === 'ray') {
      const l = Math.hypot(v[3], v[4], v[5]);
      v[3] /= l; // FORMAT.md: the reader normalises the direction
      v[4] /= l;
      v[5] /= l;
    }
    order.push([kind, byKind[kind].length]);
    byKind[kind].push(v);
  }
  return { order, byKind };
}

// --- engines --------------------------------------------------------------------------------

// Answers go into typed arrays (hit flag as n or tri >= 0) so a timed pass does the same work
// as the recorded one and nothing is optimised away.
function answerArrays(count) {
  return { n: new Int32Array(count), t: new Float64Array(count) };
}

// Segment [a, b] against the box grown by r: a conservative capsule-box test (the grown box
// holds the capsule's Minkowski sum with the box), for three-mesh-bvh's intersectsBounds,
// which has no capsule of its own.
function segmentHitsGrownBox(a, b, r, box) {
  let t0 = 0;
  let t1 = 1;
  for (const ax of ['x', 'y', 'z']) {
    const lo = box.min[ax] - r;
    const hi = box.max[ax] + r;
    const d = b[ax] - a[ax];
    if (d === 0) {
      if (a[ax] < lo || a[ax] > hi) return false;
    } else {
      let u0 = (lo - a[ax]) / d;
      let u1 = (hi - a[ax]) / d;
      if (u0 > u1) [u0, u1] = [u1, u0];
      if (u0 > t0) t0 = u0;
      if (u1 < t1) t1 = u1;
      if (t0 > t1) return false;
    }
  }
  return true;
}

// The three.js objects of each query, made once (a game keeps its own objects too).
function threeQueries(byKind, grow = 0) {
  const V = (x, y, z) => new THREE.Vector3(x, y, z);
  return {
    ray: byKind.ray.map((q) => ({ ray: new THREE.Ray(V(q[0], q[1], q[2]), V(q[3], q[4], q[5])), tmax: q[6] })),
    sphere: byKind.sphere.map((q) => new THREE.Sphere(V(q[0], q[1], q[2]), q[3] + grow)),
    capsule: byKind.capsule.map((q) => new Capsule(V(q[0], q[1], q[2]), V(q[3], q[4], q[5]), q[6] + grow)),
    box: byKind.box.map((q) => new THREE.Box3(V(q[0] - grow, q[1] - grow, q[2] - grow), V(q[3] + grow, q[4] + grow, q[5] + grow))),
  };
}

function buildThreeOctree(level) {
  const octree = new Octree();
  const index = new Map(); // Triangle -> its index in the level
  const p = level.pos;
  for (let t = 0; t < level.triangles; t++) {
    const o = 9 * t;
    const tri = new THREE.Triangle(
      new THREE.Vector3(p[o], p[o + 1], p[o + 2]),
      new THREE.Vector3(p[o + 3], p[o + 4], p[o + 5]),
      new THREE.Vector3(p[o + 6], p[o + 7], p[o + 8]));
    index.set(tri, t);
    // addTriangle + build is what fromGraphNode does for a mesh, minus the world transform;
    // calling it directly keeps each Triangle's level index.
    octree.addTriangle(tri);
  }
  octree.build();
  return { octree, index };
}

function threeOctreeRays(built, qs, out) {
  const { octree, index } = built;
  for (let i = 0; i < qs.length; i++) {
    const r = octree.rayIntersect(qs[i].ray);
    if (r && r.distance <= qs[i].tmax) {
      out.n[i] = index.get(r.triangle);
      out.t[i] = r.distance;
    } else {
      out.n[i] = -1;
    }
  }
}

function makeThreeOctree(level, counting, cache) {
  // Both three.js engines answer on one tree (its build is the slow part of a run).
  cache.threeOctree ??= buildThreeOctree(level);
  const built = cache.threeOctree;
  const { octree } = built;
  const tris = [];
  const count = (qs, out, gather, test) => {
    for (let i = 0; i < qs.length; i++) {
      tris.length = 0;
      gather.call(octree, qs[i], tris);
      let n = 0;
      for (let k = 0; k < tris.length; k++) if (test.call(octree, qs[i], tris[k])) n++;
      out.n[i] = n;
    }
  };
  const flag = (qs, out, call) => {
    for (let i = 0; i < qs.length; i++) out.n[i] = call.call(octree, qs[i]) ? 1 : 0;
  };
  return {
    ray: (qs, out) => threeOctreeRays(built, qs, out),
    sphere: counting
      ? (qs, out) => count(qs, out, octree.getSphereTriangles, octree.triangleSphereIntersect)
      : (qs, out) => flag(qs, out, octree.sphereIntersect),
    capsule: counting
      ? (qs, out) => count(qs, out, octree.getCapsuleTriangles, octree.triangleCapsuleIntersect)
      : (qs, out) => flag(qs, out, octree.capsuleIntersect),
    box: counting
      ? (qs, out) => count(qs, out, octree.getBoxTriangles, octree.triangleBoxIntersect)
      : (qs, out) => flag(qs, out, octree.boxIntersect),
    flagsOnly: !counting, // overlap answers are hit flags, not counts
    // triangleCapsuleIntersect returns false as soon as both segment ends lie behind the
    // triangle's plane (d < -r with d = distance - r), so a capsule touching a triangle from
    // behind is not counted. The same count with each candidate also tried reversed (its plane
    // flipped) shows whether that is why an answer differs.
    explain: (kind, q, refN) => {
      if (kind !== 'capsule') return null;
      tris.length = 0;
      octree.getCapsuleTriangles(q, tris);
      let n = 0;
      for (const t of tris) {
        if (octree.triangleCapsuleIntersect(q, t) ||
            octree.triangleCapsuleIntersect(q, new THREE.Triangle(t.a, t.c, t.b))) n++;
      }
      return (counting ? n === refN : (n > 0) === (refN > 0)) ? 'back-side' : null;
    },
  };
}

function makeBvh(level, strategy) {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(level.pos, 3));
  const idx = new Uint32Array(level.triangles * 3);
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  geometry.setIndex(new THREE.BufferAttribute(idx, 1));
  const bvh = new MeshBVH(geometry, { strategy });
  const index = geometry.index.array; // reordered by the build: corner / 3 is the level index
  const obb = new OrientedBox();
  const segment = new THREE.Line3();
  return {
    ray: (qs, out) => {
      for (let i = 0; i < qs.length; i++) {
        const hit = bvh.raycastFirst(qs[i].ray, THREE.DoubleSide, 0, qs[i].tmax);
        if (hit) {
          out.n[i] = index[3 * hit.faceIndex] / 3;
          out.t[i] = hit.distance;
        } else {
          out.n[i] = -1;
        }
      }
    },
    sphere: (qs, out) => {
      for (let i = 0; i < qs.length; i++) {
        const s = qs[i];
        let n = 0;
        bvh.shapecast({
          intersectsBounds: (box) => s.intersectsBox(box),
          intersectsTriangle: (tri) => {
            if (tri.intersectsSphere(s)) n++;
            return false; // keep going: count every triangle
          },
        });
        out.n[i] = n;
      }
    },
    capsule: (qs, out) => {
      for (let i = 0; i < qs.length; i++) {
        const c = qs[i];
        segment.set(c.start, c.end);
        let n = 0;
        bvh.shapecast({
          intersectsBounds: (box) => segmentHitsGrownBox(c.start, c.end, c.radius, box),
          intersectsTriangle: (tri) => {
            if (tri.closestPointToSegment(segment) <= c.radius) n++;
            return false;
          },
        });
        out.n[i] = n;
      }
    },
    box: (qs, out) => {
      for (let i = 0; i < qs.length; i++) {
        const b = qs[i];
        obb.set(b.min, b.max, new THREE.Matrix4()); // axis-aligned: identity
        obb.needsUpdate = true;
        let n = 0;
        bvh.shapecast({
          intersectsBounds: (box) => b.intersectsBox(box),
          intersectsTriangle: (tri) => {
            if (obb.intersectsTriangle(tri)) n++;
            return false;
          },
        });
        out.n[i] = n;
      }
    },
    flagsOnly: false,
  };
}

export function makeEngine(name, level, cache = {}) {
  switch (name) {
    case 'three-octree': return makeThreeOctree(level, false, cache);
    case 'three-octree-count': return makeThreeOctree(level, true, cache);
    case 'bvh': return makeBvh(level, CENTER);
    case 'bvh-sah': return makeBvh(level, SAH);
    default: throw new Error(`unknown engine '${name}' (${engineNames.join(', ')})`);
  }
}

// --- runs -----------------------------------------------------------------------------------

const now = () => performance.now();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// Builds every engine (timed, once each), then per kind: a warm-up pass whose answers are kept,
// then `rounds` timed passes with the engines interleaved in each round, so load from other
// processes falls on all of them alike. Rate = queries / median pass.
export function run(level, queries, { engines = engineNames, rounds = 5, log = () => {} } = {}) {
  const built = {};
  const buildMs = {};
  const cache = {};
  for (const name of engines) {
    const t0 = now();
    const shared = name === 'three-octree-count' && cache.threeOctree;
    built[name] = makeEngine(name, level, cache);
    // null: answered on the tree an earlier engine built (no build of its own to time)
    buildMs[name] = shared ? null : now() - t0;
    log(`${name}: ${shared ? 'same tree as three-octree' : `built in ${buildMs[name].toFixed(0)} ms`}`);
  }
  const qs = threeQueries(queries.byKind);
  const result = { triangles: level.triangles, engines: {} };
  const answers = {};
  for (const name of engines) {
    result.engines[name] = { build_ms: buildMs[name], flags_only: built[name].flagsOnly, kinds: {} };
    answers[name] = {};
  }
  for (const kind of kinds) {
    const count = qs[kind].length;
    if (!count) continue;
    const passes = {};
    for (const name of engines) {
      answers[name][kind] = answerArrays(count);
      built[name][kind](qs[kind], answers[name][kind]); // warm-up: the answers compared
      passes[name] = [];
    }
    const scratch = answerArrays(count);
    for (let r = 0; r < rounds; r++) {
      for (const name of engines) {
        const t0 = now();
        built[name][kind](qs[kind], scratch);
        passes[name].push(now() - t0);
      }
    }
    for (const name of engines) {
      const med = median(passes[name]);
      result.engines[name].kinds[kind] = {
        count,
        median_ms: med,
        best_ms: Math.min(...passes[name]),
        pass_ms: passes[name],
        queries_per_second: count / (med / 1000),
      };
      log(`${name} ${kind}: ${(count / (med / 1000)).toFixed(0)} /s (median of ${rounds})`);
    }
  }
  return { result, answers, built, qs };
}

// The result file (FORMAT.md) of one engine's answers, in query-file order. An engine whose
// overlap answers are only hit flags writes `kind 1 1` / `kind 0` for them (n unknown):
// compare those lines by flag only.
export function resultText(queries, engineAnswers, flagsOnly) {
  const lines = [];
  for (const [kind, i] of queries.order) {
    const a = engineAnswers[kind];
    if (kind === 'ray') {
      lines.push(a.n[i] >= 0 ? `ray 1 ${a.t[i].toPrecision(9)} ${a.n[i]}` : 'ray 0');
    } else if (flagsOnly) {
      lines.push(a.n[i] ? `${kind} 1 1` : `${kind} 0`);
    } else {
      lines.push(a.n[i] > 0 ? `${kind} 1 ${a.n[i]}` : `${kind} 0`);
    }
  }
  return lines.join('\n') + '\n';
}

// A reference result file (the octree's, which the repository's tests prove equal to brute
// force), grouped by kind like the queries.
export function parseResults(text, queries) {
  const lines = text.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
  if (lines.length !== queries.order.length) {
    throw new Error(`reference has ${lines.length} lines for ${queries.order.length} queries`);
  }
  const ref = {};
  for (const k of kinds) ref[k] = answerArrays(queries.byKind[k].length);
  lines.forEach((line, j) => {
    const [kind, i] = queries.order[j];
    const p = line.split(/\s+/);
    if (p[0] !== kind) throw new Error(`reference line ${j + 1} is '${p[0]}', query is '${kind}'`);
    const hit = p[1] === '1';
    if (kind === 'ray') {
      ref.ray.n[i] = hit ? +p[3] : -1;
      ref.ray.t[i] = hit ? +p[2] : 0;
    } else {
      ref[kind].n[i] = hit ? +p[2] : 0;
    }
  });
  return ref;
}

// FORMAT.md agreement: same hit flag, same n, t within 1e-4 of the level's diagonal (either
// triangle on a tie). Each disagreement gets a reason where one can be shown:
//   ray  back-face: the reference's triangle faces away from the ray (direction . normal > 0),
//        and the engine missed it or hit something farther (three.js's rayIntersect culls
//        back faces);
//   overlaps touching: the engine's answer with the shape grown or shrunk by 1e-5 of the
//        diagonal equals the reference's (a contact decided the other way by rounding or by a
//        strict < where FORMAT.md counts touching);
//   capsule back-side: three.js's capsule test rejects a triangle both of whose segment ends
//        lie behind its plane; counted with the triangles also tried reversed, the answer
//        equals the reference's;
//   other: none of these.
export function compare(level, queries, run, engine, ref) {
  const { built, answers } = run;
  const eps = 1e-5 * level.diagonal;
  const tol = 1e-4 * level.diagonal;
  const grown = threeQueries(queries.byKind, eps);
  const shrunk = threeQueries(queries.byKind, -eps);
  const out = {};
  const p = level.pos;
  for (const kind of kinds) {
    const a = answers[engine][kind];
    const r = ref[kind];
    const count = queries.byKind[kind].length;
    const flagsOnly = built[engine].flagsOnly && kind !== 'ray';
    let agree = 0;
    const reasons = {};
    const examples = [];
    const bad = [];
    for (let i = 0; i < count; i++) {
      let same;
      if (kind === 'ray') {
        const ah = a.n[i] >= 0;
        const rh = r.n[i] >= 0;
        same = ah === rh && (!ah || Math.abs(a.t[i] - r.t[i]) <= tol);
      } else if (flagsOnly) {
        same = (a.n[i] > 0) === (r.n[i] > 0);
      } else {
        same = a.n[i] === r.n[i];
      }
      if (same) agree++;
      else bad.push(i);
    }
    for (const i of bad) {
      let reason = 'other';
      if (kind === 'ray') {
        const q = queries.byKind.ray[i];
        if (r.n[i] >= 0 && (a.n[i] < 0 || a.t[i] > r.t[i])) {
          const o = 9 * r.n[i];
          const e1 = [p[o + 3] - p[o], p[o + 4] - p[o + 1], p[o + 5] - p[o + 2]];
          const e2 = [p[o + 6] - p[o], p[o + 7] - p[o + 1], p[o + 8] - p[o + 2]];
          const nx = e1[1] * e2[2] - e1[2] * e2[1];
          const ny = e1[2] * e2[0] - e1[0] * e2[2];
          const nz = e1[0] * e2[1] - e1[1] * e2[0];
          if (nx * q[3] + ny * q[4] + nz * q[5] > 0) reason = 'back-face';
        }
        if (reason === 'other' && r.n[i] >= 0 && a.n[i] >= 0) reason = 't-differs';
        if (reason === 'other') reason = r.n[i] >= 0 ? 'missed' : 'extra-hit';
      } else {
        const one = (set) => {
          const o = answerArrays(1);
          built[engine][kind]([set[kind][i]], o);
          return flagsOnly ? (o.n[0] > 0) === (r.n[i] > 0) : o.n[0] === r.n[i];
        };
        if (one(grown) || one(shrunk)) reason = 'touching';
        else if (built[engine].explain?.(kind, run.qs[kind][i], r.n[i])) reason = 'back-side';
        else reason = a.n[i] > r.n[i] ? 'counts-more' : 'counts-fewer';
      }
      reasons[reason] = (reasons[reason] ?? 0) + 1;
      if (examples.length < 5) {
        examples.push({ query: i, reason, engine: kind === 'ray' ? [a.n[i], a.t[i]] : a.n[i],
          reference: kind === 'ray' ? [r.n[i], r.t[i]] : r.n[i] });
      }
    }
    out[kind] = { count, agree, agreement: agree / count, flags_only: flagsOnly, reasons, examples };
  }
  return out;
}
