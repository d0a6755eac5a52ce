import { endianness } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  decodeFloat32Base64,
  encodeFloat32Base64,
} from '../../../src/protocols/openai-embeddings/float32-base64.js';

/**
 * `encoding_format: "base64"` (https://platform.openai.com/docs/api-reference/embeddings/create):
 * float32 little-endian, as the `openai` SDK reads it back with a `Float32Array` over the bytes.
 */

const values = [0.1, -2.5, 1e-8, 123456.789, -0, 3.4e38, Number.POSITIVE_INFINITY];

/** The bytes as written by a `DataView`, little-endian whatever the host. */
function littleEndianBytes(numbers: readonly number[]): Buffer {
  const view = new DataView(new ArrayBuffer(numbers.length * 4));
  numbers.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return Buffer.from(view.buffer);
}

describe('float32 base64', () => {
  it('packs float32 little-endian: the bytes of a Float32Array on this (little-endian) host', () => {
    expect(endianness()).toBe('LE');
    const encoded = encodeFloat32Base64(values);
    expect(Buffer.from(encoded, 'base64')).toEqual(Buffer.from(new Float32Array(values).buffer));
    expect(encoded).toBe(littleEndianBytes(values).toString('base64'));
  });

  it('pins the wire bytes of a known vector', () => {
    // 1 = 0x3f800000, -2 = 0xc0000000, 0.5 = 0x3f000000, little-endian.
    const bytes = Buffer.from(encodeFloat32Base64([1, -2, 0.5]), 'base64');
    expect(bytes.toString('hex')).toBe('0000803f000000c00000003f');
  });

  it('reads back what the SDK reads: the float32 nearest each value', () => {
    const decoded = decodeFloat32Base64(encodeFloat32Base64(values));
    // As openai/internal/utils/base64 `toFloat32Array` reads it.
    const bytes = Buffer.from(encodeFloat32Base64(values), 'base64');
    const sdkView = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
    expect(decoded).toEqual(values.map((value) => Math.fround(value)));
    expect(decoded).toEqual(sdkView);
    // float32 cannot hold 0.1: the packing really is float32, not float64.
    expect(decoded[0]).not.toBe(0.1);
  });

  it('reads a vector written by another little-endian writer', () => {
    expect(decodeFloat32Base64(littleEndianBytes([0.25, -1, 7]).toString('base64'))).toEqual([0.25, -1, 7]);
  });

  it('an empty vector is an empty string; trailing bytes short of a float are ignored', () => {
    expect(encodeFloat32Base64([])).toBe('');
    expect(decodeFloat32Base64('')).toEqual([]);
    const withTail = Buffer.concat([littleEndianBytes([1.5]), Buffer.from([1, 2])]);
    expect(decodeFloat32Base64(withTail.toString('base64'))).toEqual([1.5]);
  });
});
