import type { ConfigChange } from './apply-config-file.js';

const MARKS: Record<ConfigChange['action'], string> = {
  create: '+',
  change: '~',
  delete: '-',
  manage: '=',
  release: '=',
};

const NOTES: Partial<Record<ConfigChange['action'], string>> = {
  manage: '  (made through the API; managed by the file from now on)',
  release: '  (no longer in the file; writable through the API again)',
};

/**
 * What an apply does, for a person to read (`config plan` and `config apply`): each kind, then
 * each entity marked `+` created, `~` changed (with each member before and after), `-` deleted,
 * `=` changing hands, and a count at the end.
 */
export function describeChanges(changes: readonly ConfigChange[]): string {
  if (changes.length === 0) return 'No changes: the database already is what the file declares.\n';
  const lines: string[] = [];
  let kind: string | undefined;
  for (const change of changes) {
    if (change.kind !== kind) {
      kind = change.kind;
      lines.push(kind);
    }
    lines.push(`  ${MARKS[change.action]} ${change.key}${NOTES[change.action] ?? ''}`);
    for (const { member, before, after } of change.members ?? [])
      lines.push(`      ${member}: ${shown(before)} -> ${shown(after)}`);
  }
  const count = (action: ConfigChange['action']) =>
    changes.filter((change) => change.action === action).length;
  const handed = count('manage') + count('release');
  lines.push(
    '',
    `${count('create')} to create, ${count('change')} to change, ${count('delete')} to delete` +
      (handed > 0 ? `, ${handed} changing hands.` : '.'),
  );
  return `${lines.join('\n')}\n`;
}

function shown(value: unknown): string {
  return value === undefined ? 'null' : JSON.stringify(value);
}
