/**
 * Who publishes a model on Vertex AI: Claude models are Anthropic's (served through `rawPredict`,
 * https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude), every other model
 * here is Google's (`generateContent`).
 */
export function vertexPublisherOf(upstreamModel: string): 'anthropic' | 'google' {
  return upstreamModel.startsWith('claude-') ? 'anthropic' : 'google';
}

/**
 * `/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{method}`
 * (https://cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.publishers.models).
 * Each segment is percent-encoded, except `@`: Vertex names versions `claude-sonnet-4@20250514`,
 * and both @anthropic-ai/vertex-sdk and @google/genai send the `@` as it is. `method` may carry a
 * query (`streamGenerateContent?alt=sse`).
 */
export function vertexModelPath(options: {
  project: string;
  region: string;
  upstreamModel: string;
  method: string;
}): string {
  const { project, region, upstreamModel, method } = options;
  const publisher = vertexPublisherOf(upstreamModel);
  return `/v1/projects/${encodeSegment(project)}/locations/${encodeSegment(region)}/publishers/${publisher}/models/${encodeSegment(upstreamModel)}:${method}`;
}

/** A region is one DNS label: it becomes part of a host name, so nothing else may pass. */
const regionPattern = /^[a-z][a-z0-9-]{0,62}$/;

/**
 * The regional endpoint (https://cloud.google.com/vertex-ai/docs/general/locations#available-regions):
 * `https://{region}-aiplatform.googleapis.com`; the `global` location has no region prefix, and
 * the multi-regions `us` and `eu` have their own hosts, as both SDKs use them.
 */
export function vertexOrigin(region: string): string {
  if (!regionPattern.test(region)) throw new Error(`Invalid Vertex AI region ${JSON.stringify(region)}`);
  if (region === 'global') return 'https://aiplatform.googleapis.com';
  if (region === 'us' || region === 'eu') return `https://aiplatform.${region}.rep.googleapis.com`;
  return `https://${region}-aiplatform.googleapis.com`;
}

function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/%40/g, '@');
}
