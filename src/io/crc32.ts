/**
 * CRC-32 (the gzip / Parquet page checksum): Node's native `zlib.crc32` where it exists (Node
 * 20.15 and later), else a table-driven one here.
 */
import * as zlib from 'node:zlib';

let table: Uint32Array | undefined;

function crc32Here(bytes: Uint8Array): number {
  table ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const native = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

/**
 * The CRC-32 of `bytes`, unsigned.
 *
 * @example crc32(new TextEncoder().encode('123456789')) // 0xcbf43926
 */
export function crc32(bytes: Uint8Array): number {
  return native ? native(bytes) >>> 0 : crc32Here(bytes);
}
