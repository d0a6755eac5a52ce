import type { FakeEndpoint } from './fake-endpoint.js';
import { asRecord, FAKE_CREATED_AT, isRecord } from './fake-upstream.js';
import { checkKnownMembers, checkString } from './openai-request-problems.js';
import { openaiResponsesUsage } from './openai-responses-reply.js';
import { checkInput } from './validate-openai-responses-request.js';

/** `ResponseCompactParams` in openai/resources/responses/responses.d.ts, plus `parallel_tool_calls`. */
const members = new Set([
  'model',
  'input',
  'instructions',
  'previous_response_id',
  'parallel_tool_calls',
  'prompt_cache_key',
  'prompt_cache_options',
  'prompt_cache_retention',
  'service_tier',
]);

/**
 * `POST /v1/responses/compact`: refuses members it does not take (streaming included) and answers
 * a `CompactedResponse`: the input's user messages, then one compaction item, and the usage.
 * https://platform.openai.com/docs/api-reference/responses/compact
 */
export const openaiResponsesCompact: FakeEndpoint = {
  validate(body) {
    if (!isRecord(body)) return { message: 'We could not parse the JSON body of your request.' };
    return (
      checkKnownMembers(body, members) ??
      checkString(body.model, 'model') ??
      checkInput(body.input, body.previous_response_id != null)
    );
  },
  reply(request, content, nextId) {
    const body = asRecord(request.body);
    const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
    const userMessages = (Array.isArray(input) ? input : [])
      .filter((item) => isRecord(item) && item.role === 'user')
      .map((item) => ({
        id: nextId('msg_'),
        type: 'message',
        role: 'user',
        status: 'completed',
        content: asRecord(item).content,
      }));
    const compaction = {
      id: nextId('cmp_'),
      type: 'compaction',
      encrypted_content: Buffer.from(`compacted:${content.text}`).toString('base64'),
    };
    return {
      kind: 'json',
      body: {
        id: nextId('resp_'),
        object: 'response.compaction',
        created_at: FAKE_CREATED_AT,
        output: [...userMessages, compaction],
        ...(!content.omitUsage && { usage: openaiResponsesUsage(content.usage) }),
      },
    };
  },
};
