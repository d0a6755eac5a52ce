import { describe, expect, test } from 'vitest';
import type { RecordedRequest } from '../fakes/fake-upstream.js';
import {
  callFamily,
  FAMILIES,
  isPassthrough,
  MODELS,
  upstreamFamily,
  useFidelityGateway,
  VENDORS,
} from './extras-clients.js';

/**
 * Base64 PDF documents: each client family sends a small PDF in its own document form, and each
 * upstream gets it in its own document form with the same bytes (chat `file.file_data`, Responses
 * `input_file.file_data`, Anthropic `document` with a base64 source, Gemini `inlineData`).
 */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n' +
    '2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n' +
    '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj\n' +
    'trailer <</Root 1 0 R>>\n%%EOF\n',
).toString('base64');
const PDF_URL = `data:application/pdf;base64,${PDF}`;
const FILENAME = 'paris-guide.pdf';
const REPLY = {
  openai: 'Hello from fake OpenAI.',
  anthropic: 'Hello from fake Anthropic.',
  gemini: 'Hello from fake Gemini.',
} as const;

/** The document part each family's client sends, as `callFamily` writes it. */
const SENT_PART = {
  'openai-chat': { type: 'file', file: { file_data: PDF_URL, filename: FILENAME } },
  'openai-responses': { type: 'input_file', file_data: PDF_URL, filename: FILENAME },
  'anthropic-messages': {
    type: 'document',
    source: { type: 'base64', media_type: 'application/pdf', data: PDF },
  },
  gemini: { inlineData: { mimeType: 'application/pdf', data: PDF } },
} as const;

const fixture = useFidelityGateway();

describe.each(FAMILIES)('%s client', (family) => {
  describe.each(VENDORS)('to %s upstream', (vendor) => {
    test.each([false, true])('stream %s', async (stream) => {
      const fake = fixture().fakes[vendor];

      const view = await callFamily(fixture().clients, {
        family,
        model: MODELS[vendor],
        stream,
        pdf: { data: PDF, filename: FILENAME },
      });

      const [sent, ...more] = fake.requests;
      expect(more).toHaveLength(0);
      expect(sent!.refused).toBeUndefined();
      expect(upstreamDocuments(sent!)).toEqual([
        expect.objectContaining({ mediaType: 'application/pdf', data: PDF }),
      ]);
      const parts = upstreamParts(sent!);
      if (isPassthrough(family, vendor)) expect(parts).toContainEqual(SENT_PART[family]);
      switch (upstreamFamily(family, vendor)) {
        case 'openai-chat':
          // https://platform.openai.com/docs/guides/pdf-files#base64-encoded-files
          expect(parts).toContainEqual({
            type: 'file',
            file: expect.objectContaining({ file_data: PDF_URL }),
          });
          break;
        case 'openai-responses':
          expect(parts).toContainEqual(expect.objectContaining({ type: 'input_file', file_data: PDF_URL }));
          break;
        case 'anthropic-messages':
          // https://docs.claude.com/en/docs/build-with-claude/pdf-support
          expect(parts).toContainEqual(
            expect.objectContaining({
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: PDF },
            }),
          );
          break;
        case 'gemini':
          // https://ai.google.dev/gemini-api/docs/document-processing#inline_data (a `displayName`
          // beside the bytes is the SDK's `Blob` too, and may carry the client's file name).
          expect(parts).toContainEqual({
            inlineData: expect.objectContaining({ mimeType: 'application/pdf', data: PDF }),
          });
          break;
      }
      // A document is never sent as an image.
      expect(
        parts.filter(
          (part) =>
            part.type === 'image_url' ||
            part.type === 'input_image' ||
            part.type === 'image' ||
            part.inlineData?.mimeType?.startsWith('image/'),
        ),
      ).toEqual([]);

      expect(view.text).toBe(REPLY[vendor]);
    });
  });
});

type Json = Record<string, any>;

/** The user content parts (or blocks) that reached an upstream, whatever its protocol. */
function upstreamParts(request: RecordedRequest): Json[] {
  const body = (request.body ?? {}) as Json;
  if (request.path.startsWith('/v1beta/models/'))
    return (body.contents ?? []).flatMap((content: Json) => content.parts ?? []);
  const messages: Json[] = request.path === '/v1/responses' ? body.input : body.messages;
  if (typeof messages === 'string') return [{ type: 'input_text', text: messages }];
  return (messages ?? []).flatMap((message: Json) =>
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []),
  );
}

/** A document as an upstream got it: its media type and base64 bytes. */
interface UpstreamDocument {
  mediaType: string;
  data: string;
  filename?: string;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** Every document part in what reached an upstream, in that upstream's own document form. */
function upstreamDocuments(request: RecordedRequest): UpstreamDocument[] {
  const documents: UpstreamDocument[] = [];
  for (const part of upstreamParts(request)) {
    const fileData: unknown =
      part.type === 'file' ? part.file?.file_data : part.type === 'input_file' ? part.file_data : undefined;
    if (typeof fileData === 'string') {
      const [, mediaType = '', data = ''] = DATA_URL.exec(fileData) ?? [];
      const filename = part.type === 'file' ? part.file?.filename : part.filename;
      documents.push({ mediaType, data, ...(filename !== undefined && { filename }) });
    }
    if (part.type === 'document' && part.source?.type === 'base64')
      documents.push({ mediaType: part.source.media_type, data: part.source.data });
    if (
      part.inlineData &&
      part.inlineData.mimeType !== undefined &&
      !part.inlineData.mimeType.startsWith('image/')
    )
      documents.push({ mediaType: part.inlineData.mimeType, data: part.inlineData.data });
  }
  return documents;
}
