import { isRecord, type RequestProblem } from './fake-upstream.js';

type Json = Record<string, unknown>;

/** Members of the `ContentBlock` union (`ContentBlock` in @aws-sdk/client-bedrock-runtime). */
const contentMembers = [
  'text',
  'image',
  'document',
  'video',
  'audio',
  'toolUse',
  'toolResult',
  'guardContent',
  'cachePoint',
  'reasoningContent',
  'citationsContent',
  'searchResult',
  'toolAddition',
  'toolRemoval',
];
const systemMembers = ['text', 'guardContent', 'cachePoint'];
const toolMembers = ['toolSpec', 'systemTool', 'cachePoint'];
const toolChoiceMembers = ['auto', 'any', 'tool'];
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

const refuse = (message: string): RequestProblem => ({ message, code: 'ValidationException' });
/** AWS's JSON protocol refuses a member of the wrong JSON type before validating anything. */
const wrongType = (path: string): RequestProblem => ({
  message: `Unexpected JSON type at ${path}`,
  code: 'SerializationException',
});
/** Smithy constraint failures, worded as AWS words them. */
const constraint = (value: unknown, path: string, rule: string) =>
  refuse(
    `1 validation error detected: Value '${String(value)}' at '${path}' failed to satisfy constraint: ${rule}`,
  );

const startWithUser =
  'A conversation must start with a user message. Try again with a conversation that starts with a user message.';
const alternate =
  'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.';

/**
 * `POST /model/{modelId}/converse` and `/converse-stream`: the members of `ConverseRequest` in
 * @aws-sdk/client-bedrock-runtime and the refusals the API is known for
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html).
 */
export function validateBedrockConverseRequest(body: unknown): RequestProblem | undefined {
  if (!isRecord(body)) return wrongType('$');
  return (
    checkMessages(body.messages) ??
    checkSystem(body.system) ??
    checkInference(body.inferenceConfig) ??
    checkToolConfig(body) ??
    (body.additionalModelRequestFields !== undefined && !isRecord(body.additionalModelRequestFields)
      ? wrongType('additionalModelRequestFields')
      : undefined)
  );
}

function checkMessages(messages: unknown): RequestProblem | undefined {
  if (messages === undefined || (Array.isArray(messages) && messages.length === 0))
    return refuse(startWithUser);
  if (!Array.isArray(messages)) return wrongType('messages');
  let previous: string | undefined;
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) return wrongType(`messages.${index}`);
    const { role } = message;
    if (role !== 'user' && role !== 'assistant' && role !== 'system')
      return constraint(
        role,
        `messages.${index}.member.role`,
        'Member must satisfy enum value set: [user, assistant, system]',
      );
    const wrong = checkContent(message.content, `messages.${index}`);
    if (wrong) return wrong;
    // Mid-conversation `system` messages (tool additions and removals) sit outside the alternation.
    if (role === 'system') continue;
    if (previous === undefined && role !== 'user') return refuse(startWithUser);
    if (previous === role) return refuse(alternate);
    previous = role;
  }
  return checkToolResults(messages as Json[]);
}

function checkContent(content: unknown, at: string): RequestProblem | undefined {
  if (!Array.isArray(content)) return wrongType(`${at}.content`);
  if (content.length === 0)
    return refuse(
      `The content field in the Message object at ${at} is empty. Add a ContentBlock object to the content field and try again.`,
    );
  for (const [index, block] of content.entries()) {
    const path = `${at}.content.${index}`;
    const wrong = checkUnion(block, path, contentMembers);
    if (wrong) return wrong;
    const { text, toolUse, toolResult } = block as Json;
    if (text !== undefined && (typeof text !== 'string' || text.trim() === ''))
      return typeof text !== 'string'
        ? wrongType(`${path}.text`)
        : refuse(
            `The text field in the ContentBlock object at ${path} is blank. Add text to the text field, and try again.`,
          );
    if (
      toolUse !== undefined &&
      !(
        isRecord(toolUse) &&
        typeof toolUse.toolUseId === 'string' &&
        typeof toolUse.name === 'string' &&
        toolUse.input !== undefined
      )
    )
      return refuse(
        `1 validation error detected: Value null at '${path}.member.toolUse' failed to satisfy constraint: toolUseId, name and input are required`,
      );
    if (toolResult !== undefined) {
      if (
        !isRecord(toolResult) ||
        typeof toolResult.toolUseId !== 'string' ||
        !Array.isArray(toolResult.content)
      )
        return wrongType(`${path}.toolResult`);
      if (toolResult.status === 'error' && toolResult.content.length === 0)
        return refuse(`The content field at ${path}.toolResult cannot be empty when status value is error.`);
    }
  }
  return undefined;
}

/** A union value is an object with exactly one known member set. */
function checkUnion(value: unknown, path: string, members: string[]): RequestProblem | undefined {
  if (!isRecord(value)) return wrongType(path);
  const set = Object.keys(value).filter((key) => value[key] !== undefined && value[key] !== null);
  if (set.length !== 1 || !members.includes(set[0] ?? ''))
    return refuse(
      `${path}: a union must have exactly one of ${members.join(', ')} set; it has ${set.join(', ') || 'none'}`,
    );
  return undefined;
}

/** Each assistant `toolUse` is answered by a `toolResult` with its id in the next user message. */
function checkToolResults(messages: Json[]): RequestProblem | undefined {
  const turns = messages
    .map((message, index) => ({ message, index }))
    .filter(({ message }) => message.role !== 'system');
  for (const [position, { message, index }] of turns.entries()) {
    const blocks = message.content as Json[];
    const resultIds = blocks.flatMap((block) =>
      isRecord(block.toolResult) ? [String(block.toolResult.toolUseId)] : [],
    );
    const previous = position > 0 ? turns[position - 1] : undefined;
    const useIds = previous
      ? (previous.message.content as Json[]).flatMap((block) =>
          isRecord(block.toolUse) ? [String(block.toolUse.toolUseId)] : [],
        )
      : [];
    if (resultIds.length > useIds.length)
      return refuse(
        `The number of toolResult blocks at messages.${index}.content exceeds the number of toolUse blocks of previous turn.`,
      );
    const unanswered = useIds.filter((id) => !resultIds.includes(id));
    if (message.role === 'user' && unanswered.length > 0)
      return refuse(
        `Expected toolResult blocks at messages.${index}.content for the following Ids: ${unanswered.join(', ')}`,
      );
  }
  return undefined;
}

function checkSystem(system: unknown): RequestProblem | undefined {
  if (system === undefined) return undefined;
  if (!Array.isArray(system)) return wrongType('system');
  for (const [index, block] of system.entries()) {
    const wrong = checkUnion(block, `system.${index}`, systemMembers);
    if (wrong) return wrong;
  }
  return undefined;
}

function checkInference(config: unknown): RequestProblem | undefined {
  if (config === undefined) return undefined;
  if (!isRecord(config)) return wrongType('inferenceConfig');
  const { maxTokens, temperature, topP, stopSequences } = config;
  if (maxTokens !== undefined) {
    if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens))
      return wrongType('inferenceConfig.maxTokens');
    if (maxTokens < 1)
      return constraint(
        maxTokens,
        'inferenceConfig.maxTokens',
        'Member must have value greater than or equal to 1',
      );
  }
  for (const [name, value] of [
    ['temperature', temperature],
    ['topP', topP],
  ] as const) {
    if (value === undefined) continue;
    if (typeof value !== 'number') return wrongType(`inferenceConfig.${name}`);
    if (value < 0)
      return constraint(
        value,
        `inferenceConfig.${name}`,
        'Member must have value greater than or equal to 0',
      );
    if (value > 1)
      return constraint(value, `inferenceConfig.${name}`, 'Member must have value less than or equal to 1');
  }
  if (
    stopSequences !== undefined &&
    !(Array.isArray(stopSequences) && stopSequences.every((stop) => typeof stop === 'string'))
  )
    return wrongType('inferenceConfig.stopSequences');
  return undefined;
}

function checkToolConfig(body: Json): RequestProblem | undefined {
  const { toolConfig } = body;
  if (toolConfig === undefined) {
    const usesTools = JSON.stringify(body.messages ?? []).match(/"tool(Use|Result)":/);
    return usesTools
      ? refuse('The toolConfig field must be defined when using toolUse and toolResult content blocks.')
      : undefined;
  }
  if (!isRecord(toolConfig) || !Array.isArray(toolConfig.tools)) return wrongType('toolConfig');
  if (toolConfig.tools.length === 0)
    return constraint('[]', 'toolConfig.tools', 'Member must have length greater than or equal to 1');
  for (const [index, tool] of toolConfig.tools.entries()) {
    const wrong = checkUnion(tool, `toolConfig.tools.${index}`, toolMembers);
    if (wrong) return wrong;
    const spec = (tool as Json).toolSpec;
    if (spec === undefined) continue;
    if (!isRecord(spec) || !isRecord(spec.inputSchema))
      return wrongType(`toolConfig.tools.${index}.toolSpec`);
    if (!toolNamePattern.test(String(spec.name)))
      return constraint(
        spec.name,
        `toolConfig.tools.${index}.member.toolSpec.name`,
        'Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+',
      );
    const wrongSchema = checkUnion(spec.inputSchema, `toolConfig.tools.${index}.toolSpec.inputSchema`, [
      'json',
    ]);
    if (wrongSchema) return wrongSchema;
  }
  return toolConfig.toolChoice === undefined
    ? undefined
    : checkUnion(toolConfig.toolChoice, 'toolConfig.toolChoice', toolChoiceMembers);
}
