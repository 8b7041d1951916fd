// A two-colour PNG from a 1-bit framebuffer (the board's: 32-bit words, pixel x of a row is
// bit x % 32 of word x / 32), for looking at what the firmware drew.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return out;
}

// readWord(i) returns framebuffer word i; off and on are [r, g, b].
export function writeFramebufferPng(path, width, height, readWord, off = [0, 0, 0], on = [0, 255, 0]) {
  const rowBytes = width / 8;
  const raw = Buffer.alloc(height * (rowBytes + 1));
  const wordsPerRow = width / 32;
  for (let y = 0; y < height; y++) {
    const row = y * (rowBytes + 1); // filter byte 0, then the row, most significant bit first
    for (let w = 0; w < wordsPerRow; w++) {
      const word = readWord(y * wordsPerRow + w) >>> 0;
      for (let b = 0; b < 4; b++) {
        let byte = 0;
        for (let k = 0; k < 8; k++) if (word & (1 << (8 * b + k))) byte |= 0x80 >> k;
        raw[row + 1 + 4 * w + b] = byte;
      }
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 3; // palette
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('PLTE', Buffer.from([...off, ...on])),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, png);
}
