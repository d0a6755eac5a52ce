import { describe, expect, test } from 'vitest';
import { LossLog } from '../../src/ir/loss.js';
import type { ProtocolName } from '../../src/protocols/protocol-codec.js';
import { protocols } from '../../src/protocols/registry.js';
import type { RequestProblem } from '../fakes/fake-upstream.js';
import { validateAnthropicRequest } from '../fakes/validate-anthropic-request.js';
import { validateBedrockConverseRequest } from '../fakes/validate-bedrock-converse-request.js';
import { validateGeminiRequest } from '../fakes/validate-gemini-request.js';
import { validateOpenAIChatRequest } from '../fakes/validate-openai-chat-request.js';
import { validateOpenAIResponsesRequest } from '../fakes/validate-openai-responses-request.js';
import { clientRequests } from './client-request-corpus.js';

/**
 * Every client request of the corpus, converted for every upstream protocol as the relay does
 * (decode, effort modifier, encode), is a body the upstream's API accepts: the fakes' validators
 * stand in for the real APIs.
 */
const validators: Record<ProtocolName, (body: unknown) => RequestProblem | undefined> = {
  'openai-chat': validateOpenAIChatRequest,
  'openai-responses': validateOpenAIResponsesRequest,
  'anthropic-messages': validateAnthropicRequest,
  gemini: validateGeminiRequest,
  'bedrock-converse': validateBedrockConverseRequest,
};
const upstreams = Object.keys(validators) as ProtocolName[];

function convert(client: (typeof clientRequests)[number], upstream: ProtocolName) {
  const losses = new LossLog();
  let request = protocols[client.protocol].codec.decodeRequest(client.body, {
    losses,
    model: 'gemini-2.5-pro',
    stream: false,
  });
  if (client.effort) request = { ...request, reasoning: { ...request.reasoning, effort: client.effort } };
  return protocols[upstream].codec.encodeRequest(
    { ...request, model: 'upstream-model' },
    { losses, defaultMaxTokens: 8192 },
  );
}

describe.each(clientRequests)('$protocol client: $name', (client) => {
  test('is a request its own API accepts', () => {
    expect(validators[client.protocol](client.body)).toBeUndefined();
  });
  test.each(upstreams)('converted for %s, the upstream accepts it', (upstream) => {
    const body = convert(client, upstream);
    // Converted for the strictest Gemini: Gemini 3 requires signed function calls in the current turn.
    const problem =
      upstream === 'gemini'
        ? validateGeminiRequest(body, { model: 'gemini-3-pro-preview' })
        : validators[upstream](body);
    expect(problem, JSON.stringify(body, null, 1)).toBeUndefined();
  });
});
