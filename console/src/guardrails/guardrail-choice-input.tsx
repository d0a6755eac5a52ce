import { Radio, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One of a guardrail's enumerated members (kind, action, failure mode) as radio buttons, each with
 * what it does. A newer gateway's value stays chosen and shown, so opening the form changes nothing.
 */
export function GuardrailChoiceInput({
  label,
  known,
  value,
  onChange,
  labelOf,
  hintOf,
  error,
}: {
  label: string;
  known: readonly string[];
  value: string;
  onChange: (value: string) => void;
  labelOf: (choice: string) => string;
  /** Undefined for a value this console does not know. */
  hintOf: (choice: string) => string | undefined;
  error?: ReactNode;
}) {
  const choices = known.includes(value) ? known : [...known, value];
  return (
    <Radio.Group label={label} value={value} onChange={onChange} error={error}>
      <Stack gap={6} mt={6}>
        {choices.map((choice) => {
          const hint = hintOf(choice);
          return (
            <Radio
              key={choice}
              value={choice}
              label={labelOf(choice)}
              {...(hint === undefined ? {} : { description: hint })}
            />
          );
        })}
      </Stack>
    </Radio.Group>
  );
}
