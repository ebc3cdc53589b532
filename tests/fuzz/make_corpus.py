#!/usr/bin/env python3
"""Writes the fuzz seed corpus: one tiny valid level per format family, each prefixed with the
selector byte that gives it its extension (see fuzz_inputs.cpp). Run from anywhere:
    python3 tests/fuzz/make_corpus.py            # writes tests/fuzz/corpus/
The meshopt-compressed GLB is made by running gltfpack -c on the quantized crate (skipped with a
note when gltfpack is missing). Every seed is a unit crate (12 triangles) or a single quad."""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

EXTS = ["obj", "glb", "gltf", "off", "ply", "stl", "fbx", "dae", "3ds", "x", "ac", "ase", "md2",
        "smd", "lwo", "nff", "raw", "ter", "ms3d", "b3d", "xgl", "irrmesh", "q3o", "amf"]
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus")

CORNERS = [(x, y, z) for z in (0, 1) for y in (0, 1) for x in (0, 1)]  # index = x + 2y + 4z
TRIS = [(0, 2, 3), (0, 3, 1), (4, 5, 7), (4, 7, 6), (0, 4, 6), (0, 6, 2),
        (1, 3, 7), (1, 7, 5), (0, 1, 5), (0, 5, 4), (2, 6, 7), (2, 7, 3)]


def seed(name, ext, data):
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(bytes([EXTS.index(ext)]) + data)


def glb(doc, bin_):
    js = json.dumps(doc, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 4)
    bin_ += b"\0" * (-len(bin_) % 4)
    total = 12 + 8 + len(js) + 8 + len(bin_)
    return (b"glTF" + struct.pack("<II", 2, total) + struct.pack("<I", len(js)) + b"JSON" + js +
            struct.pack("<I", len(bin_)) + b"BIN\0" + bin_)


def crate_doc(pos_type, stride, pos_bytes, normalized=False, scale=(1, 1, 1), required=()):
    idx = b"".join(struct.pack("<3H", *t) for t in TRIS)
    bin_ = idx + pos_bytes
    acc = {"bufferView": 1, "componentType": pos_type, "count": 8, "type": "VEC3",
           "min": [0, 0, 0], "max": [1, 1, 1]}
    if normalized:
        acc["normalized"] = True
    doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
           "nodes": [{"mesh": 0, "name": "crate", "scale": list(scale)},
                     {"name": "spawn", "translation": [0, 2, 0]}],
           "meshes": [{"primitives": [{"attributes": {"POSITION": 1}, "indices": 0}]}],
           "accessors": [{"bufferView": 0, "componentType": 5123, "count": 36, "type": "SCALAR"}, acc],
           "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(idx)},
                           {"buffer": 0, "byteOffset": len(idx), "byteLength": len(pos_bytes),
                            "byteStride": stride}],
           "buffers": [{"byteLength": len(bin_)}]}
    doc["scenes"][0]["nodes"] = [0, 1]
    if required:
        doc["extensionsUsed"] = list(required)
        doc["extensionsRequired"] = list(required)
    return doc, bin_


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    # Text formats.
    seed("crate.obj", "obj", "o crate\n" + "".join("v %d %d %d\n" % c for c in CORNERS) +
         "".join("f %d %d %d\n" % (a + 1, b + 1, c + 1) for a, b, c in TRIS))
    seed("crate.off", "off", "OFF\n8 12 0\n" + "".join("%d %d %d\n" % c for c in CORNERS) +
         "".join("3 %d %d %d\n" % t for t in TRIS))
    ply_head = ("ply\nformat %s 1.0\nelement vertex 8\nproperty float x\nproperty float y\n"
                "property float z\nelement face 12\nproperty list uchar int vertex_indices\nend_header\n")
    seed("crate_ascii.ply", "ply", ply_head % "ascii" + "".join("%d %d %d\n" % c for c in CORNERS) +
         "".join("3 %d %d %d\n" % t for t in TRIS))
    seed("crate_binary.ply", "ply", (ply_head % "binary_little_endian").encode() +
         b"".join(struct.pack("<3f", *c) for c in CORNERS) +
         b"".join(struct.pack("<B3i", 3, *t) for t in TRIS))
    facets = b"".join(struct.pack("<12fH", 0, 0, 0, *CORNERS[a], *CORNERS[b], *CORNERS[c], 0)
                      for a, b, c in TRIS)
    seed("crate_binary.stl", "stl", b"binary crate".ljust(80, b" ") + struct.pack("<I", 12) + facets)
    seed("crate_ascii.stl", "stl", "solid crate\n" + "".join(
        "facet normal 0 0 0\nouter loop\n" + "".join("vertex %d %d %d\n" % CORNERS[i] for i in t) +
        "endloop\nendfacet\n" for t in TRIS) + "endsolid crate\n")
    seed("quad.nff", "nff", "v\nfrom 0 0 5\nat 0 0 0\nup 0 1 0\nangle 45\nhither 1\nresolution 64 64\n"
         "f 1 0 0 1 1 1\npp 4\n0 0 0 0 0 1\n1 0 0 0 0 1\n1 1 0 0 0 1\n0 1 0 0 0 1\n")
    seed("quad.raw", "raw", "0 0 0 1 0 0 1 1 0\n0 0 0 1 1 0 0 1 0\n")
    seed("quad.ac", "ac", "AC3Db\nMATERIAL \"m\" rgb 1 1 1  amb 0.2 0.2 0.2  emis 0 0 0  spec 0 0 0"
         "  shi 10  trans 0\nOBJECT world\nkids 1\nOBJECT poly\nname \"quad\"\nnumvert 4\n"
         "0 0 0\n1 0 0\n1 1 0\n0 1 0\nnumsurf 1\nSURF 0x10\nmat 0\nrefs 4\n0 0 0\n1 0 0\n"
         "2 0 0\n3 0 0\nkids 0\n")
    seed("quad.x", "x", "xof 0302txt 0032\nMesh quad {\n4;\n0.0;0.0;0.0;,\n1.0;0.0;0.0;,\n"
         "1.0;1.0;0.0;,\n0.0;1.0;0.0;;\n2;\n3;0,1,2;,\n3;0,2,3;;\n}\n")
    seed("quad.smd", "smd", "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n"
         "0 0 0 0 0 0 0\nend\ntriangles\nmat\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n"
         "0 1 1 0 0 0 1 1 1\nend\n")
    seed("crate.dae", "dae", """<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit meter="1"/><up_axis>Y_UP</up_axis></asset>
<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count="9">0 0 0 1 0 0 0 1 0</float_array>
<technique_common><accessor source="#pa" count="3" stride="3"><param name="X" type="float"/>
<param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
</mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"/></node>
</visual_scene></library_visual_scenes><scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
""")
    # glTF: float, quantized integer, quantized normalized, embedded .gltf.
    fpos = b"".join(struct.pack("<3f", *c) for c in CORNERS)
    doc, bin_ = crate_doc(5126, 12, fpos)
    seed("crate.glb", "glb", glb(doc, bin_))
    qpos = b"".join(struct.pack("<3Hxx", *(v * 1000 for v in c)) for c in CORNERS)
    doc, bin_ = crate_doc(5123, 8, qpos, scale=(0.004, 0.002, 0.004), required=["KHR_mesh_quantization"])
    doc["accessors"][1]["max"] = [1000, 1000, 1000]
    seed("crate_quantized.glb", "glb", glb(doc, bin_))
    npos = b"".join(struct.pack("<4b", *(v * 127 for v in c), 0) for c in CORNERS)
    doc, bin_ = crate_doc(5120, 4, npos, normalized=True, scale=(2, 2, 2), required=["KHR_mesh_quantization"])
    doc["accessors"][1]["max"] = [127, 127, 127]
    seed("crate_snorm8.glb", "glb", glb(doc, bin_))
    doc, bin_ = crate_doc(5126, 12, fpos)
    import base64
    doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(bin_).decode()
    seed("crate.gltf", "gltf", json.dumps(doc))
    gltfpack = shutil.which("gltfpack")
    if gltfpack:
        with tempfile.TemporaryDirectory() as tmp:
            src, dst = os.path.join(tmp, "in.glb"), os.path.join(tmp, "out.glb")
            doc, bin_ = crate_doc(5126, 12, fpos)
            with open(src, "wb") as f:
                f.write(glb(doc, bin_))
            subprocess.run([gltfpack, "-i", src, "-o", dst, "-c"], check=True, capture_output=True)
            with open(dst, "rb") as f:
                seed("crate_meshopt.glb", "glb", f.read())
    else:
        print("make_corpus: gltfpack not found, no meshopt seed", file=sys.stderr)
    print("make_corpus: %d seeds in %s" % (len(os.listdir(OUT)), OUT))


if __name__ == "__main__":
    main()
