import { Button, Group, NumberInput, Paper, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { putGroup } from '../api/groups-api';
import { queryKeys } from '../api/query-keys';
import type { Group as GatewayGroup, GroupFields } from '../api/types';
import { BudgetsEditor } from '../budgets/budgets-editor';
import { MaxConcurrencyInput } from '../budgets/max-concurrency-input';
import { useSpendLimitErrors } from '../budgets/use-spend-limit-errors';
import { withoutErrorsUnder } from '../budgets/without-errors-under';
import { ErrorAlert } from '../components/error-alert';
import { notifySuccess } from '../components/notify';
import { formValuesToGroupFields, groupToFormValues, type GroupFormValues } from './group-form-values';

/** Sets one group's price multiplier, spend limits and body logging; a new name creates the group. */
export function GroupForm({ selected }: { selected: GatewayGroup | undefined }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const spendLimitErrors = useSpendLimitErrors();
  const form = useForm<GroupFormValues>({
    initialValues: groupToFormValues(),
    validate: (values) => ({
      name: values.name.trim() === '' ? t('common.required') : null,
      ratio: values.ratio === '' || Number(values.ratio) < 0 ? t('common.mustBeAtLeast', { min: 0 }) : null,
      ...spendLimitErrors(values),
    }),
  });
  const { setValues, setErrors } = form;
  useEffect(() => {
    if (!selected) return;
    setValues(groupToFormValues(selected));
    setErrors({});
  }, [selected, setValues, setErrors]);
  const save = useMutation({
    mutationFn: ({ name, fields }: { name: string; fields: GroupFields }) => putGroup(name, fields),
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
          save.mutate({ name: values.name.trim(), fields: formValuesToGroupFields(values) }),
        )}
      >
        <Stack gap="sm">
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
            <MaxConcurrencyInput {...form.getInputProps('maxConcurrency')} className="grow" />
          </Group>
          <Switch
            label={t('groups.logBodies')}
            description={t('groups.logBodiesHint')}
            {...form.getInputProps('logBodies', { type: 'checkbox' })}
          />
          <BudgetsEditor
            rows={form.values.budgets}
            errors={form.errors}
            onChange={(rows) => {
              form.setFieldValue('budgets', rows);
              form.setErrors(withoutErrorsUnder('budgets'));
            }}
          />
          {Boolean(save.error) && <ErrorAlert error={save.error} />}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
