/**
 * The vectors the fake embedding endpoints (OpenAI's and Gemini's) answer with. Deterministic, so a
 * test computes what a fake answered for any text; different texts get different vectors. Values
 * carry six decimals, as the vendors' floats do, which float32 cannot hold exactly: a base64
 * (float32) reply rounds them, and a test can tell the two apart.
 */
export const FAKE_EMBEDDING_DIMENSIONS = 8;

export function fakeEmbeddingValues(text: string, dimensions = FAKE_EMBEDDING_DIMENSIONS): number[] {
  // FNV-1a over the code points: a stable seed per text.
  let seed = 2166136261;
  for (const char of text) {
    seed ^= char.codePointAt(0) ?? 0;
    seed = Math.imul(seed, 16777619) >>> 0;
  }
  return Array.from(
    { length: dimensions },
    (_, index) => Math.round(Math.sin(seed / 1024 + index * 1.7) * 1e6) / 1e6,
  );
}

/** What the fakes embed for a token-id input: the ids, written out. */
export function tokensAsText(tokens: readonly number[]): string {
  return `tokens:${tokens.join(',')}`;
}

/**
 * `encoding_format: "base64"` as OpenAI writes it: consecutive float32 values, little-endian,
 * base64-encoded. Written here with a `DataView` on its own, not with the gateway's code.
 */
export function float32LittleEndianBase64(values: readonly number[]): string {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return Buffer.from(view.buffer).toString('base64');
}
