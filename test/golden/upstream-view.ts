import { asRecord, type RecordedRequest } from '../fakes/fake-upstream.js';

/** What reached a fake upstream, reduced to what every protocol can say. */
export interface UpstreamView {
  path: string;
  model: string;
  stream: boolean;
  userText: string;
  toolNames: string[];
  imageCount: number;
  /** The upstream's own reasoning switch was set (reasoning_effort, thinking, thinkingConfig, reasoningConfig). */
  reasoning: boolean;
}

type Json = Record<string, unknown>;
type BodyView = Pick<UpstreamView, 'userText' | 'toolNames' | 'imageCount' | 'reasoning'>;

/** Lenient readers of a recorded body: a member that is not of the kind asked for reads as empty. */
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(asRecord) : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
/** A message's content: a string is one text part of the protocol's own kind. */
const partsOf = (content: unknown, textType: string): Json[] =>
  typeof content === 'string' ? [{ type: textType, text: content }] : list(content);

/** `POST /model/{modelId}/{operation}` of the Bedrock runtime; the model ID is URL-encoded. */
const bedrockPath = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream)$/;

export function upstreamView(request: RecordedRequest): UpstreamView {
  const body = asRecord(request.body);
  const path = request.path;
  const bedrock = bedrockPath.exec(path);
  if (bedrock) {
    const [, id = '', operation = ''] = bedrock;
    const target = { path, model: decodeURIComponent(id), stream: operation.endsWith('stream') };
    // InvokeModel takes the Anthropic body, with the model and the stream flag in the path.
    return { ...target, ...(operation.startsWith('invoke') ? anthropicView(body) : converseView(body)) };
  }
  if (path.startsWith('/v1beta/models/')) {
    const [model = '', method = ''] = decodeURIComponent(path.slice('/v1beta/models/'.length)).split(':');
    return { path, model, stream: method === 'streamGenerateContent', ...geminiView(body) };
  }
  const target = { path, model: text(body.model), stream: body.stream === true };
  if (path === '/v1/messages') return { ...target, ...anthropicView(body) };
  if (path === '/v1/responses') return { ...target, ...responsesView(body) };
  return { ...target, ...chatView(body) };
}

function geminiView(body: Json): BodyView {
  const parts = list(body.contents).flatMap((content) => list(content.parts));
  return {
    userText: parts.map((part) => text(part.text)).join(''),
    toolNames: list(body.tools).flatMap((tool) =>
      list(tool.functionDeclarations).map((declaration) => text(declaration.name)),
    ),
    imageCount: parts.filter((part) => part.inlineData).length,
    reasoning: Boolean(asRecord(body.generationConfig).thinkingConfig),
  };
}

function anthropicView(body: Json): BodyView {
  const blocks = list(body.messages).flatMap((message) => partsOf(message.content, 'text'));
  return {
    userText: blocks.map((block) => (block.type === 'text' ? text(block.text) : '')).join(''),
    toolNames: list(body.tools).map((tool) => text(tool.name)),
    imageCount: blocks.filter((block) => block.type === 'image').length,
    reasoning: asRecord(body.thinking).type === 'enabled',
  };
}

function responsesView(body: Json): BodyView {
  const items = typeof body.input === 'string' ? [{ content: body.input }] : list(body.input);
  const parts = items.flatMap((item) => partsOf(item.content, 'input_text'));
  return {
    userText: parts.map((part) => text(part.text)).join(''),
    toolNames: list(body.tools).map((tool) => text(tool.name)),
    imageCount: parts.filter((part) => part.type === 'input_image').length,
    reasoning: Boolean(asRecord(body.reasoning).effort),
  };
}

function chatView(body: Json): BodyView {
  const parts = list(body.messages).flatMap((message) => partsOf(message.content, 'text'));
  return {
    userText: parts.map((part) => (part.type === 'text' ? text(part.text) : '')).join(''),
    toolNames: list(body.tools).map((tool) => text(asRecord(tool.function).name)),
    imageCount: parts.filter((part) => part.type === 'image_url').length,
    reasoning: Boolean(body.reasoning_effort),
  };
}

/** A Converse body: content blocks are keyed by their kind; reasoning is a model family's own field. */
function converseView(body: Json): BodyView {
  const blocks = list(body.messages).flatMap((message) => list(message.content));
  const fields = asRecord(body.additionalModelRequestFields);
  return {
    userText: blocks.map((block) => text(block.text)).join(''),
    toolNames: list(asRecord(body.toolConfig).tools).flatMap((tool) =>
      tool.toolSpec ? [text(asRecord(tool.toolSpec).name)] : [],
    ),
    imageCount: blocks.filter((block) => block.image).length,
    reasoning:
      asRecord(fields.thinking).type === 'enabled' || asRecord(fields.reasoningConfig).type === 'enabled',
  };
}
