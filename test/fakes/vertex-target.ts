import type { RecordedRequest } from './fake-upstream.js';

/** What a Vertex AI publisher-model call names in its path. */
export interface VertexTarget {
  /** `v1` or `v1beta1`: Vertex serves both; @google/genai uses `v1beta1` unless told otherwise. */
  apiVersion: string;
  project: string;
  region: string;
  publisher: string;
  model: string;
  method: string;
}

const modelPath =
  /^\/(v1|v1beta1)\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/([^/]+)\/models\/([^/:]+):([A-Za-z]+)$/;

/**
 * `POST /{version}/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{method}`
 * (https://cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.publishers.models),
 * each segment percent-decoded.
 */
export function vertexTarget(request: RecordedRequest): VertexTarget | undefined {
  const match = modelPath.exec(request.path);
  if (request.method !== 'POST' || !match) return undefined;
  const [, apiVersion = '', project = '', region = '', publisher = '', model = '', method = ''] = match;
  try {
    return {
      apiVersion,
      project: decodeURIComponent(project),
      region: decodeURIComponent(region),
      publisher: decodeURIComponent(publisher),
      model: decodeURIComponent(model),
      method,
    };
  } catch {
    return undefined;
  }
}

/** The resource name Google's errors quote. */
export function vertexResourceName(target: VertexTarget): string {
  return `projects/${target.project}/locations/${target.region}/publishers/${target.publisher}/models/${target.model}`;
}
