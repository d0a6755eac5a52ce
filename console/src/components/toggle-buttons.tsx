import { Button, Group, Text } from '@mantine/core';
import { useId } from 'react';

export interface ToggleOption<Value extends string> {
  value: Value;
  label: string;
}

/**
 * A choice among a few options as a row of buttons, the chosen one pressed (`aria-pressed`):
 * each option is a real button with its own visible name, easy to click and to find.
 */
export function ToggleButtons<Value extends string>({
  label,
  labelClassName,
  options,
  value,
  onChange,
}: {
  label: string;
  /** Lets the caption hide on small screens (the buttons stay named). */
  labelClassName?: string;
  options: readonly ToggleOption<Value>[];
  value: string;
  onChange: (value: Value) => void;
}) {
  const labelId = useId();
  return (
    <Group gap={6} wrap="nowrap" role="group" aria-labelledby={labelId}>
      <Text id={labelId} size="sm" className={labelClassName}>
        {label}
      </Text>
      <Button.Group>
        {options.map((option) => (
          <Button
            key={option.value}
            size="compact-sm"
            variant={option.value === value ? 'filled' : 'default'}
            aria-pressed={option.value === value}
            onClick={() => onChange(option.value)}
          >
            {option.label}
          </Button>
        ))}
      </Button.Group>
    </Group>
  );
}
