import { relayError, relayFetch } from './relay-fetch';

/** Endpoint types whose models answer chat: the gateway converts between these protocols. */
const CHAT_ENDPOINT_TYPES = new Set(['openai', 'openai-response', 'anthropic', 'gemini']);

interface ListedModel {
  id: string;
  supported_endpoint_types?: string[];
}

/**
 * `GET /v1/models` with the playground's key: the models this user may use (their group's, priced,
 * served by an enabled channel), those that chat only.
 */
export async function listChatModels(key: string): Promise<string[]> {
  const response = await relayFetch('/v1/models', { key });
  if (!response.ok) throw await relayError(response);
  const body = (await response.json()) as { data?: ListedModel[] };
  return (body.data ?? [])
    .filter(
      (model) =>
        model.supported_endpoint_types === undefined ||
        model.supported_endpoint_types.some((type) => CHAT_ENDPOINT_TYPES.has(type)),
    )
    .map((model) => model.id);
}
