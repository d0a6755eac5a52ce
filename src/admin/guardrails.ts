import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import type { GuardrailRecord, NewGuardrail } from '../store/guardrails-repository.js';
import { invalidField, notFound } from './admin-error.js';
import { createGuardrailSchema, guardrailKindProblem, updateGuardrailSchema } from './guardrail-schemas.js';
import { oneWithManaged, ownedByApi, refuseIfManaged, withManaged } from './managed-by-config.js';
import { parseBody } from './parse-body.js';
import { parseIdParam } from './parse-id-param.js';
import { serializeGuardrail } from './serialize-guardrail.js';

/**
 * `/api/guardrails` (admin-api section 12): regular expressions and webhooks that check a request's
 * text before anything is charged. Every worker and instance sees a change on its next request.
 */
export function registerGuardrailRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { guardrails } = services.repositories;
  const changed = () => services.changes.publish('guardrails');

  app.get('/guardrails', async () => ({
    data: await withManaged(
      services,
      'guardrails',
      (await guardrails.all()).map(serializeGuardrail),
      (guardrail) => guardrail.name,
    ),
  }));

  app.get<{ Params: { id: string } }>('/guardrails/:id', async (request) => {
    const id = parseIdParam(request.params, 'guardrail');
    const found = await guardrails.find(id);
    if (!found) throw notFound('guardrail', id);
    return oneWithManaged(services, 'guardrails', serializeGuardrail(found), found.name);
  });

  app.post('/guardrails', async (request, reply) => {
    const body = parseBody(request.body, createGuardrailSchema);
    await refuseIfManaged(services, 'guardrails', body.name, 'guardrail');
    const guardrail = complete({
      name: body.name,
      kind: body.kind,
      pattern: body.pattern,
      url: body.url,
      action: body.action,
      fail: body.fail,
      timeoutMs: body.timeout_ms,
      groups: body.groups,
    });
    const created = await guardrails.create(guardrail);
    if (!created) throw invalidField('name', 'is already taken');
    await changed();
    reply.code(201);
    return ownedByApi(serializeGuardrail(created));
  });

  app.patch<{ Params: { id: string } }>('/guardrails/:id', async (request) => {
    const id = parseIdParam(request.params, 'guardrail');
    const current = await guardrails.find(id);
    if (!current) throw notFound('guardrail', id);
    await refuseIfManaged(services, 'guardrails', current.name, 'guardrail');
    const body = parseBody(request.body, updateGuardrailSchema, { readOnly: ['id', 'created_at'] });
    if (body.name !== undefined) await refuseIfManaged(services, 'guardrails', body.name, 'guardrail');
    const guardrail: GuardrailRecord = {
      ...current,
      ...complete({
        name: body.name ?? current.name,
        kind: body.kind ?? current.kind,
        pattern: body.pattern !== undefined ? body.pattern : current.pattern,
        url: body.url !== undefined ? body.url : current.url,
        action: body.action ?? current.action,
        fail: body.fail ?? current.fail,
        timeoutMs: body.timeout_ms ?? current.timeoutMs,
        groups: body.groups !== undefined ? body.groups : current.groups,
      }),
    };
    const replaced = await guardrails.replace(guardrail);
    if (!replaced) throw invalidField('name', 'is already taken');
    await changed();
    return ownedByApi(serializeGuardrail(replaced));
  });

  app.delete<{ Params: { id: string } }>('/guardrails/:id', async (request, reply) => {
    const id = parseIdParam(request.params, 'guardrail');
    const current = await guardrails.find(id);
    if (!current) throw notFound('guardrail', id);
    await refuseIfManaged(services, 'guardrails', current.name, 'guardrail');
    if (!(await guardrails.delete(id))) throw notFound('guardrail', id);
    await changed();
    reply.code(204);
  });
}

/** A regex guardrail needs its pattern, a webhook its URL; the other member is cleared. */
function complete(guardrail: NewGuardrail): NewGuardrail {
  const problem = guardrailKindProblem(guardrail);
  if (problem) throw invalidField(problem.field, problem.problem);
  return guardrail.kind === 'regex' ? { ...guardrail, url: null } : { ...guardrail, pattern: null };
}
