import { isRecord, type RequestProblem } from './fake-upstream.js';
import { isGeminiImageModel } from './gemini-generate-reply.js';
import {
  checkKnownFields,
  checkScalar,
  fieldViolation,
  invalidValue,
  toCamelCase,
  toSnakeCase,
} from './gemini-request-problems.js';

/** `GenerationConfig` of @google/genai, as the REST proto names it. */
const generationFields: Record<string, 'TYPE_FLOAT' | 'TYPE_INT32' | 'TYPE_BOOL' | 'TYPE_STRING' | 'other'> =
  {
    temperature: 'TYPE_FLOAT',
    topP: 'TYPE_FLOAT',
    topK: 'TYPE_INT32',
    candidateCount: 'TYPE_INT32',
    maxOutputTokens: 'TYPE_INT32',
    presencePenalty: 'TYPE_FLOAT',
    frequencyPenalty: 'TYPE_FLOAT',
    seed: 'TYPE_INT32',
    responseLogprobs: 'TYPE_BOOL',
    logprobs: 'TYPE_INT32',
    responseMimeType: 'TYPE_STRING',
    enableEnhancedCivicAnswers: 'TYPE_BOOL',
    audioTimestamp: 'TYPE_BOOL',
    enableAffectiveDialog: 'TYPE_BOOL',
    mediaResolution: 'TYPE_STRING',
    stopSequences: 'other',
    responseSchema: 'other',
    responseJsonSchema: 'other',
    responseModalities: 'other',
    responseFormat: 'other',
    speechConfig: 'other',
    thinkingConfig: 'other',
    imageConfig: 'other',
    audioTranscriptionConfig: 'other',
    routingConfig: 'other',
    modelSelectionConfig: 'other',
    translationConfig: 'other',
  };
const thinkingLevels = ['THINKING_LEVEL_UNSPECIFIED', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH'];
/** What an image model can answer with (https://ai.google.dev/gemini-api/docs/image-generation). */
const imageModelModalities = ['TEXT', 'IMAGE', 'AUDIO'];

/**
 * https://ai.google.dev/api/generate-content#v1beta.GenerationConfig; the model (from the path)
 * decides which response modalities it takes.
 */
export function checkGenerationConfig(
  config: unknown,
  options: { model?: string } = {},
): RequestProblem | undefined {
  if (config === undefined) return undefined;
  if (!isRecord(config))
    return invalidValue(
      'generation_config',
      'type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig',
      config,
    );
  const unknown = checkKnownFields(config, Object.keys(generationFields), 'generation_config');
  if (unknown) return unknown;
  for (const [key, value] of Object.entries(config)) {
    const camel = toCamelCase(key);
    const type = generationFields[camel]!;
    const wrong =
      type === 'other' ? undefined : checkScalar(value, `generation_config.${toSnakeCase(camel)}`, type);
    if (wrong) return wrong;
  }
  const stops = config.stopSequences ?? config.stop_sequences;
  if (stops !== undefined && !(Array.isArray(stops) && stops.every((stop) => typeof stop === 'string')))
    return invalidValue('generation_config.stop_sequences', 'TYPE_STRING', stops);
  const modalities = config.responseModalities ?? config.response_modalities;
  if (isGeminiImageModel(options.model ?? '')) {
    const wrong = checkImageModelModalities(modalities);
    if (wrong) return wrong;
  }
  return checkThinkingConfig(config.thinkingConfig ?? config.thinking_config);
}

/** `responseModalities` of an image model: a list of `Modality` names it can answer with. */
function checkImageModelModalities(modalities: unknown): RequestProblem | undefined {
  if (modalities === undefined) return undefined;
  const at = 'generation_config.response_modalities';
  if (!Array.isArray(modalities)) return invalidValue(at, 'TYPE_ENUM', modalities);
  const index = modalities.findIndex(
    (modality) => typeof modality !== 'string' || !imageModelModalities.includes(modality.toUpperCase()),
  );
  return index === -1
    ? undefined
    : invalidValue(
        `${at}[${index}]`,
        'type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig.Modality',
        modalities[index],
      );
}

/** https://ai.google.dev/gemini-api/docs/thinking: a budget (2.5 models) or a level (3 models), not both. */
function checkThinkingConfig(config: unknown): RequestProblem | undefined {
  if (config === undefined) return undefined;
  if (!isRecord(config))
    return invalidValue(
      'generation_config.thinking_config',
      'type.googleapis.com/google.ai.generativelanguage.v1beta.ThinkingConfig',
      config,
    );
  const at = 'generation_config.thinking_config';
  const budget = config.thinkingBudget ?? config.thinking_budget;
  const level = config.thinkingLevel ?? config.thinking_level;
  const wrong =
    checkKnownFields(config, ['includeThoughts', 'thinkingBudget', 'thinkingLevel'], at) ??
    checkScalar(config.includeThoughts ?? config.include_thoughts, `${at}.include_thoughts`, 'TYPE_BOOL') ??
    checkScalar(budget, `${at}.thinking_budget`, 'TYPE_INT32');
  if (wrong) return wrong;
  if (level !== undefined && !thinkingLevels.includes(String(level).toUpperCase()))
    return invalidValue(`${at}.thinking_level`, 'TYPE_ENUM', level);
  if (budget !== undefined && level !== undefined)
    return { message: 'You can only set only one of thinking budget and thinking level.' };
  return undefined;
}

const toolFields = [
  'functionDeclarations',
  'googleSearch',
  'googleSearchRetrieval',
  'codeExecution',
  'urlContext',
  'retrieval',
  'googleMaps',
  'computerUse',
  'fileSearch',
  'enterpriseWebSearch',
  'mcpServers',
  'exaAiSearch',
  'parallelAiSearch',
];
const declarationFields = [
  'name',
  'description',
  'behavior',
  'parameters',
  'parametersJsonSchema',
  'response',
  'responseJsonSchema',
];
/** `Schema` of @google/genai: an OpenAPI subset; JSON Schema goes in `parametersJsonSchema`. */
const schemaFields = [
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
];
const functionName = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

/** https://ai.google.dev/api/caching#Tool */
export function checkTools(tools: unknown): RequestProblem | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools))
    return invalidValue('tools', 'type.googleapis.com/google.ai.generativelanguage.v1beta.Tool', tools);
  for (const [index, tool] of tools.entries()) {
    const at = `tools[${index}]`;
    if (!isRecord(tool))
      return invalidValue(at, 'type.googleapis.com/google.ai.generativelanguage.v1beta.Tool', tool);
    const unknown = checkKnownFields(tool, toolFields, at);
    if (unknown) return unknown;
    const declarations = tool.functionDeclarations ?? tool.function_declarations;
    if (declarations === undefined) continue;
    if (!Array.isArray(declarations))
      return invalidValue(`${at}.function_declarations`, 'FunctionDeclaration', declarations);
    for (const [position, declaration] of declarations.entries()) {
      const wrong = checkDeclaration(declaration, `${at}.function_declarations[${position}]`);
      if (wrong) return wrong;
    }
  }
  return undefined;
}

function checkDeclaration(declaration: unknown, at: string): RequestProblem | undefined {
  if (!isRecord(declaration)) return invalidValue(at, 'FunctionDeclaration', declaration);
  const unknown = checkKnownFields(declaration, declarationFields, at);
  if (unknown) return unknown;
  if (typeof declaration.name !== 'string' || declaration.name === '')
    return fieldViolation(`${at}.name`, 'Name cannot be empty.');
  if (!functionName.test(declaration.name))
    return fieldViolation(
      `${at}.name`,
      'Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.',
    );
  return declaration.parameters === undefined
    ? undefined
    : checkSchema(declaration.parameters, `${at}.parameters`);
}

function checkSchema(schema: unknown, at: string): RequestProblem | undefined {
  if (!isRecord(schema)) return invalidValue(at, 'Schema', schema);
  const unknown = checkKnownFields(schema, schemaFields, at);
  if (unknown) return unknown;
  const children: [unknown, string][] = [];
  if (isRecord(schema.properties))
    for (const [name, child] of Object.entries(schema.properties))
      children.push([child, `${at}.properties[${name}].value`]);
  if (schema.items !== undefined) children.push([schema.items, `${at}.items`]);
  if (Array.isArray(schema.anyOf))
    schema.anyOf.forEach((child, index) => children.push([child, `${at}.any_of[${index}]`]));
  for (const [child, path] of children) {
    const wrong = checkSchema(child, path);
    if (wrong) return wrong;
  }
  return undefined;
}
