import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../errors/gateway-error.js';
import type { GatewayServices } from '../../services.js';
import { authenticateWith, BEARER_ONLY } from '../authenticate-hook.js';

/**
 * Paths client-api 4.10 answers without relaying: files, fine-tunes and image variations name no
 * model, so once the key is accepted they fail as a request without one.
 */
export function registerUnsupportedRoutes(app: FastifyInstance, services: GatewayServices): void {
  const onRequest = authenticateWith(services.principals, BEARER_ONLY);
  const withoutModel = async function answerModelMissing(): Promise<never> {
    throw new GatewayError('model_missing');
  };
  for (const path of [
    '/v1/files',
    '/v1/files/*',
    '/v1/fine-tunes',
    '/v1/fine-tunes/*',
    '/v1/images/variations',
  ]) {
    app.all(path, { onRequest }, withoutModel);
  }
}
