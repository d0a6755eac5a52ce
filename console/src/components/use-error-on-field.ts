import { useEffect } from 'react';
import { ApiError } from '../api/api-error';

/**
 * Shows a refusal of the gateway on the form field it names: an `ApiError` whose `param` maps to a
 * field path (through `pathOfParam`) sets that field's error to the gateway's message.
 */
export function useErrorOnField(
  error: unknown,
  pathOfParam: (param: string) => string | undefined,
  setFieldError: (path: string, message: string) => void,
): void {
  useEffect(() => {
    if (!(error instanceof ApiError) || error.param === undefined) return;
    const path = pathOfParam(error.param);
    if (path !== undefined) setFieldError(path, error.message);
  }, [error, pathOfParam, setFieldError]);
}
