import type { FastifyInstance } from 'fastify';
import type { RoutingCatalog } from '../routing/routing-catalog.js';
import type { GatewayServices } from '../services.js';
import type { VirtualModelRecord } from '../store/virtual-models-repository.js';
import { invalidField, notFound } from './admin-error.js';
import { oneWithManaged, ownedByApi, refuseIfManaged, withManaged } from './managed-by-config.js';
import { parseBody } from './parse-body.js';
import { pageOf, parseListQuery } from './parse-query.js';
import { serializeVirtualModel } from './serialize-virtual-model.js';
import { createVirtualModelSchema, updateVirtualModelSchema } from './virtual-model-schemas.js';

/**
 * `/api/virtual-models` (admin-api section 11.2): public names served by one of several target
 * models. A name may not be a model a channel serves, and a target may not be another virtual model.
 */
export function registerVirtualModelRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { virtualModels } = services.repositories;
  const { catalog } = services;

  app.get('/virtual-models', async (request) => {
    const all = await virtualModels.all();
    const page = pageOf(all, parseListQuery(request.query)).map(serializeVirtualModel);
    return { data: await withManaged(services, 'virtual_models', page, (model) => model.name) };
  });

  app.get<{ Params: { name: string } }>('/virtual-models/:name', async (request) => {
    const found = await virtualModels.find(request.params.name);
    if (!found) throw notFound('virtual model', request.params.name);
    return oneWithManaged(services, 'virtual_models', serializeVirtualModel(found), found.name);
  });

  app.post('/virtual-models', async (request, reply) => {
    const body = parseBody(request.body, createVirtualModelSchema);
    await refuseIfManaged(services, 'virtual_models', body.name, 'virtual model');
    const model: VirtualModelRecord = {
      name: body.name,
      targets: body.targets,
      strategy: body.strategy,
      fallbackOn: body.fallback_on,
      sticky: body.sticky,
    };
    if (catalog.servesModel(model.name)) throw invalidField('name', 'is a model that a channel serves');
    checkTargets(model, catalog);
    const created = await virtualModels.create(model);
    if (!created) throw invalidField('name', 'is already taken');
    await services.changes.publish('models');
    reply.code(201);
    return ownedByApi(serializeVirtualModel(created));
  });

  app.patch<{ Params: { name: string } }>('/virtual-models/:name', async (request) => {
    const current = await virtualModels.find(request.params.name);
    if (!current) throw notFound('virtual model', request.params.name);
    await refuseIfManaged(services, 'virtual_models', current.name, 'virtual model');
    const body = parseBody(request.body, updateVirtualModelSchema, { readOnly: ['name'] });
    const model: VirtualModelRecord = {
      ...current,
      ...(body.targets !== undefined && { targets: body.targets }),
      ...(body.strategy !== undefined && { strategy: body.strategy }),
      ...(body.fallback_on !== undefined && { fallbackOn: body.fallback_on }),
      ...(body.sticky !== undefined && { sticky: body.sticky }),
    };
    checkTargets(model, catalog);
    const replaced = await virtualModels.replace(model);
    if (!replaced) throw notFound('virtual model', request.params.name);
    await services.changes.publish('models');
    return ownedByApi(serializeVirtualModel(replaced));
  });

  app.delete<{ Params: { name: string } }>('/virtual-models/:name', async (request) => {
    await refuseIfManaged(services, 'virtual_models', request.params.name, 'virtual model');
    const deleted = await virtualModels.delete(request.params.name);
    if (!deleted) throw notFound('virtual model', request.params.name);
    await services.changes.publish('models');
    return ownedByApi(serializeVirtualModel(deleted));
  });
}

/** A target names a model, never another virtual model (or the virtual model itself). */
function checkTargets(model: VirtualModelRecord, catalog: RoutingCatalog): void {
  for (const [index, target] of model.targets.entries()) {
    if (target.model === model.name || catalog.virtualModel(target.model))
      throw invalidField(`targets[${index}].model`, 'is a virtual model; targets must be models of channels');
  }
}
