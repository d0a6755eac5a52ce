import { catalogue, renderMessage, type ErrorName, type Language } from './catalogue.js';

/**
 * An error the gateway raises itself. It carries a catalogue name and parameters, not text:
 * the route group renders it once, in the caller's language and protocol shape.
 */
export class GatewayError extends Error {
  readonly status: number;
  readonly code: string;
  readonly type: string;
  readonly retryable: boolean;
  /** Family A shape on every endpoint: see `CatalogueEntry.selection`. */
  readonly selection: boolean;
  readonly headers: Record<string, string>;

  constructor(
    readonly errorName: ErrorName,
    readonly params: Record<string, string | number> = {},
    options: { headers?: Record<string, string>; param?: string } = {},
  ) {
    const entry = catalogue[errorName];
    super(renderMessage(entry, 'en', params));
    this.name = 'GatewayError';
    this.status = entry.status;
    this.code = entry.code;
    this.type = 'type' in entry ? entry.type : 'gateway_api_error';
    this.retryable = 'retryable' in entry ? entry.retryable : false;
    this.selection = 'selection' in entry ? entry.selection : false;
    this.headers = options.headers ?? {};
    this.param = options.param ?? '';
  }

  readonly param: string;

  localizedMessage(language: Language): string {
    return renderMessage(catalogue[this.errorName], language, this.params);
  }
}
