/**
 * `encoding_format: "base64"` of OpenAI embeddings
 * (https://platform.openai.com/docs/api-reference/embeddings/create#embeddings-create-encoding_format):
 * the vector as consecutive IEEE 754 float32 values, little-endian, base64-encoded. The `openai`
 * SDK asks for it by default and reads it back as a `Float32Array` over the decoded bytes
 * (openai/internal/utils/base64 `toFloat32Array`), so the byte order must be little-endian
 * whatever the machine's own.
 */
export function encodeFloat32Base64(values: readonly number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  for (const [index, value] of values.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString('base64');
}

/** The vector of a base64 embedding; trailing bytes short of a whole float32 are ignored. */
export function decodeFloat32Base64(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  const values: number[] = [];
  for (let offset = 0; offset + 4 <= bytes.length; offset += 4) values.push(bytes.readFloatLE(offset));
  return values;
}
