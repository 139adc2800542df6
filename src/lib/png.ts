import { createRequire } from 'node:module';

/** Node's zlib, loaded with the first picture drawn: the package's import does not pay for it (~2 ms). */
let zlib: typeof import('node:zlib') | undefined;
function deflateSync(data: Buffer): Buffer {
  zlib ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
  return zlib.deflateSync(data);
}

/**
 * Draws a small real PNG: a rounded tile in the integration's colour with a lighter band, so that
 * every integration of the catalogue has a logo and an icon that any image decoder opens.
 */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(buffer: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function parseColor(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.replace('#', ''), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

export function tilePng(size: number, color: string): Buffer {
  const [r, g, b] = parseColor(color);
  const radius = Math.max(2, Math.floor(size / 6));
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      const dx = Math.max(radius - x, x - (size - 1 - radius), 0);
      const dy = Math.max(radius - y, y - (size - 1 - radius), 0);
      const inside = dx * dx + dy * dy <= radius * radius;
      const band = y > size * 0.55 && y < size * 0.7;
      const offset = 1 + x * 4;
      row[offset] = band ? Math.min(255, r + 90) : r;
      row[offset + 1] = band ? Math.min(255, g + 90) : g;
      row[offset + 2] = band ? Math.min(255, b + 90) : b;
      row[offset + 3] = inside ? 255 : 0;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
