import type { FormErrors } from '@mantine/form';

/**
 * Mantine clears only the error of the path a change is made at; an edit of a list replaces the
 * whole list, so the errors of its items are dropped with this.
 */
export function withoutErrorsUnder(path: string): (errors: FormErrors) => FormErrors {
  return (errors) =>
    Object.fromEntries(Object.entries(errors).filter(([name]) => !name.startsWith(`${path}.`)));
}
