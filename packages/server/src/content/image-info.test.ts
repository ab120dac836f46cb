import { describe, expect, it } from 'vitest';
import { readImageInfo } from './image-info.js';

/** A PNG signature and IHDR chunk for the given size (enough for the header reader). */
export function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(6, 9);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d', 'hex'), Buffer.from('IHDR'), ihdr, Buffer.alloc(4)]);
}

function gif(width: number, height: number): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt16LE(width, 0);
  size.writeUInt16LE(height, 2);
  return Buffer.concat([Buffer.from('GIF89a'), size, Buffer.alloc(3)]);
}

function jpeg(width: number, height: number): Buffer {
  // SOI, an APP0 segment to skip, then SOF0 with precision, height, width.
  const app0 = Buffer.from('ffe000104a46494600010100000100010000', 'hex');
  const sof = Buffer.alloc(11);
  sof.writeUInt16BE(0xffc0, 0);
  sof.writeUInt16BE(9, 2);
  sof.writeUInt8(8, 4);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from('ffd8', 'hex'), app0, sof]);
}

function webp(chunk: 'VP8 ' | 'VP8L' | 'VP8X', width: number, height: number): Buffer {
  const body = Buffer.alloc(18);
  if (chunk === 'VP8 ') {
    // Frame tag (3 bytes), start code, then the sizes.
    body.set([0x9d, 0x01, 0x2a], 3);
    body.writeUInt16LE(width, 6);
    body.writeUInt16LE(height, 8);
  } else if (chunk === 'VP8L') {
    body.writeUInt8(0x2f, 0);
    body.writeUInt32LE(((height - 1) << 14) | (width - 1), 1);
  } else {
    // Flags and reserved bytes (4), then the canvas size.
    body.writeUIntLE(width - 1, 4, 3);
    body.writeUIntLE(height - 1, 7, 3);
  }
  return Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP'), Buffer.from(chunk), Buffer.alloc(4), body]);
}

describe('readImageInfo', () => {
  it.each([
    ['PNG', pngHeader(640, 480), 'image/png', 640, 480],
    ['GIF', gif(16, 9), 'image/gif', 16, 9],
    ['JPEG', jpeg(1920, 1080), 'image/jpeg', 1920, 1080],
    ['WebP lossy', webp('VP8 ', 300, 200), 'image/webp', 300, 200],
    ['WebP lossless', webp('VP8L', 123, 45), 'image/webp', 123, 45],
    ['WebP extended', webp('VP8X', 4000, 3000), 'image/webp', 4000, 3000],
  ])('reads %s', (_name, bytes, contentType, width, height) => {
    expect(readImageInfo(bytes)).toEqual({ contentType, width, height });
  });

  it('reads nothing from other or truncated bytes', () => {
    expect(readImageInfo(Buffer.from('plain text, not an image'))).toBeUndefined();
    expect(readImageInfo(pngHeader(1, 1).subarray(0, 20))).toBeUndefined();
    expect(readImageInfo(jpeg(10, 10).subarray(0, 24))).toBeUndefined();
    expect(readImageInfo(Buffer.alloc(0))).toBeUndefined();
  });
});
