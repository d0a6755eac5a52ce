import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readAudioDuration } from '../../audio/read-audio-duration.js';
import { UploadSpool } from '../../audio/upload-spool.js';
import { readAudioForm, type UploadedFile } from '../../protocols/openai-audio/read-audio-form.js';
import { AudioUpload, speechToTextBody } from '../../relay/operations/speech-to-text-operation.js';
import { relayEndpoints, type RelayEndpoint } from '../../relay/relay-endpoint.js';
import type { GatewayServices } from '../../services.js';
import { authenticateWith, BEARER_ONLY } from '../authenticate-hook.js';
import { relayReadRequest } from './relay-routes.js';

/**
 * `POST /v1/audio/transcriptions` and `/translations` (admin-api section 14). Their
 * `multipart/form-data` bodies are not read by the app's body parser, which holds a body whole:
 * in this scope the body is left unread, and the route reads it as a stream, the file to the
 * spool on disk. The file's duration is read before the relay, which bills and checks on it.
 */
export function registerAudioUploadRoutes(app: FastifyInstance, services: GatewayServices): void {
  const spool = new UploadSpool();
  const relayForm = (endpoint: RelayEndpoint) =>
    async function relayAudioUpload(request: FastifyRequest, reply: FastifyReply) {
      const form = await readAudioForm(request.raw, {
        limit: services.settings.get().body_limit_bytes,
        spool,
      });
      try {
        const { file } = form;
        const seconds = await readAudioDuration(file.path, {
          mimeType: file.contentType,
          filename: file.filename,
        });
        const body = speechToTextBody(new AudioUpload(form, seconds));
        await relayReadRequest(services, endpoint, request, reply, {
          body,
          bodyBytes: Buffer.from(JSON.stringify(describeForm(body, file))),
          requestedModel: body.model,
        });
      } finally {
        await spool.remove(form.file.path);
      }
    };

  app.register(async function audioUploads(scope) {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', function leaveBodyUnread(_request, _payload, done) {
      done(null, undefined);
    });
    const options = { onRequest: authenticateWith(services.principals, BEARER_ONLY) };
    scope.post('/v1/audio/transcriptions', options, relayForm(relayEndpoints.transcriptions));
    scope.post('/v1/audio/translations', options, relayForm(relayEndpoints.translations));
  });
}

/** The form as stored with the request's bodies (admin-api section 12): its fields, the file described. */
function describeForm(body: Record<string, unknown>, file: UploadedFile): Record<string, unknown> {
  return { ...body, file: { filename: file.filename, content_type: file.contentType, bytes: file.size } };
}
