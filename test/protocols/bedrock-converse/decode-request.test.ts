import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import { InvalidRequestError } from '../../../src/protocols/invalid-request-error.js';
import { codec } from './helpers.js';

const decode = (body: Record<string, unknown>, losses = new LossLog()) =>
  codec.decodeRequest(body, { losses, model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', stream: false });

describe('bedrock converse request decoder', () => {
  it('takes the model and stream flag from the path, and a modelId member only when the path has none', () => {
    const body = {
      modelId: 'amazon.nova-lite-v1:0',
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
    };
    expect(codec.decodeRequest(body, { losses: new LossLog(), model: 'm', stream: true })).toMatchObject({
      model: 'm',
      stream: true,
    });
    expect(codec.decodeRequest(body, { losses: new LossLog() })).toMatchObject({
      model: 'amazon.nova-lite-v1:0',
      stream: false,
    });
  });

  it('merges consecutive turns of one role and puts a turn’s tool results ahead as a tool message', () => {
    const request = decode({
      messages: [
        { role: 'user', content: [{ text: 'a' }] },
        { role: 'user', content: [{ text: 'b' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'f', input: {} } }] },
        {
          role: 'user',
          content: [{ text: 'after' }, { toolResult: { toolUseId: 't1', content: [], status: 'error' } }],
        },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 't1', name: 'f', arguments: '{}' }] },
      { role: 'tool', parts: [{ type: 'tool-result', toolCallId: 't1', content: [], isError: true }] },
      { role: 'user', parts: [{ type: 'text', text: 'after' }] },
    ]);
  });

  it('records what has no canonical form: cache points after nothing or after tool use, S3 owners, document context', () => {
    const losses = new LossLog();
    const request = decode(
      {
        messages: [
          {
            role: 'user',
            content: [
              { cachePoint: { type: 'default' } },
              {
                document: {
                  format: 'pdf',
                  name: 'a',
                  context: 'quarterly',
                  source: { s3Location: { uri: 's3://b/a.pdf', bucketOwner: '111122223333' } },
                },
              },
            ],
          },
          {
            role: 'assistant',
            content: [
              { toolUse: { toolUseId: 't', name: 'f', input: {} } },
              { cachePoint: { type: 'default' } },
            ],
          },
        ],
        inferenceConfig: { maxTokens: 5, topK: 3 },
      },
      losses,
    );
    expect(request.messages[0]?.parts).toEqual([
      {
        type: 'file',
        mediaType: 'application/pdf',
        source: { kind: 'url', url: 's3://b/a.pdf' },
        filename: 'a',
      },
    ]);
    expect(losses.losses.map((loss) => `${loss.kind} ${loss.path}`)).toEqual([
      'dropped messages[0].content[0]',
      'dropped messages[0].content[1].document.source.s3Location.bucketOwner',
      'dropped messages[0].content[1].document.context',
      'dropped messages[1].content[1]',
      'dropped inferenceConfig.topK',
    ]);
  });

  it('keeps guard content, system tools and unknown blocks raw for this protocol', () => {
    const request = decode({
      system: [{ guardContent: { text: { text: 'policy' } } }],
      messages: [{ role: 'user', content: [{ searchResult: { source: 's', title: 't', content: [] } }] }],
      toolConfig: { tools: [{ systemTool: { name: 'nova_grounding' } }] },
    });
    expect(request.system).toEqual([
      { type: 'raw', protocol: 'bedrock-converse', value: { guardContent: { text: { text: 'policy' } } } },
    ]);
    expect(request.messages[0]?.parts[0]).toEqual({
      type: 'raw',
      protocol: 'bedrock-converse',
      value: { searchResult: { source: 's', title: 't', content: [] } },
    });
    expect(request.tools).toEqual([
      {
        type: 'provider',
        kind: 'other',
        protocol: 'bedrock-converse',
        value: { systemTool: { name: 'nova_grounding' } },
      },
    ]);
  });

  it('reads adaptive thinking as reasoning on, kept whole; disabled thinking as reasoning off', () => {
    const adaptive = decode({
      messages: [{ role: 'user', content: [{ text: 'x' }] }],
      additionalModelRequestFields: { thinking: { type: 'adaptive' } },
      outputConfig: { effort: 'high' },
    });
    expect(adaptive.reasoning).toEqual({ enabled: true, effort: 'high' });
    expect(adaptive.extensions['bedrock-converse']).toEqual({
      thinking: { type: 'adaptive' },
      outputConfig: { effort: 'high' },
    });
    const off = decode({
      messages: [{ role: 'user', content: [{ text: 'x' }] }],
      additionalModelRequestFields: { thinking: { type: 'disabled' } },
    });
    expect(off.reasoning).toEqual({ enabled: false });
    expect(off.extensions).toEqual({});
  });

  it.each([
    [{ messages: 'hi' }, 'messages'],
    [{ messages: [{ role: 'system', content: [] }] }, 'messages[0].role'],
    [
      { messages: [{ role: 'user', content: [{ toolUse: { name: 'f', input: {} } }] }] },
      'messages[0].content[0].toolUse.toolUseId',
    ],
    [
      { messages: [{ role: 'user', content: [{ image: { format: 'bmp', source: { bytes: 'AA' } } }] }] },
      'messages[0].content[0].image',
    ],
    [{ messages: [], inferenceConfig: { temperature: 'hot' } }, 'inferenceConfig.temperature'],
    [
      { messages: [], toolConfig: { tools: [{ toolSpec: { name: 'f', inputSchema: {} } }] } },
      'toolConfig.tools[0].toolSpec.inputSchema.json',
    ],
    [{ messages: [], toolConfig: { tools: [], toolChoice: { none: {} } } }, 'toolConfig.toolChoice'],
    [
      { messages: [], additionalModelRequestFields: { thinking: { type: 'enabled' } } },
      'additionalModelRequestFields.thinking.budget_tokens',
    ],
    [
      {
        messages: [],
        outputConfig: { textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: '{' } } } },
      },
      'outputConfig.textFormat.structure.jsonSchema.schema',
    ],
  ])('refuses a request that breaks the protocol: %j names %s', (body, path) => {
    let error: unknown;
    try {
      decode(body as Record<string, unknown>);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).path).toBe(path);
  });
});
