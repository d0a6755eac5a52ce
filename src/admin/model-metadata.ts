import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import { notFound } from './admin-error.js';
import { MODEL_METADATA_READ_ONLY_FIELDS, putModelMetadataSchema } from './model-metadata-schemas.js';
import { oneWithManaged, ownedByApi, refuseIfManaged, withManaged } from './managed-by-config.js';
import { parseBody } from './parse-body.js';
import { pageOf, parseListQuery } from './parse-query.js';
import { modelFromPath } from './model-from-path.js';
import { serializeModelMetadata } from './serialize-model-metadata.js';

/**
 * `/api/models` (admin-api section 11.1): what is known of each public model ID (context window,
 * output cap, capabilities), which routing reads from its catalogue, never per request. The model
 * is the rest of the path, as for prices.
 */
export function registerModelMetadataRoutes(app: FastifyInstance, services: GatewayServices): void {
  const metadata = services.repositories.modelMetadata;

  app.get('/models', async (request) => {
    const all = await metadata.all();
    const page = pageOf(all, parseListQuery(request.query)).map(serializeModelMetadata);
    return { data: await withManaged(services, 'models', page, (entry) => entry.model) };
  });

  app.get('/models/*', async (request) => {
    const model = modelFromPath(request.params);
    const found = await metadata.find(model);
    if (!found) throw notFound('model', model);
    return oneWithManaged(services, 'models', serializeModelMetadata(found), model);
  });

  app.put('/models/*', async (request) => {
    const model = modelFromPath(request.params);
    await refuseIfManaged(services, 'models', model, 'model');
    const body = parseBody(request.body, putModelMetadataSchema, {
      readOnly: MODEL_METADATA_READ_ONLY_FIELDS,
    });
    const stored = await metadata.put({
      model,
      contextWindow: body.context_window,
      maxOutputTokens: body.max_output_tokens,
      capabilities: body.capabilities,
    });
    await services.changes.publish('models');
    return ownedByApi(serializeModelMetadata(stored));
  });

  app.delete('/models/*', async (request) => {
    const model = modelFromPath(request.params);
    await refuseIfManaged(services, 'models', model, 'model');
    const deleted = await metadata.delete(model);
    if (!deleted) throw notFound('model', model);
    await services.changes.publish('models');
    return ownedByApi(serializeModelMetadata(deleted));
  });
}
