import { Button, Group, NativeSelect, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { AccountStatus, Language, Role, User, UserFields } from '../api/types';
import { ErrorAlert } from '../components/error-alert';
import { isSupportedLanguage } from '../i18n/supported-languages';

interface UserFormValues {
  username: string;
  password: string;
  role: Role;
  group: string;
  balance: number | string;
  language: Language | '';
  status: AccountStatus;
}

export type UserSubmission =
  { kind: 'create'; fields: UserFields } | { kind: 'update'; id: number; changes: Partial<UserFields> };

/**
 * A new user, or an existing one's username, password (empty: unchanged), role, group, language
 * and status. The balance is set on creation; later it changes by top-up.
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
  const form = useForm<UserFormValues>({
    initialValues: {
      username: user?.username ?? '',
      password: '',
      role: user?.role ?? 'user',
      group: user?.group ?? 'default',
      balance: user?.balance ?? 0,
      language: user?.language ?? '',
      status: user?.status ?? 'enabled',
    },
    validate: {
      username: (value) => (value.trim() === '' ? t('common.required') : null),
      group: (value) => (value.trim() === '' ? t('common.required') : null),
      balance: (value) => (value === '' ? t('common.required') : null),
    },
  });
  const submit = (values: UserFormValues) => {
    const fields: UserFields = {
      username: values.username.trim(),
      role: values.role,
      group: values.group.trim(),
      balance: Number(values.balance),
      language: values.language === '' ? null : values.language,
      status: values.status,
      ...(values.password === '' ? {} : { password: values.password }),
    };
    if (!user) return onSubmit({ kind: 'create', fields });
    const { balance: _balance, ...changes } = fields;
    onSubmit({ kind: 'update', id: user.id, changes });
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
