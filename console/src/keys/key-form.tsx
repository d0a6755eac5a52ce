import { Button, Checkbox, Group, NativeSelect, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { KeyScope } from '../api/keys-api';
import type { ApiKey, KeyFields, User } from '../api/types';
import { BudgetsEditor } from '../budgets/budgets-editor';
import { MaxConcurrencyInput } from '../budgets/max-concurrency-input';
import { useSpendLimitErrors } from '../budgets/use-spend-limit-errors';
import { withoutErrorsUnder } from '../budgets/without-errors-under';
import { ErrorAlert } from '../components/error-alert';
import { ListInput } from '../components/list-input';
import { formValuesToKeyFields, keyChanges, keyToFormValues, type KeyFormValues } from './key-form-values';
import { LOG_BODIES_CHOICES } from './log-bodies-choice';

export type KeySubmission =
  | { kind: 'create'; fields: KeyFields; userId: number | undefined }
  | { kind: 'update'; id: number; changes: Partial<KeyFields> };

/**
 * Every key attribute of admin-api sections 2 and 10, and for admins whether its bodies are stored
 * (section 12). `owners` (admins creating a key) adds the choice of the user the key belongs to.
 */
export function KeyForm({
  scope,
  apiKey,
  owners,
  defaultOwner,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  scope: KeyScope;
  apiKey?: ApiKey;
  owners?: readonly User[];
  defaultOwner?: number;
  pending: boolean;
  error: unknown;
  onSubmit: (submission: KeySubmission) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const initial = keyToFormValues(apiKey);
  const choosesOwner = owners !== undefined && apiKey === undefined;
  const spendLimitErrors = useSpendLimitErrors();
  const atLeastOne = (value: number | string) =>
    value !== '' && Number(value) < 1 ? t('common.mustBeAtLeast', { min: 1 }) : null;
  const form = useForm<KeyFormValues>({
    initialValues: {
      ...initial,
      userId: choosesOwner ? String(defaultOwner ?? owners[0]?.id ?? '') : initial.userId,
    },
    validate: (values) => ({
      userId: choosesOwner && values.userId === '' ? t('common.required') : null,
      quota:
        !values.unlimitedQuota && (values.quota === '' || Number(values.quota) < 0)
          ? t('common.mustBeAtLeast', { min: 0 })
          : null,
      rpm: atLeastOne(values.rpm),
      tpm: atLeastOne(values.tpm),
      ...spendLimitErrors(values),
    }),
  });
  const { values } = form;
  const submit = (submitted: KeyFormValues) => {
    if (apiKey) {
      return onSubmit({
        kind: 'update',
        id: apiKey.id,
        changes: keyChanges({ scope, initial, values: submitted }),
      });
    }
    onSubmit({
      kind: 'create',
      fields: formValuesToKeyFields(submitted, scope),
      userId: choosesOwner ? Number(submitted.userId) : undefined,
    });
  };
  const limit = { allowDecimal: false, allowNegative: false, min: 1, thousandSeparator: false } as const;
  return (
    <form noValidate onSubmit={form.onSubmit(submit)}>
      <Stack gap="sm">
        {choosesOwner && (
          <NativeSelect
            label={t('keys.user')}
            required
            data={owners.map((owner) => ({
              value: String(owner.id),
              label: `${owner.username} (#${owner.id})`,
            }))}
            {...form.getInputProps('userId')}
          />
        )}
        <Group grow align="flex-start">
          <TextInput label={t('keys.name')} autoComplete="off" {...form.getInputProps('name')} />
          <NativeSelect
            label={t('keys.status')}
            data={(['enabled', 'disabled'] as const).map((status) => ({
              value: status,
              label: t(`status.${status}`),
            }))}
            {...form.getInputProps('status')}
          />
        </Group>
        <TextInput
          type="datetime-local"
          label={t('keys.expiresAt')}
          description={t('keys.expiresHint')}
          {...form.getInputProps('expiresAt')}
        />
        <Checkbox
          label={t('keys.unlimitedQuota')}
          {...form.getInputProps('unlimitedQuota', { type: 'checkbox' })}
        />
        <NumberInput
          label={t('keys.quota')}
          description={t('keys.quotaHint')}
          disabled={values.unlimitedQuota}
          min={0}
          decimalScale={9}
          allowNegative={false}
          thousandSeparator={false}
          {...form.getInputProps('quota')}
        />
        <ListInput
          label={t('keys.modelLimits')}
          description={t('keys.modelLimitsHint')}
          value={values.modelLimits}
          onChange={(list) => form.setFieldValue('modelLimits', list)}
        />
        <ListInput
          label={t('keys.ipAllowList')}
          description={t('keys.ipAllowListHint')}
          value={values.ipAllowList}
          onChange={(list) => form.setFieldValue('ipAllowList', list)}
        />
        <TextInput
          label={t('keys.group')}
          description={t('keys.groupHint')}
          {...form.getInputProps('group')}
        />
        {scope === 'admin' && (
          <NativeSelect
            label={t('keys.logBodies')}
            description={t('keys.logBodiesHint')}
            data={LOG_BODIES_CHOICES.map((choice) => ({
              value: choice,
              label: t(`keys.logBodiesChoices.${choice}`),
            }))}
            {...form.getInputProps('logBodies')}
          />
        )}
        <Group grow align="flex-start">
          <NumberInput
            label={t('keys.rpm')}
            description={t('keys.limitHint')}
            {...limit}
            {...form.getInputProps('rpm')}
          />
          <NumberInput
            label={t('keys.tpm')}
            description={t('keys.limitHint')}
            {...limit}
            {...form.getInputProps('tpm')}
          />
        </Group>
        <MaxConcurrencyInput {...form.getInputProps('maxConcurrency')} />
        <BudgetsEditor
          rows={values.budgets}
          errors={form.errors}
          onChange={(rows) => {
            form.setFieldValue('budgets', rows);
            form.setErrors(withoutErrorsUnder('budgets'));
          }}
        />
        {Boolean(error) && <ErrorAlert error={error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {apiKey ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
