/**
 * A fake OpenAI-compatible vendor (DeepSeek, OpenRouter, Zhipu, Ollama, ...): the OpenAI fake's
 * endpoints under the vendor's own API root, on the shared harness of fake-upstream.ts:
 *
 *   const fake = await startFakeOpenAICompatible({ apiRoot: '/api/paas/v4', reasoningField: 'reasoning_content' });
 *   fake.origin + '/api/paas'   // the channel's base_url, as the vendor documents its origin
 *
 * Options: `apiRoot` (default `/v1`; OpenRouter `/api/v1`, Zhipu `/api/paas/v4`), `reasoningField`
 * (chat replies carry the thinking as DeepSeek's `reasoning_content` or OpenRouter's `reasoning`),
 * `keyless` (a local server such as Ollama: no key needed), `deepseekThinking` (chat histories are
 * held to DeepSeek's thinking-mode rules for `reasoning_content`, deepseek-thinking-history.ts).
 * Anything outside the root is a 404.
 */
import { checkDeepSeekThinkingHistory } from './deepseek-thinking-history.js';
import { openaiEndpoints, openaiVendor } from './fake-openai.js';
import {
  startFakeUpstream,
  type FakeUpstream,
  type FakeUpstreamOptions,
  type FakeVendor,
  type RecordedRequest,
} from './fake-upstream.js';
import { openaiChatReply, type OpenAIChatReplyOptions } from './openai-chat-reply.js';

export interface FakeOpenAICompatibleOptions extends FakeUpstreamOptions, OpenAIChatReplyOptions {
  apiRoot?: string;
  keyless?: boolean;
  deepseekThinking?: boolean;
}

export function startFakeOpenAICompatible(options: FakeOpenAICompatibleOptions = {}): Promise<FakeUpstream> {
  return startFakeUpstream(compatibleVendor(options), options);
}

function compatibleVendor(options: FakeOpenAICompatibleOptions): FakeVendor {
  const apiRoot = options.apiRoot ?? '/v1';
  /** The request at OpenAI's own path, or undefined outside the vendor's API root. */
  const asOpenAI = (request: RecordedRequest): RecordedRequest | undefined =>
    request.path.startsWith(`${apiRoot}/`)
      ? { ...request, path: `/v1${request.path.slice(apiRoot.length)}` }
      : undefined;
  return {
    defaultText: 'Hello from a fake OpenAI-compatible vendor.',
    authenticate(request, isValidKey) {
      return options.keyless ? undefined : openaiVendor.authenticate(request, isValidKey);
    },
    errorBody: (status, message, detail) => openaiVendor.errorBody(status, message, detail),
    validate(request) {
      const openai = asOpenAI(request);
      if (!openai) return undefined;
      const thinking =
        options.deepseekThinking && openai.path === '/v1/chat/completions'
          ? checkDeepSeekThinkingHistory(openai.body)
          : undefined;
      return openaiVendor.validate(openai) ?? thinking;
    },
    streamErrorEvent(request, message) {
      return openaiVendor.streamErrorEvent(asOpenAI(request) ?? request, message);
    },
    reply(request, content, nextId) {
      const openai = asOpenAI(request);
      if (!openai || openai.method !== 'POST') return undefined;
      if (openai.path === '/v1/chat/completions')
        return openaiChatReply(openai, content, nextId, { reasoningField: options.reasoningField });
      return openaiEndpoints.get(openai.path)?.reply(openai, content, nextId);
    },
  };
}
