import { Textarea } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { splitList } from './split-list';

export interface ListInputProps {
  label: string;
  description?: ReactNode;
  placeholder?: string;
  value: string[];
  onChange: (value: string[]) => void;
  error?: unknown;
  required?: boolean;
  disabled?: boolean;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/**
 * A list of short values (model IDs, groups, CIDR ranges) as plain text, separated by commas,
 * spaces or new lines: one field to fill, for people and for browser tests alike. The text is
 * kept as typed; the list it holds is what the form sees.
 */
export function ListInput({ value, onChange, error, ...props }: ListInputProps) {
  const [text, setText] = useState(() => value.join(', '));
  useEffect(() => {
    // A change from outside (reset, another value loaded) replaces the text; typing does not.
    setText((current) => (sameList(splitList([current]), value) ? current : value.join(', ')));
  }, [value]);
  return (
    <Textarea
      {...props}
      value={text}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        onChange(splitList([next]));
      }}
      error={typeof error === 'string' ? error : undefined}
      rows={2}
      resize="vertical"
      spellCheck={false}
      autoComplete="off"
    />
  );
}
