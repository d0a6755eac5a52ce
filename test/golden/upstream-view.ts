import type { RecordedRequest } from '../fakes/fake-upstream.js';

/** What reached a fake upstream, reduced to what every protocol can say. */
export interface UpstreamView {
  path: string;
  model: string;
  stream: boolean;
  userText: string;
  toolNames: string[];
  imageCount: number;
  /** The upstream's own reasoning switch was set (reasoning_effort, thinking, thinkingConfig). */
  reasoning: boolean;
}

type Json = Record<string, any>;

export function upstreamView(request: RecordedRequest): UpstreamView {
  const body = (request.body ?? {}) as Json;
  const path = request.path;
  if (path.startsWith('/v1beta/models/')) {
    const [model = '', method = ''] = decodeURIComponent(path.slice('/v1beta/models/'.length)).split(':');
    const parts: Json[] = (body.contents ?? []).flatMap((content: Json) => content.parts ?? []);
    return {
      path,
      model,
      stream: method === 'streamGenerateContent',
      userText: parts.map((part) => part.text ?? '').join(''),
      toolNames: (body.tools ?? []).flatMap((tool: Json) =>
        (tool.functionDeclarations ?? []).map((d: Json) => d.name),
      ),
      imageCount: parts.filter((part) => part.inlineData).length,
      reasoning: Boolean(body.generationConfig?.thinkingConfig),
    };
  }
  if (path === '/v1/messages') {
    const blocks: Json[] = (body.messages ?? []).flatMap((message: Json) =>
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content,
    );
    return {
      path,
      model: body.model,
      stream: body.stream === true,
      userText: blocks.map((block) => (block.type === 'text' ? block.text : '')).join(''),
      toolNames: (body.tools ?? []).map((tool: Json) => tool.name),
      imageCount: blocks.filter((block) => block.type === 'image').length,
      reasoning: body.thinking?.type === 'enabled',
    };
  }
  if (path === '/v1/responses') {
    const items: Json[] = typeof body.input === 'string' ? [{ content: body.input }] : (body.input ?? []);
    const parts: Json[] = items.flatMap((item) =>
      typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : (item.content ?? []),
    );
    return {
      path,
      model: body.model,
      stream: body.stream === true,
      userText: parts.map((part) => part.text ?? '').join(''),
      toolNames: (body.tools ?? []).map((tool: Json) => tool.name),
      imageCount: parts.filter((part) => part.type === 'input_image').length,
      reasoning: Boolean(body.reasoning?.effort),
    };
  }
  const parts: Json[] = (body.messages ?? []).flatMap((message: Json) =>
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []),
  );
  return {
    path,
    model: body.model,
    stream: body.stream === true,
    userText: parts.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    toolNames: (body.tools ?? []).map((tool: Json) => tool.function?.name),
    imageCount: parts.filter((part) => part.type === 'image_url').length,
    reasoning: Boolean(body.reasoning_effort),
  };
}
