import { Button, Group, NativeSelect, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { User, UserFields } from '../api/types';
import { BudgetsEditor } from '../budgets/budgets-editor';
import { MaxConcurrencyInput } from '../budgets/max-concurrency-input';
import { useSpendLimitErrors } from '../budgets/use-spend-limit-errors';
import { withoutErrorsUnder } from '../budgets/without-errors-under';
import { ErrorAlert } from '../components/error-alert';
import { isSupportedLanguage } from '../i18n/supported-languages';
import {
  formValuesToUserFields,
  userChanges,
  userToFormValues,
  type UserFormValues,
} from './user-form-values';

export type UserSubmission =
  { kind: 'create'; fields: UserFields } | { kind: 'update'; id: number; changes: Partial<UserFields> };

/**
 * A new user, or an existing one's username, password (empty: unchanged), role, group, language,
 * status and spend limits. The balance is set on creation; later it changes by top-up.
 */
export function UserForm({
  user,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  user?: User;
  pending: boolean;
  error: unknown;
  onSubmit: (submission: UserSubmission) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const spendLimitErrors = useSpendLimitErrors();
  const initial = userToFormValues(user);
  const form = useForm<UserFormValues>({
    initialValues: initial,
    validate: (values) => ({
      username: values.username.trim() === '' ? t('common.required') : null,
      group: values.group.trim() === '' ? t('common.required') : null,
      balance: values.balance === '' ? t('common.required') : null,
      lowBalanceAlert:
        values.lowBalanceAlert !== '' && !(Number(values.lowBalanceAlert) >= 0)
          ? t('common.mustBeAtLeast', { min: 0 })
          : null,
      ...spendLimitErrors(values),
    }),
  });
  const submit = (values: UserFormValues) => {
    if (!user) return onSubmit({ kind: 'create', fields: formValuesToUserFields(values) });
    onSubmit({ kind: 'update', id: user.id, changes: userChanges(initial, values) });
  };
  return (
    <form noValidate onSubmit={form.onSubmit(submit)}>
      <Stack gap="sm">
        <TextInput
          label={t('users.username')}
          required
          autoComplete="off"
          {...form.getInputProps('username')}
        />
        <TextInput
          type="password"
          label={t('users.password')}
          description={user ? t('users.passwordKeep') : t('users.passwordHint')}
          autoComplete="new-password"
          {...form.getInputProps('password')}
        />
        <Group grow align="flex-start">
          <NativeSelect
            label={t('users.role')}
            data={(['user', 'admin'] as const).map((role) => ({ value: role, label: t(`roles.${role}`) }))}
            {...form.getInputProps('role')}
          />
          <NativeSelect
            label={t('users.status')}
            data={(['enabled', 'disabled'] as const).map((status) => ({
              value: status,
              label: t(`status.${status}`),
            }))}
            {...form.getInputProps('status')}
          />
        </Group>
        <Group grow align="flex-start">
          <TextInput label={t('users.group')} required {...form.getInputProps('group')} />
          <NativeSelect
            label={t('users.language')}
            data={[
              { value: '', label: t('languages.none') },
              { value: 'en', label: t('languages.en') },
              { value: 'zh-CN', label: t('languages.zh-CN') },
            ]}
            value={form.values.language}
            onChange={(event) => {
              const value = event.currentTarget.value;
              form.setFieldValue('language', isSupportedLanguage(value) ? value : '');
            }}
          />
        </Group>
        {!user && (
          <NumberInput
            label={t('users.balance')}
            min={0}
            decimalScale={9}
            thousandSeparator={false}
            {...form.getInputProps('balance')}
          />
        )}
        <NumberInput
          label={t('users.lowBalanceAlert')}
          description={t('users.lowBalanceAlertHint')}
          min={0}
          decimalScale={9}
          allowNegative={false}
          thousandSeparator={false}
          {...form.getInputProps('lowBalanceAlert')}
        />
        <MaxConcurrencyInput {...form.getInputProps('maxConcurrency')} />
        <BudgetsEditor
          rows={form.values.budgets}
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
            {user ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
