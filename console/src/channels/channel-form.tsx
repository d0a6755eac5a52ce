import { Button, Checkbox, Group, NativeSelect, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { Channel, ChannelFields } from '../api/types';
import { ErrorAlert } from '../components/error-alert';
import { ListInput } from '../components/list-input';
import { ChannelConfigFields } from './channel-config-fields';
import {
  channelChanges,
  channelToFormValues,
  emptyConfig,
  formValuesToChannelFields,
  type ChannelFormValues,
} from './channel-form-values';
import { ChannelKeysInput } from './channel-keys-input';
import { CHANNEL_TYPES, channelTypeSpec, ENDPOINT_TYPES, isChannelType } from './channel-types';
import { defaultBaseUrl } from './default-base-url';
import { ModelMappingInput } from './model-mapping-input';
import { useEndpointTypeLabel } from './use-endpoint-type-label';
import { validateChannelForm, type ChannelFormProblem } from './validate-channel-form';

export type ChannelSubmission =
  { kind: 'create'; fields: ChannelFields } | { kind: 'update'; id: number; changes: Partial<ChannelFields> };

export interface ChannelFormProps {
  /** Absent: a new channel. */
  channel?: Channel;
  pending: boolean;
  error: unknown;
  onSubmit: (submission: ChannelSubmission) => void;
  onCancel: () => void;
}

/** Every field of every channel type, `config` included; an edit sends only what changed. */
export function ChannelForm({ channel, pending, error, onSubmit, onCancel }: ChannelFormProps) {
  const { t } = useTranslation();
  const endpointTypeLabel = useEndpointTypeLabel();
  const editing = channel !== undefined;
  const initial = channelToFormValues(channel);
  const describe = (problem: ChannelFormProblem): string => {
    switch (problem.problem) {
      case 'required':
        return t('common.required');
      case 'url':
        return t('channels.baseUrlHint');
      case 'integer':
        return problem.min === undefined
          ? t('common.mustBeNumber')
          : t('common.mustBeAtLeast', { min: problem.min });
      case 'baseUrlRequired':
        return t('channels.baseUrlRequired', { example: problem.example });
      default: {
        const unknown: never = problem;
        return String(unknown);
      }
    }
  };
  const form = useForm<ChannelFormValues>({
    initialValues: initial,
    validate: (values) =>
      Object.fromEntries(
        validateChannelForm(values, { editing }).map((problem) => [problem.field, describe(problem)]),
      ),
  });
  const { values } = form;
  const spec = channelTypeSpec(values.type);
  const fallbackUrl = defaultBaseUrl(values.type, values.config);
  const typeOptions = [
    ...CHANNEL_TYPES.map((type) => ({ value: type, label: `${t(`channelTypes.${type}`)} (${type})` })),
    ...(isChannelType(values.type) ? [] : [{ value: values.type, label: values.type }]),
  ];
  const configErrors = Object.fromEntries(
    spec.config.map((field) => [field.name, form.errors[`config.${field.name}`]?.toString()]),
  );
  return (
    <form
      onSubmit={form.onSubmit((submitted) =>
        onSubmit(
          channel
            ? { kind: 'update', id: channel.id, changes: channelChanges(initial, submitted) }
            : { kind: 'create', fields: formValuesToChannelFields(submitted) },
        ),
      )}
      noValidate
    >
      <Stack gap="md">
        <TextInput label={t('channels.name')} required {...form.getInputProps('name')} />
        <Group grow align="flex-start">
          <NativeSelect
            label={t('channels.type')}
            data={typeOptions}
            value={values.type}
            onChange={(event) => {
              const type = event.currentTarget.value;
              form.setFieldValue('type', type);
              form.setFieldValue('config', emptyConfig(type));
            }}
          />
          <NativeSelect
            label={t('channels.status')}
            data={(['enabled', 'disabled', 'auto_disabled'] as const).map((status) => ({
              value: status,
              label: t(`status.${status}`),
            }))}
            {...form.getInputProps('status')}
          />
        </Group>
        <TextInput
          label={t('channels.baseUrl')}
          description={
            fallbackUrl === null
              ? t('channels.baseUrlHint')
              : `${t('channels.baseUrlHint')} ${t('common.default', { value: fallbackUrl })}`
          }
          placeholder={fallbackUrl ?? spec.baseUrlExample ?? ''}
          required={spec.defaultBaseUrl === null}
          inputMode="url"
          {...form.getInputProps('baseUrl')}
        />
        <ChannelConfigFields
          spec={spec}
          values={values.config}
          errors={configErrors}
          onChange={(name, value) => form.setFieldValue('config', { ...values.config, [name]: value })}
        />
        <ChannelKeysInput
          spec={spec}
          keys={values.keys}
          onChange={(keys) => form.setFieldValue('keys', keys)}
          {...(editing ? { storedKeys: channel.keys } : {})}
          replaceKeys={values.replaceKeys}
          onReplaceKeysChange={(replace) => form.setFieldValue('replaceKeys', replace)}
          error={form.errors['keys']?.toString()}
        />
        <ListInput
          label={t('channels.models')}
          description={t('channels.modelsHint')}
          value={values.models}
          onChange={(models) => form.setFieldValue('models', models)}
        />
        <ModelMappingInput rows={values.mapping} onChange={(rows) => form.setFieldValue('mapping', rows)} />
        <ListInput
          label={t('channels.groups')}
          description={t('channels.groupsHint')}
          value={values.groups}
          onChange={(groups) => form.setFieldValue('groups', groups)}
          error={form.errors['groups']}
          required
        />
        <Group grow align="flex-start">
          <NumberInput
            label={t('channels.priority')}
            description={t('channels.priorityHint')}
            allowDecimal={false}
            {...form.getInputProps('priority')}
          />
          <NumberInput
            label={t('channels.weight')}
            description={t('channels.weightHint')}
            allowDecimal={false}
            allowNegative={false}
            min={0}
            {...form.getInputProps('weight')}
          />
        </Group>
        <Checkbox
          label={t('channels.overrideEndpoints')}
          description={t('channels.endpointsDerived', {
            list: spec.endpointTypes(values.models[0] ?? '').join(', ') || '—',
          })}
          {...form.getInputProps('overrideEndpoints', { type: 'checkbox' })}
        />
        {values.overrideEndpoints && (
          <Checkbox.Group label={t('channels.endpoints')} {...form.getInputProps('endpoints')}>
            <Group gap="sm" mt={4}>
              {ENDPOINT_TYPES.map((endpoint) => (
                <Checkbox key={endpoint} value={endpoint} label={endpointTypeLabel(endpoint)} />
              ))}
            </Group>
          </Checkbox.Group>
        )}
        {Boolean(error) && <ErrorAlert error={error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {editing ? t('common.save') : t('common.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
