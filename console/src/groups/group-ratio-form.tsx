import { Button, Group, NumberInput, Paper, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { putGroup } from '../api/groups-api';
import { queryKeys } from '../api/query-keys';
import type { Group as GatewayGroup } from '../api/types';
import { ErrorAlert } from '../components/error-alert';
import { notifySuccess } from '../components/notify';

/** Sets one group's price multiplier; a new name creates the group. */
export function GroupRatioForm({ selected }: { selected: GatewayGroup | undefined }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<{ name: string; ratio: number | string }>({
    initialValues: { name: '', ratio: 1 },
    validate: {
      name: (value) => (value.trim() === '' ? t('common.required') : null),
      ratio: (value) => (value === '' || Number(value) < 0 ? t('common.mustBeAtLeast', { min: 0 }) : null),
    },
  });
  const { setValues } = form;
  useEffect(() => {
    if (selected) setValues({ name: selected.name, ratio: selected.ratio });
  }, [selected, setValues]);
  const save = useMutation({
    mutationFn: ({ name, ratio }: { name: string; ratio: number }) => putGroup(name, ratio),
    onSuccess: (group) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.groups });
      notifySuccess(t('groups.saved', { name: group.name }));
    },
  });
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        {t('groups.add')}
      </Title>
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          save.mutate({ name: values.name.trim(), ratio: Number(values.ratio) }),
        )}
      >
        {Boolean(save.error) && <ErrorAlert error={save.error} />}
        <Group align="flex-end" gap="sm">
          <TextInput label={t('groups.name')} required {...form.getInputProps('name')} className="grow" />
          <NumberInput
            label={t('groups.ratio')}
            required
            min={0}
            decimalScale={6}
            allowNegative={false}
            thousandSeparator={false}
            {...form.getInputProps('ratio')}
            className="grow"
          />
          <Button type="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
