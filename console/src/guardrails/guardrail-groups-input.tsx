import { Chip, Group, Stack, Switch, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListInput } from '../components/list-input';

/**
 * The groups a guardrail checks: every group (`null`), or the ones listed. Group names are typed
 * (a group needs no settings to exist); the groups the gateway has settings for are offered as chips.
 */
export function GuardrailGroupsInput({
  allGroups,
  groups,
  knownGroups,
  onChange,
  error,
}: {
  allGroups: boolean;
  groups: string[];
  knownGroups: readonly string[];
  onChange: (change: { allGroups: boolean; groups: string[] }) => void;
  error?: ReactNode;
}) {
  const { t } = useTranslation();
  const toggle = (group: string) =>
    onChange({
      allGroups,
      groups: groups.includes(group) ? groups.filter((name) => name !== group) : [...groups, group],
    });
  return (
    <Stack gap={6}>
      <Switch
        label={t('guardrails.allGroups')}
        description={t('guardrails.allGroupsHint')}
        checked={allGroups}
        onChange={(event) => onChange({ allGroups: event.currentTarget.checked, groups })}
      />
      {!allGroups && (
        <>
          <ListInput
            label={t('guardrails.groups')}
            description={t('guardrails.groupsHint')}
            required
            value={groups}
            onChange={(list) => onChange({ allGroups, groups: list })}
            error={error}
          />
          {knownGroups.length > 0 && (
            <Group gap={6} align="center">
              <Text size="xs" c="dimmed">
                {t('guardrails.knownGroups')}
              </Text>
              {knownGroups.map((group) => (
                <Chip key={group} size="xs" checked={groups.includes(group)} onChange={() => toggle(group)}>
                  {group}
                </Chip>
              ))}
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
