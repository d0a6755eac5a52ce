import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../../errors/gateway-error.js';
import {
  encodeAnthropicModel,
  encodeAnthropicModelList,
} from '../../protocols/anthropic-messages/encode-model-list.js';
import { encodeGeminiModel, encodeGeminiModelList } from '../../protocols/gemini/encode-model-list.js';
import { encodeOpenAIModel, encodeOpenAIModelList } from '../../protocols/openai-chat/encode-model-list.js';
import { listAvailableModels } from '../../routing/available-models.js';
import type { GatewayServices } from '../../services.js';
import { authenticateWith, principalOf, V1BETA_KEYS, V1_MODELS_KEYS } from '../authenticate-hook.js';

type ListFormat = 'openai' | 'anthropic' | 'gemini';

/** Client-api 4.1: the format follows the headers, in this order. */
function chooseFormat(request: FastifyRequest): ListFormat {
  const { headers } = request;
  if (headers['x-api-key'] && headers['anthropic-version']) return 'anthropic';
  const query = request.query as Record<string, unknown>;
  if (headers['x-goog-api-key'] || (typeof query.key === 'string' && query.key !== '')) return 'gemini';
  return 'openai';
}

/** `GET /v1/models` in three formats, `/v1beta/openai/models` and `/v1beta/models`, and single-model reads. */
export function registerModelListRoutes(app: FastifyInstance, services: GatewayServices): void {
  const v1 = { onRequest: authenticateWith(services.principals, V1_MODELS_KEYS) };
  const v1beta = { onRequest: authenticateWith(services.principals, V1BETA_KEYS) };
  const modelsFor = (request: FastifyRequest) => listAvailableModels(services.catalog, principalOf(request));

  app.get('/v1/models', v1, async (request) => {
    const models = modelsFor(request);
    switch (chooseFormat(request)) {
      case 'anthropic':
        return encodeAnthropicModelList(models);
      case 'gemini':
        return encodeGeminiModelList(models);
      case 'openai':
        return encodeOpenAIModelList(models);
    }
  });

  app.get<{ Params: { model: string } }>('/v1/models/:model', v1, async (request) => {
    const model = findModel(modelsFor(request), request.params.model, request);
    switch (chooseFormat(request)) {
      case 'anthropic':
        return encodeAnthropicModel(model);
      case 'gemini':
        return encodeGeminiModel(model);
      case 'openai':
        return encodeOpenAIModel(model);
    }
  });

  app.get('/v1beta/openai/models', v1beta, async (request) => encodeOpenAIModelList(modelsFor(request)));

  app.get('/v1beta/models', v1beta, async (request) => encodeGeminiModelList(modelsFor(request)));

  app.get<{ Params: { model: string } }>('/v1beta/models/:model', v1beta, async (request) =>
    encodeGeminiModel(findModel(modelsFor(request), request.params.model, request)),
  );
}

function findModel<T extends { id: string }>(models: readonly T[], id: string, request: FastifyRequest): T {
  const model = models.find((candidate) => candidate.id === id);
  if (!model)
    throw new GatewayError('invalid_url', { method: request.method, path: request.url.split('?')[0] ?? '' });
  return model;
}
