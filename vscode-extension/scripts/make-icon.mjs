// Draws media/icon.png (128x128): a chat bubble with code chevrons on a rounded blue square.
// A tiny PNG writer (zlib + CRC-32) so no image library is needed; 4x4 supersampling smooths
// the edges. Rerun after changing the drawing: node scripts/make-icon.mjs
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const SIZE = 128;
const SS = 4;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function roundedRect(x, y, x0, y0, x1, y1, r) {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return x >= x0 && x <= x1 && y >= y0 && y <= y1 && (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}
function segmentDistance(px, py, ax, ay, bx, by) {
  const t = Math.max(
    0,
    Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)),
  );
  return Math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay)));
}
function inTriangle(px, py, [ax, ay], [bx, by], [cx, cy]) {
  const s = (x1, y1, x2, y2, x3, y3) => (x1 - x3) * (y2 - y3) - (x2 - x3) * (y1 - y3);
  const d1 = s(px, py, ax, ay, bx, by),
    d2 = s(px, py, bx, by, cx, cy),
    d3 = s(px, py, cx, cy, ax, ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
}

/** The colour of one point, as [r, g, b, a] in 0..255. */
function paint(x, y) {
  if (!roundedRect(x, y, 4, 4, 124, 124, 24)) return [0, 0, 0, 0];
  const t = y / SIZE;
  let c = [Math.round(30 + 20 * t), Math.round(80 + 40 * t), Math.round(170 + 30 * t), 255];
  const bubble = roundedRect(x, y, 22, 26, 106, 86, 14) || inTriangle(x, y, [36, 84], [58, 84], [34, 104]);
  if (bubble) c = [250, 250, 252, 255];
  const strokes = [
    [50, 44, 38, 56],
    [38, 56, 50, 68], // <
    [78, 44, 90, 56],
    [90, 56, 78, 68], // >
    [69, 42, 59, 70], // /
  ];
  if (bubble && strokes.some(([ax, ay, bx, by]) => segmentDistance(x, y, ax, ay, bx, by) <= 3.2))
    c = [20, 150, 140, 255];
  return c;
}

const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) {
    const sum = [0, 0, 0, 0];
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const p = paint(x + (sx + 0.5) / SS, y + (sy + 0.5) / SS);
        // Premultiply so transparent samples do not darken the edge.
        for (let i = 0; i < 3; i++) sum[i] += (p[i] * p[3]) / 255;
        sum[3] += p[3];
      }
    }
    const n = SS * SS;
    const a = sum[3] / n;
    const o = y * (SIZE * 4 + 1) + 1 + x * 4;
    for (let i = 0; i < 3; i++) raw[o + i] = a > 0 ? Math.round((sum[i] / n) * (255 / a)) : 0;
    raw[o + 3] = Math.round(a);
  }
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk("IHDR", header),
  chunk("IDAT", deflateSync(raw, { level: 9 })),
  chunk("IEND", Buffer.alloc(0)),
]);
const out = new URL("../media/icon.png", import.meta.url);
writeFileSync(out, png);
console.log(`wrote ${out.pathname} (${png.length} bytes)`);
