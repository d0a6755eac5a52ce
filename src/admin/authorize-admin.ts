import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.js';
import type { AdminAuthenticator } from './admin-authenticator.js';

const BEARER = /^bearer\s+(\S+)\s*$/i;

/**
 * The `onRequest` hook of every `/api` route: the root admin token as a bearer token.
 * A console session of an admin user will become a second accepted credential here.
 */
export function authorizeAdmin(adminAuth: AdminAuthenticator) {
  return async function authorizeAdminRequest(request: FastifyRequest): Promise<void> {
    if (adminAuth.verify(bearerToken(request))) return;
    throw new GatewayError('admin_unauthorized');
  };
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}
